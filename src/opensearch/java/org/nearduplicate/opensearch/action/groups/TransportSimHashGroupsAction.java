package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.metadata.Metadata;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.common.regex.Regex;
import org.opensearch.core.action.ActionListener;
import org.opensearch.indices.IndicesService;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import org.nearduplicate.opensearch.common.FieldMappings;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.groups.Grouping;
import org.nearduplicate.orchestration.groups.GroupsChecks;
import org.nearduplicate.orchestration.groups.GroupsPage;
import org.nearduplicate.orchestration.groups.RunSummary;

/**
 * {@code _near_duplicates}: computes all near-duplicate groups of an index for any k (through
 * {@link GroupsComputation}) and returns one page of them, sorted by representative.
 */
public class TransportSimHashGroupsAction extends HandledTransportAction<SimHashGroupsRequest, SimHashGroupsResponse> {

    // the write-back action runs with these too
    final ClusterService clusterService;
    final IndexNameExpressionResolver resolver;
    final IndicesService indicesService;
    final GroupsComputation computation;
    final SketchingService sketching;

    @Inject
    public TransportSimHashGroupsAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ClusterService clusterService,
        NodeClient client,
        IndexNameExpressionResolver resolver,
        IndicesService indicesService,
        ThreadPool threadPool,
        SketchingService sketching
    ) {
        super(SimHashGroupsAction.NAME, transportService, actionFilters, SimHashGroupsRequest::new, Platform.DIRECT_EXECUTOR);
        this.clusterService = clusterService;
        this.resolver = resolver;
        this.indicesService = indicesService;
        this.sketching = sketching;
        this.computation = GroupsComputation.onNode(client, threadPool, sketching, clusterService);
    }

    /** The one index a groups request names (an index or an alias of one index), or a 400 that says why not. */
    static IndexMetadata singleIndex(ClusterState state, IndexNameExpressionResolver resolver, IndicesRequest request, String api) {
        for (String name : request.indices()) {
            if (Metadata.ALL.equals(name) || Regex.isSimpleMatchPattern(name) || name.contains(",")) {
                throw new IllegalArgumentException(
                    "["
                        + api
                        + "] works on one index or alias; ["
                        + name
                        + "] is a pattern: "
                        + "_all, wildcards and lists are not supported, name one index"
                );
            }
            IndexAbstraction abstraction = state.metadata().getIndicesLookup().get(name);
            if (abstraction != null && abstraction.getType() == IndexAbstraction.Type.DATA_STREAM) {
                throw new IllegalArgumentException(
                    "["
                        + api
                        + "] works on one index or alias; ["
                        + name
                        + "] is a data stream of "
                        + abstraction.getIndices().size()
                        + " backing indices: name one of them (GET _data_stream/"
                        + name
                        + ")"
                );
            }
        }
        String[] concrete = resolver.concreteIndexNames(state, request);
        if (concrete.length != 1) {
            throw new IllegalArgumentException(
                "[" + api + "] needs exactly one index, [" + String.join(",", request.indices()) + "] resolves to " + concrete.length
            );
        }
        return state.metadata().index(concrete[0]);
    }

    /**
     * The filter of the alias (or aliases) the request names for {@code index}, as a search through them would apply
     * it; {@link AliasFilter#EMPTY}'s query (null) when the index is named directly or its alias has no filter.
     */
    static AliasFilter aliasFilter(
        ClusterState state,
        IndexNameExpressionResolver resolver,
        IndicesService indices,
        IndicesRequest request,
        IndexMetadata index
    ) {
        var expressions = resolver.resolveExpressions(state, request.indices());
        return indices.buildAliasFilter(state, index.getIndex().getName(), expressions);
    }

    @Override
    protected void doExecute(Task task, SimHashGroupsRequest request, ActionListener<SimHashGroupsResponse> answer) {
        long start = System.nanoTime();
        ActionListener<SimHashGroupsResponse> listener = answer;
        try {
            ClusterState state = clusterService.state();
            IndexMetadata index = singleIndex(state, resolver, request, "_near_duplicates");
            checkField(index, request.field(), request.minSimilarity());
            // a run counts in the stats from here on, once it has passed the checks: a refused request is no failed run
            listener = CountedRun.counted(sketching.stats(), false, start, answer);
            SimHashGroupsTask groupsTask = (SimHashGroupsTask) task;
            computation.run(
                groupsTask,
                computation.shards(
                    groupsTask,
                    index,
                    aliasFilter(state, resolver, indicesService, request, index),
                    request,
                    request.field(),
                    null, // no group fields: nothing is written
                    null
                ),
                request.field(),
                request.maxDistance(),
                request.minSimilarity(),
                request.mode(),
                Platform.map(listener, result -> {
                    try (result) {
                        return page(index.getIndex().getName(), request, result, start);
                    }
                })
            );
        } catch (Exception e) {
            listener.onFailure(e);
        }
    }

    /**
     * Refuses at once (before any task work) a field that the index does not map as {@code simhash}; the shards check
     * again with their own mapping.
     */
    static void checkField(IndexMetadata index, String field) {
        checkField(index, field, null);
    }

    /**
     * {@link #checkField(IndexMetadata, String)}, and a 400 for a {@code min_similarity} given for a field whose
     * algorithm has no verification signatures (the run checks again with the shards' mappings).
     */
    static void checkField(IndexMetadata index, String field, Double minSimilarity) {
        if (field == null) return; // the request's validation names it
        java.util.Map<String, Object> definition = FieldMappings.definitionThroughAlias(index, field);
        String algorithm = FieldMappings.algorithm(definition, SimHashFieldMapper.CONTENT_TYPE);
        GroupsChecks.field(index.getIndex().getName(), field, FieldMappings.type(definition), algorithm, minSimilarity);
    }

    static SimHashGroupsResponse page(String index, SimHashGroupsRequest request, Grouping.Result result, long start) {
        GroupsPage page = GroupsPage.of(result.groups(), request.after(), request.size(), request.maxMembers());
        return new SimHashGroupsResponse(
            RunSummary.of(index, request.field(), result, start),
            result.comparisons(),
            result.verifiedPairs(),
            result.groups().size(),
            result.docsInGroups(),
            result.plan(),
            page.groups(),
            page.nextAfter()
        );
    }
}
