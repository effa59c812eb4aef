package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code _near_duplicates}: computes all near-duplicate groups of an index for any k (through
 * {@link GroupsComputation}) and returns one page of them, sorted by representative.
 */
public class TransportNearDuplicateGroupsAction extends HandledTransportAction<NearDuplicateGroupsRequest, NearDuplicateGroupsResponse> {

    private final ClusterService clusterService;
    private final IndexNameExpressionResolver resolver;
    private final GroupsComputation computation;

    @Inject
    public TransportNearDuplicateGroupsAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ClusterService clusterService,
        NodeClient client,
        IndexNameExpressionResolver resolver,
        ThreadPool threadPool,
        NearDuplicateEngine engine
    ) {
        super(NearDuplicateGroupsAction.NAME, transportService, actionFilters, NearDuplicateGroupsRequest::new);
        this.clusterService = clusterService;
        this.resolver = resolver;
        this.computation = new GroupsComputation(client, threadPool, engine::breaker, () -> clusterService.localNode().getId());
    }

    /** The one index a groups request names, or a 400. */
    static IndexMetadata singleIndex(ClusterState state, IndexNameExpressionResolver resolver, IndicesRequest request, String api) {
        String[] concrete = resolver.concreteIndexNames(state, request);
        if (concrete.length != 1) {
            throw new IllegalArgumentException(
                "[" + api + "] needs exactly one index, [" + String.join(",", request.indices()) + "] resolves to " + concrete.length
            );
        }
        return state.metadata().index(concrete[0]);
    }

    @Override
    protected void doExecute(Task task, NearDuplicateGroupsRequest request, ActionListener<NearDuplicateGroupsResponse> listener) {
        long start = System.nanoTime();
        try {
            IndexMetadata index = singleIndex(clusterService.state(), resolver, request, "_near_duplicates");
            NearDuplicateGroupsTask groupsTask = (NearDuplicateGroupsTask) task;
            computation.run(
                groupsTask,
                index,
                request.field(),
                request.maxDistance(),
                groupsTask,
                ActionListener.map(listener, result -> page(index.getIndex().getName(), request, result, start))
            );
        } catch (Exception e) {
            listener.onFailure(e);
        }
    }

    static NearDuplicateGroupsResponse page(String index, NearDuplicateGroupsRequest request, GroupsComputation.Result result, long start) {
        List<NearDuplicateGroupsResponse.Group> page = new ArrayList<>();
        String nextAfter = null;
        for (GroupsComputation.Group g : result.groups()) {
            if (request.after() != null && g.representative().compareTo(request.after()) <= 0) continue;
            if (page.size() < request.size()) {
                List<GroupsComputation.Member> members = g.members().size() > request.maxMembers()
                    ? new ArrayList<>(g.members().subList(0, request.maxMembers()))
                    : g.members();
                page.add(new NearDuplicateGroupsResponse.Group(g.representative(), g.members().size(), g.verifiedPairs(), members));
            } else {
                nextAfter = page.isEmpty() ? null : page.get(page.size() - 1).representative();
                break;
            }
        }
        return new NearDuplicateGroupsResponse(
            index,
            request.field(),
            result.maxDistance(),
            (System.nanoTime() - start) / 1_000_000,
            result.docs(),
            result.comparisons(),
            result.verifiedPairs(),
            result.groups().size(),
            result.docsInGroups(),
            result.plan(),
            page,
            nextAfter
        );
    }
}
