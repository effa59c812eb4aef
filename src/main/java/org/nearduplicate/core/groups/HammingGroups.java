package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * All pairs of fingerprints within Hamming distance k, as connected components, without comparing all pairs and
 * without quadratic work in unrelated fingerprints (Manku, Jain and Das Sarma's batch mode, with hashed buckets
 * instead of sorted runs).
 *
 * <p>The 64 bits are cut into {@code b} blocks. Two fingerprints within distance k differ in at most k blocks, so
 * they agree on at least {@code b - k} of them. One <em>table</em> per choice of {@code b - k} blocks: the
 * fingerprints are bucketed by the bits of those blocks (a counting sort into 2^B buckets, O(n) per table), and only
 * fingerprints of one bucket are compared. Every pair within k shares the key of at least one table, so the result is
 * exact for any k. A pair is counted (and united) only in the first table whose key it shares, the lowest
 * {@code b - k} blocks on which it agrees, so each pair is counted once however many tables it shares. {@code b} is
 * chosen per run to minimise the estimated work: tables times (bucketing + expected comparisons in a bucket).
 *
 * <p>The input is the sorted distinct fingerprints with the number of documents holding each: identical fingerprints
 * are one vertex, so a thousand exact copies cost nothing more than one. Memory: the input, an {@code int} parent and
 * a {@code long} pair count per distinct fingerprint, and per table a {@code long} per fingerprint plus an
 * {@code int} per bucket; {@link #resultBytes} and {@link #tableBytes} give them for accounting before anything is allocated.
 *
 * <p><b>Units and verification.</b> A fingerprint may stand for several <em>units</em> (for {@code simhash-v4}: the
 * distinct (fingerprint, signature) pairs holding it), and a pair of units within k is joined only if a
 * {@link Verifier} accepts it. The tables still run over the distinct fingerprints; every candidate pair of
 * fingerprints within k (and every pair of units sharing a fingerprint, distance 0) is expanded into its unit pairs,
 * each verified before it is counted and united. Without units, every fingerprint is one unit and every pair within k
 * is accepted: the components of the plain "within k" graph.
 */
public final class HammingGroups {

    /** Largest number of bucket bits: 2^22 {@code int} counters, 16 MiB (more buckets only save cheap mask checks). */
    static final int MAX_BUCKET_BITS = 22;
    /** Target size of a first-level partition (log2): a few thousand fingerprints, which stay in the L1/L2 caches. */
    static final int PARTITION_BITS = 12;
    /** Largest partition bucketed in the scratch arrays; larger ones (skewed data) are sorted in place instead. */
    static final int SCRATCH_BITS = 16;
    /** Estimated cost of bucketing one fingerprint in one table, in comparisons. */
    private static final double BUCKETING_COST = 6.0;

    /**
     * Whether two units (indices into the counts) within k are a match; applied to every candidate pair before it is
     * counted or joined. Must be symmetric.
     */
    @FunctionalInterface
    public interface Verifier {
        boolean verify(int unitA, int unitB);
    }

    /** Every pair within k matches (no verification). */
    public static final Verifier ANY = (a, b) -> true;

    /** Told after every table; {@link #checkCancelled} is called every few thousand buckets and may throw. */
    public interface Progress {
        void tableDone(int done, int total);

        default void checkCancelled() {}
    }

    /**
     * How a run is cut: {@code blocks} blocks, one table per choice of {@code keyBlocks} of them ({@code tables} in
     * all), {@code bucketBits} hashed bits per table. The brute force is one block and no key block.
     */
    public record Plan(int blocks, int keyBlocks, int tables, int bucketBits, double estimatedComparisons) {
    }

    /** The components and counts of one run. {@link #root} and {@link #pairsAt} are indexed like the input's units (its counts). */
    public static final class Result {
        private final int[] parent;
        private final long[] pairsAt;
        private final long comparisons;
        private final long verifiedPairs;
        private final Plan plan;

        Result(int[] parent, long[] pairsAt, long comparisons, long verifiedPairs, Plan plan) {
            this.parent = parent;
            this.pairsAt = pairsAt;
            this.comparisons = comparisons;
            this.verifiedPairs = verifiedPairs;
            this.plan = plan;
        }

        /** The component of unit {@code i} (distinct fingerprint {@code i} without units): the smallest index in it. */
        public int root(int i) {
            int r = i;
            while (parent[r] != r)
                r = parent[r];
            return r;
        }

        /** The component of every distinct fingerprint, as {@link #root} (the result's own array, flattened in place). */
        public int[] roots() {
            for (int i = 0; i < parent.length; i++)
                parent[i] = parent[parent[i]]; // parents have smaller indices: done first
            return parent;
        }

        /** Verified document pairs within k counted at unit {@code i} (sum them over a component). */
        public long pairsAt(int i) {
            return pairsAt[i];
        }

        /**
         * Pairs compared (sharing the key of a table): distinct-fingerprint pairs, where a matching pair counts as the
         * document pairs it stands for; identical copies are not compared (see {@link #verifiedPairs}).
         */
        public long comparisons() {
            return comparisons;
        }

        /** Verified document pairs within k, each counted once (identical units included). */
        public long verifiedPairs() {
            return verifiedPairs;
        }

        public Plan plan() {
            return plan;
        }
    }

    private HammingGroups() {}

    /** The cheapest plan for {@code n} distinct fingerprints and distance {@code k} (0..64). */
    public static Plan plan(long n, int k) {
        if (k < 0 || k > 64) throw new IllegalArgumentException("k must be between 0 and 64, got " + k);
        int bucketBits = bucketBits(n);
        double allPairs = n * (double) (n - 1) / 2;
        // b = k + 1 .. 64 blocks (b = 64 with k = 64 would leave no key): the brute force is one table without key
        Plan best = new Plan(1, 0, 1, 0, allPairs);
        double bestCost = allPairs + n;
        for (int b = k + 1; b <= 64; b++) {
            double tables = binomial(b, k);
            if (tables > 1e7) break; // already far beyond any useful plan and growing
            int keyBits = (b - k) * 64 / b; // the narrowest table key
            // two levels bucket by the whole key (prefix partition + suffix bits); one level by at most bucketBits
            boolean twoLevels = b - k >= 2 && n >= 1L << (PARTITION_BITS + 2);
            int effective = twoLevels ? keyBits : Math.min(keyBits, bucketBits);
            double comparisons = tables * allPairs / Math.pow(2, effective);
            double cost = tables * n * BUCKETING_COST + comparisons;
            if (cost < bestCost) {
                bestCost = cost;
                best = new Plan(b, b - k, (int) tables, Math.min(keyBits, bucketBits), comparisons);
            }
        }
        return best;
    }

    /** Heap of the input: the distinct fingerprints and their counts. */
    public static long inputBytes(long n) {
        return 12 * n;
    }

    /** Heap of a {@link Result}: a parent and a pair count per unit ({@code n}: units, or distinct fingerprints without units). */
    public static long resultBytes(long n) {
        return 12 * n;
    }

    /** Heap of one table per distinct fingerprint (its key). */
    public static final int TABLE_BYTES_PER_FINGERPRINT = 8;

    /** Heap used by {@link #find} while it runs, besides the input and the result: one table. */
    public static long tableBytes(long n, Plan plan) {
        long scratch = prefixBlocks(n, plan) > 0 ? (8L << SCRATCH_BITS) + (4L << (SCRATCH_BITS + 1)) : 0;
        return TABLE_BYTES_PER_FINGERPRINT * n + (4L << plan.bucketBits()) + scratch + 4096;
    }

    /** The part of {@link #tableBytes} that does not grow with the fingerprints, at its largest (bucket counters, scratch). */
    public static long maxFixedTableBytes() {
        return (4L << MAX_BUCKET_BITS) + (8L << SCRATCH_BITS) + (4L << (SCRATCH_BITS + 1)) + 4096;
    }

    /**
     * Groups {@code distinct} (sorted ascending as signed longs, no repeats), {@code counts[i]} documents holding
     * {@code distinct[i]}, at distance {@code k}.
     */
    public static Result find(long[] distinct, int[] counts, int k, Progress progress) {
        return find(distinct, counts, k, plan(distinct.length, k), progress);
    }

    /**
     * Groups the units of {@code distinct} (sorted ascending as signed longs, no repeats): fingerprint {@code i} stands
     * for units {@code unitStart[i]} to {@code unitStart[i + 1] - 1} ({@code unitStart} null: unit {@code i} alone),
     * {@code counts[u]} documents holding unit {@code u}; a pair of units within {@code k} is joined when
     * {@code verifier} accepts it. The {@link Result} is indexed by unit.
     */
    public static Result find(long[] distinct, int[] unitStart, int[] counts, int k, Verifier verifier, Progress progress) {
        Plan plan = plan(distinct.length, k);
        return find(distinct, unitStart, counts, k, verifier, plan, prefixBlocks(distinct.length, plan), progress);
    }

    static Result find(long[] distinct, int[] counts, int k, Plan plan, Progress progress) {
        return find(distinct, counts, k, plan, prefixBlocks(distinct.length, plan), progress);
    }

    static Result find(long[] distinct, int[] counts, int k, Plan plan, int prefixBlocks, Progress progress) {
        return find(distinct, null, counts, k, ANY, plan, prefixBlocks, progress);
    }

    /**
     * How many leading blocks of each table the first level partitions by (0: one level, every table bucketed over
     * all fingerprints): enough for partitions of about 2^{@value #PARTITION_BITS} fingerprints, which the second
     * level buckets per table within the CPU caches instead of scattering N fingerprints through memory per table.
     */
    static int prefixBlocks(long n, Plan plan) {
        if (plan.keyBlocks() < 2 || n < (1L << (PARTITION_BITS + 2))) return 0;
        double blockBits = 64.0 / plan.blocks();
        double wanted = (64 - Long.numberOfLeadingZeros(n)) - PARTITION_BITS;
        int blocks = (int) Math.round(wanted / blockBits);
        return Math.max(1, Math.min(plan.keyBlocks() - 1, blocks));
    }

    static Result find(
        long[] distinct,
        int[] unitStart,
        int[] counts,
        int k,
        Verifier verifier,
        Plan plan,
        int prefixBlocks,
        Progress progress
    ) {
        int n = distinct.length;
        int units = unitStart == null ? n : unitStart[n];
        if (unitStart != null && (unitStart.length != n + 1 || unitStart[0] != 0)) {
            throw new IllegalArgumentException("one unit start per fingerprint, and the end");
        }
        if (counts.length != units) throw new IllegalArgumentException("one count per unit");
        for (int i = 1; i < n; i++) {
            if (distinct[i - 1] >= distinct[i]) throw new IllegalArgumentException("fingerprints must be sorted and distinct");
            if (unitStart != null && unitStart[i] <= unitStart[i - 1]) throw new IllegalArgumentException("every fingerprint has a unit");
        }
        int[] parent = new int[units];
        for (int i = 0; i < units; i++)
            parent[i] = i;
        long[] pairsAt = new long[units];
        long verified = 0;
        for (int i = 0; i < units; i++) {
            long c = counts[i];
            if (c > 1) {
                pairsAt[i] = c * (c - 1) / 2;
                verified += pairsAt[i];
            }
        }
        Run run = new Run(distinct, unitStart, counts, k, verifier, plan, parent, pairsAt, progress);
        if (unitStart != null) run.sameFingerprint();
        if (prefixBlocks > 0 && distinct.length > 1) {
            run.twoLevel(prefixBlocks);
        } else {
            run.all();
        }
        return new Result(parent, pairsAt, run.comparisons, verified + run.verified, plan);
    }

    private static final class Run {
        final long[] distinct;
        final int[] unitStart;
        final int[] counts;
        final Verifier verifier;
        final int k;
        final Plan plan;
        final int[] parent;
        final long[] pairsAt;
        final Progress progress;
        final long[] blockMasks;
        final int keep;
        long comparisons;
        long verified;

        Run(
            long[] distinct,
            int[] unitStart,
            int[] counts,
            int k,
            Verifier verifier,
            Plan plan,
            int[] parent,
            long[] pairsAt,
            Progress progress
        ) {
            this.distinct = distinct;
            this.unitStart = unitStart;
            this.counts = counts;
            this.verifier = verifier;
            this.k = k;
            this.plan = plan;
            this.parent = parent;
            this.pairsAt = pairsAt;
            this.progress = progress;
            int b = plan.blocks();
            blockMasks = new long[b];
            for (int i = 0; i < b; i++) {
                int from = i * 64 / b, to = (i + 1) * 64 / b;
                blockMasks[i] = to - from == 64 ? -1L : ((1L << (to - from)) - 1) << from;
            }
            keep = plan.keyBlocks();
        }

        void all() {
            int b = plan.blocks();
            int n = distinct.length;
            if (n < 2) {
                progress.tableDone(plan.tables(), plan.tables());
                return;
            }
            int bucketBits = plan.bucketBits();
            int[] start = new int[(1 << bucketBits) + 1];
            long[] order = new long[n];
            int[] combination = new int[keep];
            for (int i = 0; i < keep; i++)
                combination[i] = i;
            int done = 0;
            while (true) {
                long mask = 0;
                long tableBlocks = 0;
                for (int c : combination) {
                    mask |= blockMasks[c];
                    tableBlocks |= 1L << c;
                }
                table(mask, tableBlocks, bucketBits, start, order);
                progress.tableDone(++done, plan.tables());
                if (next(combination, b) == false) break;
            }
        }

        /**
         * The tables grouped by their first {@code prefixBlocks} blocks: all fingerprints are partitioned once per
         * prefix (a counting sort by its bits), then every table with that prefix is bucketed within each partition.
         * The same tables, so the same exact result and pair counts, with far less memory traffic.
         */
        void twoLevel(int prefixBlocks) {
            int b = plan.blocks();
            int n = distinct.length;
            int suffixLength = keep - prefixBlocks;
            long[] order = new long[n];
            long[] scratch = new long[1 << SCRATCH_BITS];
            int[] scratchStart = new int[(1 << (SCRATCH_BITS + 1)) + 1];
            int[] prefix = new int[prefixBlocks];
            for (int i = 0; i < prefixBlocks; i++)
                prefix[i] = i;
            int done = 0;
            do {
                int last = prefix[prefixBlocks - 1];
                int free = b - last - 1;
                if (free < suffixLength) continue; // no table starts with this prefix
                long prefixMask = 0, prefixSet = 0;
                for (int c : prefix) {
                    prefixMask |= blockMasks[c];
                    prefixSet |= 1L << c;
                }
                // the suffixes: every suffixLength-subset of the blocks after the prefix's last
                List<long[]> suffixes = new ArrayList<>();
                int[] suffix = new int[suffixLength];
                for (int i = 0; i < suffixLength; i++)
                    suffix[i] = last + 1 + i;
                do {
                    long mask = 0, set = 0;
                    for (int c : suffix) {
                        mask |= blockMasks[c];
                        set |= 1L << c;
                    }
                    suffixes.add(new long[] { mask, set });
                } while (nextAbove(suffix, b));
                int prefixBits = Math.min(Long.bitCount(prefixMask), bucketBits(n)); // wider keys are hashed
                int[] start = partition(prefixMask, prefixBits, order);
                for (int p = 0; p < (1 << prefixBits); p++) {
                    int from = start[p], to = start[p + 1];
                    if (to - from < 2) continue;
                    progress.checkCancelled();
                    for (long[] s : suffixes) {
                        within(order, from, to, prefixMask | s[0], s[0], prefixSet | s[1], scratch, scratchStart);
                    }
                }
                done += suffixes.size();
                progress.tableDone(done, plan.tables());
            } while (next(prefix, b));
            assert done == plan.tables() : done + " tables of " + plan.tables();
        }

        /** Counting sort of all fingerprints into {@code order} by their bits under {@code mask}; bucket starts. */
        private int[] partition(long mask, int bits, long[] order) {
            boolean exact = Long.bitCount(mask) <= bits;
            int[] start = new int[(1 << bits) + 1];
            for (long fp : distinct)
                start[key(fp, mask, bits, exact) + 1]++;
            for (int i = 1; i < start.length; i++)
                start[i] += start[i - 1];
            int[] next = Arrays.copyOf(start, start.length - 1);
            for (long fp : distinct)
                order[next[key(fp, mask, bits, exact)]++] = fp;
            return start;
        }

        private static int key(long fp, long mask, int bits, boolean exact) {
            return exact ? (int) Long.compress(fp, mask) : bucket(fp & mask, bits);
        }

        /** One table within one partition {@code order[from, to)}: compares the fingerprints that share its key. */
        private void within(
            long[] order,
            int from,
            int to,
            long mask,
            long suffixMask,
            long tableBlocks,
            long[] scratch,
            int[] scratchStart
        ) {
            int size = to - from;
            if (size <= 16) {
                for (int i = from; i < to; i++) {
                    for (int j = i + 1; j < to; j++)
                        compare(order[i], order[j], mask, tableBlocks);
                }
                return;
            }
            if (size <= scratch.length) {
                // by the suffix's bits (the prefix's are shared within the partition, or hashed and checked by mask)
                int wanted = Math.min(32 - Integer.numberOfLeadingZeros(size - 1) + 1, SCRATCH_BITS + 1);
                boolean exact = Long.bitCount(suffixMask) <= wanted;
                int bits = exact ? Long.bitCount(suffixMask) : wanted;
                int buckets = 1 << bits;
                Arrays.fill(scratchStart, 0, buckets + 1, 0);
                for (int i = from; i < to; i++)
                    scratchStart[key(order[i], suffixMask, bits, exact) + 1]++;
                for (int i = 1; i <= buckets; i++)
                    scratchStart[i] += scratchStart[i - 1];
                for (int i = from; i < to; i++)
                    scratch[scratchStart[key(order[i], suffixMask, bits, exact)]++] = order[i];
                for (int i = buckets; i > 0; i--)
                    scratchStart[i] = scratchStart[i - 1];
                scratchStart[0] = 0;
                for (int bucket = 0; bucket < buckets; bucket++) {
                    int end = scratchStart[bucket + 1];
                    for (int i = scratchStart[bucket]; i < end; i++) {
                        for (int j = i + 1; j < end; j++)
                            compare(scratch[i], scratch[j], mask, tableBlocks);
                    }
                }
                return;
            }
            // a partition too large for the scratch (skewed data): sort it in place by the table key, which a bit
            // permutation moves to the top bits (distances are unchanged by it), then restore the fingerprints
            int keyBits = Long.bitCount(mask);
            long rest = ~mask;
            for (int i = from; i < to; i++)
                order[i] = Long.compress(order[i], mask) << (64 - keyBits) | Long.compress(order[i], rest);
            Arrays.sort(order, from, to);
            for (int i = from; i < to; i++)
                order[i] = Long.expand(order[i] >>> (64 - keyBits), mask) | Long.expand(order[i], rest);
            int runStart = from;
            for (int i = from + 1; i <= to; i++) {
                if (i == to || ((order[i] ^ order[runStart]) & mask) != 0) {
                    for (int x = runStart; x < i; x++) {
                        if ((x & 0xFFF) == 0) progress.checkCancelled();
                        for (int y = x + 1; y < i; y++)
                            compare(order[x], order[y], mask, tableBlocks);
                    }
                    runStart = i;
                }
            }
        }

        private void compare(long a, long b, long mask, long tableBlocks) {
            long diff = a ^ b;
            if ((diff & mask) != 0) return; // another key in the same hashed bucket
            comparisons++;
            if (Long.bitCount(diff) <= k && firstSharedTable(diff) == tableBlocks) pair(a, b);
        }

        /** Next subset in lexicographic order keeping its values below {@code b} (the first value may move). */
        private static boolean nextAbove(int[] c, int b) {
            return c.length > 0 && next(c, b);
        }

        /** Next {@code keep}-subset of 0..b-1 in lexicographic order; false after the last. */
        private static boolean next(int[] c, int b) {
            int i = c.length - 1;
            while (i >= 0 && c[i] == b - c.length + i)
                i--;
            if (i < 0) return false;
            c[i]++;
            for (int j = i + 1; j < c.length; j++)
                c[j] = c[j - 1] + 1;
            return true;
        }

        private void table(long mask, long tableBlocks, int bucketBits, int[] start, long[] order) {
            int n = distinct.length;
            int buckets = 1 << bucketBits;
            Arrays.fill(start, 0);
            for (long fp : distinct)
                start[bucket(fp & mask, bucketBits) + 1]++;
            for (int i = 1; i <= buckets; i++)
                start[i] += start[i - 1];
            // place, then restore start[] (the placing shifted every bucket's start to its end)
            for (long fp : distinct)
                order[start[bucket(fp & mask, bucketBits)]++] = fp;
            for (int i = buckets; i > 0; i--)
                start[i] = start[i - 1];
            start[0] = 0;
            for (int bucket = 0; bucket < buckets; bucket++) {
                int from = start[bucket], to = start[bucket + 1];
                for (int i = from; i < to; i++) {
                    if ((i & 0xFFF) == 0) progress.checkCancelled();
                    long a = order[i];
                    for (int j = i + 1; j < to; j++) {
                        long diff = a ^ order[j];
                        if ((diff & mask) != 0) continue; // another key in the same hashed bucket
                        comparisons++;
                        if (Long.bitCount(diff) <= k && firstSharedTable(diff) == tableBlocks) {
                            pair(a, order[j]);
                        }
                    }
                }
            }
            assert start[buckets] == n;
        }

        /** The blocks of the first table (lexicographic) whose key the pair shares: its lowest {@code keep} agreeing blocks. */
        private long firstSharedTable(long diff) {
            long chosen = 0;
            int need = keep;
            for (int i = 0; i < blockMasks.length && need > 0; i++) {
                if ((diff & blockMasks[i]) == 0) {
                    chosen |= 1L << i;
                    need--;
                }
            }
            return chosen;
        }

        /** The pairs of different units sharing one fingerprint (distance 0): candidates, verified like any other. */
        void sameFingerprint() {
            for (int f = 0; f < distinct.length; f++) {
                int from = unitStart[f], to = unitStart[f + 1];
                for (int u = from; u < to; u++) {
                    for (int v = u + 1; v < to; v++) {
                        long p = (long) counts[u] * counts[v];
                        comparisons += p;
                        if (verifier.verify(u, v)) unite(u, v, p);
                    }
                }
                if ((f & 0xFFF) == 0) progress.checkCancelled();
            }
        }

        private void pair(long a, long b) {
            int ia = Arrays.binarySearch(distinct, a), ib = Arrays.binarySearch(distinct, b);
            if (unitStart == null) {
                long p = (long) counts[ia] * counts[ib];
                comparisons += p - 1; // the comparison stands for p document pairs
                if (verifier.verify(ia, ib)) unite(ia, ib, p);
                return;
            }
            comparisons--; // counted below, per unit pair
            for (int u = unitStart[ia]; u < unitStart[ia + 1]; u++) {
                for (int v = unitStart[ib]; v < unitStart[ib + 1]; v++) {
                    long p = (long) counts[u] * counts[v];
                    comparisons += p; // the fingerprints' comparison stands for every document pair of their units
                    if (verifier.verify(u, v)) unite(u, v, p);
                }
            }
        }

        /** Counts {@code p} verified document pairs at unit {@code a} and joins the components of {@code a} and {@code b}. */
        private void unite(int a, int b, long p) {
            verified += p;
            pairsAt[a] += p;
            int ra = find(a), rb = find(b);
            if (ra != rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }

        private int find(int x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        }
    }

    private static int bucket(long key, int bits) {
        if (bits == 0) return 0;
        long h = key * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h >>> (64 - bits));
    }

    /** About log2(n) + 1 bits: on average under one fingerprint per bucket, at most {@link #MAX_BUCKET_BITS}. */
    static int bucketBits(long n) {
        if (n < 2) return 0;
        int bits = 64 - Long.numberOfLeadingZeros(n - 1) + 1;
        return Math.min(bits, MAX_BUCKET_BITS);
    }

    private static double binomial(int n, int r) {
        double v = 1;
        for (int i = 1; i <= r; i++)
            v = v * (n - r + i) / i;
        return v;
    }
}
