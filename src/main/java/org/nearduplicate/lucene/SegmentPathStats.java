package org.nearduplicate.lucene;

import org.nearduplicate.core.stats.NearDuplicateStats;

/**
 * Reports the segments of {@link SimHashQuery} to the node's {@link NearDuplicateStats} (keys, doc-values scan, column,
 * candidate keys, each under its own name, and the candidate keys' postings read). Every segment is counted; the time
 * of a keys or candidate-keys segment is measured on one segment in {@link #KEYS_TIMED_ONE_IN}
 * (bench/results/RESULTS-stats-cost.md: timing every keys segment's end cost that path a few percent), the scan's and
 * the column's on every segment.
 */
public final class SegmentPathStats implements SimHashQuery.Listener {
    public static final int KEYS_TIMED_ONE_IN = 16;
    private final NearDuplicateStats stats;
    /** Keys segments seen; racy on purpose: a lost increment only shifts which segment is timed. */
    private int keysSegments;

    public SegmentPathStats(NearDuplicateStats stats) {
        this.stats = stats;
    }

    static NearDuplicateStats.Path of(SegmentPath path) {
        return switch (path) {
            case KEYS -> NearDuplicateStats.Path.KEYS;
            case CANDIDATE_KEYS -> NearDuplicateStats.Path.CANDIDATE_KEYS;
            case DOC_VALUES -> NearDuplicateStats.Path.SCAN;
            case COLUMN -> NearDuplicateStats.Path.COLUMN;
        };
    }

    @Override
    public void segment(SegmentPath path) {
        stats.segment(of(path), 0);
    }

    @Override
    public void segmentTime(SegmentPath path, long nanos) {
        stats.segmentTime(of(path), nanos);
    }

    @Override
    public void candidateKeyPostings(long postings) {
        stats.candidateKeyPostings(postings);
    }

    @Override
    public boolean timed(SegmentPath path) {
        if (path != SegmentPath.KEYS && path != SegmentPath.CANDIDATE_KEYS) return true;
        return keysSegments++ % KEYS_TIMED_ONE_IN == 0;
    }

    /** The cache's figures as gauges of {@code stats} ({@code columns} null: none). */
    public static void cacheGauges(NearDuplicateStats stats, FingerprintColumns columns) {
        if (columns == null) return;
        stats.addGauges(b -> {
            FingerprintColumns.Stats c = columns.stats();
            b.set(NearDuplicateStats.Stat.CACHE_ENTRIES, c.entries())
                .set(NearDuplicateStats.Stat.CACHE_BYTES, c.bytes())
                .set(NearDuplicateStats.Stat.CACHE_MAX_BYTES, c.maxBytes())
                .set(NearDuplicateStats.Stat.CACHE_HITS, c.hits())
                .set(NearDuplicateStats.Stat.CACHE_MISSES, c.misses())
                .set(NearDuplicateStats.Stat.CACHE_LOADS, c.loads())
                .set(NearDuplicateStats.Stat.CACHE_EVICTIONS, c.evictions())
                .set(NearDuplicateStats.Stat.CACHE_FALLBACKS, c.fallbacks())
                .set(NearDuplicateStats.Stat.CACHE_SHARED_PASSES, c.sharedPasses());
        });
    }
}
