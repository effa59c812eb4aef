package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.core.groups.HammingGroups.Plan;
import org.nearduplicate.core.groups.HammingGroups.Progress;
import org.nearduplicate.core.groups.HammingGroups.Verifier;

import static org.nearduplicate.core.groups.HammingGroups.SCRATCH_BITS;

/**
 * The exact candidates of {@link HammingGroups}: Manku's tables, one per choice of {@code keyBlocks} of the plan's
 * blocks, each bucketing the fingerprints by those blocks' bits; a pair within k is compared in every table whose key
 * it shares and counted in the first one only.
 */
final class ExactTables extends ComponentRun {
    /** Estimated cost of bucketing one fingerprint in one table, in comparisons. */
    static final double BUCKETING_COST = 6.0;

    final long[] blockMasks;
    final int keep;

    ExactTables(long[] distinct, int[] unitStart, int[] counts, int k, Verifier verifier, Plan plan, Progress progress) {
        super(distinct, unitStart, counts, k, verifier, plan, progress);
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
            int prefixBits = Math.min(Long.bitCount(prefixMask), HammingGroups.bucketBits(n)); // wider keys are hashed
            int[] start = partition(prefixMask, prefixBits, order);
            for (int p = 0; p < (1 << prefixBits); p++) {
                int from = start[p], to = start[p + 1];
                if (to - from < 2) continue;
                progress.checkCancelled();
                for (long[] s : suffixes) {
                    within(order, from, to, prefixMask | s[0], s[0], prefixSet | s[1], scratch, scratchStart);
                }
                progress.withinTable(to, n);
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
    private void within(long[] order, int from, int to, long mask, long suffixMask, long tableBlocks, long[] scratch, int[] scratchStart) {
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
                if ((i & 0xFFF) == 0) {
                    progress.checkCancelled();
                    progress.withinTable(i, n);
                }
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

    private static int bucket(long key, int bits) {
        if (bits == 0) return 0;
        long h = key * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h >>> (64 - bits));
    }

    /** {@link HammingGroups#plan(long, int)}: the number of blocks minimising tables x (bucketing + comparisons). */
    static HammingGroups.Plan cheapestPlan(long n, int k) {
        if (k < 0 || k > 64) throw new IllegalArgumentException("k must be between 0 and 64, got " + k);
        int bucketBits = HammingGroups.bucketBits(n);
        double allPairs = n * (double) (n - 1) / 2;
        // b = k + 1 .. 64 blocks (b = 64 with k = 64 would leave no key): the brute force is one table without key
        HammingGroups.Plan best = new HammingGroups.Plan(1, 0, 1, 0, allPairs);
        double bestCost = allPairs + n;
        for (int b = k + 1; b <= 64; b++) {
            double tables = binomial(b, k);
            if (tables > 1e7) break; // already far beyond any useful plan and growing
            int keyBits = (b - k) * 64 / b; // the narrowest table key
            // two levels bucket by the whole key (prefix partition + suffix bits); one level by at most bucketBits
            boolean twoLevels = b - k >= 2 && n >= 1L << (HammingGroups.PARTITION_BITS + 2);
            int effective = twoLevels ? keyBits : Math.min(keyBits, bucketBits);
            double comparisons = tables * allPairs / Math.pow(2, effective);
            double cost = tables * n * BUCKETING_COST + comparisons;
            if (cost < bestCost) {
                bestCost = cost;
                best = new HammingGroups.Plan(b, b - k, (int) tables, Math.min(keyBits, bucketBits), comparisons);
            }
        }
        return best;
    }

    private static double binomial(int n, int r) {
        double v = 1;
        for (int i = 1; i <= r; i++)
            v = v * (n - r + i) / i;
        return v;
    }
}
