package org.nearduplicate.lucene;

import org.nearduplicate.core.keys.BlockLayout;

/** Test-scope access for the benchmarks (org.nearduplicate.bench) to what the query keeps package-private. */
public final class BenchAccess {
    private BenchAccess() {}

    /** A query that always takes its keys (no doc-values scan by cost, no column). */
    public static SimHashQuery keysOnly(String field, long[] probes, int k, BlockLayout layout) {
        return new SimHashQuery(field, probes, k, layout, false).withScanByCost(false);
    }

    /** The column path's cost constants, as the query reads them. */
    public static String columnCosts() {
        return "COLUMN_NANOS_PER_DOC="
            + ColumnScan.COLUMN_NANOS_PER_DOC
            + ", COLUMN_NANOS_PER_DOC_PER_EXTRA_PROBE="
            + ColumnScan.COLUMN_NANOS_PER_DOC_PER_EXTRA_PROBE
            + ", KEY_NANOS="
            + SimHashQuery.KEY_NANOS
            + ", KEY_NANOS_PER_DOC="
            + SimHashQuery.KEY_NANOS_PER_DOC
            + ", SCAN_NANOS_PER_DOC="
            + SimHashQuery.SCAN_NANOS_PER_DOC;
    }

    /** One search through the column's shared pass ({@link SharedColumnScan}): its match count, -1 when over its bound. */
    public static int sharedScan(FingerprintColumn column, long[] probes, int k) {
        ColumnScan.Matches matches = column.shared().scan(probes, k).matches();
        return matches == null ? -1 : matches.size();
    }

    /** Whether the cache shares its columns' passes (the node setting near_duplicate.scan_cache.share_passes). */
    public static boolean sharePasses(FingerprintColumns columns) {
        return columns.sharePasses();
    }

    /** The smallest column whose passes are shared. */
    public static int sharedMinSlots() {
        return SharedColumnScan.MIN_SLOTS;
    }

    /** The matches one search may hold in a shared pass. */
    public static int sharedMaxHits() {
        return SharedColumnScan.MAX_HITS;
    }

    /** Whether a one-probe search at {@code k} would share the pass of a dense column of {@code docs} documents. */
    public static boolean sharedAtCount(int docs, int k) {
        return SharedColumnScan.worthSharing(docs, docs, 1, k);
    }

    /**
     * The candidate-key path's work for probes with {@code keys} in one segment: {candidates sharing at least
     * {@code minShared} keys with a probe, postings of the probes' keys found}; {0, 0} when none.
     */
    public static long[] candidateKeyWork(
        org.apache.lucene.index.LeafReader leaf,
        String keysField,
        byte[][] keys,
        int keyBytes,
        int minShared
    ) throws java.io.IOException {
        SharedKeyPostings found = SharedKeyPostings.seek(leaf.terms(keysField), keys, keyBytes, minShared);
        if (found == null) return new long[2];
        SharedKeyPostings.Candidates candidates = found.candidates(minShared);
        long n = 0;
        while (candidates.nextDoc() != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS)
            n++;
        return new long[] { n, found.cost() };
    }

    /**
     * How many documents the sorted runs {@code docs[from[r]..to[r])} hold at least {@code minShared} times, counted as
     * the candidate-key path does.
     */
    public static int countShared(int[] docs, int[] from, int[] to, int runs, int minShared) {
        SharedKeyPostings.ProbeCounter counter = new SharedKeyPostings.ProbeCounter(runs);
        System.arraycopy(from, 0, counter.from, 0, runs);
        System.arraycopy(to, 0, counter.to, 0, runs);
        counter.count(docs, runs, minShared, 0);
        return counter.size;
    }

    /** A column of {@code values}, one per document. */
    public static FingerprintColumn denseColumn(long[] values) throws java.io.IOException {
        boolean[] all = new boolean[values.length];
        java.util.Arrays.fill(all, true);
        return FingerprintColumn.load(ArrayDocValues.of(values, all), values.length);
    }
}
