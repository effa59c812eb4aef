package org.nearduplicate.elasticsearch.ingest;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.ingest.AbstractProcessor;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.Processor;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.orchestration.check.NearDuplicateCheck;
import org.nearduplicate.orchestration.check.RequestScope;
import org.nearduplicate.orchestration.check.StreamedBatches;

/**
 * {@code near_duplicate_check} on Elasticsearch, which has no batch ingest API: the documents of a bulk request come
 * one by one and are gathered into batches by {@link StreamedBatches}, which finds a bulk request's open batch through
 * the request's thread context (a transient of this processor) and sends its searches under the request's headers.
 */
public final class SimHashCheckProcessor extends AbstractProcessor {
    public static final String TYPE = NearDuplicateCheck.TYPE;
    /** Time from a document's check to its being searchable beyond the target's refresh_interval (scheduling, search). */
    public static final long REFRESH_MARGIN_MILLIS = NearDuplicateCheck.REFRESH_MARGIN_MILLIS;

    private static final AtomicLong INSTANCES = new AtomicLong();

    private final NearDuplicateCheck check;
    private final StreamedBatches batches;

    SimHashCheckProcessor(String tag, String description, NearDuplicateCheck check, Processor.Parameters parameters) {
        super(tag, description);
        this.check = check;
        ThreadContext threadContext = parameters.threadContext;
        this.batches = new StreamedBatches(check, threadContext == null ? null : new Scope(threadContext));
    }

    @Override
    public boolean isAsync() {
        return true;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] is asynchronous");
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        batches.check(new IngestCheckDocument(document, handler));
    }

    @Override
    public String getType() {
        return TYPE;
    }

    int availableLookups() {
        return check.availableLookups();
    }

    int queuedLookups() {
        return check.queuedLookups();
    }

    /** A bulk request as its thread context knows it. */
    private static final class Scope implements RequestScope {
        private final ThreadContext threadContext;
        /** The transient of this processor in a bulk request's thread context. */
        private final String key = "_near_duplicate_check_batch_" + INSTANCES.incrementAndGet();

        Scope(ThreadContext threadContext) {
            this.threadContext = threadContext;
        }

        @Override
        public <T> T attached(Supplier<T> create) {
            T value = threadContext.getTransient(key);
            if (value == null) {
                value = create.get();
                threadContext.putTransient(key, value);
            }
            return value;
        }

        /**
         * The bulk request's headers (its user's authentication among them) in an otherwise fresh context: the lookups
         * are authorized as that user's own searches. Not the whole context: its transients hold what security decided
         * for the bulk request (the target index's access control), under which a search of another index read nothing.
         */
        @Override
        public Context capture() {
            Map<String, String> headers = Map.copyOf(threadContext.getHeaders());
            return () -> {
                ThreadContext.StoredContext restore = threadContext.stashContext();
                threadContext.copyHeaders(headers.entrySet());
                return restore::close;
            };
        }
    }

    /** Reads and validates the options ({@link CheckConfig}). */
    public static final class Factory implements Processor.Factory {
        private final Processor.Parameters parameters;
        private final RecentFingerprints.Registry windows;
        private final MappedMaxDistance mappedMaxDistance;
        private final NearDuplicateStats stats;

        /** Without a cluster state: an absent {@code max_distance} is the default of a new field (tests). */
        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows) {
            this(parameters, windows, MappedMaxDistance.DEFAULT);
        }

        /** Outcomes not counted (tests). */
        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows, MappedMaxDistance mappedMaxDistance) {
            this(parameters, windows, mappedMaxDistance, null);
        }

        /** {@code stats}: the node's counters, told each document's outcome (null: none). */
        public Factory(
            Processor.Parameters parameters,
            RecentFingerprints.Registry windows,
            MappedMaxDistance mappedMaxDistance,
            NearDuplicateStats stats
        ) {
            this.parameters = parameters;
            this.windows = windows;
            this.mappedMaxDistance = mappedMaxDistance;
            this.stats = stats;
        }

        @Override
        public SimHashCheckProcessor create(
            Map<String, Processor.Factory> registry,
            String tag,
            String description,
            Map<String, Object> config
        ) {
            NearDuplicateCheck check = CheckConfig.check(tag, config, parameters, mappedMaxDistance, windows, stats);
            return new SimHashCheckProcessor(tag, description, check, parameters);
        }
    }
}
