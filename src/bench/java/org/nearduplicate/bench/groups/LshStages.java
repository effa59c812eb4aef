package org.nearduplicate.bench.groups;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.nearduplicate.bench.harness.*;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.sketch.Signature;

/**
 * The stages GroupsLshBench measures. Data (seeded): N units = clusters of 2..4 near-duplicates (a share of the units,
 * default 10 %) plus random filler. A cluster has a random center fingerprint and signature; every other member is the
 * center's fingerprint with 0..8 random bits flipped (so members are within k = 16 of each other) and the center's
 * signature agreeing on a number of slots drawn uniformly from 12..32 (the other slots changed). Units are sorted by
 * fingerprint, identical (fingerprint, signature) pairs merged into one unit with a count, as GroupMembers.mergeUnits
 * gives them. The planted truth: verified pairs among the members of each cluster, by brute force within the cluster
 * (random pairs verify with probability ~1e-20). The brute force over all pairs (every distinct fingerprint against
 * every other, popcount <= k over a long[] with the Vector API, then the units' signature check) is the exact reference
 * that is feasible at 1M (n^2/2 = 5e11 fingerprint pairs at ~0.1 ns each).
 */
final class LshStages {
    static final int K = 16;
    static final int SIG = Signature.BYTES;

    private LshStages() {}

    record Units(long[] distinct, int[] unitStart, int[] counts, byte[] signatures, long plantedPairs, int clusters, long docs) {
    }

    static Units generate(int n, double clusterShare, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] fps = new long[n];
        byte[] sigs = new byte[n * SIG];
        int i = 0, clusters = 0;
        long planted = 0;
        int clustered = (int) (n * clusterShare);
        byte[] center = new byte[SIG];
        int[] slots = new int[Signature.SLOTS];
        while (i < clustered) {
            int size = Math.min(2 + random.nextInt(3), n - i);
            long c = random.nextLong();
            for (int b = 0; b < SIG; b++)
                center[b] = (byte) random.nextInt(256);
            int first = i;
            for (int m = 0; m < size; m++, i++) {
                long fp = c;
                System.arraycopy(center, 0, sigs, i * SIG, SIG);
                if (m > 0) {
                    int flips = random.nextInt(K / 2 + 1);
                    for (int f = 0; f < flips; f++)
                        fp ^= 1L << random.nextInt(64);
                    int agree = 12 + random.nextInt(21);
                    for (int s = 0; s < slots.length; s++)
                        slots[s] = s;
                    for (int s = 0; s < Signature.SLOTS - agree; s++) {
                        int j = s + random.nextInt(slots.length - s);
                        int t = slots[s];
                        slots[s] = slots[j];
                        slots[j] = t;
                        sigs[i * SIG + slots[s]] += (byte) (1 + random.nextInt(255));
                    }
                }
                fps[i] = fp;
            }
            // the planted truth: pairs of this cluster that verify
            for (int a = first; a < i; a++)
                for (int b = a + 1; b < i; b++)
                    if (Long.bitCount(fps[a] ^ fps[b]) <= K
                        && Signature.agreeingSlots(sigs, a * SIG, sigs, b * SIG) >= Signature.minAgreeing(0.35)) planted++;
            clusters++;
        }
        for (; i < n; i++) {
            fps[i] = random.nextLong();
            for (int b = 0; b < SIG; b++)
                sigs[i * SIG + b] = (byte) random.nextInt(256);
        }
        // sort by fingerprint: (top 40 bits, index), then exact order and signature order within ties
        int[] idx = sortedOrder(fps, sigs);
        long[] distinct = new long[n];
        int[] unitStart = new int[n + 1];
        int[] counts = new int[n];
        byte[] unitSigs = new byte[n * SIG];
        int d = 0, u = 0;
        for (int j = 0; j < n; j++) {
            int at = idx[j];
            if (u > 0 && distinct[d - 1] == fps[at] && GroupMembers.compareSignatures(unitSigs, u - 1, sigs, at) == 0) {
                counts[u - 1]++;
                continue;
            }
            if (d == 0 || distinct[d - 1] != fps[at]) {
                distinct[d] = fps[at];
                unitStart[d++] = u;
            }
            System.arraycopy(sigs, at * SIG, unitSigs, u * SIG, SIG);
            counts[u++] = 1;
        }
        unitStart[d] = u;
        return new Units(
            d == n ? distinct : Arrays.copyOf(distinct, d),
            Arrays.copyOf(unitStart, d + 1),
            u == n ? counts : Arrays.copyOf(counts, u),
            u == n ? unitSigs : Arrays.copyOf(unitSigs, u * SIG),
            planted,
            clusters,
            n
        );
    }

    /**
     * The indices of the n entries (n < 2^24) in unit order: by fingerprint (sorted on the top 40 bits with the index
     * in the low 24, then an insertion sort that only moves ties), then by signature.
     */
    static int[] sortedOrder(long[] fps, byte[] sigs) {
        int n = fps.length;
        long[] order = new long[n];
        for (int j = 0; j < n; j++)
            order[j] = fps[j] >>> 24 << 24 | j; // the signed order of the top 40 bits, then the index
        Arrays.sort(order);
        int[] idx = new int[n];
        for (int j = 0; j < n; j++)
            idx[j] = (int) (order[j] & 0xFFFFFF);
        for (int j = 1; j < n; j++) { // insertion sort: only ties on the top 40 bits move
            int x = idx[j];
            int q = j - 1;
            while (q >= 0 && less(fps, sigs, x, idx[q])) {
                idx[q + 1] = idx[q];
                q--;
            }
            idx[q + 1] = x;
        }
        return idx;
    }

    static boolean less(long[] fps, byte[] sigs, int a, int b) {
        int c = Long.compare(fps[a], fps[b]);
        return c != 0 ? c < 0 : GroupMembers.compareSignatures(sigs, a, sigs, b) < 0;
    }

    record Run(String path, long millis, HammingGroups.Result result, long groups, long docsInGroups, long maxHeapMb, int bandsSeen) {
    }

    static Run run(Units in, HammingGroups.Candidates candidates) {
        return run(in, candidates, HammingGroups.Workers.CALLER);
    }

    static Run run(Units in, HammingGroups.Candidates candidates, HammingGroups.Workers workers) {
        int minAgreeing = Signature.minAgreeing(0.35);
        long[] sc = HammingGroups.signatureCounts(in.unitStart(), in.signatures(), in.distinct().length);
        HammingGroups.Plan plan = HammingGroups.plan(in.distinct().length, K, in.counts().length, sc[0], sc[1], minAgreeing, candidates);
        System.gc();
        long[] maxHeap = { 0 };
        int[] progressCalls = { 0 };
        var memory = ManagementFactory.getMemoryMXBean();
        long t0 = System.nanoTime();
        HammingGroups.Result r = HammingGroups.find(
            in.distinct(),
            in.unitStart(),
            in.counts(),
            in.signatures(),
            minAgreeing,
            K,
            GroupMembers.verifier(in.signatures(), new GroupMembers.Rule(K, minAgreeing)),
            plan,
            new HammingGroups.Progress() {
                @Override
                public void tableDone(int done, int total) {
                    progressCalls[0]++;
                    maxHeap[0] = Math.max(maxHeap[0], memory.getHeapMemoryUsage().getUsed());
                }
            },
            workers
        );
        long millis = (System.nanoTime() - t0) / 1_000_000;
        int[] roots = r.roots();
        int units = in.counts().length;
        long[] docsOf = new long[units];
        for (int u = 0; u < units; u++)
            docsOf[roots[u]] += in.counts()[u];
        long groups = 0, docsIn = 0;
        for (int u = 0; u < units; u++) {
            if (roots[u] == u && docsOf[u] > 1) {
                groups++;
                docsIn += docsOf[u];
            }
        }
        return new Run(plan.candidates(), millis, r, groups, docsIn, maxHeap[0] >> 20, progressCalls[0]);
    }

    /** The brute force's result: pairs counted at their lower unit, components as roots (the smallest unit). */
    record Exact(long millis, long withinK, long verifiedPairs, long[] pairsAt, int[] roots, long groups, long docsInGroups) {
    }

    static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    static final int BLOCK = 4096;

    /**
     * The exact verified pairs by brute force: identical units, units sharing a fingerprint, then every pair of
     * distinct fingerprints (blocked: a block of {@link #BLOCK} fingerprints stays in L1 while every earlier one is
     * compared with it, {@link #SPECIES} lanes per popcount) within k expanded into its unit pairs, each verified by
     * {@code verifier}. Pairs are counted at their lower unit (as the LSH path counts them) and united.
     */
    static Exact bruteForce(Units in, HammingGroups.Verifier verifier) {
        long[] fps = in.distinct();
        int[] unitStart = in.unitStart();
        int[] counts = in.counts();
        int n = fps.length, units = counts.length, lanes = SPECIES.length();
        int[] parent = new int[units];
        for (int u = 0; u < units; u++)
            parent[u] = u;
        long[] pairsAt = new long[units];
        long t0 = System.nanoTime();
        for (int u = 0; u < units; u++)
            pairsAt[u] = (long) counts[u] * (counts[u] - 1) / 2;
        for (int f = 0; f < n; f++) {
            for (int u = unitStart[f]; u < unitStart[f + 1]; u++)
                for (int v = u + 1; v < unitStart[f + 1]; v++)
                    if (verifier.verify(u, v)) unite(parent, pairsAt, u, v, (long) counts[u] * counts[v]);
        }
        long within = 0;
        int blocks = (n + BLOCK - 1) / BLOCK, reported = 0;
        for (int jb = 0; jb < n; jb += BLOCK) {
            int je = Math.min(n, jb + BLOCK);
            for (int i = 0; i < je; i++) {
                long x = fps[i];
                LongVector vx = LongVector.broadcast(SPECIES, x);
                int j = Math.max(jb, i + 1);
                for (; j + lanes <= je; j += lanes) {
                    VectorMask<Long> m = LongVector.fromArray(SPECIES, fps, j)
                        .lanewise(VectorOperators.XOR, vx)
                        .lanewise(VectorOperators.BIT_COUNT)
                        .compare(VectorOperators.LE, K);
                    if (m.anyTrue()) {
                        for (long bits = m.toLong(); bits != 0; bits &= bits - 1) {
                            within++;
                            pairOf(in, verifier, parent, pairsAt, i, j + Long.numberOfTrailingZeros(bits));
                        }
                    }
                }
                for (; j < je; j++) {
                    if (Long.bitCount(x ^ fps[j]) <= K) {
                        within++;
                        pairOf(in, verifier, parent, pairsAt, i, j);
                    }
                }
            }
            int block = jb / BLOCK + 1;
            if (block * 20L / blocks > reported) {
                reported = (int) (block * 20L / blocks);
                // work done grows with the square of the blocks seen
                System.out.printf(
                    Locale.ROOT,
                    "  brute force: %d of %d blocks (%.0f %% of the pairs), %d s%n",
                    block,
                    blocks,
                    100.0 * je * (double) je / ((double) n * n),
                    (System.nanoTime() - t0) / 1_000_000_000L
                );
            }
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        long verified = 0;
        for (long p : pairsAt)
            verified += p;
        for (int u = 0; u < units; u++)
            parent[u] = root(parent, u);
        long[] docsOf = new long[units];
        for (int u = 0; u < units; u++)
            docsOf[parent[u]] += counts[u];
        long groups = 0, docsIn = 0;
        for (int u = 0; u < units; u++) {
            if (parent[u] == u && docsOf[u] > 1) {
                groups++;
                docsIn += docsOf[u];
            }
        }
        return new Exact(millis, within, verified, pairsAt, parent, groups, docsIn);
    }

    /** The unit pairs of distinct fingerprints {@code f < g} (within k), verified. */
    private static void pairOf(Units in, HammingGroups.Verifier verifier, int[] parent, long[] pairsAt, int f, int g) {
        int[] unitStart = in.unitStart();
        for (int u = unitStart[f]; u < unitStart[f + 1]; u++)
            for (int v = unitStart[g]; v < unitStart[g + 1]; v++)
                if (verifier.verify(u, v)) unite(parent, pairsAt, Math.min(u, v), Math.max(u, v), (long) in.counts()[u] * in.counts()[v]);
    }

    private static void unite(int[] parent, long[] pairsAt, int a, int b, long p) {
        pairsAt[a] += p;
        int ra = root(parent, a), rb = root(parent, b);
        if (ra != rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }

    private static int root(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /**
     * The LSH result against the brute force's: units whose LSH pair count exceeds the exact one (must be 0: the LSH
     * path reports verified pairs only), units where it is lower (pairs missed), and exact groups (components of two or
     * more documents) the LSH path returned whole (the same units, not split).
     */
    record Comparison(long unitsAbove, long unitsBelow, long exactGroupsWhole) {
    }

    static Comparison compare(Units in, HammingGroups.Result lsh, Exact exact) {
        int units = in.counts().length;
        int[] lshRoots = lsh.roots();
        long above = 0, below = 0;
        for (int u = 0; u < units; u++) {
            long l = lsh.pairsAt(u), e = exact.pairsAt()[u];
            if (l > e) above++;
            else if (l < e) below++;
        }
        // an exact group is returned whole when all its units share one LSH root and that LSH group has no other unit
        // (it cannot: LSH pairs are exact pairs); so: all units of the exact component map to one LSH root
        int[] lshRootOfExact = new int[units];
        Arrays.fill(lshRootOfExact, -1);
        boolean[] split = new boolean[units];
        long[] docsOf = new long[units];
        for (int u = 0; u < units; u++) {
            int e = exact.roots()[u];
            docsOf[e] += in.counts()[u];
            if (lshRootOfExact[e] == -1) lshRootOfExact[e] = lshRoots[u];
            else if (lshRootOfExact[e] != lshRoots[u]) split[e] = true;
        }
        long whole = 0;
        for (int u = 0; u < units; u++)
            if (exact.roots()[u] == u && docsOf[u] > 1 && split[u] == false) whole++;
        return new Comparison(above, below, whole);
    }
}
