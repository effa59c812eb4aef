package org.nearduplicate.lucene;

import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.ArrayUtil;

import java.util.Arrays;

/**
 * The column scan: every fingerprint of a segment's {@link FingerprintColumn} against every probe, exact for any
 * distance 0..64. One probe is one pass of {@code bitCount(value ^ probe) <= k} over the contiguous values (the
 * physical floor: nothing else is read). Several probes are blocked: the column is read in blocks of
 * {@link #BLOCK} values (16 KB, L1-resident), and every probe is tested against a block before the next one is read,
 * so each value leaves memory once per query however many probes it has.
 *
 * <p>The result is the matching documents in doc id order, each with its distance to the closest probe, so the scorer
 * only reads them. The scorer's iterator ({@link Cursor}) scans one block at a time as it is advanced, so a query holds
 * at most one block's matches however many documents match (k = 64 matches every one), and skipping ahead (a
 * conjunction) skips whole blocks unread; {@link #scan} collects them all (tests, benchmarks).
 */
public final class ColumnScan {
    /*
     * The column path's costs, measured in process on this project's 2-core bench machine (AMD EPYC, no AVX-512
     * popcount; bench/scan.sh, bench/results/RESULTS-scan.md): one probe over a cached column of 10M random
     * fingerprints costs 0.31-0.34 ns per document (memory-bound, the same as a plain long[] popcount loop; ~0.15 ns at
     * 1M, in cache), each further probe of a blocked scan 0.10-0.31 ns per document (compute-bound; the high figure under
     * a load average of ~13 from other processes). The high ends are kept; SimHashQuery compares them with its KEY_
     * constants per segment, and bench/scan.sh reports the path they choose next to the measured times.
     */
    static final double COLUMN_NANOS_PER_DOC = 0.35;
    static final double COLUMN_NANOS_PER_DOC_PER_EXTRA_PROBE = 0.3;

    /** Values counted before any is emitted ({@link #scanOne}); divides {@link #BLOCK}. */
    static final int STRIDE = 256;
    /** Values per block of a multi-probe scan: 2,048 longs, 16 KB. */
    static final int BLOCK = 2048;

    private ColumnScan() {}

    /** The estimated cost of scanning a cached column of {@code maxDoc} documents for {@code probes} probes. */
    static double nanos(int maxDoc, int probes) {
        return maxDoc * (COLUMN_NANOS_PER_DOC + COLUMN_NANOS_PER_DOC_PER_EXTRA_PROBE * (probes - 1));
    }

    /** Matching documents in order and the distance of each to its closest probe. */
    public static final class Matches {
        /** {@code doc << 7 | distance}, ascending. */
        private final long[] packed;
        private final int size;

        Matches(long[] packed, int size) {
            this.packed = packed;
            this.size = size;
        }

        public int size() {
            return size;
        }

        public int doc(int i) {
            return (int) (packed[i] >>> 7);
        }

        public int distance(int i) {
            return (int) (packed[i] & 0x7F);
        }
    }

    /** Every document of {@code column} within {@code k} of any of {@code probes} (at least one), with its distance to the closest. */
    public static Matches scan(FingerprintColumn column, long[] probes, int k) {
        Cursor cursor = new Cursor(column, probes, k);
        Buffer all = new Buffer();
        for (int doc = cursor.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = cursor.nextDoc()) {
            all.add(((long) doc << 7) | cursor.distance());
        }
        return new Matches(all.packed, all.size);
    }

    /**
     * The matches of a column in doc id order, scanned a block at a time as the iterator moves: {@link #distance()} is
     * the current document's distance to its closest probe.
     */
    static final class Cursor extends DistanceIterator {
        private final FingerprintColumn column;
        private final long[] probes;
        private final int k;
        private final int slots;
        private final boolean slotsAreDocs;
        /** The matches of the current block ({@code doc << 7 | distance}) and the next one to return. */
        private final Buffer block = new Buffer();
        private int next;
        /** The first slot not scanned yet. */
        private int nextSlot;
        private int doc = -1;
        private int distance;

        Cursor(FingerprintColumn column, long[] probes, int k) {
            this.column = column;
            this.probes = probes;
            this.k = k;
            this.slots = column.slots();
            this.slotsAreDocs = slotsAreDocs(column);
        }

        @Override
        public int docID() {
            return doc;
        }

        @Override
        int distance() {
            return distance;
        }

        @Override
        public int nextDoc() {
            while (next == block.size) {
                if (nextSlot >= slots) {
                    return doc = NO_MORE_DOCS;
                }
                scanBlock();
            }
            long hit = block.packed[next++];
            distance = (int) (hit & 0x7F);
            return doc = (int) (hit >>> 7);
        }

        @Override
        public int advance(int target) {
            while (next < block.size && (block.packed[next] >>> 7) < target) {
                next++;
            }
            if (next == block.size) {
                // the blocks before the target's are skipped unread
                int slot = column.slotAtOrAfter(target);
                int start = slot - slot % BLOCK;
                if (start > nextSlot) {
                    nextSlot = start;
                }
            }
            return nextAtOrAfter(target);
        }

        @Override
        public long cost() {
            return column.count();
        }

        private void scanBlock() {
            int from = nextSlot;
            int to = Math.min(slots, from + BLOCK);
            nextSlot = to;
            next = 0;
            block.size = 0;
            ColumnScan.scanBlock(column, slotsAreDocs, probes, k, from, to, block);
        }
    }

    /** Whether every slot of {@code column} is the document of the same number (no mapping of hits needed). */
    static boolean slotsAreDocs(FingerprintColumn column) {
        return column.isDense() && column.count() == column.maxDoc();
    }

    /**
     * Appends to {@code out} the documents of slots {@code from..to} (at most {@link #BLOCK}) within {@code k} of any of
     * {@code probes}, each once with its distance to the closest probe, in doc id order.
     */
    static void scanBlock(FingerprintColumn column, boolean slotsAreDocs, long[] probes, int k, int from, int to, Buffer out) {
        int first = out.size;
        int passes = 0;
        long[] values = column.values();
        for (long probe : probes) {
            int before = out.size;
            scanOne(values, from, to, probe, k, out);
            if (out.size > before) passes++;
        }
        if (out.size == first) {
            return;
        }
        if (passes > 1) {
            // several probes found some of the same slots: in order, closest first, once each
            Arrays.sort(out.packed, first, out.size);
            int n = first;
            for (int j = first; j < out.size; j++) {
                long hit = out.packed[j];
                if (n == first || (hit >>> 7) != (out.packed[n - 1] >>> 7)) {
                    out.packed[n++] = hit;
                }
            }
            out.size = n;
        }
        if (slotsAreDocs == false) {
            // slots to docs (sparse), or dense slots without a value dropped
            int n = first;
            for (int j = first; j < out.size; j++) {
                long hit = out.packed[j];
                int d = column.docAt((int) (hit >>> 7));
                if (d >= 0) {
                    out.packed[n++] = ((long) d << 7) | (hit & 0x7F);
                }
            }
            out.size = n;
        }
    }

    /** Matching documents in doc id order, each with its distance to the closest probe. */
    abstract static class DistanceIterator extends DocIdSetIterator {
        /** The current document's distance to its closest probe. */
        abstract int distance();

        @Override
        public abstract int nextDoc();

        /** The first match at or after {@code target}, by {@link #nextDoc}. */
        final int nextAtOrAfter(int target) {
            int d;
            do {
                d = nextDoc();
            } while (d < target);
            return d;
        }
    }

    /** The hits of {@link Matches}, in order. */
    static final class MatchesIterator extends DistanceIterator {
        private final Matches matches;
        private final long cost;
        private int i = -1;
        private int doc = -1;

        MatchesIterator(Matches matches, long cost) {
            this.matches = matches;
            this.cost = cost;
        }

        @Override
        int distance() {
            return matches.distance(i);
        }

        @Override
        public int docID() {
            return doc;
        }

        @Override
        public int nextDoc() {
            return doc = ++i < matches.size() ? matches.doc(i) : NO_MORE_DOCS;
        }

        @Override
        public int advance(int target) {
            return nextAtOrAfter(target);
        }

        @Override
        public long cost() {
            return cost;
        }
    }

    /**
     * Slots {@code from..to} within {@code k} of {@code probe}, appended in slot order. Each run of {@link #STRIDE} values
     * is first reduced to its smallest distance (a branch-free min of popcounts, which the JIT vectorizes; measured
     * faster than the floor's counting loop in cache and equal to it from memory) and only a run within {@code k} is
     * read again to emit its matches: matches are rare up to k ~ 20 on unrelated fingerprints, so the scan costs the
     * floor.
     */
    private static void scanOne(long[] values, int from, int to, long probe, int k, Buffer out) {
        for (int i = from; i < to; i += STRIDE) {
            int end = Math.min(to, i + STRIDE);
            int min = Long.SIZE;
            for (int j = i; j < end; j++) {
                min = Math.min(min, Long.bitCount(values[j] ^ probe));
            }
            if (min <= k) {
                emit(values, i, end, probe, k, out);
            }
        }
    }

    private static void emit(long[] values, int from, int to, long probe, int k, Buffer out) {
        for (int i = from; i < to; i++) {
            int d = Long.bitCount(values[i] ^ probe);
            if (d <= k) {
                out.add(((long) i << 7) | d);
            }
        }
    }

    /** A growable list of packed hits. */
    static final class Buffer {
        long[] packed = new long[16];
        int size;

        void add(long hit) {
            if (size == packed.length) {
                packed = ArrayUtil.grow(packed, size + 1);
            }
            packed[size++] = hit;
        }
    }
}
