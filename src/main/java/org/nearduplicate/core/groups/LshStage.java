package org.nearduplicate.core.groups;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import org.nearduplicate.core.groups.HammingGroups.Plan;
import org.nearduplicate.core.groups.HammingGroups.Progress;
import org.nearduplicate.core.groups.HammingGroups.Verifier;
import org.nearduplicate.core.sketch.Signature;

import static org.nearduplicate.core.groups.HammingGroups.LSH_MAX_RUN;
import static org.nearduplicate.core.groups.HammingGroups.LSH_VERIFY_BATCH;
import static org.nearduplicate.core.groups.HammingGroups.LSH_WINDOW;
import static org.nearduplicate.core.groups.HammingGroups.RADIX_BITS;

/**
 * The LSH candidates of {@link HammingGroups}: pairs of signed units sharing a band of their signatures
 * ({@link SignatureBands}), then the units without signature against every fingerprint, exactly.
 */
final class LshStage extends ComponentRun {
    long cappedRuns;

    LshStage(long[] distinct, int[] unitStart, int[] counts, int k, Verifier verifier, Plan plan, Progress progress) {
        super(distinct, unitStart, counts, k, verifier, plan, progress);
    }

    @Override
    long cappedRuns() {
        return cappedRuns;
    }

    /**
     * The LSH stage: per band, the signed units sorted by the band's key (a stable radix sort of key and unit), and
     * every pair of units sharing a key a candidate, counted in the first band it shares only ({@link
     * SignatureBands#firstSharedBand} of its agreeing slots) and verified (within k, and the verifier) before it is
     * united. Then the units without signature against every fingerprint.
     *
     * <p>A band runs on {@code workers.threads()} threads without more memory than one: each fills and histograms
     * its own slice of the units, scatters it into the shared buffer at offsets computed from all slices (so the
     * sort stays stable), then sorts and scans its own range of top-digit buckets (a key's run never leaves its
     * bucket). Candidates that pass the cheap checks are verified and united under a lock, a few thousand at a
     * time, so memory stays bounded however many pairs a band finds.
     */
    void lsh(byte[] signatures, int minAgreeing, HammingGroups.Workers workers) {
        int units = counts.length;
        int threads = workers.threadsFor(units);
        long[] unsigned = null; // a bit per unit without signature
        int signed = 0;
        for (int u = 0; u < units; u++) {
            if (GroupMembers.hasNoSignature(signatures, u)) {
                if (unsigned == null) unsigned = new long[(units + 63) >>> 6];
                unsigned[u >>> 6] |= 1L << u;
            } else {
                signed++;
            }
        }
        // slice t: units [sliceUnit[t], sliceUnit[t + 1]), filled at [sliceFill[t], sliceFill[t + 1])
        int[] sliceUnit = new int[threads + 1], sliceFill = new int[threads + 1];
        for (int t = 1; t <= threads; t++) {
            sliceUnit[t] = (int) ((long) units * t / threads);
            int filled = 0;
            for (int u = sliceUnit[t - 1]; u < sliceUnit[t]; u++)
                if (unsigned == null || (unsigned[u >>> 6] & (1L << u)) == 0) filled++;
            sliceFill[t] = sliceFill[t - 1] + filled;
        }
        long[] fill = new long[signed];
        long[] sorted = new long[signed];
        int radix = 1 << RADIX_BITS;
        int topShift = 64 - RADIX_BITS;
        int[][] histograms = new int[threads][3 << RADIX_BITS];
        int[] bucketStart = new int[radix + 1];
        int[] digitFrom = new int[threads + 1];
        BandPairs[] pairs = new BandPairs[threads];
        for (int t = 0; t < threads; t++)
            pairs[t] = new BandPairs();
        long[] unsignedBits = unsigned;
        int done = 0;
        for (int band = 0; band < SignatureBands.BANDS; band++) {
            progress.checkCancelled();
            int b = band;
            // 1. every slice: its keys, and how many fall in each top digit
            parallel(workers, threads, t -> {
                int[] histogram = histograms[t];
                Arrays.fill(histogram, 0, radix, 0);
                int m = sliceFill[t];
                for (int u = sliceUnit[t]; u < sliceUnit[t + 1]; u++) {
                    if (unsignedBits != null && (unsignedBits[u >>> 6] & (1L << u)) != 0) continue;
                    long x = (long) SignatureBands.key(signatures, u * Signature.BYTES, b) << 32 | u;
                    fill[m++] = x;
                    histogram[(int) (x >>> topShift)]++;
                }
            });
            // 2. offsets: digit d's bucket holds slice 0's entries, then slice 1's, ... (stable)
            int at = 0;
            for (int d = 0; d < radix; d++) {
                bucketStart[d] = at;
                for (int t = 0; t < threads; t++) {
                    int c = histograms[t][d];
                    histograms[t][d] = at;
                    at += c;
                }
            }
            bucketStart[radix] = at;
            // the top digits cut into one range per thread of about as many entries each
            digitFrom[0] = 0;
            for (int t = 1, d = 0; t <= threads; t++) {
                long target = (long) signed * t / threads;
                while (d < radix && bucketStart[d] < target)
                    d++;
                digitFrom[t] = t == threads ? radix : d;
            }
            // 3. every slice scatters into the buckets; 4. every range of buckets is sorted and its runs scanned
            parallel(workers, threads, t -> {
                int[] next = histograms[t];
                for (int i = sliceFill[t]; i < sliceFill[t + 1]; i++) {
                    long x = fill[i];
                    sorted[next[(int) (x >>> topShift)]++] = x;
                }
            });
            parallel(workers, threads, t -> {
                BandPairs found = pairs[t];
                for (int d = digitFrom[t]; d < digitFrom[t + 1]; d++) {
                    int from = bucketStart[d], to = bucketStart[d + 1];
                    if (to - from < 2) continue;
                    sortBucketByKey(sorted, fill, from, to, histograms[t], radix);
                    for (int i = from; i < to;) {
                        int key = (int) (sorted[i] >>> 32);
                        int j = i + 1;
                        while (j < to && (int) (sorted[j] >>> 32) == key)
                            j++;
                        if (j - i > 1) bandRun(signatures, sorted, fill, i, j, b, minAgreeing, found);
                        i = j;
                    }
                }
                found.flush(this);
            });
            progress.tableDone(++done, plan.tables());
        }
        for (BandPairs found : pairs) {
            comparisons += found.comparisons;
            cappedRuns += found.cappedRuns;
        }
        if (plan.tables() > SignatureBands.BANDS) {
            unsignedPass(signatures);
            progress.tableDone(++done, plan.tables());
        }
    }

    /**
     * The pairs of one run of equal band keys {@code keys[from, to)}; {@code scratch[from, to)} is free. Runs of
     * up to {@value HammingGroups#LSH_MAX_RUN} units compare every pair; longer ones (a key shared by very many
     * units) are ordered by their whole signature (identical ones adjacent) and each unit is compared with its
     * next {@value HammingGroups#LSH_WINDOW} only, so one bucket cannot go quadratic.
     */
    private void bandRun(byte[] signatures, long[] keys, long[] scratch, int from, int to, int band, int minAgreeing, BandPairs found) {
        int size = to - from;
        if (size <= LSH_MAX_RUN) {
            for (int i = from; i < to; i++) {
                if ((i & 0xFFF) == 0) progress.checkCancelled();
                for (int j = i + 1; j < to; j++)
                    candidate(signatures, (int) keys[i], (int) keys[j], band, minAgreeing, found);
            }
            return;
        }
        found.cappedRuns++;
        for (int i = from; i < to; i++) {
            int u = (int) keys[i];
            long h = 0;
            for (int b = 0; b < Signature.BYTES; b += 8) {
                long word = 0;
                for (int x = 0; x < 8; x++)
                    word = word << 8 | (signatures[u * Signature.BYTES + b + x] & 0xFF);
                h = (h ^ word) * 0x9E3779B97F4A7C15L;
            }
            scratch[i] = (h >>> 32) << 32 | u;
        }
        Arrays.sort(scratch, from, to);
        for (int i = from; i < to; i++) {
            if ((i & 0xFFF) == 0) progress.checkCancelled();
            for (int j = i + 1; j < Math.min(to, i + 1 + LSH_WINDOW); j++) {
                int u = (int) scratch[i], v = (int) scratch[j];
                candidate(signatures, Math.min(u, v), Math.max(u, v), band, minAgreeing, found);
            }
        }
    }

    /** A pair of signed units sharing band {@code band}'s key: kept for verification if it passes the cheap checks. */
    private void candidate(byte[] signatures, int u, int v, int band, int minAgreeing, BandPairs found) {
        int agreement = SignatureBands.agreement(signatures, u * Signature.BYTES, v * Signature.BYTES);
        if (SignatureBands.firstSharedBand(agreement) != band) return; // counted in an earlier band
        int fu = fingerprintOf(u), fv = fingerprintOf(v);
        if (fu == fv) return; // sameFingerprint() compared it
        found.comparisons += (long) counts[u] * counts[v];
        if (Long.bitCount(distinct[fu] ^ distinct[fv]) > k || Integer.bitCount(agreement) < minAgreeing) return;
        found.add(u, v, this);
    }

    /** Verifies and unites the pairs {@code u[i], v[i]} of one thread, under this run's lock. */
    synchronized void uniteVerified(int[] u, int[] v, int size) {
        for (int i = 0; i < size; i++) {
            if (verifier.verify(u[i], v[i])) unite(u[i], v[i], (long) counts[u[i]] * counts[v[i]]);
        }
    }

    /** The distinct fingerprint of unit {@code u}. */
    private int fingerprintOf(int u) {
        if (unitStart == null) return u; // one unit per fingerprint
        // every fingerprint has a unit, so unit u's lies within the units beyond the fingerprints below u: a search
        // of a few entries (usually one) instead of all of them
        int extra = counts.length - distinct.length;
        int at = Arrays.binarySearch(unitStart, Math.max(0, u - extra), Math.min(u, distinct.length - 1) + 1, u);
        if (at >= 0) {
            while (at + 1 < unitStart.length && unitStart[at + 1] == u)
                at++; // never: every fingerprint has a unit
            return at;
        }
        return -at - 2;
    }

    /**
     * Pairs with a unit without signature (and different fingerprints), exactly: every fingerprint holding one
     * against every other fingerprint; a pair of two such fingerprints is taken from the lower one.
     */
    private void unsignedPass(byte[] signatures) {
        int n = distinct.length;
        for (int f = 0; f < n; f++) {
            if (holdsUnsigned(signatures, f) == false) continue;
            progress.checkCancelled();
            long a = distinct[f];
            for (int g = 0; g < n; g++) {
                if (g == f || Long.bitCount(a ^ distinct[g]) > k) continue;
                boolean gUnsigned = holdsUnsigned(signatures, g);
                for (int u = start(f); u < start(f + 1); u++) {
                    boolean uUnsigned = GroupMembers.hasNoSignature(signatures, u);
                    for (int v = start(g); v < start(g + 1); v++) {
                        boolean vUnsigned = GroupMembers.hasNoSignature(signatures, v);
                        if (uUnsigned == false && vUnsigned == false) continue; // the bands' pair
                        if (gUnsigned && g < f) continue; // taken when g was the first fingerprint
                        long p = (long) counts[u] * counts[v];
                        comparisons += p;
                        if (verifier.verify(u, v)) unite(Math.min(u, v), Math.max(u, v), p);
                    }
                }
            }
        }
    }

    private boolean holdsUnsigned(byte[] signatures, int f) {
        for (int u = start(f); u < start(f + 1); u++)
            if (GroupMembers.hasNoSignature(signatures, u)) return true;
        return false;
    }

    /** One thread's candidates of a band waiting for verification, and its counts. */
    private static final class BandPairs {
        private static final int CAPACITY = LSH_VERIFY_BATCH;
        final int[] u = new int[CAPACITY], v = new int[CAPACITY];
        int size;
        long comparisons;
        long cappedRuns;

        void add(int a, int b, LshStage run) {
            u[size] = a;
            v[size] = b;
            if (++size == CAPACITY) flush(run);
        }

        void flush(LshStage run) {
            if (size > 0) run.uniteVerified(u, v, size);
            size = 0;
        }
    }

    /**
     * Runs {@code task} for 0 .. threads - 1, the first on the caller, the others on the executor, and waits for all;
     * the first failure is thrown (a cancellation included) once every task has ended, so none outlives the call.
     */
    static void parallel(HammingGroups.Workers workers, int threads, IntConsumer task) {
        if (threads == 1) {
            task.accept(0);
            return;
        }
        CountDownLatch finished = new CountDownLatch(threads - 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 1; t < threads; t++) {
            int slice = t;
            Runnable share = () -> {
                try {
                    task.accept(slice);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    finished.countDown();
                }
            };
            try {
                workers.executor().execute(share);
            } catch (RuntimeException rejected) { // a saturated or closing pool: the caller does the share itself
                share.run();
            }
        }
        try {
            task.accept(0);
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
        boolean interrupted = false;
        while (true) {
            try {
                finished.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the shares still use the arrays: wait for them, then restore the flag
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        Throwable e = failure.get();
        if (e instanceof RuntimeException runtime) throw runtime;
        if (e instanceof Error error) throw error;
        if (e != null) throw new IllegalStateException(e);
    }

    /**
     * Sorts one top-digit bucket {@code data[from, to)} by the rest of its 32-bit key, stably, through
     * {@code scratch[from, to)}: two counting passes, or an insertion sort for a small bucket; {@code counts} from
     * {@code base} on is free.
     */
    static void sortBucketByKey(long[] data, long[] scratch, int from, int to, int[] counts, int base) {
        int lowBits = 32 - RADIX_BITS;
        int firstBits = lowBits - lowBits / 2, secondBits = lowBits / 2;
        if (to - from > INSERTION_SORT_MAX) {
            sortBucket(data, scratch, from, to, firstBits, secondBits, counts, base);
            return;
        }
        for (int i = from + 1; i < to; i++) { // stable: an entry moves past strictly larger keys only
            long x = data[i];
            long key = x >>> 32;
            int j = i - 1;
            while (j >= from && (data[j] >>> 32) > key) {
                data[j + 1] = data[j];
                j--;
            }
            data[j + 1] = x;
        }
    }

    /** Buckets of at most this many entries are insertion-sorted (their histograms would cost more). */
    private static final int INSERTION_SORT_MAX = 48;

    /**
     * Sorts {@code data[from, to)} by key bits 32 .. 32 + first + second, stably, through {@code scratch[from, to)};
     * {@code counts} from {@code base} on holds the two passes' counters.
     */
    private static void sortBucket(
        long[] data,
        long[] scratch,
        int from,
        int to,
        int firstBits,
        int secondBits,
        int[] histogram,
        int base
    ) {
        int firstSize = 1 << firstBits, firstMask = firstSize - 1, secondMask = (1 << secondBits) - 1;
        int[] counts = histogram;
        Arrays.fill(counts, base, base + firstSize + secondMask + 1, 0);
        for (int i = from; i < to; i++) {
            long x = data[i];
            counts[base + ((int) (x >>> 32) & firstMask)]++;
            counts[base + firstSize + ((int) (x >>> (32 + firstBits)) & secondMask)]++;
        }
        for (int d = 0, sum = from; d < firstSize; d++) {
            int c = counts[base + d];
            counts[base + d] = sum;
            sum += c;
        }
        for (int d = 0, sum = from; d <= secondMask; d++) {
            int c = counts[base + firstSize + d];
            counts[base + firstSize + d] = sum;
            sum += c;
        }
        for (int i = from; i < to; i++) {
            long x = data[i];
            scratch[counts[base + ((int) (x >>> 32) & firstMask)]++] = x;
        }
        for (int i = from; i < to; i++) {
            long x = scratch[i];
            data[counts[base + firstSize + ((int) (x >>> (32 + firstBits)) & secondMask)]++] = x;
        }
    }
}
