package org.nearduplicate.bench;

import java.util.Locale;
import java.util.SplittableRandom;

import org.nearduplicate.bench.harness.Args;
import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.core.window.RecentFingerprints.Lookup;

/**
 * The recent-fingerprints window of near_duplicate_check (issue 26 item 3): checkAndAdd per document on a full window,
 * block keys against the linear scan, in one run (interleaved rounds, the median of each), at the default window size
 * (10,000) and k = 3, 8, 10, 12, 16. Run by bench/window.sh; writes a Markdown table to stdout.
 */
public final class WindowBench {
    static final String USAGE = """
        usage: WindowBench [--capacity N] [--docs N] [--rounds N]   (bench/window.sh)
          --capacity N   window entries (default 10000, the default window)
          --docs N       checkAndAdd calls per round (default 200000)
          --rounds N     interleaved rounds; the median is reported (default 7)""";

    private WindowBench() {}

    public static void main(String[] args) {
        int capacity = 10_000, docs = 200_000, rounds = 7;
        Args a = new Args(args, USAGE);
        for (String o; (o = a.next()) != null;) {
            switch (o) {
                case "--capacity" -> capacity = a.intValue();
                case "--docs" -> docs = a.intValue();
                case "--rounds" -> rounds = a.intValue();
                default -> throw a.unknown();
            }
        }
        System.out.printf(
            Locale.ROOT,
            "Window of %,d entries (full), %,d checkAndAdd calls per round, %d rounds interleaved, median ns per call.%n%n",
            capacity,
            docs,
            rounds
        );
        System.out.println("| k | block keys (ns/call) | linear scan (ns/call) | linear / block keys | default lookup |");
        System.out.println("|---|---|---|---|---|");
        for (int k : new int[] { 3, 4, 5, 6, 7, 8, 10, 12, 16 }) {
            double[][] ns = new double[2][rounds];
            for (int r = 0; r < rounds; r++) {
                for (Lookup lookup : Lookup.values()) {
                    ns[lookup.ordinal()][r] = run(k, capacity, docs, lookup, r);
                }
            }
            double keys = median(ns[0]), linear = median(ns[1]);
            System.out.printf(Locale.ROOT, "| %d | %.0f | %.0f | %.2fx | %s |%n", k, keys, linear, linear / keys, Lookup.forDistance(k));
        }
    }

    /** ns per checkAndAdd on a window filled first; a tenth of the documents are near-duplicates of an earlier one. */
    static double run(int k, int capacity, int docs, Lookup lookup, int seed) {
        RecentFingerprints window = RecentFingerprints.withLookup(k, capacity, lookup);
        SplittableRandom random = new SplittableRandom(seed);
        long[] recent = new long[64];
        for (int i = 0; i < capacity; i++) {
            long fp = random.nextLong();
            recent[i & 63] = fp;
            window.checkAndAdd(fp, "w" + i);
        }
        String[] ids = new String[docs];
        long[] fps = new long[docs];
        for (int i = 0; i < docs; i++) {
            ids[i] = "d" + i;
            long fp = random.nextInt(10) == 0 ? recent[random.nextInt(64)] ^ (1L << random.nextInt(64)) : random.nextLong();
            recent[i & 63] = fp;
            fps[i] = fp;
        }
        long matches = 0, t0 = System.nanoTime();
        for (int i = 0; i < docs; i++) {
            if (window.checkAndAdd(fps[i], ids[i]).match() != null) matches++;
        }
        long t = System.nanoTime() - t0;
        if (matches == 0) throw new AssertionError("no near-duplicate found");
        return (double) t / docs;
    }

    static double median(double[] v) {
        double[] c = v.clone();
        java.util.Arrays.sort(c);
        return c[c.length / 2];
    }
}
