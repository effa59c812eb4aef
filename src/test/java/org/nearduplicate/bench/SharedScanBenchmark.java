package org.nearduplicate.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.nearduplicate.lucene.BenchAccess;
import org.nearduplicate.lucene.ColumnScan;
import org.nearduplicate.lucene.FingerprintColumn;

/**
 * Concurrent searches of one column, in process, in one run (bench/shared_scan.sh,
 * bench/results/RESULTS-shared-scan.md): T threads each run one single-probe search at a time (what the searches of an
 * {@code _msearch} do on a shard's search threads), all starting together every round, on a column of N random
 * fingerprints. Per T, the wall time of a round divided by T (time per search), for
 * <ul>
 * <li>floor: a plain {@code long[]} popcount loop per search on its own thread;</li>
 * <li>separate: each search scans the column alone ({@link ColumnScan#scan}, the path before shared passes);</li>
 * <li>shared: each search joins the column's shared pass (what the query now does when it leads);</li>
 * <li>one pass: a single thread scanning once for the T probes ({@link ColumnScan#scan} with T probes), the ideal a
 * shared pass approaches on one core.</li>
 * </ul>
 * Probes are near-copies (0..k flipped bits) of indexed fingerprints. usage: SharedScanBenchmark docs threads[,threads] k rounds
 */
public class SharedScanBenchmark {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int docs = Integer.parseInt(args[0]);
        int[] threadCounts = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        int k = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        SplittableRandom random = new SplittableRandom(42);
        long[] values = new long[docs];
        for (int i = 0; i < docs; i++)
            values[i] = random.nextLong();
        FingerprintColumn column = BenchAccess.denseColumn(values);
        System.out.printf(
            Locale.ROOT,
            "| threads T | floor ms/search | separate ms/search | shared ms/search | one pass of T probes, ms/search | separate / floor | shared / floor | shared / separate |%n"
        );
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
        for (int threads : threadCounts) {
            run(column, values, threads, k, rounds, random);
        }
    }

    private interface Search {
        long run(long probe) throws IOException;
    }

    private static void run(FingerprintColumn column, long[] values, int threads, int k, int rounds, SplittableRandom random)
        throws Exception {
        long[][] probes = new long[rounds][threads];
        for (long[] round : probes) {
            for (int t = 0; t < threads; t++) {
                long probe = values[random.nextInt(values.length)];
                for (int b = random.nextInt(k + 1); b > 0; b--)
                    probe ^= 1L << random.nextInt(64);
                round[t] = probe;
            }
        }
        Search floor = probe -> {
            long n = 0;
            for (long v : values)
                if (Long.bitCount(v ^ probe) <= k) n++;
            return n;
        };
        Search separate = probe -> ColumnScan.scan(column, new long[] { probe }, k).size();
        Search shared = probe -> BenchAccess.sharedScan(column, new long[] { probe }, k);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            // warm up every path, then measure them interleaved round by round (the same load for each)
            for (int w = 0; w < 10; w++) {
                round(executor, threads, probes[w % rounds], floor);
                round(executor, threads, probes[w % rounds], separate);
                round(executor, threads, probes[w % rounds], shared);
            }
            long[] floorNanos = new long[rounds];
            long[] separateNanos = new long[rounds];
            long[] sharedNanos = new long[rounds];
            long[] onePassNanos = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                floorNanos[r] = round(executor, threads, probes[r], floor);
                separateNanos[r] = round(executor, threads, probes[r], separate);
                sharedNanos[r] = round(executor, threads, probes[r], shared);
                long start = System.nanoTime();
                sink += ColumnScan.scan(column, probes[r], k).size();
                onePassNanos[r] = System.nanoTime() - start;
            }
            double f = median(floorNanos) / threads;
            double s = median(separateNanos) / threads;
            double sh = median(sharedNanos) / threads;
            double one = median(onePassNanos) / threads;
            System.out.printf(
                Locale.ROOT,
                "| %d | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.2fx |%n",
                threads,
                f / 1e6,
                s / 1e6,
                sh / 1e6,
                one / 1e6,
                s / f,
                sh / f,
                sh / s
            );
        } finally {
            executor.shutdown();
        }
    }

    /** Wall nanos of one round: every thread runs its probe's search, all released together. */
    private static long round(ExecutorService executor, int threads, long[] probes, Search search) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        List<Future<Long>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long probe = probes[t];
            Callable<Long> task = () -> {
                start.await();
                return search.run(probe);
            };
            futures.add(executor.submit(task));
        }
        // the clock starts before the release: a worker may finish before this thread runs again
        long begin = System.nanoTime();
        start.await();
        for (Future<Long> f : futures)
            sink += f.get();
        return System.nanoTime() - begin;
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
