package org.nearduplicate.bench.groups;

import java.io.*;
import java.nio.file.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;
import org.nearduplicate.core.groups.HammingGroups;

import static org.nearduplicate.bench.groups.GroupsBench.FIND_POOL;
import static org.nearduplicate.bench.groups.GroupsBench.FIND_THREADS;
import static org.nearduplicate.bench.groups.GroupsBench.LOG;
import static org.nearduplicate.bench.groups.GroupsBench.SIG;
import static org.nearduplicate.bench.groups.GroupsBench.SIGNED_K;
import static org.nearduplicate.bench.harness.Report.*;

/** GroupsBench's in-process reference: HammingGroups on the same fingerprints as the node, timed. */
final class InProcess {
    double genMs, sortMs;
    int distinct, units;
    final Map<Integer, PerK> perK = new LinkedHashMap<>();

    static final class PerK {
        final List<Double> findMs = new ArrayList<>();
        final List<Double> findCpuMs = new ArrayList<>(); // --signed: the find's thread CPU time
        long groups, docsInGroups, verifiedPairs, candidatePairs;
        HammingGroups.Plan plan;

        double best() {
            return findMs.stream().mapToDouble(d -> d).min().orElse(Double.NaN);
        }
    }

    /** the N fingerprints, kept for the brute-force sample */
    long[] all;

    /** HammingGroups.find in process on the N fingerprints (components, per k of --ks, --reps times). */
    static InProcess of(GroupsRun run, ClusterData data) {
        GroupsConfig config = run.c;
        InProcess in = new InProcess();
        long t = System.nanoTime();
        in.all = new long[(int) config.docs()];
        for (int i = 0; i < in.all.length; i++)
            in.all[i] = data.fp(i);
        in.genMs = (System.nanoTime() - t) / 1e6;
        t = System.nanoTime();
        long[] sorted = in.all.clone();
        Arrays.sort(sorted);
        int n = 0;
        int[] counts = new int[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            if (n > 0 && sorted[n - 1] == sorted[i]) counts[n - 1]++;
            else {
                sorted[n] = sorted[i];
                counts[n++] = 1;
            }
        }
        long[] distinct = Arrays.copyOf(sorted, n);
        counts = Arrays.copyOf(counts, n);
        sorted = null;
        in.sortMs = (System.nanoTime() - t) / 1e6;
        in.distinct = n;
        LOG.log(
            "in-process: generated "
                + config.docs()
                + " fingerprints in "
                + (long) in.genMs
                + " ms, sort + dedupe "
                + (long) in.sortMs
                + " ms, "
                + n
                + " distinct"
        );
        long identical = 0;
        for (int c : counts)
            identical += (long) c * (c - 1) / 2;
        HammingGroups.Progress quiet = (done, total) -> {};
        for (int k : config.ks()) {
            InProcess.PerK p = new InProcess.PerK();
            for (int r = 1; r <= config.reps(); r++) {
                t = System.nanoTime();
                HammingGroups.Result res = HammingGroups.find(distinct, counts, k, quiet);
                p.findMs.add((System.nanoTime() - t) / 1e6);
                long[] components = components(res.roots(), counts, n);
                long groups = components[0], inGroups = components[1];
                p.groups = groups;
                p.docsInGroups = inGroups;
                p.verifiedPairs = res.verifiedPairs();
                p.candidatePairs = res.comparisons() + identical;
                p.plan = res.plan();
                LOG.log(
                    String.format(
                        Locale.ROOT,
                        "  k=%d run %d: HammingGroups.find %.0f ms, groups %d, docs in groups %d, verified %d, candidates %d, plan %d/%d/%d",
                        k,
                        r,
                        p.findMs.get(r - 1),
                        groups,
                        inGroups,
                        p.verifiedPairs,
                        p.candidatePairs,
                        p.plan.blocks(),
                        p.plan.keyBlocks(),
                        p.plan.tables()
                    )
                );
            }
            in.perK.put(k, p);
        }
        return in;
    }

    /**
     * --signed: the N documents' (fingerprint, signature) units as GroupMembers.mergeUnits makes them (sorted by
     * fingerprint then signature, identical pairs merged with a count), then HammingGroups.find with the plan the node
     * takes (AUTO at k = 16 and the default min_similarity's agreeing slots) and the rule's verifier: the reference the node's
     * verified and candidate pairs must equal.
     */
    static InProcess signed(GroupsRun run, ClusterData data) {
        GroupsConfig config = run.c;
        InProcess in = new InProcess();
        int n = (int) config.docs();
        if (n >= 1 << 24) throw new IllegalArgumentException("--signed sorts with 24-bit indices: at most 16,777,215 docs");
        long t = System.nanoTime();
        long[] fps = new long[n];
        byte[] sigs = new byte[n * SIG];
        for (int i = 0; i < n; i++) {
            fps[i] = data.fp(i);
            data.signature(i, sigs, i * SIG);
        }
        in.genMs = (System.nanoTime() - t) / 1e6;
        t = System.nanoTime();
        int[] idx = LshStages.sortedOrder(fps, sigs);
        long[] distinct = new long[n];
        int[] unitStart = new int[n + 1];
        int[] counts = new int[n];
        byte[] unitSigs = new byte[n * SIG];
        int d = 0, u = 0;
        for (int j = 0; j < n; j++) {
            int at = idx[j];
            if (u > 0
                && distinct[d - 1] == fps[at]
                && org.nearduplicate.core.groups.GroupMembers.compareSignatures(unitSigs, u - 1, sigs, at) == 0) {
                counts[u - 1]++;
                continue;
            }
            if (d == 0 || distinct[d - 1] != fps[at]) {
                distinct[d] = fps[at];
                unitStart[d++] = u;
            }
            System.arraycopy(sigs, at * SIG, unitSigs, u * SIG, SIG);
            counts[u++] = 1;
        }
        unitStart[d] = u;
        fps = null;
        sigs = null;
        idx = null;
        if (d < n) distinct = Arrays.copyOf(distinct, d);
        unitStart = Arrays.copyOf(unitStart, d + 1);
        if (u < n) {
            counts = Arrays.copyOf(counts, u);
            unitSigs = Arrays.copyOf(unitSigs, u * SIG);
        }
        in.sortMs = (System.nanoTime() - t) / 1e6;
        in.distinct = d;
        in.units = u;
        LOG.log(
            "in-process (signed): generated "
                + config.docs()
                + " units in "
                + (long) in.genMs
                + " ms, sort + merge "
                + (long) in.sortMs
                + " ms, "
                + d
                + " distinct fingerprints, "
                + u
                + " units"
        );
        long identical = 0;
        for (int c : counts)
            identical += (long) c * (c - 1) / 2;
        int minAgreeing = org.nearduplicate.core.sketch.Signature.minAgreeing(
            org.nearduplicate.core.SimHashSettings.DEFAULT.recommendedMinSimilarity()
        );
        long[] sc = HammingGroups.signatureCounts(unitStart, unitSigs, d);
        HammingGroups.Plan plan = HammingGroups.plan(d, SIGNED_K, u, sc[0], sc[1], minAgreeing, HammingGroups.Candidates.AUTO);
        HammingGroups.Verifier verifier = org.nearduplicate.core.groups.GroupMembers.verifier(
            unitSigs,
            new org.nearduplicate.core.groups.GroupMembers.Rule(SIGNED_K, minAgreeing)
        );
        HammingGroups.Progress quiet = (done, total) -> {};
        InProcess.PerK p = new InProcess.PerK();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int r = 1; r <= config.reps(); r++) {
            t = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            HammingGroups.Result res = HammingGroups.find(
                distinct,
                unitStart,
                counts,
                unitSigs,
                minAgreeing,
                SIGNED_K,
                verifier,
                plan,
                quiet,
                new HammingGroups.Workers(FIND_POOL, FIND_THREADS) // as the node: near_duplicate.groups.threads 0
            );
            p.findMs.add((System.nanoTime() - t) / 1e6);
            p.findCpuMs.add((threads.getCurrentThreadCpuTime() - cpu) / 1e6);
            long[] components = components(res.roots(), counts, u);
            long groups = components[0], inGroups = components[1];
            p.groups = groups;
            p.docsInGroups = inGroups;
            p.verifiedPairs = res.verifiedPairs();
            p.candidatePairs = res.comparisons() + identical;
            p.plan = res.plan();
            LOG.log(
                String.format(
                    Locale.ROOT,
                    "  k=%d run %d: HammingGroups.find (%s) %.0f ms, components %d, docs in them %d, verified %d, candidates %d, passes %d",
                    SIGNED_K,
                    r,
                    p.plan.candidates(),
                    p.findMs.get(r - 1),
                    groups,
                    inGroups,
                    p.verifiedPairs,
                    p.candidatePairs,
                    p.plan.tables()
                )
            );
        }
        in.perK.put(SIGNED_K, p);
        return in;
    }

    /**
     * The counts as GroupsComputation makes them from HammingGroups' roots over the first {@code n} entries: components
     * of two or more documents, and the documents in them.
     */
    static long[] components(int[] root, int[] counts, int n) {
        int[] docsOfRoot = new int[n];
        for (int i = 0; i < n; i++)
            docsOfRoot[root[i]] += counts[i];
        long groups = 0, inGroups = 0;
        for (int i = 0; i < n; i++) {
            if (docsOfRoot[root[i]] > 1) inGroups += counts[i];
            if (root[i] == i && docsOfRoot[i] > 1) groups++;
        }
        return new long[] { groups, inGroups };
    }
}
