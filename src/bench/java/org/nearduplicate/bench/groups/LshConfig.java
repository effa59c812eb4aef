package org.nearduplicate.bench.groups;

import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.bench.harness.*;

/**
 * GroupsLshBench's command line (bench/groups.sh --lsh passes its options through).
 *
 * @param exactAt the sizes at which the exact path (Manku's tables) runs too
 * @param bruteAt the sizes at which the blocked brute force runs too
 * @param results the results file under bench/results, or null (stdout only)
 * @param threads the LSH path also on this many threads (1: not)
 */
record LshConfig(List<Integer> sizes, List<Integer> exactAt, List<Integer> bruteAt, double clusterShare, long seed, String results,
    int threads) {
    static final String USAGE = """
        usage: GroupsLshBench [options]   (bench/groups.sh --lsh passes its options here; no node)
          --sizes N,N          units per run (default 1000000,10000000)
          --exact N,N          sizes with the exact path too (default 1000000)
          --brute N,N          sizes with the brute-force reference too (default none)
          --cluster-share F    share of the units in planted clusters (default 0.10)
          --seed S             (default 42)
          --results NAME       also write bench/results/NAME
          --threads T          the LSH path also on T threads (default 1)""";

    static LshConfig parse(String[] argv) {
        List<Integer> sizes = new ArrayList<>(List.of(1_000_000, 10_000_000));
        List<Integer> exactAt = new ArrayList<>(List.of(1_000_000));
        List<Integer> bruteAt = new ArrayList<>();
        double share = 0.10;
        long seed = 42;
        String results = null;
        int threads = 1;
        Args a = new Args(argv, USAGE);
        for (String o; (o = a.next()) != null;) {
            switch (o) {
                case "--sizes" -> sizes = list(a.value());
                case "--exact" -> exactAt = list(a.value());
                case "--brute" -> bruteAt = list(a.value());
                case "--cluster-share" -> share = a.doubleValue();
                case "--seed" -> seed = a.longValue();
                case "--results" -> results = a.value();
                case "--threads" -> threads = a.intValue();
                default -> throw a.unknown();
            }
        }
        return new LshConfig(sizes, exactAt, bruteAt, share, seed, results, threads);
    }

    static List<Integer> list(String s) {
        List<Integer> out = new ArrayList<>();
        if (s.isBlank()) return out;
        for (String p : s.split(","))
            out.add(Integer.parseInt(p.trim()));
        return out;
    }
}
