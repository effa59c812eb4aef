package org.nearduplicate.elasticsearch.ingest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.window.RecentFingerprints;

/**
 * One bulk request's documents in a {@code near_duplicate_check}: a token for the windows' gaps, the bulk sets that
 * compare each document with every earlier one of the request, and how its lookups are grouped into searches.
 *
 * <p>Elasticsearch has no batch ingest API: it hands the processor the documents of a bulk request one by one
 * ({@code execute(document, handler)}), in order, on the thread that runs the request's ingest. The processor
 * ({@link SimHashCheckProcessor}) therefore opens a batch at the first document of a bulk request and closes it once
 * no document came for a short while; {@link #size} counts the documents it has seen so far. Not thread-safe: its
 * owner serializes the calls.
 */
final class CheckBatch {
    /** Identifies the batch to the windows, which track their gaps per batch. */
    final Object token = new Object();
    /** The documents of the batch so far (those prepared, and the one being prepared). */
    int size;
    /** Per (target, k, algorithm). */
    private final Map<String, RecentFingerprints> sets = new LinkedHashMap<>();
    private final RecentFingerprints.Registry windows;
    private boolean released;

    CheckBatch(RecentFingerprints.Registry windows) {
        this.windows = windows;
    }

    /** The bulk set of (target, k, algorithm), created on first use; null once the batch is released. */
    RecentFingerprints set(String targetIndex, int maxDistance, String algorithm) {
        if (released) {
            return null;
        }
        return sets.computeIfAbsent(
            targetIndex + '\u0000' + maxDistance + '\u0000' + algorithm,
            k -> RecentFingerprints.bulkSet(maxDistance, windows.bulkBudget())
        );
    }

    /** The bulk sets are needed while the batch's documents are prepared, not by their searches: gives their memory back. */
    void release() {
        if (released == false) {
            released = true;
            sets.values().forEach(RecentFingerprints::retire);
            sets.clear();
        }
    }

    /**
     * The searches of {@code lookups}: lookups of one target, k and algorithm share searches of up to {@code batchSize}
     * fingerprints, in the order the groups first appear.
     */
    static List<List<Lookup>> searches(List<Lookup> lookups, int batchSize) {
        Map<String, List<Lookup>> byTarget = new LinkedHashMap<>();
        for (Lookup lookup : lookups) {
            byTarget.computeIfAbsent(lookup.key.searchKey(), k -> new ArrayList<>()).add(lookup);
        }
        List<List<Lookup>> searches = new ArrayList<>();
        for (List<Lookup> group : byTarget.values()) {
            for (int from = 0; from < group.size(); from += batchSize) {
                searches.add(group.subList(from, Math.min(from + batchSize, group.size())));
            }
        }
        return searches;
    }
}
