package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.common.MaxDistance;
import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.NearDuplicateProbe;
import org.nearduplicate.opensearch.index.query.NearDuplicateQueryBuilder;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;
import org.opensearch.ExceptionsHelper;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.common.document.DocumentField;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.query.BoolQueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.common.util.concurrent.AtomicArray;
import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;
import org.opensearch.ingest.Processor;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.threadpool.Scheduler;
import org.opensearch.transport.client.Client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * {@code near_duplicate_check}: after {@code simhash} has fingerprinted a document, looks for the closest existing
 * near-duplicate (within {@code max_distance}) in a target index and records it on the document, or drops the document.
 *
 * <p>Three sources are consulted: a {@code near_duplicate} search of the target index (asynchronous, with a timeout and
 * a cap on in-flight searches), the node's {@link RecentFingerprints} window, which holds the documents this node
 * checked recently and so catches copies not yet refreshed, and the bulk set, which holds every earlier document of the
 * same bulk request (batch), whatever its size. The closest wins (the index on ties). Fingerprints are compared only
 * with fingerprints of the same algorithm: the search sends the document's {@code algorithm}, and windows and bulk
 * sets are kept per algorithm.
 *
 * <p>A document that found nothing is {@code unchecked} rather than {@code unique} when the answer may be incomplete:
 * the target is closed or mapped with another algorithm, the bulk set could not keep every earlier document of the
 * bulk (memory), or the window let go of a document this node checked before it may be searchable (a gap, see
 * {@link RecentFingerprints#staleUntil}).
 *
 * <p>Result ({@code result_field}, default {@code near_duplicate}):
 * {@code {"status": "duplicate", "_id": "...", "_index": "...", "distance": 2, "source": "index" | "recent"}},
 * {@code {"status": "unique"}}, or {@code {"status": "unchecked", "reason": "..."}} when the check could not be sure
 * (lookup timed out, refused or failed, closed target, another algorithm, bulk set overflow, window gap) and
 * {@code on_unavailable} is {@code tag}; with {@code fail}, an ingest error with a status per case (400, 429 or 503).
 */
public final class NearDuplicateCheckProcessor extends AbstractProcessor {
    public static final String TYPE = "near_duplicate_check";

    public enum OnDuplicate {
        TAG,
        DROP
    }

    public enum OnUnavailable {
        FAIL,
        TAG
    }

    /** Hits a batched search returns per document it looks up (beyond that, its documents are looked up one by one). */
    static final int HITS_PER_BATCHED_DOCUMENT = 10;
    /** The default {@code index.max_result_window}: a batched search never asks for more hits. */
    static final int MAX_BATCH_HITS = 10_000;
    /** With {@link #HITS_PER_BATCHED_DOCUMENT}, a batch asks for at most {@link #MAX_BATCH_HITS} hits. */
    static final int MAX_BATCH_SIZE = 1_000;

    private final String field;
    private final String index;
    private final String indexField;
    /** Null: the target field's mapped {@code max_distance} ({@link MaxDistance#orField}). */
    private final Integer maxDistance;
    private final MappedMaxDistance mappedMaxDistance;
    private final OnDuplicate onDuplicate;
    private final OnUnavailable onUnavailable;
    private final String resultField;
    private final String groupField;
    private final TimeValue timeout;
    private final boolean ignoreMissing;
    private final int windowSize;
    private final TimeValue windowTtl;
    private final int batchSize;
    private final Semaphore inFlight;
    private final int maxInFlight;
    private final int maxQueued;
    private final AtomicInteger queued = new AtomicInteger();
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();
    private final Client client;
    private final BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler;
    private final RecentFingerprints.Registry windows;

    /** Why a document could not be checked, and the HTTP status of the error when {@code on_unavailable} is {@code fail}. */
    /**
     * Why a check could not answer for sure. {@code mayFail}: {@code on_unavailable: fail} turns it into an ingest error;
     * a possibly stale search (the search ran, but may not show recent writes) is always tagged {@code unchecked}, so
     * that a bulk load with refresh off does not fail its documents.
     */
    record Unavailable(String reason, RestStatus status, boolean mayFail) {
        Unavailable(String reason, RestStatus status) {
            this(reason, status, true);
        }
    }

    /** Time from a document's check to its being searchable beyond the target's refresh_interval (scheduling, search). */
    static final long REFRESH_MARGIN_MILLIS = 1_000;

    /** One bulk request's documents (one {@link #batchExecute} call): a token for the windows' gaps, and its bulk sets. */
    private final class Batch {
        final Object token = new Object();
        /** Per (target, k, algorithm); null for a document checked alone. */
        final Map<String, RecentFingerprints> sets;
        final int size;

        Batch(int size) {
            this.size = size;
            this.sets = size > 1 ? new LinkedHashMap<>() : null;
        }

        RecentFingerprints set(String targetIndex, int maxDistance, String algorithm) {
            return sets.computeIfAbsent(
                targetIndex + '\u0000' + maxDistance + '\u0000' + algorithm,
                k -> RecentFingerprints.bulkSet(maxDistance, windows.bulkBudget())
            );
        }

        /** The bulk sets are needed while the batch's documents are prepared (synchronously), not by their searches. */
        void release() {
            if (sets != null) {
                sets.values().forEach(RecentFingerprints::retire);
            }
        }
    }

    NearDuplicateCheckProcessor(
        String tag,
        String description,
        String field,
        String index,
        String indexField,
        Integer maxDistance,
        MappedMaxDistance mappedMaxDistance,
        OnDuplicate onDuplicate,
        OnUnavailable onUnavailable,
        String resultField,
        String groupField,
        TimeValue timeout,
        boolean ignoreMissing,
        int maxInFlight,
        int maxQueued,
        int windowSize,
        TimeValue windowTtl,
        int batchSize,
        Client client,
        BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler,
        RecentFingerprints.Registry windows
    ) {
        super(tag, description);
        this.field = field;
        this.index = index;
        this.indexField = indexField;
        this.maxDistance = maxDistance;
        this.mappedMaxDistance = mappedMaxDistance;
        this.onDuplicate = onDuplicate;
        this.onUnavailable = onUnavailable;
        this.resultField = resultField;
        this.groupField = groupField;
        this.timeout = timeout;
        this.ignoreMissing = ignoreMissing;
        this.maxInFlight = maxInFlight;
        this.maxQueued = maxQueued;
        this.inFlight = new Semaphore(maxInFlight);
        this.windowSize = windowSize;
        this.windowTtl = windowTtl;
        this.batchSize = batchSize;
        this.client = client;
        this.scheduler = scheduler;
        this.windows = windows;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] is asynchronous");
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        Lookup lookup = prepare(document, handler, new Batch(1));
        if (lookup != null) {
            if (lookup.unavailable != null) {
                lookup.finishFromWindow(lookup.unavailable);
            } else {
                dispatch(List.of(lookup));
            }
        }
    }

    /**
     * A bulk request's documents (OpenSearch hands a processor all documents of one bulk request for one index and
     * pipeline): each is checked against the window and against every earlier document of the batch (the bulk set) in
     * order, then their searches go out together, {@code batch_size} fingerprints per search, instead of one search per
     * document.
     */
    @Override
    public void batchExecute(List<IngestDocumentWrapper> documents, Consumer<List<IngestDocumentWrapper>> handler) {
        if (documents.isEmpty()) {
            handler.accept(List.of());
            return;
        }
        AtomicArray<IngestDocumentWrapper> results = new AtomicArray<>(documents.size());
        AtomicInteger remaining = new AtomicInteger(documents.size());
        Map<String, List<Lookup>> byTarget = new LinkedHashMap<>();
        List<Lookup> unavailable = new ArrayList<>();
        Batch batch = new Batch(documents.size());
        try {
            for (int i = 0; i < documents.size(); i++) {
                int slot = i;
                IngestDocumentWrapper wrapper = documents.get(i);
                Lookup lookup = prepare(wrapper.getIngestDocument(), (doc, e) -> {
                    results.set(slot, new IngestDocumentWrapper(wrapper.getSlot(), wrapper.getChildSlot(), doc, e));
                    if (remaining.decrementAndGet() == 0) {
                        handler.accept(results.asList());
                    }
                }, batch);
                if (lookup == null) {
                    continue;
                }
                if (lookup.unavailable != null) {
                    unavailable.add(lookup);
                } else {
                    String key = lookup.targetIndex + '\u0000' + lookup.maxDistance + '\u0000' + lookup.algorithm;
                    byTarget.computeIfAbsent(key, k -> new ArrayList<>()).add(lookup);
                }
            }
        } finally {
            batch.release();
        }
        unavailable.forEach(l -> l.finishFromWindow(l.unavailable));
        for (List<Lookup> lookups : byTarget.values()) {
            for (int from = 0; from < lookups.size(); from += batchSize) {
                dispatch(lookups.subList(from, Math.min(from + batchSize, lookups.size())));
            }
        }
    }

    /**
     * Reads the document's fingerprint, algorithm and target, checks it against the window and the batch's bulk set and
     * adds it to both (synchronous and atomic: of two copies in one bulk request, the second sees the first). Null when
     * the document is already answered (missing field with {@code ignore_missing}, or an error).
     */
    private Lookup prepare(IngestDocument document, BiConsumer<IngestDocument, Exception> handler, Batch batch) {
        final long fingerprint;
        final String algorithm;
        final String targetIndex;
        final String id;
        final int maxDistance;
        try {
            Object value = document.getFieldValue(field, Object.class, true);
            if (value == null) {
                if (ignoreMissing) {
                    handler.accept(document, null);
                    return null;
                }
                throw new IllegalArgumentException("field [" + field + "] is missing, cannot check for near-duplicates");
            }
            if (value instanceof Map<?, ?> map) {
                Object made = map.get(SimHashMethod.ALGORITHM_KEY);
                algorithm = made == null ? null : made.toString();
                value = map.get(SimHashMethod.FINGERPRINT_KEY);
                if (value == null) {
                    throw new IllegalArgumentException("field [" + field + "] has no [" + SimHashMethod.FINGERPRINT_KEY + "]");
                }
            } else {
                algorithm = null; // a bare fingerprint: its algorithm is unknown, assumed to be the field's
            }
            fingerprint = FingerprintValues.parse(value);
            targetIndex = index != null ? index : document.getFieldValue(IngestDocument.Metadata.INDEX.getFieldName(), String.class);
            id = document.getFieldValue(IngestDocument.Metadata.ID.getFieldName(), String.class, true);
            maxDistance = MaxDistance.orField(this.maxDistance, mappedMaxDistance.of(targetIndex, indexField));
            RecentFingerprints.checkMaxDistance(maxDistance);
        } catch (Exception e) {
            handler.accept(null, e);
            return null;
        }
        Unavailable unavailable = null;
        if (mappedMaxDistance.closed(targetIndex)) {
            unavailable = new Unavailable("target index [" + targetIndex + "] is closed", RestStatus.BAD_REQUEST);
        } else if (algorithm != null) {
            Set<String> mapped = mappedMaxDistance.algorithms(targetIndex, indexField);
            if (mapped.isEmpty() == false && mapped.contains(algorithm) == false) {
                unavailable = new Unavailable(
                    "the fingerprint was made with algorithm [" + algorithm + "] but field [" + indexField + "] of [" + targetIndex
                        + "] is mapped with algorithm " + mapped + "; fingerprints made differently cannot be compared",
                    RestStatus.BAD_REQUEST
                );
            }
        }
        // a document this node checked counts as searchable once the target's refresh_interval (and a margin) has passed
        long refresh = mappedMaxDistance.refreshMillis(targetIndex);
        long horizon = refresh < 0 ? Long.MAX_VALUE : refresh + REFRESH_MARGIN_MILLIS;
        RecentFingerprints window = windows.window(targetIndex, indexField, algorithm, maxDistance, windowSize, windowTtl.millis());
        RecentFingerprints.Result recent = window.checkAndAdd(fingerprint, id, batch.token, horizon);
        Outcome fromWindow = recentOutcome(recent.match(), targetIndex);
        Unavailable gap = null;
        if (batch.sets != null) {
            RecentFingerprints set = batch.set(targetIndex, maxDistance, algorithm);
            boolean exhaustive = set.overflowed() == false; // every earlier document of the batch is in the set
            Outcome fromBulk = recentOutcome(set.checkAndKeep(recent.added()), targetIndex);
            if (fromBulk != null && (fromWindow == null || fromBulk.distance() < fromWindow.distance())) {
                fromWindow = fromBulk;
            }
            if (exhaustive == false) {
                gap = new Unavailable(
                    "the bulk request's " + batch.size + " documents could not all be compared with each other: the [near_duplicate] "
                        + "breaker refused memory for the fingerprints of the earlier ones after " + set.size() + " documents",
                    RestStatus.TOO_MANY_REQUESTS
                );
            }
        }
        long checked = recent.added().addedMillis;
        if (gap == null && recent.staleUntil() > checked) {
            gap = new Unavailable(
                "the search may not see documents this node checked recently: its recent window (window_size " + windowSize
                    + ", window_ttl " + windowTtl + ") let go of " + window.lostEntries() + " document(s) before they could be searchable ("
                    + (recent.staleUntil() == Long.MAX_VALUE
                        ? "never: refresh_interval of [" + targetIndex + "] is -1"
                        : "for another " + TimeValue.timeValueMillis(recent.staleUntil() - checked) + ": the refresh_interval of ["
                            + targetIndex + "] and " + REFRESH_MARGIN_MILLIS + " ms after their check")
                    + ")",
                RestStatus.SERVICE_UNAVAILABLE,
                false
            );
        }
        return new Lookup(document, fingerprint, algorithm, targetIndex, id, maxDistance, recent, fromWindow, unavailable, gap, handler);
    }

    private static Outcome recentOutcome(RecentFingerprints.Match match, String targetIndex) {
        return match == null ? null : new Outcome(match.entry().id(), targetIndex, match.distance(), "recent", null, match.entry());
    }

    /** One document waiting for its search; {@link #finish} answers it once (the first of search, timeout, refusal). */
    private final class Lookup {
        final IngestDocument document;
        final long fingerprint;
        final String algorithm;
        final String targetIndex;
        final String id;
        final int maxDistance;
        final RecentFingerprints.Result recent;
        final Outcome fromWindow;
        /** Not searched (closed target, another algorithm). */
        final Unavailable unavailable;
        /** The answer may be incomplete (window gap, bulk set overflow): no match is then not {@code unique}. */
        final Unavailable gap;
        final BiConsumer<IngestDocument, Exception> handler;
        final AtomicBoolean done = new AtomicBoolean();

        Lookup(IngestDocument document, long fingerprint, String algorithm, String targetIndex, String id, int maxDistance,
               RecentFingerprints.Result recent, Outcome fromWindow, Unavailable unavailable, Unavailable gap,
               BiConsumer<IngestDocument, Exception> handler) {
            this.document = document;
            this.fingerprint = fingerprint;
            this.algorithm = algorithm;
            this.unavailable = unavailable;
            this.gap = gap;
            this.targetIndex = targetIndex;
            this.id = id;
            this.maxDistance = maxDistance;
            this.recent = recent;
            this.fromWindow = fromWindow;
            this.handler = handler;
        }

        void finish(Outcome outcome, Unavailable unavailable) {
            if (done.compareAndSet(false, true) == false) {
                return;
            }
            String ownGroup = id != null ? id : Fingerprints.toHex(fingerprint);
            try {
                Unavailable why = unavailable != null ? unavailable : gap;
                complete(document, fingerprint, ownGroup, outcome, why, recent == null ? null : recent.added(), handler);
            } catch (Exception e) {
                if (recent != null) {
                    recent.added().group().complete(ownGroup);
                }
                handler.accept(null, e);
            }
        }

        /** Answers from the window alone (the search is unavailable). */
        void finishFromWindow(Unavailable unavailable) {
            finish(fromWindow, unavailable);
        }

        void finishFromWindow(String reason, RestStatus status) {
            finishFromWindow(new Unavailable(reason, status));
        }
    }

    /** Sends one search for {@code lookups} (same target index and k), under the timeout and the in-flight cap. */
    private void dispatch(List<Lookup> lookups) {
        Scheduler.ScheduledCancellable timer;
        try {
            timer = scheduler.apply(
                timeout.millis(),
                () -> lookups.forEach(l -> l.finishFromWindow("lookup timed out after " + timeout, RestStatus.SERVICE_UNAVAILABLE))
            );
        } catch (Exception e) {
            lookups.forEach(l -> l.finishFromWindow("lookup could not be scheduled: " + e.getMessage(), RestStatus.SERVICE_UNAVAILABLE));
            return;
        }
        Runnable lookup = () -> {
            if (lookups.stream().allMatch(l -> l.done.get())) { // timed out while queued
                release();
                return;
            }
            search(lookups, timer);
        };
        if (submit(lookup) == false) {
            timer.cancel();
            lookups.forEach(l -> l.finishFromWindow(tooMany()));
        }
    }

    private Unavailable tooMany() {
        return new Unavailable(
            "too many lookups in flight (max_in_flight " + maxInFlight + ", max_queued " + maxQueued + ")",
            RestStatus.TOO_MANY_REQUESTS
        );
    }

    /** Runs the lookup now, or queues it while {@code max_in_flight} searches run; false when the queue is full too. */
    private boolean submit(Runnable lookup) {
        if (inFlight.tryAcquire()) {
            lookup.run();
            return true;
        }
        if (queued.incrementAndGet() > maxQueued) {
            queued.decrementAndGet();
            return false;
        }
        pending.add(lookup);
        drain(); // a slot may have been freed between tryAcquire and add
        return true;
    }

    private void release() {
        inFlight.release();
        drain();
    }

    private void drain() {
        while (pending.isEmpty() == false && inFlight.tryAcquire()) {
            Runnable next = pending.poll();
            if (next == null) {
                inFlight.release();
                continue;
            }
            queued.decrementAndGet();
            next.run();
        }
    }

    /**
     * One document: the closest hit of a size-1 search without the document itself. Several: one search for all their
     * fingerprints (a {@code near_duplicate} query with {@code fingerprints}) returning up to {@link #HITS_PER_BATCHED_DOCUMENT} hits
     * per document, from which each document takes its closest hit within k. When that many hits come back, some may
     * be missing: each document is then looked up alone, under the same timer, so that the answer stays exact.
     */
    private void search(List<Lookup> lookups, Scheduler.ScheduledCancellable timer) {
        Lookup first = lookups.get(0);
        int size;
        SearchSourceBuilder source = new SearchSourceBuilder();
        if (lookups.size() == 1) {
            BoolQueryBuilder query = QueryBuilders.boolQuery().must(probeQuery(first.fingerprint, first.algorithm, first.maxDistance));
            if (first.id != null) {
                query.mustNot(QueryBuilders.idsQuery().addIds(first.id));
            }
            source.query(query);
            size = 1;
        } else {
            // one query for all fingerprints: one pass over each segment's terms (or one scan of a small segment)
            long[] fingerprints = lookups.stream().mapToLong(l -> l.fingerprint).distinct().toArray();
            source.query(
                QueryBuilders.constantScoreQuery(
                    new NearDuplicateQueryBuilder(indexField, NearDuplicateProbe.fingerprints(fingerprints, first.algorithm))
                        .maxDistance(first.maxDistance)
                        .ignoreUnmapped(true)
                )
            );
            size = Math.min(MAX_BATCH_HITS, lookups.size() * HITS_PER_BATCHED_DOCUMENT);
        }
        source.size(size).docValueField(indexField).timeout(timeout).trackTotalHits(false);
        if (groupField != null) {
            source.fetchSource(new String[] { groupField }, null);
        } else {
            source.fetchSource(false);
        }
        SearchRequest request = new SearchRequest(first.targetIndex).source(source).indicesOptions(IndicesOptions.lenientExpandOpen());
        try {
            client.search(request, ActionListener.runAfter(ActionListener.wrap(response -> {
                SearchHit[] hits = response.getHits().getHits();
                if (lookups.size() > 1 && hits.length >= size) {
                    for (Lookup l : lookups) {
                        Runnable alone = () -> {
                            if (l.done.get()) {
                                release();
                            } else {
                                search(List.of(l), null);
                            }
                        };
                        if (submit(alone) == false) {
                            l.finishFromWindow(tooMany());
                        }
                    }
                    return;
                }
                if (timer != null) timer.cancel();
                Unavailable shardFailures = shardFailures(response);
                for (Lookup l : lookups) {
                    Outcome fromIndex = closest(hits, l.fingerprint, l.maxDistance, l.id);
                    l.finish(better(fromIndex, l.fromWindow), fromIndex == null ? shardFailures : null);
                }
            }, e -> {
                if (timer != null) timer.cancel();
                lookups.forEach(l -> l.finishFromWindow(failed(e)));
            }), this::release));
        } catch (Exception e) {
            if (timer != null) timer.cancel();
            release();
            lookups.forEach(l -> l.finishFromWindow(failed(e)));
        }
    }

    /** A failed search: its status when it is a client error (a closed index: 400), otherwise 503 (never a 500). */
    private static Unavailable failed(Exception e) {
        RestStatus status = ExceptionsHelper.status(ExceptionsHelper.unwrapCause(e));
        return new Unavailable("lookup failed: " + e.getMessage(), status.getStatus() < 500 ? status : RestStatus.SERVICE_UNAVAILABLE);
    }

    /** Null when every shard answered; otherwise the first failure's reason (e.g. a field of another algorithm). */
    private static Unavailable shardFailures(SearchResponse response) {
        if (response.getFailedShards() <= 0) {
            return null;
        }
        String reason = "lookup failed on " + response.getFailedShards() + " shard(s)";
        RestStatus status = RestStatus.SERVICE_UNAVAILABLE;
        if (response.getShardFailures().length > 0) {
            reason += ": " + response.getShardFailures()[0].reason();
            if (response.getShardFailures()[0].status().getStatus() < 500) status = response.getShardFailures()[0].status();
        }
        return new Unavailable(reason, status);
    }

    private NearDuplicateQueryBuilder probeQuery(long fingerprint, String algorithm, int maxDistance) {
        return new NearDuplicateQueryBuilder(indexField, NearDuplicateProbe.fingerprint(fingerprint, algorithm)).maxDistance(maxDistance)
            .ignoreUnmapped(true);
    }

    /** A found near-duplicate. {@code group} is known for index hits (when {@code group_field} is set), pending for recent ones. */
    private record Outcome(String id, String index, int distance, String source, String group, RecentFingerprints.Entry entry) {}

    private static Outcome better(Outcome fromIndex, Outcome fromWindow) {
        if (fromIndex == null) return fromWindow;
        if (fromWindow == null) return fromIndex;
        return fromWindow.distance() < fromIndex.distance() ? fromWindow : fromIndex;
    }

    /** The closest hit within k, other than the document itself ({@code id}). */
    private Outcome closest(SearchHit[] hits, long fingerprint, int maxDistance, String id) {
        Outcome best = null;
        for (SearchHit hit : hits) {
            if (id != null && id.equals(hit.getId())) {
                continue;
            }
            DocumentField values = hit.field(indexField);
            if (values == null || values.getValue() == null) {
                continue;
            }
            int d = Fingerprints.distance(fingerprint, FingerprintValues.parse(values.getValue()));
            if (d > maxDistance || (best != null && d >= best.distance())) {
                continue;
            }
            String group = null;
            if (groupField != null && hit.getSourceAsMap() != null) {
                // group_field is written path-aware (a dotted name makes objects), so it is read the same way
                Object g = XContentMapValues.extractValue(groupField, hit.getSourceAsMap());
                group = g == null ? null : g.toString();
            }
            best = new Outcome(hit.getId(), hit.getIndex(), d, "index", group != null ? group : hit.getId(), null);
        }
        return best;
    }

    private void complete(
        IngestDocument document,
        long fingerprint,
        String ownGroup,
        Outcome outcome,
        Unavailable unavailable,
        RecentFingerprints.Entry added,
        BiConsumer<IngestDocument, Exception> handler
    ) {
        String unavailableReason = unavailable == null ? null : unavailable.reason();
        if (unavailableReason != null && outcome == null && onUnavailable == OnUnavailable.FAIL && unavailable.mayFail()) {
            if (added != null) {
                added.group().complete(ownGroup);
            }
            handler.accept(
                null,
                new OpenSearchStatusException(
                    "[" + TYPE + "] could not check for near-duplicates: " + unavailableReason,
                    unavailable.status()
                )
            );
            return;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        if (outcome != null) {
            result.put("status", "duplicate");
            result.put("_id", outcome.id());
            result.put("_index", outcome.index());
            result.put("distance", outcome.distance());
            result.put("source", outcome.source());
        } else if (unavailableReason != null) {
            result.put("status", "unchecked");
            result.put("reason", unavailableReason);
        } else {
            result.put("status", "unique");
        }
        document.setFieldValue(resultField, result);
        boolean drop = outcome != null && onDuplicate == OnDuplicate.DROP;
        if (outcome != null && outcome.entry() != null && groupField != null) {
            // the group of a recent document is decided by its own (pending) lookup: wait for it, asynchronously
            outcome.entry().group().whenComplete((group, e) -> {
                String g = group != null ? group : (outcome.id() != null ? outcome.id() : Fingerprints.toHex(outcome.entry().fingerprint()));
                finish(document, g, added, drop, handler);
            });
        } else {
            String group = outcome == null ? ownGroup
                : outcome.group() != null ? outcome.group()
                : outcome.id() != null ? outcome.id()
                : Fingerprints.toHex(outcome.entry().fingerprint());
            finish(document, group, added, drop, handler);
        }
    }

    private void finish(IngestDocument document, String group, RecentFingerprints.Entry added, boolean drop, BiConsumer<IngestDocument, Exception> handler) {
        if (added != null) {
            added.group().complete(group);
        }
        if (drop) {
            handler.accept(null, null); // the ingest "drop" semantics: the document is not indexed
            return;
        }
        if (groupField != null) {
            document.setFieldValue(groupField, group);
        }
        handler.accept(document, null);
    }

    @Override
    public String getType() {
        return TYPE;
    }

    int availableLookups() {
        return inFlight.availablePermits();
    }

    int queuedLookups() {
        return queued.get();
    }

    /** Reads and validates the options. */
    public static final class Factory implements Processor.Factory {
        private final Processor.Parameters parameters;
        private final RecentFingerprints.Registry windows;
        private final MappedMaxDistance mappedMaxDistance;

        /** Without a cluster state: an absent {@code max_distance} is the default of a new field (tests). */
        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows) {
            this(parameters, windows, MappedMaxDistance.DEFAULT);
        }

        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows, MappedMaxDistance mappedMaxDistance) {
            this.parameters = parameters;
            this.windows = windows;
            this.mappedMaxDistance = mappedMaxDistance;
        }

        @Override
        public NearDuplicateCheckProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config) {
            String field = ConfigurationUtils.readStringProperty(TYPE, tag, config, "field", "simhash");
            String index = ConfigurationUtils.readOptionalStringProperty(TYPE, tag, config, "index");
            String indexField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "index_field", field);
            Integer maxDistance;
            try {
                maxDistance = MaxDistance.parse(config.remove(MaxDistance.NAME), null);
                if (maxDistance != null) RecentFingerprints.checkMaxDistance(maxDistance);
            } catch (IllegalArgumentException e) {
                throw SourceText.configurationError(TYPE, tag, e);
            }
            OnDuplicate onDuplicate = readEnum(OnDuplicate.class, tag, config, "on_duplicate", OnDuplicate.TAG);
            OnUnavailable onUnavailable = readEnum(OnUnavailable.class, tag, config, "on_unavailable", OnUnavailable.FAIL);
            String resultField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "result_field", "near_duplicate");
            String groupField = ConfigurationUtils.readOptionalStringProperty(TYPE, tag, config, "group_field");
            TimeValue timeout = readTime(tag, config, "timeout", TimeValue.timeValueSeconds(5));
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            int maxInFlight = ConfigurationUtils.readIntProperty(TYPE, tag, config, "max_in_flight", 64);
            if (maxInFlight < 1) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "max_in_flight", "must be at least 1, got " + maxInFlight);
            }
            int maxQueued = ConfigurationUtils.readIntProperty(TYPE, tag, config, "max_queued", 10_000);
            if (maxQueued < 0) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "max_queued", "must be at least 0, got " + maxQueued);
            }
            int windowSize = ConfigurationUtils.readIntProperty(TYPE, tag, config, "window_size", 10_000);
            if (windowSize < 0 || windowSize > 1_000_000) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "window_size", "must be between 0 and 1000000, got " + windowSize);
            }
            TimeValue windowTtl = readTime(tag, config, "window_ttl", TimeValue.timeValueMinutes(5));
            int batchSize = ConfigurationUtils.readIntProperty(TYPE, tag, config, "batch_size", 100);
            if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "batch_size", "must be between 1 and " + MAX_BATCH_SIZE + ", got " + batchSize);
            }
            return new NearDuplicateCheckProcessor(
                tag, description, field, index, indexField, maxDistance, mappedMaxDistance, onDuplicate, onUnavailable, resultField, groupField, timeout,
                ignoreMissing, maxInFlight, maxQueued, windowSize, windowTtl, batchSize, parameters.client, parameters.scheduler, windows
            );
        }

        private static <E extends Enum<E>> E readEnum(Class<E> type, String tag, Map<String, Object> config, String name, E defaultValue) {
            String value = ConfigurationUtils.readStringProperty(TYPE, tag, config, name, defaultValue.name().toLowerCase(Locale.ROOT));
            try {
                return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                StringBuilder allowed = new StringBuilder();
                for (E c : type.getEnumConstants()) {
                    allowed.append(allowed.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
                }
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, name, "must be one of [" + allowed + "], got [" + value + "]");
            }
        }

        private static TimeValue readTime(String tag, Map<String, Object> config, String name, TimeValue defaultValue) {
            String value = ConfigurationUtils.readStringProperty(TYPE, tag, config, name, defaultValue.getStringRep());
            try {
                TimeValue t = TimeValue.parseTimeValue(value, name);
                if (t.millis() <= 0) {
                    throw new IllegalArgumentException("must be positive");
                }
                return t;
            } catch (IllegalArgumentException e) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, name, "invalid time value [" + value + "]: " + e.getMessage());
            }
        }
    }
}
