package org.nearduplicate.opensearch.action.groups;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.DocWriteResponse;
import org.opensearch.action.admin.indices.mapping.put.PutMappingRequest;
import org.opensearch.action.admin.indices.refresh.RefreshRequest;
import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkRequest;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.action.update.UpdateRequest;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.indices.IndicesService;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.opensearch.common.FieldMappings;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.groups.BulkSink;
import org.nearduplicate.orchestration.groups.Grouping;
import org.nearduplicate.orchestration.groups.Listener;
import org.nearduplicate.orchestration.groups.RunSummary;
import org.nearduplicate.orchestration.groups.ShardReads;
import org.nearduplicate.orchestration.groups.WriteBack;
import org.nearduplicate.orchestration.groups.WriteCounts;
import org.nearduplicate.orchestration.groups.WriteMarker;

/**
 * Writes the groups into the documents, so that {@code collapse}, aggregations and Dashboards can use them: each member
 * of a group gets {@code group_field} = the group's representative {@code _id} and {@code distance_field} = its Hamming
 * distance to the representative. Partial updates with {@code detect_noop}, in bulk requests of {@code batch_size},
 * throttled to {@code requests_per_second} documents per second, as children of this task (cancelling it cancels
 * them). Every other visible document with a fingerprint gets its own {@code _id} as group and distance 0 (the
 * singleton pass, page by page per shard, skipping documents already right), so that {@code collapse} never merges
 * unrelated documents. A re-run updates what changed, and clears both fields from documents without a fingerprint that
 * hold them (listed by every shard from the doc values of {@code group_field}). Unmapped fields are mapped first ({@code keyword} and
 * {@code integer}, the types {@code collapse} and aggregations need); fields mapped with other types are refused before
 * anything is written. Through a filtered alias, only the documents the alias shows are read and written.
 *
 * <p>The index mapping's {@code _meta.near_duplicate_write} records the run: {@code running} from its start, then
 * {@code completed}, {@code completed_with_failures}, {@code failed} or {@code cancelled}. A marker still
 * {@code running} without its task means the run was interrupted (the node left); re-running the same request completes
 * the write (updates are idempotent). The groups stay reserved in the breaker until the write ends; update requests are
 * made one batch at a time, two bulk requests in flight (one when throttled). Cancelling the task stops a throttle wait
 * at once. With {@code refresh=true} the index is refreshed after the last update, before the answer.
 */
public class TransportSimHashGroupsWriteAction extends HandledTransportAction<SimHashGroupsWriteRequest, SimHashGroupsWriteResponse> {

    private final ClusterService clusterService;
    private final IndexNameExpressionResolver resolver;
    private final NodeClient client;
    private final ThreadPool threadPool;
    private final IndicesService indicesService;
    private final SketchingService sketching;
    private final GroupsComputation computation;

    /** Runs with the groups action's services and computation, and writes through {@code client}. */
    @Inject
    public TransportSimHashGroupsWriteAction(
        TransportService transportService,
        ActionFilters actionFilters,
        NodeClient client,
        ThreadPool threadPool,
        TransportSimHashGroupsAction groups
    ) {
        super(SimHashGroupsWriteAction.NAME, transportService, actionFilters, SimHashGroupsWriteRequest::new, Platform.DIRECT_EXECUTOR);
        this.client = client;
        this.threadPool = threadPool;
        this.clusterService = groups.clusterService;
        this.resolver = groups.resolver;
        this.indicesService = groups.indicesService;
        this.sketching = groups.sketching;
        this.computation = groups.computation;
    }

    /** The key of the write-back's marker in the index mapping's {@code _meta}. */
    public static final String MARKER = WriteMarker.KEY;

    @Override
    protected void doExecute(Task task, SimHashGroupsWriteRequest request, ActionListener<SimHashGroupsWriteResponse> answer) {
        long startNanos = System.nanoTime();
        ActionListener<SimHashGroupsWriteResponse> listener = answer;
        try {
            // every check that can fail at once runs here, before any work: with wait_for_completion=false the REST
            // layer runs them first (validateOnly) and answers their failure instead of starting a task that fails
            ClusterState state = clusterService.state();
            IndexMetadata index = TransportSimHashGroupsAction.singleIndex(state, resolver, request, "_near_duplicates/_write");
            TransportSimHashGroupsAction.checkField(index, request.field(), request.minSimilarity());
            Map<String, Object> missing = missingMappings(index, request);
            AliasFilter aliasFilter = TransportSimHashGroupsAction.aliasFilter(state, resolver, indicesService, request, index);
            if (request.validateOnly()) {
                answer.onResponse(
                    new SimHashGroupsWriteResponse(
                        RunSummary.validated(index.getIndex().getName(), request.field()),
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        List.of()
                    )
                );
                return;
            }
            // a run counts in the stats from here on, once it has passed the checks: a refused request is no failed run
            listener = CountedRun.counted(sketching.stats(), true, startNanos, answer);
            ActionListener<SimHashGroupsWriteResponse> counted = listener;
            SimHashGroupsTask groupsTask = (SimHashGroupsTask) task;
            ShardReads shards = computation.shards(
                groupsTask,
                index,
                aliasFilter,
                request,
                request.field(),
                request.groupField(),
                request.distanceField()
            );
            Runnable compute = () -> computation.run(
                groupsTask,
                shards,
                request.field(),
                request.maxDistance(),
                request.minSimilarity(),
                request.mode(),
                ActionListener.wrap(result -> {
                    try {
                        write(groupsTask, request, index, shards, result, startNanos, counted);
                    } catch (Exception e) {
                        result.close();
                        throw e;
                    }
                }, e -> mark(index, request, groupsTask, status(e), Map.of("reason", String.valueOf(e.getMessage())), counted, e))
            );
            // the marker says a write-back is running: if the node dies, it stays, and a re-run completes the write
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put(
                "_meta",
                WriteMarker.withMarker(FieldMappings.meta(index), marker(request, groupsTask).value("running", Map.of()))
            );
            if (missing.isEmpty() == false) properties.put("properties", missing);
            PutMappingRequest put = new PutMappingRequest(index.getIndex().getName()).source(properties);
            put.setParentTask(clusterService.localNode().getId(), task.getId());
            client.admin().indices().putMapping(put, ActionListener.wrap(r -> compute.run(), counted::onFailure));
        } catch (Exception e) {
            listener.onFailure(e);
        }
    }

    private static String status(Exception e) {
        return ExceptionsHelper.unwrap(e, TaskCancelledException.class) != null ? "cancelled" : "failed";
    }

    /** The marker of {@code task}'s run of {@code request}. */
    private WriteMarker marker(SimHashGroupsWriteRequest request, SimHashGroupsTask task) {
        return new WriteMarker(
            clusterService.localNode().getId() + ":" + task.getId(),
            request.field(),
            request.maxDistance(),
            request.minSimilarity(),
            request.groupField(),
            request.distanceField(),
            task.getStartTime()
        );
    }

    /**
     * Records how the write-back ended, then answers. Not a child of the task: a cancelled task's children are refused,
     * and the marker must still say "cancelled". A marker that cannot be written does not hide the run's own outcome.
     */
    private void mark(
        IndexMetadata index,
        SimHashGroupsWriteRequest request,
        SimHashGroupsTask task,
        String status,
        Map<String, Object> outcome,
        ActionListener<SimHashGroupsWriteResponse> listener,
        Object result
    ) {
        Runnable answer = () -> {
            if (result instanceof Exception e) {
                listener.onFailure(e);
            } else {
                listener.onResponse((SimHashGroupsWriteResponse) result);
            }
        };
        try {
            IndexMetadata current = clusterService.state().metadata().index(index.getIndex());
            Map<String, Object> meta = WriteMarker.withMarker(
                FieldMappings.meta(current == null ? index : current),
                marker(request, task).value(status, outcome)
            );
            PutMappingRequest put = new PutMappingRequest(index.getIndex().getName()).source(Map.of("_meta", meta));
            client.admin().indices().putMapping(put, ActionListener.wrap(r -> answer.run(), e -> answer.run()));
        } catch (Exception e) {
            answer.run();
        }
    }

    /**
     * With {@code refresh=true}, refreshes {@code index} (the one index written to) after the last update, so that a
     * search right after the answer sees every written group, as {@code _update_by_query?refresh=true} does; then hands
     * the outcome to {@code then}. A refresh that fails, wholly or on some shards, is reported in the answer
     * ({@code refreshed: false}, {@code refresh_failures}); the writes themselves are done either way.
     */
    private void refreshIfAsked(
        SimHashGroupsWriteRequest request,
        String index,
        SimHashGroupsTask task,
        java.util.function.Consumer<SimHashGroupsWriteResponse.Refresh> then
    ) {
        if (request.refresh() == false) {
            then.accept(SimHashGroupsWriteResponse.Refresh.NOT_ASKED);
            return;
        }
        try {
            RefreshRequest refresh = new RefreshRequest(index);
            refresh.setParentTask(new TaskId(clusterService.localNode().getId(), task.getId()));
            client.admin().indices().refresh(refresh, ActionListener.wrap(response -> {
                if (response.getFailedShards() == 0) {
                    then.accept(SimHashGroupsWriteResponse.Refresh.done());
                    return;
                }
                List<String> failures = new ArrayList<>();
                for (var failure : response.getShardFailures()) {
                    failures.add("[" + failure.index() + "][" + failure.shardId() + "] " + failure.reason());
                }
                if (failures.isEmpty()) {
                    failures.add(response.getFailedShards() + " of " + response.getTotalShards() + " shards failed to refresh");
                }
                then.accept(SimHashGroupsWriteResponse.Refresh.failed(failures));
            }, e -> then.accept(SimHashGroupsWriteResponse.Refresh.failed(List.of(refreshFailure(e))))));
        } catch (Exception e) {
            then.accept(SimHashGroupsWriteResponse.Refresh.failed(List.of(refreshFailure(e))));
        }
    }

    private static String refreshFailure(Exception e) {
        return "refresh failed: " + ExceptionsHelper.unwrapCause(e);
    }

    /** The mappings to add for the group fields not mapped yet; refuses fields mapped with a type they cannot have. */
    static Map<String, Object> missingMappings(IndexMetadata index, SimHashGroupsWriteRequest request) {
        return WriteMarker.missingMappings(
            request.groupField(),
            FieldMappings.documentPathType(index, request.groupField()),
            request.distanceField(),
            FieldMappings.documentPathType(index, request.distanceField())
        );
    }

    /** The write-back's updates as bulk requests of partial updates on {@code index}, children of {@code task}. */
    private BulkSink sink(String index, SimHashGroupsWriteRequest request, SimHashGroupsTask task) {
        return (updates, listener) -> {
            BulkRequest bulk = new BulkRequest();
            for (BulkSink.Update u : updates) {
                Map<String, Object> doc = new HashMap<>();
                WriteMarker.putPath(doc, request.groupField(), u.group(), false);
                WriteMarker.putPath(doc, request.distanceField(), u.distance(), false);
                bulk.add(new UpdateRequest(index, u.id()).routing(u.routing()).doc(doc).detectNoop(true).retryOnConflict(3));
            }
            bulk.setParentTask(new TaskId(clusterService.localNode().getId(), task.getId()));
            client.bulk(bulk, ActionListener.wrap(response -> {
                List<BulkSink.Item> items = new ArrayList<>(response.getItems().length);
                for (BulkItemResponse item : response.getItems()) {
                    items.add(
                        new BulkSink.Item(
                            item.getId(),
                            item.isFailed(),
                            item.isFailed() ? item.getFailureMessage() : null,
                            item.isFailed() == false && item.getResponse().getResult() == DocWriteResponse.Result.NOOP
                        )
                    );
                }
                listener.onResponse(items);
            }, listener::onFailure));
        };
    }

    /** Writes the groups of {@code result}, then records how it ended in the marker and answers. */
    private void write(
        SimHashGroupsTask task,
        SimHashGroupsWriteRequest request,
        IndexMetadata indexMetadata,
        ShardReads shards,
        Grouping.Result result,
        long startNanos,
        ActionListener<SimHashGroupsWriteResponse> listener
    ) {
        String index = indexMetadata.getIndex().getName();
        WriteCounts counts = task.writeCounts();
        new WriteBack(
            task,
            shards,
            sink(index, request, task),
            threadPool.generic(),
            (command, delayNanos) -> Platform.scheduleGeneric(threadPool, command, TimeValue.timeValueNanos(delayNanos))::cancel,
            GroupsComputation.breaker(sketching.breaker()),
            result,
            request.batchSize(),
            request.requestsPerSecond(),
            new Listener<>() {
                @Override
                public void onResponse(WriteBack.Done done) {
                    SimHashGroupsWriteResponse response = new SimHashGroupsWriteResponse(
                        RunSummary.of(index, request.field(), result, startNanos),
                        result.groups().size(),
                        result.docsInGroups(),
                        counts.written.get(),
                        counts.noops.get(),
                        counts.cleared.get(),
                        counts.singletons.get(),
                        counts.batches.get(),
                        counts.throttledMillis.get(),
                        done.failureCount(),
                        done.failures()
                    );
                    Map<String, Object> outcome = WriteMarker.outcome(result, counts, done);
                    refreshIfAsked(
                        request,
                        index,
                        task,
                        refresh -> mark(
                            indexMetadata,
                            request,
                            task,
                            WriteMarker.status(done),
                            outcome,
                            listener,
                            response.withRefresh(refresh)
                        )
                    );
                }

                @Override
                public void onFailure(Exception e) {
                    mark(indexMetadata, request, task, status(e), WriteMarker.outcome(counts, e), listener, e);
                }
            }
        ).start();
    }
}
