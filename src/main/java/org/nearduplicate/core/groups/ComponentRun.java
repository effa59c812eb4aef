package org.nearduplicate.core.groups;

import org.nearduplicate.core.groups.HammingGroups.Plan;
import org.nearduplicate.core.groups.HammingGroups.Progress;
import org.nearduplicate.core.groups.HammingGroups.Verifier;

/**
 * One run of {@link HammingGroups#find}: its input, the union-find over its units and the verified document pairs
 * counted at each unit. {@link ExactTables} and {@link LshStage} find the candidate pairs; both verify and unite them
 * here, so the components and counts are the same whichever found them.
 */
abstract class ComponentRun {
    final long[] distinct;
    final int[] unitStart;
    final int[] counts;
    final Verifier verifier;
    final int k;
    final Plan plan;
    final int[] parent;
    final long[] pairsAt;
    final Progress progress;
    long comparisons;
    long verified;

    /** Every unit its own component, with the pairs of its identical documents counted. */
    ComponentRun(long[] distinct, int[] unitStart, int[] counts, int k, Verifier verifier, Plan plan, Progress progress) {
        this.distinct = distinct;
        this.unitStart = unitStart;
        this.counts = counts;
        this.verifier = verifier;
        this.k = k;
        this.plan = plan;
        this.progress = progress;
        int units = counts.length;
        parent = new int[units];
        for (int i = 0; i < units; i++)
            parent[i] = i;
        pairsAt = new long[units];
        for (int i = 0; i < units; i++) {
            long c = counts[i];
            if (c > 1) {
                pairsAt[i] = c * (c - 1) / 2;
                verified += pairsAt[i];
            }
        }
    }

    /** Band keys whose long runs were compared within a window only ({@link HammingGroups.Result#cappedRuns}). */
    long cappedRuns() {
        return 0;
    }

    /** The pairs of different units sharing one fingerprint (distance 0): candidates, verified like any other. */
    void sameFingerprint() {
        for (int f = 0; f < distinct.length; f++) {
            int from = unitStart[f], to = unitStart[f + 1];
            for (int u = from; u < to; u++) {
                for (int v = u + 1; v < to; v++) {
                    long p = (long) counts[u] * counts[v];
                    comparisons += p;
                    if (verifier.verify(u, v)) unite(u, v, p);
                }
            }
            if ((f & 0xFFF) == 0) progress.checkCancelled();
        }
    }

    /** The first unit of fingerprint {@code f} ({@code unitStart} null: one unit per fingerprint). */
    final int start(int f) {
        return unitStart == null ? f : unitStart[f];
    }

    /** Counts {@code p} verified document pairs at unit {@code a} and joins the components of {@code a} and {@code b}. */
    final void unite(int a, int b, long p) {
        verified += p;
        pairsAt[a] += p;
        int ra = find(a), rb = find(b);
        if (ra != rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }

    private int find(int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
