package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Layout.*;
import static org.nearduplicate.bench.search.SyntheticData.*;

/**
 * Bench --check-floor B,K,R: bench/check_scale.py's floor, measured in the same run as the check (no node).
 */
final class CheckFloor {
    private CheckFloor() {}

    /**
     * bench/check_scale.py's floor, measured in the same run as the check: the --docs fingerprints of the loaded indices
     * (the same {@link SyntheticData}, with --reps fpk the same KeysModel: the target's own values) in a plain {@code long[]}, and a batch of B probes at distance K
     * answered by a plain {@code Long.bitCount(v ^ q) <= K} loop, two ways: {@code naive}, one pass over the array per probe,
     * and {@code blocked}, blocks of 2,048 values compared with every probe before the next block (each value leaves
     * memory once per batch, as the column scan reads it). Each line read from stdin runs R batches of each (new probes
     * every time) and prints one JSON line: the median ms per batch of both. One core, this JVM.
     */
    static void run(BenchConfig c) throws IOException {
        String[] p = c.checkFloor().split(",");
        int batch = Integer.parseInt(p[0]), k = Integer.parseInt(p[1]), reps = Integer.parseInt(p[2]);
        // the target's own fingerprints: the KeysModel's with --reps fpk (bench/check_scale.py --keys-model), else SyntheticData's
        boolean keysModel = c.onlyReps() != null && c.onlyReps().contains(Synthetic.KEYS_REP);
        SyntheticData data = keysModel ? null : new SyntheticData(c.docs(), c.probes(), c.seed());
        org.nearduplicate.bench.KeysModel model = keysModel ? new org.nearduplicate.bench.KeysModel(c.docs()) : null;
        long[] column = new long[Math.toIntExact(c.docs())];
        for (int i = 0; i < column.length; i++)
            column[i] = keysModel ? model.doc(i).fingerprint() : data.fp(i);
        SplittableRandom r = new SplittableRandom(c.seed() + 26);
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        long sink = 0;
        System.out.println("{\"ready\":true,\"docs\":" + column.length + "}");
        System.out.flush();
        while (in.readLine() != null) {
            long[] naive = new long[reps], blocked = new long[reps];
            for (int rep = 0; rep < reps; rep++) {
                long[] q = new long[batch];
                for (int i = 0; i < batch; i++)
                    q[i] = r.nextLong();
                long t0 = System.nanoTime();
                sink += naiveLoop(column, q, k);
                naive[rep] = System.nanoTime() - t0;
                t0 = System.nanoTime();
                sink += blockedLoop(column, q, k);
                blocked[rep] = System.nanoTime() - t0;
            }
            Arrays.sort(naive);
            Arrays.sort(blocked);
            System.out.println(
                "{\"batch\":"
                    + batch
                    + ",\"k\":"
                    + k
                    + ",\"naive_ms\":"
                    + naive[reps / 2] / 1e6
                    + ",\"blocked_ms\":"
                    + blocked[reps / 2] / 1e6
                    + ",\"sink\":"
                    + (sink & 1)
                    + "}"
            );
            System.out.flush();
        }
    }

    /** The floor's loops, small methods so that the JIT compiles them whole (see {@link #run}). */
    static long naiveLoop(long[] column, long[] probes, int k) {
        long count = 0;
        for (long probe : probes)
            for (long v : column)
                if (Long.bitCount(v ^ probe) <= k) count++;
        return count;
    }

    static long blockedLoop(long[] column, long[] probes, int k) {
        long count = 0;
        for (int from = 0; from < column.length; from += 2048) {
            int to = Math.min(column.length, from + 2048);
            for (long probe : probes)
                for (int i = from; i < to; i++)
                    if (Long.bitCount(column[i] ^ probe) <= k) count++;
        }
        return count;
    }

}
