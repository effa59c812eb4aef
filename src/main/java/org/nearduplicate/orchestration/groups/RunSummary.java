package org.nearduplicate.orchestration.groups;

import java.util.concurrent.TimeUnit;

/**
 * What both groups responses start with: the run's index, field, k, min_similarity (NaN for a field without
 * signatures), the field's algorithm (null for a run that did not group, a validation only), its time and the
 * documents it scanned.
 */
public record RunSummary(String index, String field, int maxDistance, double minSimilarity, String algorithm, long tookMillis,
    long docsScanned) {

    /** The summary of {@code result}, a run on {@code index}'s {@code field} started at {@code startNanos}. */
    public static RunSummary of(String index, String field, Grouping.Result result, long startNanos) {
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        return new RunSummary(index, field, result.maxDistance(), result.minSimilarity(), result.algorithm(), took, result.docs());
    }

    /** A run that did not group: a validation only. */
    public static RunSummary validated(String index, String field) {
        return new RunSummary(index, field, -1, Double.NaN, null, 0, 0);
    }

    /** The expected chance matches of the run (docs/engine.md, "Chance matches at scale"); null for a run that did not group. */
    public ChanceMatches chanceMatches() {
        return ChanceMatches.of(algorithm, maxDistance, minSimilarity, docsScanned);
    }
}
