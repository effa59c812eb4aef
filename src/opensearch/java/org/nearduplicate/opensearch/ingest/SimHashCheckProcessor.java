package org.nearduplicate.opensearch.ingest;

import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;
import org.opensearch.ingest.Processor;
import org.opensearch.threadpool.Scheduler;
import org.opensearch.transport.client.Client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.window.RecentFingerprints;

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
 *
 * <p>The processor only sequences the parts, one concern each: {@link CheckOptions} (the options, parsed once),
 * {@link WindowCheck} (reading the document, the window and the bulk set), {@link CheckBatch} (one bulk request's
 * documents and their searches), {@link LookupAdmission} (in-flight cap, queue, timeouts), {@link LookupSearch} (the
 * searches and their hits) and {@link CheckOutput} (the result, the group, drop or fail).
 */
public final class SimHashCheckProcessor extends AbstractProcessor {
    public static final String TYPE = "near_duplicate_check";
    /** Time from a document's check to its being searchable beyond the target's refresh_interval (scheduling, search). */
    public static final long REFRESH_MARGIN_MILLIS = 1_000;

    private final CheckOptions options;
    private final RecentFingerprints.Registry windows;
    private final WindowCheck check;
    private final LookupAdmission admission;
    private final LookupSearch search;

    SimHashCheckProcessor(
        String tag,
        String description,
        CheckOptions options,
        MappedMaxDistance mappedMaxDistance,
        Client client,
        BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler,
        RecentFingerprints.Registry windows,
        NearDuplicateStats stats
    ) {
        super(tag, description);
        this.options = options;
        this.windows = windows;
        this.check = new WindowCheck(options, mappedMaxDistance, windows, new CheckOutput(options, stats));
        this.admission = new LookupAdmission(options.maxInFlight(), options.maxQueued(), options.timeout(), scheduler);
        this.search = new LookupSearch(options, client, admission);
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] is asynchronous");
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        Lookup lookup = check.prepare(document, handler, new CheckBatch(1, windows));
        if (lookup != null) {
            start(List.of(lookup));
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
        List<BiConsumer<IngestDocument, Exception>> handlers = CheckBatch.collect(documents, handler);
        List<Lookup> lookups = new ArrayList<>(documents.size());
        CheckBatch batch = new CheckBatch(documents.size(), windows);
        try {
            for (int i = 0; i < documents.size(); i++) {
                Lookup lookup = check.prepare(documents.get(i).getIngestDocument(), handlers.get(i), batch);
                if (lookup != null) {
                    lookups.add(lookup);
                }
            }
        } finally {
            batch.release();
        }
        start(lookups);
    }

    /** Answers the lookups whose target cannot be searched from their window alone, then sends the searches of the others. */
    private void start(List<Lookup> lookups) {
        List<Lookup> searchable = new ArrayList<>(lookups.size());
        for (Lookup lookup : lookups) {
            if (lookup.unavailable != null) {
                lookup.finishFromWindow(lookup.unavailable);
            } else {
                searchable.add(lookup);
            }
        }
        for (List<Lookup> lookupsOfOneSearch : CheckBatch.searches(searchable, options.batchSize())) {
            search.dispatch(lookupsOfOneSearch);
        }
    }

    @Override
    public String getType() {
        return TYPE;
    }

    int availableLookups() {
        return admission.available();
    }

    int queuedLookups() {
        return admission.queued();
    }

    /** Reads and validates the options ({@link CheckOptions#parse}). */
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
            CheckOptions options = CheckOptions.parse(tag, config);
            return new SimHashCheckProcessor(
                tag,
                description,
                options,
                mappedMaxDistance,
                parameters.client,
                parameters.scheduler,
                windows,
                stats
            );
        }
    }
}
