package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Layout.*;

/**
 * Bench's synthetic data set, deterministic from the seed: the fingerprint of document i, with the planted neighbours of
 * the probes spread evenly through the ids (probe p's neighbour at distance d is document (p * PLANT + d) * stride),
 * and the same ids' MinHash signatures and I-Match keys.
 */
final class SyntheticData {
    /** planted neighbours per probe, at distances 0..10 */
    static final int PLANT = 11;

    final long n;
    final long[] probeFp;
    final long stride;
    final long seed;

    SyntheticData(long n, int probes, long seed) {
        this.n = n;
        this.seed = seed;
        SplittableRandom r = new SplittableRandom(seed);
        probeFp = new long[probes];
        for (int i = 0; i < probes; i++)
            probeFp[i] = r.nextLong();
        stride = n / ((long) probes * PLANT);
        if (stride < 1) throw new IllegalArgumentException("too many probes for " + n + " docs");
    }

    /** planted slot of doc i (probe * PLANT + distance), or -1. */
    long planted(long i) {
        if (i % stride != 0) return -1;
        long j = i / stride;
        return j < (long) probeFp.length * PLANT ? j : -1;
    }

    long fp(long i) {
        long j = planted(i);
        long h = mix(seed * 0x9E3779B97F4A7C15L + i);
        if (j < 0) return h;
        int probe = (int) (j / PLANT), d = (int) (j % PLANT);
        long mask = 0;
        SplittableRandom r = new SplittableRandom(h);
        while (Long.bitCount(mask) < d)
            mask |= 1L << r.nextInt(64);
        return probeFp[probe] ^ mask;
    }

    /** ids of the planted docs of probe p within distance k. */
    Set<String> expected(int p, int k) {
        Set<String> s = new HashSet<>();
        for (int d = 0; d <= Math.min(k, PLANT - 1); d++)
            s.add(Long.toString(((long) p * PLANT + d) * stride)); // planted: 0..10
        return s;
    }

    // ---------------------------------------------------------------- MinHash and I-Match data
    // Same ids and planted slots as the fingerprints: planted slot d of probe p is, for MinHash, a copy of the probe's signature
    // with exactly MH_KEEP[d] of the 128 values kept (at random positions) and the others replaced by random values,
    // so its estimated Jaccard with the probe is MH_KEEP[d] / 128; for I-Match, slots d <= IM_COPIES - 1 carry the
    // probe's key (exact copies), the others a random key.
    static final int MH = 128;
    static final double[] MH_SIM = { 1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6, 0.5, 0.4, 0.3 };
    static final int[] MH_KEEP = new int[PLANT];
    static {
        for (int d = 0; d < PLANT; d++)
            MH_KEEP[d] = (int) Math.ceil(MH_SIM[d] * MH - 1e-9);
    }
    static final int IM_COPIES = 3;

    int[] mhProbe(long p) {
        SplittableRandom r = new SplittableRandom(mix(seed * 0x632BE59BD9B4E019L + 0x5851F42D4C957F2DL * (p + 1)));
        int[] s = new int[MH];
        for (int i = 0; i < MH; i++)
            s[i] = r.nextInt();
        return s;
    }

    int[] mhSig(long i) {
        SplittableRandom r = new SplittableRandom(mix(seed * 0xC2B2AE3D27D4EB4FL + i));
        int[] s = new int[MH];
        for (int k = 0; k < MH; k++)
            s[k] = r.nextInt();
        long j = planted(i);
        if (j >= 0) {
            int[] ps = mhProbe(j / PLANT);
            int[] pos = new int[MH];
            for (int k = 0; k < MH; k++)
                pos[k] = k;
            int keep = MH_KEEP[(int) (j % PLANT)];
            for (int k = 0; k < keep; k++) {
                int x = k + r.nextInt(MH - k);
                int t = pos[k];
                pos[k] = pos[x];
                pos[x] = t;
                s[pos[k]] = ps[pos[k]];
            }
        }
        return s;
    }

    /** base64 of the values as big-endian 32-bit ints (MinHashSignatures.toBase64). */
    static String b64(int[] s) {
        byte[] b = new byte[s.length * 4];
        for (int i = 0; i < s.length; i++) {
            b[4 * i] = (byte) (s[i] >>> 24);
            b[4 * i + 1] = (byte) (s[i] >>> 16);
            b[4 * i + 2] = (byte) (s[i] >>> 8);
            b[4 * i + 3] = (byte) s[i];
        }
        return Base64.getEncoder().encodeToString(b);
    }

    static String imKey(long salt) {
        long a = mix(salt), b = mix(a ^ 0x9E3779B97F4A7C15L), c = mix(b + 0x2545F4914F6CDD1DL);
        return String.format("%016x%016x%08x", a, b, c >>> 32);
    }

    String imProbe(long p) {
        return imKey(seed * 0x3C6EF372FE94F82BL + 0xA54FF53A5F1D36F1L * (p + 1) + 7);
    }

    String imDoc(long i) {
        long j = planted(i);
        if (j >= 0 && j % PLANT < IM_COPIES) return imProbe(j / PLANT);
        return imKey(seed * 0x1F83D9ABFB41BD6BL + i * 0x5BE0CD19137E2179L + 3);
    }

    /** ids of the planted MinHash neighbours of probe p with estimated Jaccard >= t. */
    Set<String> mhExpected(int p, double t) {
        Set<String> s = new HashSet<>();
        for (int d = 0; d < PLANT; d++)
            if (MH_KEEP[d] / (double) MH >= t) s.add(Long.toString(((long) p * PLANT + d) * stride));
        return s;
    }

    Set<String> imExpected(int p) {
        Set<String> s = new HashSet<>();
        for (int d = 0; d < IM_COPIES; d++)
            s.add(Long.toString(((long) p * PLANT + d) * stride));
        return s;
    }

    static String b16(long fp, int b) {
        return String.format("%04x", (fp >>> (48 - 16 * b)) & 0xFFFF);
    }

    // 5 blocks of 13,13,13,13,12 bits (most significant first), pair keys of two blocks
    static final int[] W5 = { 13, 13, 13, 13, 12 };

    static long block5(long fp, int b) {
        int start = 64;
        for (int i = 0; i <= b; i++)
            start -= W5[i];
        return (fp >>> start) & ((1L << W5[b]) - 1);
    }

    static final int[][] PAIRS = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } };

    static String pair(long fp, int p) {
        return Long.toHexString((block5(fp, PAIRS[p][0]) << 13) | block5(fp, PAIRS[p][1]));
    }

}
