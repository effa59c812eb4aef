package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.opensearch.common.MaxDistance;
import org.apache.lucene.util.BytesRef;
import org.nearduplicate.core.keys.BlockLayout;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.GroupedActionListener;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.tasks.CancellableTask;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes all near-duplicate groups of an index without comparing all pairs.
 *
 * <p>The key space of the field's block keys is walked page by page: page (c, p) is block combination c, first value
 * byte in partition p. For each page every shard returns the documents of each key in the range (read from its terms
 * dictionary), the coordinator merges them by key across shards, verifies the candidate pairs exactly and unions the
 * verified ones. By the pigeonhole argument every pair within k <= k_max shares a key of some combination, so the
 * walk finds every pair, including pairs across shards; memory per page is about N / partitions entries. The pages run
 * one after the other; the task is cancellable between and during pages.
 */
public class TransportNearDuplicateGroupsAction extends HandledTransportAction<NearDuplicateGroupsRequest, NearDuplicateGroupsResponse> {

    private final ClusterService clusterService;
    private final NodeClient client;
    private final IndexNameExpressionResolver resolver;
    private final ThreadPool threadPool;

    @Inject
    public TransportNearDuplicateGroupsAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ClusterService clusterService,
        NodeClient client,
        IndexNameExpressionResolver resolver,
        ThreadPool threadPool
    ) {
        super(NearDuplicateGroupsAction.NAME, transportService, actionFilters, NearDuplicateGroupsRequest::new);
        this.clusterService = clusterService;
        this.client = client;
        this.resolver = resolver;
        this.threadPool = threadPool;
    }

    @Override
    protected void doExecute(Task task, NearDuplicateGroupsRequest request, ActionListener<NearDuplicateGroupsResponse> listener) {
        try {
            ClusterState state = clusterService.state();
            String[] concrete = resolver.concreteIndexNames(state, request);
            if (concrete.length != 1) {
                throw new IllegalArgumentException("[_near_duplicates] needs exactly one index, [" + request.index() + "] resolves to " + concrete.length);
            }
            IndexMetadata index = state.metadata().index(concrete[0]);
            new Run((CancellableTask) task, request, index, listener).sendPage();
        } catch (Exception e) {
            listener.onFailure(e);
        }
    }

    private final class Run {
        private final CancellableTask task;
        private final NearDuplicateGroupsRequest request;
        private final IndexMetadata index;
        private final ActionListener<NearDuplicateGroupsResponse> listener;
        private final long start = System.nanoTime();
        private DuplicateGroupCollector collector;
        private BlockLayout layout;
        private int maxDistance;
        private long docs;
        private int combination;
        private int partition;

        Run(CancellableTask task, NearDuplicateGroupsRequest request, IndexMetadata index, ActionListener<NearDuplicateGroupsResponse> listener) {
            this.task = task;
            this.request = request;
            this.index = index;
            this.listener = listener;
        }

        private void checkCancelled() {
            if (task.isCancelled()) {
                throw new TaskCancelledException("near_duplicate groups task cancelled: " + task.getReasonCancelled());
            }
        }

        void sendPage() {
            checkCancelled();
            int shards = index.getNumberOfShards();
            int partitions = request.partitions();
            int from = 256 * partition / partitions, to = 256 * (partition + 1) / partitions;
            boolean first = combination == 0 && partition == 0;
            GroupedActionListener<NearDuplicateShardKeysResponse> all = new GroupedActionListener<>(
                ActionListener.wrap(responses -> threadPool.generic().execute(() -> {
                    try {
                        processPage(responses);
                    } catch (Exception e) {
                        listener.onFailure(e);
                    }
                }), listener::onFailure),
                shards
            );
            TaskId parent = new TaskId(clusterService.localNode().getId(), task.getId());
            for (int s = 0; s < shards; s++) {
                NearDuplicateShardKeysRequest shardRequest = new NearDuplicateShardKeysRequest(
                    new ShardId(index.getIndex(), s), request.field(), combination, from, to, shards == 1, first
                );
                shardRequest.setParentTask(parent);
                client.executeLocally(NearDuplicateShardKeysAction.INSTANCE, shardRequest, all);
            }
        }

        private void processPage(Collection<NearDuplicateShardKeysResponse> responses) {
            checkCancelled();
            if (collector == null) {
                NearDuplicateShardKeysResponse any = responses.iterator().next();
                layout = new BlockLayout(any.blocks(), any.maxDistance());
                maxDistance = MaxDistance.orField(request.maxDistance(), layout.exactDistance());
                collector = new DuplicateGroupCollector(layout, maxDistance);
                for (NearDuplicateShardKeysResponse r : responses) {
                    docs += r.docs();
                }
            }
            // merge each key's documents across shards
            Map<BytesRef, List<NearDuplicateShardKeysResponse.KeyMembers>> byKey = new HashMap<>();
            for (NearDuplicateShardKeysResponse r : responses) {
                if (r.blocks() != layout.blocks() || r.maxDistance() != layout.maxDistance()) {
                    throw new IllegalStateException("shards disagree on the layout of field [" + request.field() + "]");
                }
                for (NearDuplicateShardKeysResponse.KeyMembers k : r.keys()) {
                    byKey.computeIfAbsent(new BytesRef(k.key()), x -> new ArrayList<>(1)).add(k);
                }
            }
            int seen = 0;
            for (List<NearDuplicateShardKeysResponse.KeyMembers> parts : byKey.values()) {
                if ((++seen & 1023) == 0) checkCancelled();
                int size = 0;
                for (NearDuplicateShardKeysResponse.KeyMembers k : parts) size += k.fingerprints().length;
                if (size < 2) continue;
                long[] fps = new long[size];
                String[] ids = new String[size];
                int n = 0;
                for (NearDuplicateShardKeysResponse.KeyMembers k : parts) {
                    System.arraycopy(k.fingerprints(), 0, fps, n, k.fingerprints().length);
                    System.arraycopy(k.ids(), 0, ids, n, k.ids().length);
                    n += k.fingerprints().length;
                }
                collector.addKey(combination, fps, ids, size, this::checkCancelled);
            }
            if (++partition == request.partitions()) {
                partition = 0;
                combination++;
            }
            if (combination < layout.keyCount()) {
                sendPage();
            } else {
                finish();
            }
        }

        private void finish() {
            List<DuplicateGroupCollector.Group> groups = collector.groups(this::checkCancelled);
            long docsInGroups = 0;
            List<NearDuplicateGroupsResponse.Group> page = new ArrayList<>();
            String nextAfter = null;
            for (DuplicateGroupCollector.Group g : groups) {
                docsInGroups += g.members().size();
                if (request.after() != null && g.representative().compareTo(request.after()) <= 0) continue;
                if (page.size() < request.size()) {
                    List<DuplicateGroupCollector.Member> members = g.members().size() > request.maxMembers()
                        ? new ArrayList<>(g.members().subList(0, request.maxMembers()))
                        : g.members();
                    page.add(new NearDuplicateGroupsResponse.Group(g.representative(), g.members().size(), g.verifiedPairs(), members));
                } else if (nextAfter == null) {
                    nextAfter = page.isEmpty() ? null : page.get(page.size() - 1).representative();
                }
            }
            listener.onResponse(
                new NearDuplicateGroupsResponse(
                    index.getIndex().getName(),
                    request.field(),
                    maxDistance,
                    (System.nanoTime() - start) / 1_000_000,
                    docs,
                    collector.candidatePairs(),
                    collector.verifiedPairs(),
                    groups.size(),
                    docsInGroups,
                    page,
                    nextAfter
                )
            );
        }
    }
}
