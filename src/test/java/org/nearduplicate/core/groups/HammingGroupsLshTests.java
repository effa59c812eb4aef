package org.nearduplicate.core.groups;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.Arrays;
import java.util.Random;

import org.nearduplicate.core.sketch.Signature;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class HammingGroupsLshTests extends RandomizedTest {

    private static final HammingGroups.Progress NONE = (done, total) -> {};
    private static final int K = 16;
    private static final int MIN_AGREEING = Signature.minAgreeing(0.35);

    /** Units sorted by fingerprint: {@code unitStart} per distinct fingerprint, flat signatures, counts. */
    record Units(long[] distinct, int[] unitStart, int[] counts, byte[] signatures) {
        int size() {
            return counts.length;
        }
    }

    /**
     * {@code clusters} clusters of 2..4 units, each member its center's fingerprint with 0..k random bits flipped and
     * its center's signature agreeing on a count of slots drawn uniformly from 12..32 (the others changed), plus
     * {@code filler} random units; a share {@code unsignedShare} of all units carries no signature.
     */
    static Units synthetic(Random random, int clusters, int filler, double unsignedShare) {
        int max = clusters * 4 + filler;
        long[] fps = new long[max];
        byte[] sigs = new byte[max * Signature.BYTES];
        int n = 0;
        for (int c = 0; c < clusters; c++) {
            long center = random.nextLong();
            byte[] centerSig = new byte[Signature.BYTES];
            random.nextBytes(centerSig);
            int size = 2 + random.nextInt(3);
            for (int m = 0; m < size; m++) {
                long fp = center;
                if (m > 0) {
                    int flips = random.nextInt(K / 2 + 1); // members within k of each other
                    for (int f = 0; f < flips; f++)
                        fp ^= 1L << random.nextInt(64);
                }
                fps[n] = fp;
                System.arraycopy(centerSig, 0, sigs, n * Signature.BYTES, Signature.BYTES);
                if (m > 0) {
                    int agree = 12 + random.nextInt(21);
                    int[] slots = shuffled(random);
                    for (int i = agree; i < Signature.SLOTS; i++) {
                        int at = n * Signature.BYTES + slots[i];
                        sigs[at] = (byte) (sigs[at] + 1 + random.nextInt(255));
                    }
                }
                n++;
            }
        }
        for (int i = 0; i < filler; i++, n++) {
            fps[n] = random.nextLong();
            for (int b = 0; b < Signature.BYTES; b++)
                sigs[n * Signature.BYTES + b] = (byte) random.nextInt(256);
        }
        for (int i = 0; i < n; i++) {
            boolean zero = true;
            for (int b = 0; b < Signature.BYTES; b++)
                zero &= sigs[i * Signature.BYTES + b] == 0;
            if (zero || random.nextDouble() < unsignedShare) Arrays.fill(sigs, i * Signature.BYTES, (i + 1) * Signature.BYTES, (byte) 0);
        }
        // sort by fingerprint; identical (fingerprint, signature) pairs become one unit with a count
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++)
            order[i] = i;
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(fps[a], fps[b]);
            return c != 0 ? c : GroupMembers.compareSignatures(sigs, a, sigs, b);
        });
        long[] distinct = new long[n];
        int[] unitStart = new int[n + 1];
        int[] counts = new int[n];
        byte[] unitSigs = new byte[n * Signature.BYTES];
        int d = 0, u = 0;
        for (int i = 0; i < n; i++) {
            int at = order[i];
            if (u > 0 && distinct[d - 1] == fps[at] && GroupMembers.compareSignatures(unitSigs, u - 1, sigs, at) == 0) {
                counts[u - 1]++;
                continue;
            }
            if (d == 0 || distinct[d - 1] != fps[at]) {
                distinct[d] = fps[at];
                unitStart[d++] = u;
            }
            System.arraycopy(sigs, at * Signature.BYTES, unitSigs, u * Signature.BYTES, Signature.BYTES);
            counts[u++] = 1;
        }
        unitStart[d] = u;
        return new Units(
            Arrays.copyOf(distinct, d),
            Arrays.copyOf(unitStart, d + 1),
            Arrays.copyOf(counts, u),
            Arrays.copyOf(unitSigs, u * Signature.BYTES)
        );
    }

    private static int[] shuffled(Random random) {
        int[] slots = new int[Signature.SLOTS];
        for (int i = 0; i < slots.length; i++)
            slots[i] = i;
        for (int i = slots.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = slots[i];
            slots[i] = slots[j];
            slots[j] = t;
        }
        return slots;
    }

    static HammingGroups.Result run(Units in, HammingGroups.Candidates candidates) {
        return run(in, candidates, HammingGroups.Workers.CALLER, NONE);
    }

    static HammingGroups.Result run(
        Units in,
        HammingGroups.Candidates candidates,
        HammingGroups.Workers workers,
        HammingGroups.Progress progress
    ) {
        long[] sc = HammingGroups.signatureCounts(in.unitStart(), in.signatures(), in.distinct().length);
        HammingGroups.Plan plan = HammingGroups.plan(in.distinct().length, K, in.size(), sc[0], sc[1], MIN_AGREEING, candidates);
        GroupMembers.Rule rule = new GroupMembers.Rule(K, MIN_AGREEING);
        return HammingGroups.find(
            in.distinct(),
            in.unitStart(),
            in.counts(),
            in.signatures(),
            MIN_AGREEING,
            K,
            GroupMembers.verifier(in.signatures(), rule),
            plan,
            progress,
            workers
        );
    }

    /**
     * A fixed pool whose threads are joined when it closes: the test framework's leak check runs right after the test,
     * and a terminated pool's threads may still be on their way out.
     */
    private static final class Pool implements AutoCloseable {
        final java.util.List<Thread> threads = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        final java.util.concurrent.ExecutorService executor;

        Pool(int size) {
            executor = java.util.concurrent.Executors.newFixedThreadPool(size, r -> {
                Thread t = new Thread(r);
                threads.add(t);
                return t;
            });
        }

        @Override
        public void close() throws InterruptedException {
            executor.shutdownNow();
            assertTrue(executor.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS));
            for (Thread t : threads.toArray(new Thread[0]))
                t.join(10_000);
        }
    }

    /**
     * The band passes on several threads (slices of a few units each, so every thread has work) give exactly the
     * one-thread result: components, pairs per unit, comparisons, capped runs; with unsigned units and a huge run.
     */
    @Test
    public void testThreadsGiveTheSameResult() throws Exception {
        try (Pool pool = new Pool(3)) {
            for (int iteration = 0; iteration < 6; iteration++) {
                Random random = new Random(randomLong());
                Units in = iteration == 5
                    ? hugeRun(random)
                    : synthetic(random, 150 + random.nextInt(300), random.nextInt(800), iteration % 2 == 0 ? 0 : 0.05);
                HammingGroups.Result one = run(in, HammingGroups.Candidates.LSH);
                int threads = 2 + random.nextInt(3);
                HammingGroups.Result many = run(
                    in,
                    HammingGroups.Candidates.LSH,
                    new HammingGroups.Workers(pool.executor, threads, 1 + random.nextInt(50)),
                    NONE
                );
                assertEquals(one.verifiedPairs(), many.verifiedPairs());
                assertEquals(one.comparisons(), many.comparisons());
                assertEquals(one.cappedRuns(), many.cappedRuns());
                if (iteration == 5) assertTrue(many.cappedRuns() > 0);
                for (int u = 0; u < in.size(); u++) {
                    assertEquals("unit " + u, one.root(u), many.root(u));
                    assertEquals("unit " + u, one.pairsAt(u), many.pairsAt(u));
                }
            }
        }
    }

    /** A cancellation thrown on any thread of a band ends the run with that exception, after every share has stopped. */
    @Test
    public void testCancellationOnAnyThreadEndsTheRun() throws Exception {
        try (Pool pool = new Pool(2)) {
            Units in = synthetic(new Random(randomLong()), 300, 20_000, 0);
            java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
            HammingGroups.Progress cancelling = new HammingGroups.Progress() {
                @Override
                public void tableDone(int done, int total) {}

                @Override
                public void checkCancelled() {
                    if (calls.incrementAndGet() > 40) throw new IllegalStateException("cancelled");
                }
            };
            IllegalStateException e = org.junit.Assert.assertThrows(
                IllegalStateException.class,
                () -> run(in, HammingGroups.Candidates.LSH, new HammingGroups.Workers(pool.executor, 3, 1), cancelling)
            );
            assertEquals("cancelled", e.getMessage());
        }
    }

    private static int fingerprintOf(Units in, int u) {
        int at = Arrays.binarySearch(in.unitStart(), u);
        return at >= 0 ? at : -at - 2;
    }

    /**
     * Brute force over all unit pairs: a pair is verified (within k, signatures agree on enough slots or one has none);
     * the LSH path must report exactly the verified pairs that share a band, or a fingerprint, or have an unsigned
     * side, with their components, and nothing else.
     */
    @Test
    public void testLshReportsExactlyTheVerifiedPairsSharingABand() {
        for (int iteration = 0; iteration < 5; iteration++) {
            Random random = new Random(randomLong());
            Units in = synthetic(random, 150, 300, iteration % 2 == 0 ? 0 : 0.05);
            HammingGroups.Result lsh = run(in, HammingGroups.Candidates.LSH);
            assertTrue(lsh.plan().lsh());
            assertEquals("lsh", lsh.plan().candidates());
            int units = in.size();
            int[] parent = new int[units];
            for (int i = 0; i < units; i++)
                parent[i] = i;
            long pairs = 0, verifiedAll = 0;
            for (int u = 0; u < units; u++) {
                pairs += (long) in.counts()[u] * (in.counts()[u] - 1) / 2;
                verifiedAll += (long) in.counts()[u] * (in.counts()[u] - 1) / 2;
                for (int v = u + 1; v < units; v++) {
                    int fu = fingerprintOf(in, u), fv = fingerprintOf(in, v);
                    if (Long.bitCount(in.distinct()[fu] ^ in.distinct()[fv]) > K) continue;
                    boolean uSigned = GroupMembers.hasNoSignature(in.signatures(), u) == false;
                    boolean vSigned = GroupMembers.hasNoSignature(in.signatures(), v) == false;
                    int agreement = SignatureBands.agreement(in.signatures(), u * Signature.BYTES, v * Signature.BYTES);
                    boolean verified = uSigned == false || vSigned == false || Integer.bitCount(agreement) >= MIN_AGREEING;
                    if (verified == false) continue;
                    long p = (long) in.counts()[u] * in.counts()[v];
                    verifiedAll += p;
                    boolean found = fu == fv
                        || uSigned == false
                        || vSigned == false
                        || SignatureBands.firstSharedBand(agreement) < SignatureBands.BANDS;
                    if (found == false) continue;
                    pairs += p;
                    int a = root(parent, u), b = root(parent, v);
                    if (a != b) parent[Math.max(a, b)] = Math.min(a, b);
                }
            }
            assertEquals(pairs, lsh.verifiedPairs());
            assertTrue(pairs <= verifiedAll);
            long sumAt = 0;
            for (int u = 0; u < units; u++) {
                assertEquals("unit " + u, root(parent, u), lsh.root(u));
                sumAt += lsh.pairsAt(u);
            }
            assertEquals(pairs, sumAt);
            assertEquals(0, lsh.cappedRuns());
            // and the exact path finds every verified pair
            HammingGroups.Result exact = run(in, HammingGroups.Candidates.EXACT);
            assertFalse(exact.plan().lsh());
            assertEquals(verifiedAll, exact.verifiedPairs());
        }
    }

    /** Recall of verified pairs against the exact path on 100k units (1M and 10M: bench/groups.sh --lsh). */
    @Test
    public void testRecallAgainstExact() {
        Random random = new Random(randomLong());
        Units in = synthetic(random, 10_000, 70_000, 0.0);
        HammingGroups.Result exact = run(in, HammingGroups.Candidates.EXACT);
        HammingGroups.Result lsh = run(in, HammingGroups.Candidates.LSH);
        assertTrue(lsh.verifiedPairs() <= exact.verifiedPairs());
        double recall = (double) lsh.verifiedPairs() / exact.verifiedPairs();
        assertTrue("recall " + recall + " (" + lsh.verifiedPairs() + " of " + exact.verifiedPairs() + ")", recall >= 0.995);
        // every LSH component lies within one exact component
        for (int u = 0; u < in.size(); u++)
            assertEquals(exact.root(lsh.root(u)), exact.root(u));
    }

    /**
     * One unit per fingerprint (the usual case): without the array of starts the LSH path and the exact path find the
     * same pairs, components and per-unit counts as with the identity starts, unsigned units included.
     */
    @Test
    public void testOneUnitPerFingerprintNeedsNoStarts() {
        for (int iteration = 0; iteration < 4; iteration++) {
            Random random = new Random(randomLong());
            Units all = synthetic(random, 200, 400, iteration % 2 == 0 ? 0 : 0.05);
            // keep each fingerprint's first unit
            int d = all.distinct().length;
            int[] identity = new int[d + 1];
            int[] counts = new int[d];
            byte[] sigs = new byte[d * Signature.BYTES];
            for (int f = 0; f < d; f++) {
                identity[f] = f;
                counts[f] = all.counts()[all.unitStart()[f]];
                System.arraycopy(all.signatures(), all.unitStart()[f] * Signature.BYTES, sigs, f * Signature.BYTES, Signature.BYTES);
            }
            identity[d] = d;
            Units with = new Units(all.distinct(), identity, counts, sigs);
            Units without = new Units(all.distinct(), null, counts, sigs);
            for (HammingGroups.Candidates candidates : new HammingGroups.Candidates[] {
                HammingGroups.Candidates.LSH,
                HammingGroups.Candidates.EXACT }) {
                HammingGroups.Result a = run(with, candidates), b = run(without, candidates);
                assertEquals(a.plan(), b.plan());
                assertEquals(a.verifiedPairs(), b.verifiedPairs());
                assertEquals(a.comparisons(), b.comparisons());
                for (int u = 0; u < d; u++) {
                    assertEquals(a.root(u), b.root(u));
                    assertEquals(a.pairsAt(u), b.pairsAt(u));
                }
                // pairs folded into the roots: each root holds its component's sum, the rest 0
                long[] perUnit = new long[d];
                for (int u = 0; u < d; u++)
                    perUnit[b.root(u)] += b.pairsAt(u);
                long[] folded = b.pairsByRoot();
                for (int u = 0; u < d; u++)
                    assertEquals(b.root(u) == u ? perUnit[u] : 0, folded[u]);
            }
        }
    }

    /** 5,000 units with one signature (every band key shared) and fingerprints spread around one base. */
    private static Units hugeRun(Random random) {
        int n = 5_000; // more than LSH_MAX_RUN units under one key
        long[] fps = new long[n];
        long base = random.nextLong();
        for (int i = 0; i < n; i++)
            fps[i] = base ^ (1L << random.nextInt(64)) ^ (1L << random.nextInt(64)) ^ random.nextLong() & 0xFFFFFL;
        Arrays.sort(fps);
        long[] distinct = Arrays.stream(fps).distinct().toArray();
        int d = distinct.length;
        int[] unitStart = new int[d + 1];
        for (int i = 0; i <= d; i++)
            unitStart[i] = i;
        int[] counts = new int[d];
        Arrays.fill(counts, 1);
        byte[] sig = new byte[Signature.BYTES];
        random.nextBytes(sig);
        sig[0] = 1;
        byte[] sigs = new byte[d * Signature.BYTES];
        for (int i = 0; i < d; i++)
            System.arraycopy(sig, 0, sigs, i * Signature.BYTES, Signature.BYTES);
        return new Units(distinct, unitStart, counts, sigs);
    }

    /** Many units sharing every band key (one signature, fingerprints spread): capped, still verified, not quadratic. */
    @Test
    public void testHugeRunIsCappedAndVerified() {
        Units in = hugeRun(new Random(randomLong()));
        int d = in.size();
        HammingGroups.Result lsh = run(in, HammingGroups.Candidates.LSH);
        assertTrue(lsh.cappedRuns() > 0);
        assertTrue(lsh.verifiedPairs() > 0);
        // only pairs within k were joined: every component's members are connected by pairs within k (checked
        // through the exact path, whose components contain the LSH ones)
        HammingGroups.Result exact = run(in, HammingGroups.Candidates.EXACT);
        assertTrue(lsh.verifiedPairs() <= exact.verifiedPairs());
        for (int u = 0; u < d; u++)
            assertEquals(exact.root(lsh.root(u)), exact.root(u));
    }

    @Test
    public void testAutoChoosesExactForSmallRunsAndLshForLargeOnes() {
        assertFalse(HammingGroups.plan(10_000, K, 10_000, 10_000, 0, MIN_AGREEING, HammingGroups.Candidates.AUTO).lsh());
        assertFalse(HammingGroups.plan(1_000_000, 3, 1_000_000, 1_000_000, 0, MIN_AGREEING, HammingGroups.Candidates.AUTO).lsh());
        assertTrue(HammingGroups.plan(1_000_000, K, 1_000_000, 1_000_000, 0, MIN_AGREEING, HammingGroups.Candidates.AUTO).lsh());
        // no signatures, too low a threshold, too many unsigned fingerprints: exact
        assertFalse(HammingGroups.plan(1_000_000, K, 1_000_000, 0, 1_000_000, MIN_AGREEING, HammingGroups.Candidates.AUTO).lsh());
        assertFalse(HammingGroups.plan(1_000_000, K, 1_000_000, 1_000_000, 0, 6, HammingGroups.Candidates.AUTO).lsh());
        assertFalse(HammingGroups.plan(1_000_000, K, 1_000_000, 900_000, 100_000, MIN_AGREEING, HammingGroups.Candidates.AUTO).lsh());
        assertFalse(HammingGroups.plan(1_000_000, K, 1_000_000, 1_000_000, 0, MIN_AGREEING, HammingGroups.Candidates.EXACT).lsh());
        HammingGroups.Plan lsh = HammingGroups.plan(1_000_000, K, 1_000_000, 1_000_000, 10, MIN_AGREEING, HammingGroups.Candidates.AUTO);
        assertEquals(SignatureBands.BANDS + 1, lsh.tables());
    }

    @Test
    public void testRecallBoundAtTheDefaultThreshold() {
        assertEquals(12, MIN_AGREEING);
        double r12 = SignatureBands.recallAt(12);
        assertTrue("recall at 12: " + r12, r12 > 0.97 && r12 < 0.99);
        assertTrue(SignatureBands.recallAt(16) > 0.999);
        assertTrue(SignatureBands.recallAt(13) > r12);
        assertEquals(1.0, SignatureBands.recallAt(32), 0);
    }

    @Test
    public void testRadixSortIsStableByKey() {
        int m = 5000;
        long[] keys = new long[m];
        for (int i = 0; i < m; i++)
            keys[i] = (long) randomIntBetween(-50, 50) * 0x01010101 << 32 | i;
        long[] expected = keys.clone();
        Arrays.sort(expected); // signed order differs: compare as sets of runs
        long[] sorted = radixSortByKey(keys, new long[m], m, new int[3 << HammingGroups.RADIX_BITS]);
        for (int i = 1; i < m; i++) {
            long a = sorted[i - 1] >>> 32, b = sorted[i] >>> 32;
            assertTrue(a < b || (a == b && (int) sorted[i - 1] < (int) sorted[i]));
        }
        long[] back = sorted.clone();
        Arrays.sort(back);
        assertArrayEquals(expected, back);
        // keys over the whole range, buckets large and small: ascending unsigned keys, units ascending within one
        for (int size : new int[] { 1, 2, 47, 49, 3000, 200_000 }) {
            long[] random = new long[size];
            int distinctKeys = randomIntBetween(1, size);
            int[] pool = new int[distinctKeys];
            for (int i = 0; i < distinctKeys; i++)
                pool[i] = randomInt();
            for (int i = 0; i < size; i++)
                random[i] = (long) pool[randomInt(distinctKeys - 1)] << 32 | i;
            long[] copy = random.clone();
            long[] out = radixSortByKey(random, new long[size], size, new int[3 << HammingGroups.RADIX_BITS]);
            for (int i = 1; i < size; i++) {
                long a = out[i - 1] >>> 32, b = out[i] >>> 32;
                assertTrue("at " + i, a < b || (a == b && (int) out[i - 1] < (int) out[i]));
            }
            Arrays.sort(copy);
            long[] outSorted = Arrays.copyOf(out, size);
            Arrays.sort(outSorted);
            assertArrayEquals(copy, outSorted);
        }
    }

    /**
     * The band pass's sort on its own (the pass fuses the first scatter with making the keys): sorts {@code keys[0, m)}
     * by their high 32 bits, stably (units stay ascending within a key); returns the array
     * holding the result (the other is free). One pass through memory: a stable scatter of {@code keys} into
     * {@code buffer} by the key's top {@code RADIX_BITS} bits, then each of those buckets (a few thousand entries at
     * 10M units, in the CPU caches) sorted by the key's remaining bits where it lies: two LSD passes through the same
     * range of {@code keys} and back, or an insertion sort for a small bucket. Three LSD passes over all entries (the
     * first version) scattered every entry through memory three times.
     */
    private static long[] radixSortByKey(long[] keys, long[] buffer, int m, int[] histogram) {
        int radix = 1 << HammingGroups.RADIX_BITS;
        int topShift = 64 - HammingGroups.RADIX_BITS; // the key's top RADIX_BITS bits
        Arrays.fill(histogram, 0, radix + 1, 0);
        for (int i = 0; i < m; i++)
            histogram[(int) (keys[i] >>> topShift) + 1]++;
        for (int d = 1; d <= radix; d++)
            histogram[d] += histogram[d - 1];
        // histogram[d] is bucket d's start; scatter moves it to the bucket's end, which is bucket d + 1's start
        int[] next = histogram;
        for (int i = 0; i < m; i++) {
            long x = keys[i];
            buffer[next[(int) (x >>> topShift)]++] = x;
        }
        for (int d = 0, start = 0; d < radix; d++) {
            int end = next[d];
            if (end - start > 1) LshStage.sortBucketByKey(buffer, keys, start, end, histogram, radix + 1);
            start = end;
        }
        return buffer;
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i)
            i = parent[i];
        return i;
    }
}
