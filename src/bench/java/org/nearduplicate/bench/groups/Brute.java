package org.nearduplicate.bench.groups;

import java.io.*;
import java.nio.file.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;
import org.nearduplicate.core.groups.HammingGroups;

import static org.nearduplicate.bench.groups.GroupsBench.LOG;
import static org.nearduplicate.bench.harness.Report.*;

/** GroupsBench's brute-force baseline: all pairs of a seeded sample, and HammingGroups on the same sample. */
final class Brute {
    int sample;
    final Map<Integer, double[]> perK = new LinkedHashMap<>(); // k -> {ms, pairs, groups, docsInGroups}
    final Map<Integer, Boolean> agrees = new LinkedHashMap<>();

    /** All pairs of a seeded sample (selection sampling, in id order), XOR + bitCount, union-find. */
    static Brute of(GroupsRun run, ClusterData data, long[] all) {
        GroupsConfig config = run.c;
        Brute b = new Brute();
        int m = (int) Math.min(config.bruteSample(), config.docs());
        b.sample = m;
        long[] s = new long[m];
        SplittableRandom r = new SplittableRandom(config.seed() ^ 0x5DEECE66DL);
        int got = 0;
        for (long i = 0; i < config.docs() && got < m; i++) {
            if (r.nextLong(config.docs() - i) < m - got) s[got++] = all[(int) i];
        }
        for (int k : config.ks()) {
            long t = System.nanoTime();
            int[] parent = new int[m];
            for (int i = 0; i < m; i++)
                parent[i] = i;
            long pairs = 0;
            for (int i = 0; i < m; i++) {
                long a = s[i];
                for (int j = i + 1; j < m; j++) {
                    if (Long.bitCount(a ^ s[j]) <= k) {
                        pairs++;
                        int ra = findRoot(parent, i), rb = findRoot(parent, j);
                        if (ra != rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
                    }
                }
            }
            double ms = (System.nanoTime() - t) / 1e6;
            int[] size = new int[m];
            for (int i = 0; i < m; i++)
                size[findRoot(parent, i)]++;
            long groups = 0, inGroups = 0;
            for (int i = 0; i < m; i++)
                if (size[i] > 1) {
                    groups++;
                    inGroups += size[i];
                }
            b.perK.put(k, new double[] { ms, pairs, groups, inGroups });
            // HammingGroups on the same sample must agree with the brute force
            long[] sorted = s.clone();
            Arrays.sort(sorted);
            int n = 0;
            int[] counts = new int[m];
            for (int i = 0; i < m; i++) {
                if (n > 0 && sorted[n - 1] == sorted[i]) counts[n - 1]++;
                else {
                    sorted[n] = sorted[i];
                    counts[n++] = 1;
                }
            }
            HammingGroups.Result hg = HammingGroups.find(Arrays.copyOf(sorted, n), Arrays.copyOf(counts, n), k, (d, tt) -> {});
            long[] hgComponents = InProcess.components(hg.roots(), counts, n);
            long hgGroups = hgComponents[0], hgDocs = hgComponents[1];
            boolean eq = hgGroups == groups && hgDocs == inGroups && hg.verifiedPairs() == pairs;
            b.agrees.put(k, eq);
            if (!eq) run.problems.add(
                "**NOT EXACT** brute force on the "
                    + m
                    + "-doc sample at k="
                    + k
                    + ": groups/docs/pairs "
                    + groups
                    + "/"
                    + inGroups
                    + "/"
                    + pairs
                    + " vs HammingGroups "
                    + hgGroups
                    + "/"
                    + hgDocs
                    + "/"
                    + hg.verifiedPairs()
            );
            LOG.log(
                String.format(
                    Locale.ROOT,
                    "brute force k=%d on %d docs: %.0f ms (%d pairs, %d groups, %d docs in groups); HammingGroups agrees: %s; extrapolated to %d docs: %.0f s",
                    k,
                    m,
                    ms,
                    pairs,
                    groups,
                    inGroups,
                    eq,
                    config.docs(),
                    ms * Math.pow(config.docs() / (double) m, 2) / 1000
                )
            );
        }
        return b;
    }

    static int findRoot(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
