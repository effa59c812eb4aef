package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.IndicesRequest;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.node.NodeClient;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.groups.Breaker;
import org.nearduplicate.orchestration.groups.Grouping;
import org.nearduplicate.orchestration.groups.Listener;
import org.nearduplicate.orchestration.groups.ShardReads;

/**
 * The node's {@link Grouping}: the {@code near_duplicate} breaker, the generic pool, the threads setting, and the
 * shards reached with {@link SimHashShardFingerprintsAction} requests, children of the run's task.
 */
public final class GroupsComputation {

    /**
     * Threads of one run's band passes (the LSH stage of the default match), on the generic pool; 0, the default: the
     * node's allocated processors. The grouping is a batch job that would otherwise use one core; lower it to keep
     * cores for searches while a run goes on. Any value gives the same groups.
     */
    public static final Setting<Integer> THREADS_SETTING = Setting.intSetting(
        "near_duplicate.groups.threads",
        0,
        0,
        256,
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );

    private final NodeClient client;
    private final ClusterService clusterService;
    private final Grouping grouping;

    private GroupsComputation(NodeClient client, ClusterService clusterService, Grouping grouping) {
        this.client = client;
        this.clusterService = clusterService;
        this.grouping = grouping;
    }

    /**
     * The computation of this node's transport actions: the engine's breaker, the local node and the threads setting
     * are read per run (they are set, or may change, after the actions are built).
     */
    public static GroupsComputation onNode(
        NodeClient client,
        ThreadPool threadPool,
        SketchingService sketching,
        ClusterService clusterService
    ) {
        return new GroupsComputation(
            client,
            clusterService,
            new Grouping(
                () -> breaker(sketching.breaker()),
                threadPool.generic(),
                () -> threads(clusterService.getSettings(), clusterService.getClusterSettings().get(THREADS_SETTING))
            )
        );
    }

    /** The threads a run uses: {@link #THREADS_SETTING}, or the node's allocated processors when it is 0. */
    public static int threads(Settings nodeSettings, int configured) {
        return configured > 0 ? configured : Math.max(1, Platform.allocatedProcessors(nodeSettings));
    }

    /** The platform's breaker, as the groups runs use it. */
    public static Breaker breaker(CircuitBreaker breaker) {
        return new Breaker() {
            @Override
            public void addEstimateBytesAndMaybeBreak(long bytes, String label) {
                breaker.addEstimateBytesAndMaybeBreak(bytes, label);
            }

            @Override
            public void addWithoutBreaking(long bytes) {
                breaker.addWithoutBreaking(bytes);
            }
        };
    }

    /** {@code listener} as the neutral code answers it. */
    static <T> Listener<T> listener(ActionListener<T> listener) {
        return new Listener<>() {
            @Override
            public void onResponse(T value) {
                listener.onResponse(value);
            }

            @Override
            public void onFailure(Exception e) {
                listener.onFailure(e);
            }
        };
    }

    /**
     * The shards of {@code index} read on {@code field} through the documents {@code aliasFilter} lets a search see,
     * as children of {@code task}, authorized as {@code origin} (the run's request) is.
     * A write-back's reads also carry its {@code groupField} and {@code distanceField} (null: not a write-back).
     */
    ShardReads shards(
        SimHashGroupsTask task,
        IndexMetadata index,
        AliasFilter aliasFilter,
        IndicesRequest origin,
        String field,
        String groupField,
        String distanceField
    ) {
        TaskId parent = new TaskId(clusterService.localNode().getId(), task.getId());
        return new ShardFingerprintsClient(client, index, field, aliasFilter, groupField, distanceField, request -> {
            SimHashShardFingerprintsRequest sent = request.authorizedAs(origin);
            sent.setParentTask(parent);
            return sent;
        });
    }

    /**
     * Runs on {@code shards} at {@code maxDistance} (null: the field algorithm's recommended k) and
     * {@code minSimilarity} (null: the field's recommended one); the listener's result must be closed.
     */
    void run(
        SimHashGroupsTask task,
        ShardReads shards,
        String field,
        Integer maxDistance,
        Double minSimilarity,
        GroupMembers.Mode mode,
        ActionListener<Grouping.Result> listener
    ) {
        grouping.run(task, shards, field, maxDistance, minSimilarity, mode, listener(listener));
    }
}
