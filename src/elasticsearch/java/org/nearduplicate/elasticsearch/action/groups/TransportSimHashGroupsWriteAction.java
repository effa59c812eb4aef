package org.nearduplicate.elasticsearch.action.groups;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.DocWriteResponse;
import org.elasticsearch.action.OriginalIndices;
import org.elasticsearch.action.admin.indices.mapping.put.PutMappingRequest;
import org.elasticsearch.action.bulk.BulkItemResponse;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.GroupedActionListener;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.action.update.UpdateRequest;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.core.Releasables;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.indices.IndicesService;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.search.internal.AliasFilter;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskCancelledException;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.threadpool.Scheduler;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.MembersToWrite;
import org.nearduplicate.core.groups.PhasedBatches;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.elasticsearch.common.FieldMappings;
import org.nearduplicate.elasticsearch.sketching.SketchingService;

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
 * at once.
 */
public class TransportSimHashGroupsWriteAction extends HandledTransportAction<SimHashGroupsWriteRequest, SimHashGroupsWriteResponse> {

    private static final int MAX_REPORTED_FAILURES = 20;
    /**
     * Bulk requests of one run in flight at a time. A shard indexes one bulk request on one write thread, so with one
     * in flight a one-shard index used one core; the second keeps the shard's other write thread busy (a first write
     * of 1M documents took 0.66x the time on 2 cores, bench/results/RESULTS-groups-signed-1M-inflight.md). More would
     * only queue behind them.
     */
    static final int BATCHES_IN_FLIGHT = 2;
    private static final Set<String> INTEGER_TYPES = Set.of("integer", "long", "short", "byte");

    private final ClusterService clusterService;
    private final IndexNameExpressionResolver resolver;
    private final NodeClient client;
    private final ThreadPool threadPool;
    private final IndicesService indicesService;
    private final SketchingService engine;
    private final GroupsComputation computation;

    @Inject
    public TransportSimHashGroupsWriteAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ClusterService clusterService,
        NodeClient client,
        IndexNameExpressionResolver resolver,
        IndicesService indicesService,
        ThreadPool threadPool,
        SketchingService engine
    ) {
        super(
            SimHashGroupsWriteAction.NAME,
            transportService,
            actionFilters,
            SimHashGroupsWriteRequest::new,
            EsExecutors.DIRECT_EXECUTOR_SERVICE
        );
        this.indicesService = indicesService;
        this.engine = engine;
        this.clusterService = clusterService;
        this.resolver = resolver;
        this.client = client;
        this.threadPool = threadPool;
        this.computation = GroupsComputation.onNode(client, threadPool, engine, clusterService);
    }

    /** The key of the write-back's marker in the index mapping's {@code _meta}. */
    public static final String MARKER = "near_duplicate_write";

    @Override
    protected void doExecute(Task task, SimHashGroupsWriteRequest request, ActionListener<SimHashGroupsWriteResponse> listener) {
        long startNanos = System.nanoTime();
        try {
            // every check that can fail at once runs here, before any work: with wait_for_completion=false the REST
            // layer runs them first (validateOnly) and answers their failure instead of starting a task that fails
            ClusterState state = clusterService.state();
            IndexMetadata index = TransportSimHashGroupsAction.singleIndex(state, resolver, request, "_near_duplicates/_write");
            TransportSimHashGroupsAction.checkField(index, request.field(), request.minSimilarity());
            Map<String, Object> missing = missingMappings(index, request);
            AliasFilter aliasFilter = TransportSimHashGroupsAction.aliasFilter(state, resolver, indicesService, request, index);
            if (request.validateOnly()) {
                listener.onResponse(
                    new SimHashGroupsWriteResponse(
                        index.getIndex().getName(),
                        request.field(),
                        -1,
                        Double.NaN,
                        null,
                        0,
                        0,
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
            SimHashGroupsTask groupsTask = (SimHashGroupsTask) task;
            ActionListener<SimHashGroupsWriteResponse> counted = CountedRun.counted(engine.stats(), true, startNanos, listener);
            Runnable compute = () -> computation.run(
                groupsTask,
                index,
                new OriginalIndices(request),
                aliasFilter,
                request.field(),
                request.maxDistance(),
                request.minSimilarity(),
                request.mode(),
                request.groupField(),
                request.distanceField(),
                groupsTask,
                ActionListener.wrap(result -> {
                    try {
                        new Writer(groupsTask, request, index, aliasFilter, result, startNanos, counted).start();
                    } catch (Exception e) {
                        result.close();
                        throw e;
                    }
                }, e -> mark(index, request, groupsTask, status(e), Map.of("reason", String.valueOf(e.getMessage())), listener, e))
            );
            // the marker says a write-back is running: if the node dies, it stays, and a re-run completes the write
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("_meta", withMarker(index, marker(request, groupsTask, "running", Map.of())));
            if (missing.isEmpty() == false) properties.put("properties", missing);
            PutMappingRequest put = new PutMappingRequest(index.getIndex().getName()).source(properties);
            put.setParentTask(clusterService.localNode().getId(), task.getId());
            client.admin().indices().putMapping(put, ActionListener.wrap(r -> compute.run(), listener::onFailure));
        } catch (Exception e) {
            listener.onFailure(e);
        }
    }

    private static String status(Exception e) {
        return ExceptionsHelper.unwrap(e, TaskCancelledException.class) != null ? "cancelled" : "failed";
    }

    /** The marker's value: what ran, by which task, since when, and how it ended. */
    private Map<String, Object> marker(
        SimHashGroupsWriteRequest request,
        SimHashGroupsTask task,
        String status,
        Map<String, Object> outcome
    ) {
        Map<String, Object> marker = new LinkedHashMap<>();
        marker.put("status", status);
        marker.put("task", clusterService.localNode().getId() + ":" + task.getId());
        marker.put("field", request.field());
        if (request.maxDistance() != null) marker.put("max_distance", request.maxDistance());
        if (request.minSimilarity() != null) marker.put(GroupsRequest.MIN_SIMILARITY, request.minSimilarity());
        marker.put("group_field", request.groupField());
        marker.put("distance_field", request.distanceField());
        marker.put("started", Instant.ofEpochMilli(task.getStartTime()).toString());
        if (status.equals("running") == false) marker.put("ended", Instant.now().toString());
        marker.putAll(outcome);
        return marker;
    }

    /** The index's {@code _meta} with the marker set (a mapping update replaces {@code _meta} as a whole). */
    private static Map<String, Object> withMarker(IndexMetadata index, Map<String, Object> marker) {
        Map<String, Object> meta = new LinkedHashMap<>(FieldMappings.meta(index));
        meta.put(MARKER, marker);
        return meta;
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
            Map<String, Object> meta = withMarker(current == null ? index : current, marker(request, task, status, outcome));
            PutMappingRequest put = new PutMappingRequest(index.getIndex().getName()).source(Map.of("_meta", meta));
            client.admin().indices().putMapping(put, ActionListener.wrap(r -> answer.run(), e -> answer.run()));
        } catch (Exception e) {
            answer.run();
        }
    }

    /**
     * The properties to add for fields that are not mapped yet; refuses fields mapped with a type that
     * {@code collapse} or a numeric aggregation could not use.
     */
    static Map<String, Object> missingMappings(IndexMetadata index, SimHashGroupsWriteRequest request) {
        Map<String, Object> missing = new LinkedHashMap<>();
        String groupType = FieldMappings.documentPathType(index, request.groupField());
        if (groupType == null) {
            putPath(missing, request.groupField(), Map.of("type", "keyword"), true);
        } else if (groupType.equals("keyword") == false) {
            throw new IllegalArgumentException(
                "[group_field] ["
                    + request.groupField()
                    + "] is mapped as ["
                    + groupType
                    + "]; it must be a [keyword] field for collapse and terms aggregations"
            );
        }
        String distanceType = FieldMappings.documentPathType(index, request.distanceField());
        if (distanceType == null) {
            putPath(missing, request.distanceField(), Map.of("type", "integer"), true);
        } else if (INTEGER_TYPES.contains(distanceType) == false) {
            throw new IllegalArgumentException(
                "[distance_field] [" + request.distanceField() + "] is mapped as [" + distanceType + "]; it must be an integer field"
            );
        }
        return missing;
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

    /** Documents per singleton page: at least this many (or batch_size), and up to the members' units. */
    static final int MIN_PAGE = 10_000;
    /** Documents per singleton page at most (or batch_size): a page holds about 20 bytes per document plus its ids. */
    static final int MAX_PAGE = 100_000;

    private enum Phase {
        MEMBERS,
        SINGLETONS,
        CLEARING
    }

    private final class Writer {
        private final SimHashGroupsTask task;
        private final SimHashGroupsWriteRequest request;
        private final IndexMetadata indexMetadata;
        private final AliasFilter aliasFilter;
        private final String index;
        private final GroupsComputation.Result result;
        private final ActionListener<SimHashGroupsWriteResponse> listener;
        private final long startNanos; // the request's: took covers the grouping and the writing
        private final long writeStartNanos = System.nanoTime(); // the throttle's clock
        /** The stale pass's answers, reserved in the breaker until the run ends. */
        private final Reservation reservation;
        private final AtomicBoolean ended = new AtomicBoolean();
        private final List<String> failures = new ArrayList<>();
        private volatile Scheduler.ScheduledCancellable throttled;
        /** The current phase's updates, handed out in batches with at most {@link #BATCHES_IN_FLIGHT} in flight. */
        private final PhasedBatches<UpdateRequest> batches;
        private long sent;
        private long failureCount;
        private volatile Phase phase = Phase.MEMBERS;
        /** The singleton pass: the members' units (sorted fingerprints, signatures beside them or null), reserved. */
        private long[] inGroups;
        private byte[] inGroupSignatures;
        private long unitBytes;
        /** The singleton pass: the shard being read, where its next page starts and its last {@code _seq_no}. */
        private int shard;
        private long fromSeqNo;
        private long toSeqNo = -1;
        private int pageLimit;
        /** The page being written, reserved until the next page is asked for. */
        private long pageBytes;

        Writer(
            SimHashGroupsTask task,
            SimHashGroupsWriteRequest request,
            IndexMetadata indexMetadata,
            AliasFilter aliasFilter,
            GroupsComputation.Result result,
            long startNanos,
            ActionListener<SimHashGroupsWriteResponse> listener
        ) {
            this.startNanos = startNanos;
            this.task = task;
            this.request = request;
            this.indexMetadata = indexMetadata;
            this.aliasFilter = aliasFilter;
            this.index = indexMetadata.getIndex().getName();
            this.result = result;
            this.listener = listener;
            this.reservation = new Reservation(engine.breaker(), "near_duplicate groups write");
            this.batches = new PhasedBatches<>(BATCHES_IN_FLIGHT, memberUpdates());
            task.groups.set(result.groups().size());
            task.toWrite.set(result.docsInGroups());
        }

        /**
         * One update per member, made when its batch is sent: the run holds the groups, never all the requests. A member
         * whose group fields already hold its group and distance (read with it on its shard) is counted unchanged and
         * not sent.
         */
        private Iterator<UpdateRequest> memberUpdates() {
            MembersToWrite members = new MembersToWrite(result.groups(), task.noops::incrementAndGet);
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return members.hasNext();
                }

                @Override
                public UpdateRequest next() {
                    MembersToWrite.Update u = members.next();
                    return update(u.id(), u.routing(), u.group(), u.distance());
                }
            };
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
            // a cancel stops a throttle wait at once, not when its delay ends
            task.whenCancelled(() -> {
                Scheduler.ScheduledCancellable waiting = throttled;
                if (waiting != null && waiting.cancel()) {
                    fail(new TaskCancelledException("near_duplicate groups write task cancelled: " + task.getReasonCancelled()));
                }
            });
            nextBatch();
        }

        /**
         * Sends the next batches of updates, after the delay the throttle asks for; members first, then the singletons
         * page by page, then documents without a fingerprint that still hold a group. Up to {@link #BATCHES_IN_FLIGHT}
         * bulk requests are in flight (one when throttled); a phase moves on when its last batch has answered.
         */
        private void nextBatch() {
            if (ended.get()) return;
            try {
                checkCancelled();
                PhasedBatches.Take<UpdateRequest> take = batches.take(request.batchSize(), request.requestsPerSecond() > 0);
                if (take.phaseOver()) {
                    switch (phase) {
                        case MEMBERS -> startSingletons();
                        case SINGLETONS -> nextPage();
                        case CLEARING -> finish();
                    }
                    return;
                }
                for (List<UpdateRequest> updates : take.batches()) {
                    BulkRequest bulk = new BulkRequest();
                    for (UpdateRequest update : updates)
                        bulk.add(update);
                    sendThrottled(bulk);
                }
            } catch (Exception e) {
                fail(e);
            }
        }

        private void sendThrottled(BulkRequest bulk) {
            long delayNanos = 0;
            synchronized (this) {
                if (request.requestsPerSecond() > 0) {
                    double due = writeStartNanos + sent * 1e9 / request.requestsPerSecond();
                    delayNanos = (long) Math.max(0, Math.min(Long.MAX_VALUE / 2, due - System.nanoTime()));
                }
                sent += bulk.numberOfActions();
            }
            Runnable send = () -> {
                throttled = null;
                try {
                    checkCancelled();
                    bulk.setParentTask(new TaskId(clusterService.localNode().getId(), task.getId()));
                    client.bulk(bulk, ActionListener.wrap(response -> {
                        task.batches.incrementAndGet();
                        synchronized (this) {
                            for (BulkItemResponse item : response.getItems())
                                count(item);
                        }
                        batches.answered(); // after counting: the phase's end sees every answer counted
                        nextBatch();
                    }, this::fail));
                } catch (Exception e) {
                    fail(e);
                }
            };
            if (delayNanos > 0) {
                task.throttledMillis.addAndGet(TimeUnit.NANOSECONDS.toMillis(delayNanos));
                throttled = threadPool.schedule(send, TimeValue.timeValueNanos(delayNanos), threadPool.generic());
                if (task.isCancelled() && throttled.cancel()) {
                    fail(new TaskCancelledException("near_duplicate groups write task cancelled: " + task.getReasonCancelled()));
                }
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
            } else if (phase == Phase.CLEARING) {
                task.cleared.incrementAndGet();
            } else if (phase == Phase.SINGLETONS) {
                task.singletons.incrementAndGet();
            } else {
                task.written.incrementAndGet();
            }
        }

        /**
         * The singleton pass: every visible document with a fingerprint that is in no group gets its own {@code _id}
         * as group and distance 0, so that {@code collapse} never merges unrelated documents. One shard at a time,
         * one page at a time: a shard answers the next page of its documents to write (by {@code _seq_no}, skipping
         * members and documents that already carry their own id; {@link TransportSimHashShardFingerprintsAction}),
         * the page is reserved when it arrives, written in batches, and given back before the next page is asked
         * for. The members' units (fingerprint and, for a signed run, signature) go with every page request and stay
         * reserved until the pass ends.
         */
        private void startSingletons() {
            phase = Phase.SINGLETONS;
            task.phase("writing singletons");
            boolean signed = Double.isNaN(result.minSimilarity()) == false;
            unitBytes = (8L + (signed ? Signature.BYTES : 0)) * result.docsInGroups();
            reservation.reserve(unitBytes, "fingerprints in groups");
            if (signed) {
                // units (fingerprint, signature): a document sharing a member's fingerprint but not its signature may
                // be in no group, and is then a singleton
                GroupMembers.Member[] units = result.groups()
                    .stream()
                    .flatMap(g -> g.members().stream())
                    .sorted(
                        java.util.Comparator.comparingLong(GroupMembers.Member::fingerprint)
                            .thenComparing(
                                GroupMembers.Member::signature,
                                java.util.Comparator.nullsFirst(java.util.Arrays::compareUnsigned)
                            )
                    )
                    .toArray(GroupMembers.Member[]::new);
                inGroups = new long[units.length];
                inGroupSignatures = new byte[Signature.BYTES * units.length];
                for (int i = 0; i < units.length; i++) {
                    inGroups[i] = units[i].fingerprint();
                    if (units[i].signature() != null) {
                        System.arraycopy(units[i].signature(), 0, inGroupSignatures, Signature.BYTES * i, Signature.BYTES);
                    }
                }
            } else {
                inGroups = result.groups()
                    .stream()
                    .flatMap(g -> g.members().stream())
                    .mapToLong(GroupMembers.Member::fingerprint)
                    .sorted()
                    .distinct()
                    .toArray();
            }
            pageLimit = (int) Math.max(request.batchSize(), Math.min(Math.max(inGroups.length, MIN_PAGE), MAX_PAGE));
            shard = 0;
            fromSeqNo = 0;
            toSeqNo = -1;
            nextPage();
        }

        /** Gives back the page just written and asks the current shard for its next one (or moves on). */
        private void nextPage() {
            reservation.release(pageBytes);
            pageBytes = 0;
            if (shard >= indexMetadata.getNumberOfShards()) {
                reservation.release(unitBytes);
                unitBytes = 0;
                inGroups = null;
                inGroupSignatures = null;
                clearStale();
                return;
            }
            SimHashShardFingerprintsRequest page = new SimHashShardFingerprintsRequest(
                new ShardId(indexMetadata.getIndex(), shard),
                request.field(),
                inGroups,
                inGroupSignatures,
                request.groupField(),
                request.distanceField(),
                fromSeqNo,
                toSeqNo,
                pageLimit,
                aliasFilter
            ).originalIndices(new OriginalIndices(request));
            page.setParentTask(new TaskId(clusterService.localNode().getId(), task.getId()));
            client.executeLocally(SimHashShardFingerprintsAction.INSTANCE, page, ActionListener.wrap(r -> {
                try {
                    reservation.reserve(r.ramBytes(), "a page of singletons of a shard");
                } catch (Exception e) {
                    fail(e);
                    return;
                }
                pageBytes = r.ramBytes();
                threadPool.generic().execute(() -> writePage(r));
            }, this::fail));
        }

        private void writePage(SimHashShardFingerprintsResponse page) {
            try {
                if (ended.get()) return;
                toSeqNo = page.toSeqNo();
                fromSeqNo = page.nextSeqNo();
                if (fromSeqNo > toSeqNo) {
                    shard++;
                    fromSeqNo = 0;
                    toSeqNo = -1;
                }
                DocList docs = page.docs();
                batches.startPhase(new Iterator<>() {
                    private int doc;

                    @Override
                    public boolean hasNext() {
                        return doc < docs.size();
                    }

                    @Override
                    public UpdateRequest next() {
                        if (hasNext() == false) throw new NoSuchElementException();
                        int i = doc++;
                        String id = docs.id(i);
                        return update(id, docs.routing(i), id, 0);
                    }
                });
                nextBatch();
            } catch (Exception e) {
                fail(e);
            }
        }

        /**
         * Documents without a fingerprint that hold a group from an earlier run lose both fields (documents with one
         * are members or singletons, written above). Every shard lists them from doc values (the group field's, then
         * the fingerprint's): no search context to keep open. Their answers are reserved in the breaker when they
         * arrive and held until the run ends.
         */
        private void clearStale() {
            phase = Phase.CLEARING;
            task.phase("clearing documents without a fingerprint");
            int shards = indexMetadata.getNumberOfShards();
            GroupedActionListener<SimHashShardFingerprintsResponse> all = new GroupedActionListener<>(
                shards,
                ActionListener.wrap(responses -> threadPool.generic().execute(() -> clearAll(responses)), this::fail)
            );
            for (int s = 0; s < shards; s++) {
                SimHashShardFingerprintsRequest stale = new SimHashShardFingerprintsRequest(
                    new ShardId(indexMetadata.getIndex(), s),
                    request.field(),
                    new long[0], // no members: every document with a fingerprint has had its group written
                    null,
                    request.groupField(),
                    aliasFilter
                ).originalIndices(new OriginalIndices(request));
                stale.setParentTask(new TaskId(clusterService.localNode().getId(), task.getId()));
                client.executeLocally(SimHashShardFingerprintsAction.INSTANCE, stale, ActionListener.wrap(r -> {
                    try {
                        reservation.reserve(r.ramBytes(), "documents to clear of a shard");
                    } catch (Exception e) {
                        all.onFailure(e);
                        return;
                    }
                    all.onResponse(r);
                }, all::onFailure));
            }
        }

        private void clearAll(Collection<SimHashShardFingerprintsResponse> responses) {
            try {
                List<DocList> lists = new ArrayList<>();
                for (SimHashShardFingerprintsResponse r : responses)
                    lists.add(r.docs());
                batches.startPhase(new Iterator<>() {
                    private int list;
                    private int doc;

                    @Override
                    public boolean hasNext() {
                        while (list < lists.size() && doc >= lists.get(list).size()) {
                            list++;
                            doc = 0;
                        }
                        return list < lists.size();
                    }

                    @Override
                    public UpdateRequest next() {
                        if (hasNext() == false) throw new NoSuchElementException();
                        DocList docs = lists.get(list);
                        int i = doc++;
                        return update(docs.id(i), docs.routing(i), null, null);
                    }
                });
                nextBatch();
            } catch (Exception e) {
                fail(e);
            }
        }

        /** Ends the run once: gives back its memory; the marker records the outcome. */
        private boolean end() {
            if (ended.compareAndSet(false, true) == false) return false;
            Releasables.close(reservation, result);
            return true;
        }

        /** Documents written until then keep their values; a re-run completes them. */
        private void fail(Exception e) {
            if (end() == false) return;
            Map<String, Object> outcome = new LinkedHashMap<>();
            outcome.put("written", task.written.get());
            outcome.put("singletons", task.singletons.get());
            outcome.put("reason", String.valueOf(e.getMessage()));
            mark(indexMetadata, request, task, status(e), outcome, listener, e);
        }

        private void finish() {
            if (end() == false) return;
            SimHashGroupsWriteResponse response = new SimHashGroupsWriteResponse(
                index,
                request.field(),
                result.maxDistance(),
                result.minSimilarity(),
                result.algorithm(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                result.docs(),
                result.groups().size(),
                result.docsInGroups(),
                task.written.get(),
                task.noops.get(),
                task.cleared.get(),
                task.singletons.get(),
                task.batches.get(),
                task.throttledMillis.get(),
                failureCount,
                failures
            );
            Map<String, Object> outcome = new LinkedHashMap<>();
            outcome.put("groups", result.groups().size());
            outcome.put("written", task.written.get());
            outcome.put("singletons", task.singletons.get());
            outcome.put("cleared", task.cleared.get());
            outcome.put("failures", failureCount);
            mark(indexMetadata, request, task, failureCount == 0 ? "completed" : "completed_with_failures", outcome, listener, response);
        }
    }
}
