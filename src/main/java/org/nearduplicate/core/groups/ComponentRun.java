package org.nearduplicate.core.groups;

/**
 * One run of {@link HammingGroups#find}: its input, the union-find over its units and the verified document pairs
 * counted at each unit. {@link ExactTables} and {@link LshStage} find the candidate pairs; both verify and unite them
 * here, so the components and counts are the same whichever found them.
 */
abstract class ComponentRun {
    final long[] distinct;
    final int[] unitStart;
    final int[] counts;
    final HammingGroups.Verifier verifier;
    final int k;
    final HammingGroups.Plan plan;
    final int[] parent;
    final long[] pairsAt;
    final HammingGroups.Progress progress;
    long comparisons;
    long verified;

    ComponentRun(
        long[] distinct,
        int[] unitStart,
        int[] counts,
        int k,
        HammingGroups.Verifier verifier,
        HammingGroups.Plan plan,
        int[] parent,
        long[] pairsAt,
        HammingGroups.Progress progress
    ) {
        this.distinct = distinct;
        this.unitStart = unitStart;
        this.counts = counts;
        this.verifier = verifier;
        this.k = k;
        this.plan = plan;
        this.parent = parent;
        this.pairsAt = pairsAt;
        this.progress = progress;
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
