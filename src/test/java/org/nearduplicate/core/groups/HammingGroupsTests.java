package org.nearduplicate.core.groups;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

public class HammingGroupsTests extends RandomizedTest {

    private static final HammingGroups.Progress NONE = (done, total) -> {};

    /** Random fingerprints with planted clusters (chains of small edits, so components are larger than cliques). */
    private static long[] plantedSet(int random, int clusters, int clusterSize, int maxFlip) {
        TreeSet<Long> set = new TreeSet<>();
        for (int i = 0; i < random; i++)
            set.add(randomLong());
        for (int c = 0; c < clusters; c++) {
            long fp = randomLong();
            set.add(fp);
            for (int m = 1; m < clusterSize; m++) {
                int flips = randomIntBetween(0, maxFlip);
                for (int f = 0; f < flips; f++)
                    fp ^= 1L << randomIntBetween(0, 63);
                set.add(fp);
            }
        }
        long[] out = new long[set.size()];
        int i = 0;
        for (long v : set)
            out[i++] = v;
        return out;
    }

    /** Brute force: union of every pair within k, pair counts weighted by documents. */
    private static void assertSameAsBruteForce(long[] fps, int[] counts, int k, HammingGroups.Result result) {
        int n = fps.length;
        int[] parent = new int[n];
        for (int i = 0; i < n; i++)
            parent[i] = i;
        long pairs = 0;
        for (int i = 0; i < n; i++) {
            pairs += (long) counts[i] * (counts[i] - 1) / 2;
            for (int j = i + 1; j < n; j++) {
                if (Long.bitCount(fps[i] ^ fps[j]) <= k) {
                    pairs += (long) counts[i] * counts[j];
                    int a = root(parent, i), b = root(parent, j);
                    if (a != b) parent[Math.max(a, b)] = Math.min(a, b);
                }
            }
        }
        assertEquals("verified pairs at k=" + k, pairs, result.verifiedPairs());
        long sumAt = 0;
        int[] roots = result.roots();
        for (int i = 0; i < n; i++) {
            assertEquals(root(parent, i), roots[i]);
            assertEquals("component of " + i + " at k=" + k + " plan " + result.plan(), root(parent, i), result.root(i));
            sumAt += result.pairsAt(i);
        }
        assertEquals(pairs, sumAt);
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i)
            i = parent[i];
        return i;
    }

    private static int[] ones(int n) {
        int[] c = new int[n];
        Arrays.fill(c, 1);
        return c;
    }

    @Test
    public void testExactAgainstBruteForceAtEveryK() {
        for (int k = 0; k <= 20; k++) {
            long[] fps = plantedSet(randomIntBetween(0, 400), randomIntBetween(1, 20), randomIntBetween(2, 12), randomIntBetween(1, k + 2));
            int[] counts = new int[fps.length];
            for (int i = 0; i < counts.length; i++)
                counts[i] = rarely() ? randomIntBetween(2, 5) : 1;
            assertSameAsBruteForce(fps, counts, k, HammingGroups.find(fps, counts, k, NONE));
        }
    }

    /** Every block count the planner could choose, not only the cheapest: each must be exact on its own. */
    @Test
    public void testEveryPlanIsExact() {
        long[] fps = plantedSet(200, 15, 6, 6);
        int[] counts = ones(fps.length);
        for (int k = 0; k <= 10; k++) {
            for (int b = k + 1; b <= Math.min(64, k + 8); b++) {
                double tables = 1;
                for (int i = 1; i <= k; i++)
                    tables = tables * (b - k + i) / i;
                if (tables > 20_000) continue;
                int bits = HammingGroups.bucketBits(fps.length);
                HammingGroups.Plan plan = new HammingGroups.Plan(b, b - k, (int) tables, bits, 0);
                // one level, and two levels with the shortest, a random and the longest prefix
                for (int prefix : new TreeSet<>(
                    List.of(0, Math.min(1, b - k - 1), randomIntBetween(0, Math.max(0, b - k - 1)), Math.max(0, b - k - 1))
                )) {
                    assertSameAsBruteForce(fps, counts, k, HammingGroups.find(fps, counts, k, plan, prefix, NONE));
                }
            }
            HammingGroups.Plan brute = new HammingGroups.Plan(1, 0, 1, 0, 0);
            assertSameAsBruteForce(fps, counts, k, HammingGroups.find(fps, counts, k, brute, NONE));
        }
    }

    /**
     * Units and a verifier: every plan, one level or two, joins exactly the unit pairs within k that the verifier
     * accepts (units sharing a fingerprint included), and counts their document pairs; a brute force over units.
     */
    @Test
    public void testVerifiedUnitsEqualBruteForceInEveryPlan() {
        for (int round = 0; round < 10; round++) {
            long[] fps = plantedSet(randomIntBetween(0, 150), randomIntBetween(1, 10), randomIntBetween(2, 8), 5);
            int[] unitStart = new int[fps.length + 1];
            for (int f = 0; f < fps.length; f++)
                unitStart[f + 1] = unitStart[f] + (rarely() ? randomIntBetween(2, 4) : 1);
            int units = unitStart[fps.length];
            int[] counts = new int[units];
            int[] label = new int[units]; // the verifier: units match when their labels are within 1 (random, symmetric)
            for (int u = 0; u < units; u++) {
                counts[u] = rarely() ? randomIntBetween(2, 4) : 1;
                label[u] = randomIntBetween(0, 3);
            }
            HammingGroups.Verifier verifier = (a, b) -> Math.abs(label[a] - label[b]) <= 1;
            int k = randomIntBetween(0, 6);
            // brute force over units
            int[] parent = new int[units];
            for (int u = 0; u < units; u++)
                parent[u] = u;
            long pairs = 0;
            int[] fpOf = new int[units];
            for (int f = 0; f < fps.length; f++)
                for (int u = unitStart[f]; u < unitStart[f + 1]; u++)
                    fpOf[u] = f;
            for (int u = 0; u < units; u++) {
                pairs += (long) counts[u] * (counts[u] - 1) / 2;
                for (int v = u + 1; v < units; v++) {
                    if (Long.bitCount(fps[fpOf[u]] ^ fps[fpOf[v]]) <= k && verifier.verify(u, v)) {
                        pairs += (long) counts[u] * counts[v];
                        int a = root(parent, u), b = root(parent, v);
                        if (a != b) parent[Math.max(a, b)] = Math.min(a, b);
                    }
                }
            }
            List<HammingGroups.Result> results = new ArrayList<>();
            results.add(HammingGroups.find(fps, unitStart, counts, k, verifier, NONE));
            for (int b = k + 1; b <= Math.min(64, k + 4); b++) {
                double tables = 1;
                for (int i = 1; i <= k; i++)
                    tables = tables * (b - k + i) / i;
                if (tables > 5_000) continue;
                HammingGroups.Plan plan = new HammingGroups.Plan(b, b - k, (int) tables, HammingGroups.bucketBits(fps.length), 0);
                results.add(HammingGroups.find(fps, unitStart, counts, k, verifier, plan, 0, NONE));
                if (b - k >= 2) results.add(HammingGroups.find(fps, unitStart, counts, k, verifier, plan, b - k - 1, NONE));
            }
            results.add(HammingGroups.find(fps, unitStart, counts, k, verifier, new HammingGroups.Plan(1, 0, 1, 0, 0), 0, NONE));
            for (HammingGroups.Result result : results) {
                assertEquals("verified pairs at k=" + k + " plan " + result.plan(), pairs, result.verifiedPairs());
                long sumAt = 0;
                for (int u = 0; u < units; u++) {
                    assertEquals("unit " + u + " at k=" + k + " plan " + result.plan(), root(parent, u), result.root(u));
                    sumAt += result.pairsAt(u);
                }
                assertEquals(pairs, sumAt);
            }
        }
    }

    /** Fingerprints that differ only in the top or bottom bits, and the extremes of the signed order. */
    /**
     * Two levels against one on data skewed so that a first-level partition exceeds the scratch arrays (the in-place
     * sort path), and on random data with planted clusters at the sizes where the planner picks two levels.
     */
    @Test
    public void testTwoLevelsEqualOneLevel() {
        // 8 blocks of 8 bits, k = 2: tables of 6 blocks; the first level partitions by block 0, which 90 % of the
        // fingerprints share, so that partition (~80,000) is sorted in place rather than bucketed in the scratch
        TreeSet<Long> skewed = new TreeSet<>();
        long shared = randomLong() & 0xFFL;
        while (skewed.size() < 90_000) {
            long fp = (randomLong() & ~0xFFL) | (randomInt(9) == 0 ? randomLong() & 0xFFL : shared);
            skewed.add(fp);
            if (randomInt(9) == 0) skewed.add(fp ^ (1L << randomIntBetween(0, 63)) ^ (1L << randomIntBetween(0, 63)));
        }
        long[] fps = skewed.stream().mapToLong(Long::longValue).toArray();
        HammingGroups.Plan skewedPlan = new HammingGroups.Plan(8, 6, 28, HammingGroups.bucketBits(fps.length), 0);
        HammingGroups.Result oneLevel = HammingGroups.find(fps, ones(fps.length), 2, skewedPlan, 0, NONE);
        for (int prefix = 1; prefix < 6; prefix++) {
            HammingGroups.Result two = HammingGroups.find(fps, ones(fps.length), 2, skewedPlan, prefix, NONE);
            assertEquals(oneLevel.verifiedPairs(), two.verifiedPairs());
            assertTrue(Arrays.equals(oneLevel.roots(), two.roots()));
        }
        assertTrue(oneLevel.verifiedPairs() > 1000);
        long[] random = plantedSet(200_000, 3_000, 4, 6);
        for (int k : new int[] { 4, 7 }) {
            HammingGroups.Plan plan = HammingGroups.plan(random.length, k);
            assertTrue(plan.toString(), HammingGroups.prefixBlocks(random.length, plan) > 0);
            HammingGroups.Result two = HammingGroups.find(random, ones(random.length), k, NONE);
            HammingGroups.Result one = HammingGroups.find(random, ones(random.length), k, plan, 0, NONE);
            assertEquals(one.verifiedPairs(), two.verifiedPairs());
            assertTrue(one.verifiedPairs() > 1000);
            assertTrue(Arrays.equals(one.roots(), two.roots()));
        }
    }

    @Test
    public void testEdgeFingerprints() {
        long[] fps = { Long.MIN_VALUE, Long.MIN_VALUE + 1, -2, -1, 0, 1, 3, 7, Long.MAX_VALUE - 1, Long.MAX_VALUE };
        for (int k = 0; k <= 64; k += randomIntBetween(1, 5)) {
            assertSameAsBruteForce(fps, ones(fps.length), k, HammingGroups.find(fps, ones(fps.length), k, NONE));
        }
        assertSameAsBruteForce(fps, ones(fps.length), 64, HammingGroups.find(fps, ones(fps.length), 64, NONE));
    }

    @Test
    public void testEmptyAndSingle() {
        assertEquals(0, HammingGroups.find(new long[0], new int[0], 3, NONE).verifiedPairs());
        HammingGroups.Result one = HammingGroups.find(new long[] { 42 }, new int[] { 5 }, 3, NONE);
        assertEquals(10, one.verifiedPairs()); // five copies of one fingerprint
        assertEquals(0, one.root(0));
    }

    @Test
    public void testRefusesUnsortedInput() {
        assertThrows(IllegalArgumentException.class, () -> HammingGroups.find(new long[] { 2, 1 }, new int[] { 1, 1 }, 3, NONE));
        assertThrows(IllegalArgumentException.class, () -> HammingGroups.find(new long[] { 1, 1 }, new int[] { 1, 1 }, 3, NONE));
        assertThrows(IllegalArgumentException.class, () -> HammingGroups.plan(10, 65));
    }

    /** The work is near-linear on random fingerprints: comparisons stay a small multiple of n, not n^2 / 65,536. */
    @Test
    public void testRandomFingerprintsCostFewComparisons() {
        int n = 200_000;
        long[] fps = plantedSet(n, 0, 0, 0);
        for (int k : new int[] { 3, 8 }) {
            HammingGroups.Result r = HammingGroups.find(fps, ones(fps.length), k, NONE);
            assertTrue(
                "comparisons " + r.comparisons() + " at k=" + k + " plan " + r.plan(),
                r.comparisons() < 4L * fps.length * r.plan().tables()
            );
        }
    }

    @Test
    public void testProgressAndCancellation() {
        long[] fps = plantedSet(5000, 10, 4, 3);
        List<Integer> seen = new ArrayList<>();
        HammingGroups.Result r = HammingGroups.find(fps, ones(fps.length), 3, (done, total) -> seen.add(done));
        assertEquals(r.plan().tables(), seen.size());
        assertEquals(r.plan().tables(), (int) seen.get(seen.size() - 1));
        AtomicInteger checks = new AtomicInteger();
        HammingGroups.Progress cancelling = new HammingGroups.Progress() {
            @Override
            public void tableDone(int done, int total) {}

            @Override
            public void checkCancelled() {
                if (checks.incrementAndGet() > 1) throw new IllegalStateException("cancelled");
            }
        };
        assertThrows(IllegalStateException.class, () -> HammingGroups.find(fps, ones(fps.length), 3, cancelling));
    }

    @Test
    public void testPlanGrowsWithKAndMemoryIsBounded() {
        HammingGroups.Plan k3 = HammingGroups.plan(10_000_000, 3);
        HammingGroups.Plan k8 = HammingGroups.plan(10_000_000, 8);
        assertTrue(k3.toString(), k3.blocks() > 4 && k3.tables() < 50);
        assertTrue(k8.toString(), k8.tables() > k3.tables());
        // 10M distinct fingerprints: well under the 2 GB heap of the node
        assertTrue(
            HammingGroups.inputBytes(10_000_000) + HammingGroups.resultBytes(10_000_000) + HammingGroups.tableBytes(10_000_000, k8) < 400L
                << 20
        );
        assertEquals(1, HammingGroups.plan(10, 64).tables());
    }
}
