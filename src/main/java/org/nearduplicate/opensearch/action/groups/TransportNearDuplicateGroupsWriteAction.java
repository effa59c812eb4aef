package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.opensearch.action.DocWriteResponse;
import org.opensearch.action.admin.indices.mapping.put.PutMappingRequest;
import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkRequest;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.GroupedActionListener;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.action.update.UpdateRequest;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Writes the groups into the documents, so that {@code collapse}, aggregations and Dashboards can use them: each member
 * of a group gets {@code group_field} = the group's representative {@code _id} and {@code distance_field} = its Hamming
 * distance to the representative. Partial updates with {@code detect_noop}, in bulk requests of {@code batch_size},
 * throttled to {@code requests_per_second} documents per second, as children of this task (cancelling it cancels
 * them). A re-run updates what changed and clears both fields from documents that were in a group and no longer are
 * (listed by every shard from the doc values of {@code group_field}). Unmapped fields are mapped first ({@code keyword} and {@code integer}, the
 * types {@code collapse} and aggregations need); fields mapped with other types are refused before anything is written.
 */
public class TransportNearDuplicateGroupsWriteAction extends HandledTransportAction<NearDuplicateGroupsWriteRequest, NearDuplicateGroupsWriteResponse> {

    private static final int MAX_REPORTED_FAILURES = 20;
    private static final Set<String> INTEGER_TYPES = Set.of("integer", "long", "short", "byte");

    private final ClusterService clusterService;
    private final IndexNameExpressionResolver resolver;
    private final NodeClient client;
    private final ThreadPool threadPool;
    private final GroupsComputation computation;

    @Inject
    public TransportNearDuplicateGroupsWriteAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ClusterService clusterService,
        NodeClient client,
        IndexNameExpressionResolver resolver,
        ThreadPool threadPool,
        NearDuplicateEngine engine
    ) {
        super(NearDuplicateGroupsWriteAction.NAME, transportService, actionFilters, NearDuplicateGroupsWriteRequest::new);
        this.clusterService = clusterService;
        this.resolver = resolver;
        this.client = client;
        this.threadPool = threadPool;
        this.computation = new GroupsComputation(client, threadPool, engine::breaker, () -> clusterService.localNode().getId());
    }

    @Override
    protected void doExecute(Task task, NearDuplicateGroupsWriteRequest request, ActionListener<NearDuplicateGroupsWriteResponse> listener) {
        long startNanos = System.nanoTime();
        try {
            IndexMetadata index = TransportNearDuplicateGroupsAction.singleIndex(clusterService.state(), resolver, request, "_near_duplicates/_write");
            Map<String, Object> missing = missingMappings(index, request);
            NearDuplicateGroupsTask groupsTask = (NearDuplicateGroupsTask) task;
            Runnable compute = () -> computation.run(
                groupsTask,
                index,
                request.field(),
                request.maxDistance(),
                groupsTask,
                ActionListener.wrap(result -> new Writer(groupsTask, request, index, result, startNanos, listener).start(), listener::onFailure)
            );
            if (missing.isEmpty()) {
                compute.run();
            } else {
                PutMappingRequest put = new PutMappingRequest(index.getIndex().getName()).source(Map.of("properties", missing));
                put.setParentTask(clusterService.localNode().getId(), task.getId());
                client.admin().indices().putMapping(put, ActionListener.wrap(r -> compute.run(), listener::onFailure));
            }
        } catch (Exception e) {
            listener.onFailure(e);
        }
    }

    /**
     * The properties to add for fields that are not mapped yet; refuses fields mapped with a type that
     * {@code collapse} or a numeric aggregation could not use.
     */
    static Map<String, Object> missingMappings(IndexMetadata index, NearDuplicateGroupsWriteRequest request) {
        MappingMetadata mapping = index.mapping();
        Map<String, Object> root = mapping == null ? Map.of() : mapping.sourceAsMap();
        Map<String, Object> missing = new LinkedHashMap<>();
        String groupType = typeOf(root, request.groupField());
        if (groupType == null) {
            putPath(missing, request.groupField(), Map.of("type", "keyword"), true);
        } else if (groupType.equals("keyword") == false) {
            throw new IllegalArgumentException(
                "[group_field] [" + request.groupField() + "] is mapped as [" + groupType + "]; it must be a [keyword] field for collapse and terms aggregations"
            );
        }
        String distanceType = typeOf(root, request.distanceField());
        if (distanceType == null) {
            putPath(missing, request.distanceField(), Map.of("type", "integer"), true);
        } else if (INTEGER_TYPES.contains(distanceType) == false) {
            throw new IllegalArgumentException(
                "[distance_field] [" + request.distanceField() + "] is mapped as [" + distanceType + "]; it must be an integer field"
            );
        }
        return missing;
    }

    /** The mapped type of a dotted path ("object" for objects), or null when it is not mapped. */
    @SuppressWarnings("unchecked")
    static String typeOf(Map<String, Object> mapping, String path) {
        Object properties = mapping.get("properties");
        String[] parts = path.split("\\.");
        Map<String, Object> node = null;
        for (String part : parts) {
            if (properties instanceof Map == false) return null;
            Object child = ((Map<String, Object>) properties).get(part);
            if (child instanceof Map == false) return null;
            node = (Map<String, Object>) child;
            properties = node.get("properties");
        }
        if (node == null) return null;
        Object type = node.get("type");
        return type == null ? "object" : type.toString();
    }

    /** Puts {@code value} at a dotted path, as objects ({@code properties} objects for a mapping). */
    @SuppressWarnings("unchecked")
    static void putPath(Map<String, Object> root, String path, Object value, boolean mapping) {
        String[] parts = path.split("\\.");
        Map<String, Object> node = root;
        for (int i = 0; i < parts.length - 1; i++) {
            Map<String, Object> child = (Map<String, Object>) node.computeIfAbsent(parts[i], x -> new LinkedHashMap<String, Object>());
            node = mapping ? (Map<String, Object>) child.computeIfAbsent("properties", x -> new LinkedHashMap<String, Object>()) : child;
        }
        node.put(parts[parts.length - 1], value);
    }

    private final class Writer {
        private final NearDuplicateGroupsTask task;
        private final NearDuplicateGroupsWriteRequest request;
        private final IndexMetadata indexMetadata;
        private final String index;
        private final GroupsComputation.Result result;
        private final ActionListener<NearDuplicateGroupsWriteResponse> listener;
        private final long startNanos; // the request's: took covers the grouping and the writing
        private final long writeStartNanos = System.nanoTime(); // the throttle's clock
        private final Iterator<UpdateRequest> pending;
        private final List<String> failures = new ArrayList<>();
        private long sent;
        private long failureCount;

        Writer(
            NearDuplicateGroupsTask task,
            NearDuplicateGroupsWriteRequest request,
            IndexMetadata indexMetadata,
            GroupsComputation.Result result,
            long startNanos,
            ActionListener<NearDuplicateGroupsWriteResponse> listener
        ) {
            this.startNanos = startNanos;
            this.task = task;
            this.request = request;
            this.indexMetadata = indexMetadata;
            this.index = indexMetadata.getIndex().getName();
            this.result = result;
            this.listener = listener;
            List<UpdateRequest> updates = new ArrayList<>();
            for (GroupsComputation.Group g : result.groups()) {
                for (GroupsComputation.Member m : g.members()) {
                    updates.add(update(m.id(), m.routing(), g.representative(), m.distance()));
                }
            }
            this.pending = updates.iterator();
            task.groups.set(result.groups().size());
            task.toWrite.set(updates.size());
        }

        private UpdateRequest update(String id, String routing, Object group, Object distance) {
            Map<String, Object> doc = new HashMap<>();
            putPath(doc, request.groupField(), group, false);
            putPath(doc, request.distanceField(), distance, false);
            return new UpdateRequest(index, id).routing(routing).doc(doc).detectNoop(true).retryOnConflict(3);
        }

        private void checkCancelled() {
            if (task.isCancelled()) {
                throw new TaskCancelledException("near_duplicate groups write task cancelled: " + task.getReasonCancelled());
            }
        }

        void start() {
            task.phase("writing groups");
            nextBatch();
        }

        /** Sends the next batch of member updates, after the delay the throttle asks for; then clears stale documents. */
        private void nextBatch() {
            try {
                checkCancelled();
                if (pending.hasNext() == false) {
                    clearStale();
                    return;
                }
                BulkRequest bulk = new BulkRequest();
                while (pending.hasNext() && bulk.numberOfActions() < request.batchSize()) bulk.add(pending.next());
                sendThrottled(bulk, this::nextBatch);
            } catch (Exception e) {
                fail(e);
            }
        }

        private void sendThrottled(BulkRequest bulk, Runnable then) {
            long delayNanos = 0;
            if (request.requestsPerSecond() > 0) {
                long dueNanos = writeStartNanos + (long) (sent * 1e9 / request.requestsPerSecond());
                delayNanos = Math.max(0, dueNanos - System.nanoTime());
            }
            sent += bulk.numberOfActions();
            Runnable send = () -> {
                try {
                    checkCancelled();
                    bulk.setParentTask(new TaskId(clusterService.localNode().getId(), task.getId()));
                    client.bulk(bulk, ActionListener.wrap(response -> {
                        task.batches.incrementAndGet();
                        for (BulkItemResponse item : response.getItems()) count(item);
                        then.run();
                    }, this::fail));
                } catch (Exception e) {
                    fail(e);
                }
            };
            if (delayNanos > 0) {
                task.throttledMillis.addAndGet(TimeUnit.NANOSECONDS.toMillis(delayNanos));
                threadPool.schedule(send, TimeValue.timeValueNanos(delayNanos), ThreadPool.Names.GENERIC);
            } else {
                send.run();
            }
        }

        private void count(BulkItemResponse item) {
            if (item.isFailed()) {
                failureCount++;
                task.failures.incrementAndGet();
                if (failures.size() < MAX_REPORTED_FAILURES) failures.add("[" + item.getId() + "]: " + item.getFailureMessage());
            } else if (item.getResponse().getResult() == DocWriteResponse.Result.NOOP) {
                task.noops.incrementAndGet();
            } else if (clearing) {
                task.cleared.incrementAndGet();
            } else {
                task.written.incrementAndGet();
            }
        }

        private boolean clearing;

        /**
         * Documents holding a group from an earlier run that are in no group now lose both fields. Every shard lists
         * them from doc values (the group field's, then the fingerprint's): no search context to keep open.
         */
        private void clearStale() {
            clearing = true;
            task.phase("clearing documents no longer in a group");
            long[] inGroups = result.groups().stream().flatMap(g -> g.members().stream()).mapToLong(GroupsComputation.Member::fingerprint).sorted().distinct().toArray();
            int shards = indexMetadata.getNumberOfShards();
            GroupedActionListener<NearDuplicateShardFingerprintsResponse> all = new GroupedActionListener<>(
                ActionListener.wrap(responses -> threadPool.generic().execute(() -> clearAll(responses)), this::fail),
                shards
            );
            for (int s = 0; s < shards; s++) {
                NearDuplicateShardFingerprintsRequest stale = new NearDuplicateShardFingerprintsRequest(
                    new ShardId(indexMetadata.getIndex(), s),
                    request.field(),
                    inGroups,
                    request.groupField()
                );
                stale.setParentTask(new TaskId(clusterService.localNode().getId(), task.getId()));
                client.executeLocally(NearDuplicateShardFingerprintsAction.INSTANCE, stale, all);
            }
        }

        private void clearAll(Collection<NearDuplicateShardFingerprintsResponse> responses) {
            try {
                List<UpdateRequest> clears = new ArrayList<>();
                for (NearDuplicateShardFingerprintsResponse r : responses) {
                    for (int i = 0; i < r.ids().length; i++) clears.add(update(r.ids()[i], r.routings()[i], null, null));
                }
                pendingClears = clears.iterator();
                nextClear();
            } catch (Exception e) {
                fail(e);
            }
        }

        private Iterator<UpdateRequest> pendingClears;

        private void nextClear() {
            try {
                checkCancelled();
                if (pendingClears.hasNext() == false) {
                    finish();
                    return;
                }
                BulkRequest bulk = new BulkRequest();
                while (pendingClears.hasNext() && bulk.numberOfActions() < request.batchSize()) bulk.add(pendingClears.next());
                sendThrottled(bulk, this::nextClear);
            } catch (Exception e) {
                fail(e);
            }
        }

        /** Documents written until then keep their values; a re-run completes them. */
        private void fail(Exception e) {
            listener.onFailure(e);
        }

        private void finish() {
            listener.onResponse(
                new NearDuplicateGroupsWriteResponse(
                    index,
                    request.field(),
                    result.maxDistance(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                    result.docs(),
                    result.groups().size(),
                    result.docsInGroups(),
                    task.written.get(),
                    task.noops.get(),
                    task.cleared.get(),
                    task.batches.get(),
                    task.throttledMillis.get(),
                    failureCount,
                    failures
                )
            );
        }
    }
}
