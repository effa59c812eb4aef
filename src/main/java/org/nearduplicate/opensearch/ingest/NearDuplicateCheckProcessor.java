package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.common.MaxDistance;
import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.NearDuplicateProbe;
import org.nearduplicate.opensearch.index.query.NearDuplicateQueryBuilder;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.common.document.DocumentField;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.query.BoolQueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.threadpool.Scheduler;
import org.opensearch.transport.client.Client;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * {@code near_duplicate_check}: after {@code simhash} has fingerprinted a document, looks for the closest existing
 * near-duplicate (within {@code max_distance}) in a target index and records it on the document, or drops the document.
 *
 * <p>Two sources are consulted: a {@code near_duplicate} search of the target index (asynchronous, with a timeout and
 * a cap on in-flight searches) and the node's {@link RecentFingerprints} window, which holds the documents this node
 * checked recently and so catches copies in the same bulk request or not yet refreshed. The closer of the two wins
 * (the index on ties).
 *
 * <p>Result ({@code result_field}, default {@code near_duplicate}):
 * {@code {"status": "duplicate", "_id": "...", "_index": "...", "distance": 2, "source": "index" | "recent"}},
 * {@code {"status": "unique"}}, or {@code {"status": "unchecked", "reason": "..."}} when the lookup timed out or was
 * refused and {@code on_unavailable} is {@code tag}.
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
    private final Semaphore inFlight;
    private final int maxInFlight;
    private final int maxQueued;
    private final AtomicInteger queued = new AtomicInteger();
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();
    private final Client client;
    private final BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler;
    private final RecentFingerprints.Registry windows;

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
        final long fingerprint;
        final String targetIndex;
        final String id;
        final int maxDistance;
        try {
            Object value = document.getFieldValue(field, Object.class, true);
            if (value == null) {
                if (ignoreMissing) {
                    handler.accept(document, null);
                    return;
                }
                throw new IllegalArgumentException("field [" + field + "] is missing, cannot check for near-duplicates");
            }
            if (value instanceof Map<?, ?> map) {
                value = map.get(SimHashProcessor.FINGERPRINT_KEY);
                if (value == null) {
                    throw new IllegalArgumentException("field [" + field + "] has no [" + SimHashProcessor.FINGERPRINT_KEY + "]");
                }
            }
            fingerprint = FingerprintValues.parse(value);
            targetIndex = index != null ? index : document.getFieldValue(IngestDocument.Metadata.INDEX.getFieldName(), String.class);
            id = document.getFieldValue(IngestDocument.Metadata.ID.getFieldName(), String.class, true);
            maxDistance = MaxDistance.orField(this.maxDistance, mappedMaxDistance.of(targetIndex, indexField));
            RecentFingerprints.checkMaxDistance(maxDistance);
        } catch (Exception e) {
            handler.accept(null, e);
            return;
        }
        // synchronous and atomic: of two copies in one bulk request, the second sees the first
        RecentFingerprints.Result recent = windowSize > 0
            ? windows.window(targetIndex, indexField, maxDistance, windowSize, windowTtl.millis()).checkAndAdd(fingerprint, id)
            : null;
        Outcome fromWindow = recent == null || recent.match() == null
            ? null
            : new Outcome(recent.match().entry().id(), targetIndex, recent.match().distance(), "recent", null, recent.match().entry());
        String ownGroup = id != null ? id : Fingerprints.toHex(fingerprint);
        AtomicBoolean done = new AtomicBoolean();
        BiConsumer<Outcome, String> finish = (outcome, unavailableReason) -> {
            if (done.compareAndSet(false, true) == false) {
                return;
            }
            try {
                complete(document, fingerprint, ownGroup, outcome, unavailableReason, recent == null ? null : recent.added(), handler);
            } catch (Exception e) {
                if (recent != null) {
                    recent.added().group().complete(ownGroup);
                }
                handler.accept(null, e);
            }
        };
        Scheduler.ScheduledCancellable timer;
        try {
            timer = scheduler.apply(timeout.millis(), () -> finish.accept(fromWindow, "lookup timed out after " + timeout));
        } catch (Exception e) {
            finish.accept(fromWindow, "lookup could not be scheduled: " + e.getMessage());
            return;
        }
        Runnable lookup = () -> {
            if (done.get()) { // timed out while queued
                release();
                return;
            }
            search(fingerprint, maxDistance, targetIndex, id, fromWindow, timer, finish);
        };
        if (submit(lookup) == false) {
            timer.cancel();
            finish.accept(fromWindow, "too many lookups in flight (max_in_flight " + maxInFlight + ", max_queued " + maxQueued + ")");
        }
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

    private void search(long fingerprint, int maxDistance, String targetIndex, String id, Outcome fromWindow, Scheduler.ScheduledCancellable timer,
                        BiConsumer<Outcome, String> finish) {
        BoolQueryBuilder query = QueryBuilders.boolQuery()
            .must(
                new NearDuplicateQueryBuilder(indexField, NearDuplicateProbe.fingerprint(fingerprint)).maxDistance(maxDistance)
                    .ignoreUnmapped(true)
            );
        if (id != null) {
            query.mustNot(QueryBuilders.idsQuery().addIds(id));
        }
        SearchSourceBuilder source = new SearchSourceBuilder().query(query)
            .size(1)
            .docValueField(indexField)
            .timeout(timeout)
            .trackTotalHits(false);
        if (groupField != null) {
            source.fetchSource(new String[] { groupField }, null);
        } else {
            source.fetchSource(false);
        }
        SearchRequest request = new SearchRequest(targetIndex).source(source).indicesOptions(IndicesOptions.lenientExpandOpen());
        try {
            client.search(request, ActionListener.runAfter(ActionListener.wrap(response -> {
                timer.cancel();
                Outcome fromIndex = closest(response, fingerprint, maxDistance);
                finish.accept(better(fromIndex, fromWindow), response.getFailedShards() > 0 && fromIndex == null ? "lookup failed on "
                    + response.getFailedShards() + " shard(s)" : null);
            }, e -> {
                timer.cancel();
                finish.accept(fromWindow, "lookup failed: " + e.getMessage());
            }), this::release));
        } catch (Exception e) {
            timer.cancel();
            release();
            finish.accept(fromWindow, "lookup failed: " + e.getMessage());
        }
    }

    /** A found near-duplicate. {@code group} is known for index hits (when {@code group_field} is set), pending for recent ones. */
    private record Outcome(String id, String index, int distance, String source, String group, RecentFingerprints.Entry entry) {}

    private static Outcome better(Outcome fromIndex, Outcome fromWindow) {
        if (fromIndex == null) return fromWindow;
        if (fromWindow == null) return fromIndex;
        return fromWindow.distance() < fromIndex.distance() ? fromWindow : fromIndex;
    }

    private Outcome closest(SearchResponse response, long fingerprint, int maxDistance) {
        Outcome best = null;
        for (SearchHit hit : response.getHits().getHits()) {
            DocumentField values = hit.field(indexField);
            if (values == null || values.getValue() == null) {
                continue;
            }
            int d = Fingerprints.distance(fingerprint, FingerprintValues.parse(values.getValue()));
            if (d > maxDistance) {
                continue;
            }
            String group = null;
            if (groupField != null && hit.getSourceAsMap() != null) {
                Object g = hit.getSourceAsMap().get(groupField);
                group = g == null ? null : g.toString();
            }
            if (best == null || d < best.distance()) {
                best = new Outcome(hit.getId(), hit.getIndex(), d, "index", group != null ? group : hit.getId(), null);
            }
        }
        return best;
    }

    private void complete(
        IngestDocument document,
        long fingerprint,
        String ownGroup,
        Outcome outcome,
        String unavailableReason,
        RecentFingerprints.Entry added,
        BiConsumer<IngestDocument, Exception> handler
    ) {
        if (unavailableReason != null && outcome == null && onUnavailable == OnUnavailable.FAIL) {
            if (added != null) {
                added.group().complete(ownGroup);
            }
            handler.accept(null, new IllegalStateException("[" + TYPE + "] could not check for near-duplicates: " + unavailableReason));
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
            return new NearDuplicateCheckProcessor(
                tag, description, field, index, indexField, maxDistance, mappedMaxDistance, onDuplicate, onUnavailable, resultField, groupField, timeout,
                ignoreMissing, maxInFlight, maxQueued, windowSize, windowTtl, parameters.client, parameters.scheduler, windows
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
