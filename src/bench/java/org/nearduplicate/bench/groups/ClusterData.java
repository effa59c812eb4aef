package org.nearduplicate.bench.groups;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.groups.GroupsBench.SIG;
import static org.nearduplicate.bench.harness.Report.*;

/**
 * GroupsBench's fingerprints, deterministic from the seed: random values with planted clusters at ids c * stride ..
 * c * stride + size(c) - 1 (c < clusters), and (--signed) the documents' signatures.
 */
final class ClusterData {
    final long n, clusters, stride, seed;

    ClusterData(long n, long seed, double share) {
        this.n = n;
        this.seed = seed;
        clusters = Math.max(1, Math.round(n * share / 3.5));
        stride = n / clusters;
        if (stride < 5) throw new IllegalArgumentException("--cluster-share too large for " + n + " docs");
    }

    int size(long c) {
        return 2 + (int) Long.remainderUnsigned(mix(seed * 0x632BE59BD9B4E019L + c + 1), 4);
    }

    long center(long c) {
        return mix(mix(seed * 0x85EBCA77C2B2AE63L + c) + 0x27D4EB2F165667C5L);
    }

    /** the planted cluster of document i, or -1 */
    long cluster(long i) {
        long c = i / stride;
        return c < clusters && i % stride < size(c) ? c : -1;
    }

    long fp(long i) {
        long h = mix(seed * 0x9E3779B97F4A7C15L + i);
        long c = cluster(i);
        if (c < 0) return h;
        SplittableRandom r = new SplittableRandom(h);
        int d = 1 + r.nextInt(8);
        long mask = 0;
        while (Long.bitCount(mask) < d)
            mask |= 1L << r.nextInt(64);
        return center(c) ^ mask;
    }

    /**
     * The 32-byte signature of document i (--signed): random outside the clusters; in a cluster, the first member has
     * the cluster's random center signature, every other member the center's with 32 - a slots changed, a uniform in
     * 12..32 (so members agree with the center on 12..32 slots).
     */
    void signature(long i, byte[] out, int off) {
        long c = cluster(i);
        if (c < 0) {
            SplittableRandom r = new SplittableRandom(mix(seed * 0xD6E8FEB86659FD93L + i));
            for (int b = 0; b < SIG; b += 8) {
                long v = r.nextLong();
                for (int x = 0; x < 8; x++)
                    out[off + b + x] = (byte) (v >>> (8 * x));
            }
            return;
        }
        SplittableRandom rc = new SplittableRandom(mix(seed * 0xA0761D6478BD642FL + c));
        for (int b = 0; b < SIG; b += 8) {
            long v = rc.nextLong();
            for (int x = 0; x < 8; x++)
                out[off + b + x] = (byte) (v >>> (8 * x));
        }
        if (i % stride == 0) return; // the cluster's first member: the center signature
        SplittableRandom r = new SplittableRandom(mix(seed * 0xE7037ED1A0B428DBL + i));
        int agree = 12 + r.nextInt(21);
        int[] slots = new int[SIG];
        for (int x = 0; x < SIG; x++)
            slots[x] = x;
        for (int x = 0; x < SIG - agree; x++) {
            int j = x + r.nextInt(SIG - x);
            int t = slots[x];
            slots[x] = slots[j];
            slots[j] = t;
            out[off + slots[x]] += (byte) (1 + r.nextInt(255));
        }
    }

    /**
     * The 32 full min-wise values of document i (--field-version 7: its candidate keys are made from them), consistent
     * with {@link #signature}: in a cluster, a slot holds a value of the cluster and of the slot's 8-bit value (so members
     * that agree with the center on a slot share its full value, as documents of shared content do); outside the
     * clusters every value is random (every key distinct: the most key bytes).
     */
    long[] minima(long i, byte[] signature, int off) {
        long[] minima = new long[SIG];
        long c = cluster(i);
        SplittableRandom r = new SplittableRandom(mix(seed * 0xC2B2AE3D27D4EB4FL + i));
        for (int s = 0; s < SIG; s++)
            minima[s] = c < 0
                ? r.nextLong() >>> 1
                : mix(mix(seed * 0x165667B19E3779F9L + c) + s * 256L + (signature[off + s] & 0xFF)) >>> 1;
        return minima;
    }

    long plantedDocs() {
        long s = 0;
        for (long c = 0; c < clusters; c++)
            s += size(c);
        return s;
    }
}
