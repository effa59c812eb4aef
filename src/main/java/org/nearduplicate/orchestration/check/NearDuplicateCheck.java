package org.nearduplicate.orchestration.check;

import java.util.ArrayList;
import java.util.List;

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
 * <p>This class only sequences the parts, one concern each: {@link CheckOptions} (the options, parsed once),
 * {@link WindowCheck} (reading the document, the window and the bulk set), {@link CheckBatch} (one bulk request's
 * documents and their searches), {@link LookupAdmission} (in-flight cap, queue, timeouts), {@link LookupSearch} (the
 * searches and their hits) and {@link CheckOutput} (the result, the group, drop or fail). The platform's processor
 * hands it documents ({@link CheckDocument}) and implements its ports: {@link CandidateSearch}, {@link TargetIndices}
 * and {@link Scheduling}.
 */
public final class NearDuplicateCheck {
    public static final String TYPE = "near_duplicate_check";
    /** Time from a document's check to its being searchable beyond the target's refresh_interval (scheduling, search). */
    public static final long REFRESH_MARGIN_MILLIS = 1_000;

    private final CheckOptions options;
    private final RecentFingerprints.Registry windows;
    private final Scheduling scheduling;
    private final WindowCheck check;
    private final LookupAdmission admission;
    private final LookupSearch search;

    /** {@code stats}: the node's counters, told each document's outcome (null: none). */
    public NearDuplicateCheck(
        CheckOptions options,
        TargetIndices targets,
        RecentFingerprints.Registry windows,
        NearDuplicateStats stats,
        CandidateSearch searches,
        Scheduling scheduling
    ) {
        this.options = options;
        this.windows = windows;
        this.scheduling = scheduling;
        this.check = new WindowCheck(options, targets, windows, new CheckOutput(options, stats), scheduling);
        this.admission = new LookupAdmission(options.maxInFlight(), options.maxQueued(), options.timeout(), scheduling);
        this.search = new LookupSearch(options, searches, admission);
    }

    /** Checks one document alone (no bulk set). */
    public void check(CheckDocument document) {
        Lookup lookup = check.prepare(document, new CheckBatch(1, windows));
        if (lookup != null) {
            start(List.of(lookup));
        }
    }

    /**
     * A bulk request's documents, handed over together: each is checked against the window and against every earlier
     * document of the batch (the bulk set) in order, then their searches go out together, {@code batch_size}
     * fingerprints per search, instead of one search per document.
     */
    public void checkAll(List<? extends CheckDocument> documents) {
        List<Lookup> lookups = new ArrayList<>(documents.size());
        CheckBatch batch = new CheckBatch(documents.size(), windows);
        try {
            for (CheckDocument document : documents) {
                Lookup lookup = check.prepare(document, batch);
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
        send(searchable);
    }

    /** Sends the searches of {@code lookups}, {@code batch_size} per search and target. */
    void send(List<Lookup> lookups) {
        for (List<Lookup> lookupsOfOneSearch : CheckBatch.searches(lookups, options.batchSize())) {
            search.dispatch(lookupsOfOneSearch);
        }
    }

    /** Prepares a document of an open batch (window and bulk set); null when it is answered already. */
    Lookup prepare(CheckDocument document, CheckBatch batch) {
        return check.prepare(document, batch);
    }

    CheckOptions options() {
        return options;
    }

    RecentFingerprints.Registry windows() {
        return windows;
    }

    Scheduling scheduling() {
        return scheduling;
    }

    /** Free search slots (of {@code max_in_flight}). */
    public int availableLookups() {
        return admission.available();
    }

    /** Searches waiting for a slot. */
    public int queuedLookups() {
        return admission.queued();
    }
}
