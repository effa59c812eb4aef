package org.nearduplicate.orchestration.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.window.RecentFingerprints;

/**
 * One bulk request's documents in a {@code near_duplicate_check}: a token for the windows' gaps, the bulk sets that
 * compare each document with every earlier one of the request, and how its lookups are grouped into searches. A
 * batch is either known whole when it starts (a platform that hands over a bulk request's documents together), or
 * {@link #open}: its documents {@link #join} it one by one. Not thread-safe: its owner serializes the calls.
 */
final class CheckBatch {
    /** Identifies the batch to the windows, which track their gaps per batch. */
    final Object token = new Object();
    /** The documents of the batch (so far, for an open one: those prepared, and the one being prepared). */
    int size;
    /** Per (target, k, algorithm); null for a document checked alone. */
    private final Map<String, RecentFingerprints> sets;
    private final RecentFingerprints.Registry windows;
    private boolean released;

    /** A batch of {@code size} documents; one alone has no bulk set. */
    CheckBatch(int size, RecentFingerprints.Registry windows) {
        this(size, windows, size > 1);
    }

    private CheckBatch(int size, RecentFingerprints.Registry windows, boolean bulk) {
        this.size = size;
        this.windows = windows;
        this.sets = bulk ? new LinkedHashMap<>() : null;
    }

    /** A batch whose documents come one by one ({@link #join}), each compared with the earlier ones. */
    static CheckBatch open(RecentFingerprints.Registry windows) {
        return new CheckBatch(0, windows, true);
    }

    /** One more document of an open batch. */
    void join() {
        size++;
    }

    /** The bulk set of (target, k, algorithm), created on first use; null for a document alone or once released. */
    RecentFingerprints set(String targetIndex, int maxDistance, String algorithm) {
        if (sets == null || released) {
            return null;
        }
        return sets.computeIfAbsent(
            targetIndex + '\u0000' + maxDistance + '\u0000' + algorithm,
            k -> RecentFingerprints.bulkSet(maxDistance, windows.bulkBudget())
        );
    }

    /** The bulk sets are needed while the batch's documents are prepared, not by their searches: gives their memory back. */
    void release() {
        if (sets != null && released == false) {
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
