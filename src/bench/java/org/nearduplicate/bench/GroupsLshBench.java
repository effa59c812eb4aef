// In-process benchmark of the LSH candidate stage of HammingGroups (issue 26 item 2), run by bench/groups.sh --lsh.

// target/classes must be on the class path. No node: the grouping step alone, at the HammingGroups level.
//
// Data (seeded): N units = clusters of 2..4 near-duplicates (a share of the units, default 10 %) plus random filler.
// A cluster has a random center fingerprint and signature; every other member is the center's fingerprint with 0..8
// random bits flipped (so members are within k = 16 of each other) and the center's signature agreeing on a number of
// slots drawn uniformly from 12..32 (the other slots changed). Units are sorted by fingerprint, identical
// (fingerprint, signature) pairs merged into one unit with a count, as GroupMembers.mergeUnits gives them.
//
// Measured per N: the LSH path (time, candidate pairs, verified pairs, groups, heap), the planted truth (verified pairs
// among the members of each cluster, by brute force within the cluster: random pairs verify with probability ~1e-20),
// with --exact the exact path (Manku's tables) and with --brute a blocked brute-force scan (every distinct fingerprint
// against every other, popcount <= k over a long[] with the Vector API, then the units' signature check): two exact
// references for recall against exact enumeration. The brute force is the one that is feasible at 1M (n^2/2 = 5e11
// fingerprint pairs at ~0.1 ns each); at sizes where both run, the bench fails unless they agree.
//
//   java -Xmx3g --add-modules jdk.incubator.vector -cp target/classes bench/GroupsLshBench.java --sizes 1000000 --brute 1000000
// --threads T: the LSH path also on T threads (HammingGroups.Workers), checked equal to the one-thread result.
package org.nearduplicate.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.groups.SignatureBands;
import org.nearduplicate.core.sketch.Signature;

public class GroupsLshBench {
    static final int K = 16;
    static final int SIG = Signature.BYTES;

    record Units(long[] distinct, int[] unitStart, int[] counts, byte[] signatures, long plantedPairs, int clusters, long docs) {
    }

    static Units generate(int n, double clusterShare, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] fps = new long[n];
        byte[] sigs = new byte[n * SIG];
        int i = 0, clusters = 0;
        long planted = 0;
        int clustered = (int) (n * clusterShare);
        byte[] center = new byte[SIG];
        int[] slots = new int[Signature.SLOTS];
        while (i < clustered) {
            int size = Math.min(2 + random.nextInt(3), n - i);
            long c = random.nextLong();
            for (int b = 0; b < SIG; b++)
                center[b] = (byte) random.nextInt(256);
            int first = i;
            for (int m = 0; m < size; m++, i++) {
                long fp = c;
                System.arraycopy(center, 0, sigs, i * SIG, SIG);
                if (m > 0) {
                    int flips = random.nextInt(K / 2 + 1);
                    for (int f = 0; f < flips; f++)
                        fp ^= 1L << random.nextInt(64);
                    int agree = 12 + random.nextInt(21);
                    for (int s = 0; s < slots.length; s++)
                        slots[s] = s;
                    for (int s = 0; s < Signature.SLOTS - agree; s++) {
                        int j = s + random.nextInt(slots.length - s);
                        int t = slots[s];
                        slots[s] = slots[j];
                        slots[j] = t;
                        sigs[i * SIG + slots[s]] += (byte) (1 + random.nextInt(255));
                    }
                }
                fps[i] = fp;
            }
            // the planted truth: pairs of this cluster that verify
            for (int a = first; a < i; a++)
                for (int b = a + 1; b < i; b++)
                    if (Long.bitCount(fps[a] ^ fps[b]) <= K
                        && Signature.agreeingSlots(sigs, a * SIG, sigs, b * SIG) >= Signature.minAgreeing(0.35)) planted++;
            clusters++;
        }
        for (; i < n; i++) {
            fps[i] = random.nextLong();
            for (int b = 0; b < SIG; b++)
                sigs[i * SIG + b] = (byte) random.nextInt(256);
        }
        // sort by fingerprint: (top 40 bits, index), then exact order and signature order within ties
        long[] order = new long[n];
        for (int j = 0; j < n; j++)
            order[j] = fps[j] >>> 24 << 24 | j; // signed order of the top 40 bits
        Arrays.sort(order);
        int[] idx = new int[n];
        for (int j = 0; j < n; j++)
            idx[j] = (int) (order[j] & 0xFFFFFF);
        order = null;
        for (int j = 1; j < n; j++) { // insertion sort: only ties on the top 40 bits move
            int x = idx[j];
            int p = j - 1;
            while (p >= 0 && less(fps, sigs, x, idx[p])) {
                idx[p + 1] = idx[p];
                p--;
            }
            idx[p + 1] = x;
        }
        long[] distinct = new long[n];
        int[] unitStart = new int[n + 1];
        int[] counts = new int[n];
        byte[] unitSigs = new byte[n * SIG];
        int d = 0, u = 0;
        for (int j = 0; j < n; j++) {
            int at = idx[j];
            if (u > 0 && distinct[d - 1] == fps[at] && GroupMembers.compareSignatures(unitSigs, u - 1, sigs, at) == 0) {
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
        return new Units(
            d == n ? distinct : Arrays.copyOf(distinct, d),
            Arrays.copyOf(unitStart, d + 1),
            u == n ? counts : Arrays.copyOf(counts, u),
            u == n ? unitSigs : Arrays.copyOf(unitSigs, u * SIG),
            planted,
            clusters,
            n
        );
    }

    static boolean less(long[] fps, byte[] sigs, int a, int b) {
        int c = Long.compare(fps[a], fps[b]);
        return c != 0 ? c < 0 : GroupMembers.compareSignatures(sigs, a, sigs, b) < 0;
    }

    record Run(String path, long millis, HammingGroups.Result result, long groups, long docsInGroups, long maxHeapMb, int bandsSeen) {
    }

    static Run run(Units in, HammingGroups.Candidates candidates) {
        return run(in, candidates, HammingGroups.Workers.CALLER);
    }

    static Run run(Units in, HammingGroups.Candidates candidates, HammingGroups.Workers workers) {
        int minAgreeing = Signature.minAgreeing(0.35);
        long[] sc = HammingGroups.signatureCounts(in.unitStart(), in.signatures(), in.distinct().length);
        HammingGroups.Plan plan = HammingGroups.plan(in.distinct().length, K, in.counts().length, sc[0], sc[1], minAgreeing, candidates);
        System.gc();
        long[] maxHeap = { 0 };
        int[] progressCalls = { 0 };
        var memory = ManagementFactory.getMemoryMXBean();
        long t0 = System.nanoTime();
        HammingGroups.Result r = HammingGroups.find(
            in.distinct(),
            in.unitStart(),
            in.counts(),
            in.signatures(),
            minAgreeing,
            K,
            GroupMembers.verifier(in.signatures(), new GroupMembers.Rule(K, minAgreeing)),
            plan,
            new HammingGroups.Progress() {
                @Override
                public void tableDone(int done, int total) {
                    progressCalls[0]++;
                    maxHeap[0] = Math.max(maxHeap[0], memory.getHeapMemoryUsage().getUsed());
                }
            },
            workers
        );
        long millis = (System.nanoTime() - t0) / 1_000_000;
        int[] roots = r.roots();
        int units = in.counts().length;
        long[] docsOf = new long[units];
        for (int u = 0; u < units; u++)
            docsOf[roots[u]] += in.counts()[u];
        long groups = 0, docsIn = 0;
        for (int u = 0; u < units; u++) {
            if (roots[u] == u && docsOf[u] > 1) {
                groups++;
                docsIn += docsOf[u];
            }
        }
        return new Run(plan.candidates(), millis, r, groups, docsIn, maxHeap[0] >> 20, progressCalls[0]);
    }

    /** The brute force's result: pairs counted at their lower unit, components as roots (the smallest unit). */
    record Exact(long millis, long withinK, long verifiedPairs, long[] pairsAt, int[] roots, long groups, long docsInGroups) {
    }

    static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    static final int BLOCK = 4096;

    /**
     * The exact verified pairs by brute force: identical units, units sharing a fingerprint, then every pair of
     * distinct fingerprints (blocked: a block of {@link #BLOCK} fingerprints stays in L1 while every earlier one is
     * compared with it, {@link #SPECIES} lanes per popcount) within k expanded into its unit pairs, each verified by
     * {@code verifier}. Pairs are counted at their lower unit (as the LSH path counts them) and united.
     */
    static Exact bruteForce(Units in, HammingGroups.Verifier verifier) {
        long[] fps = in.distinct();
        int[] unitStart = in.unitStart();
        int[] counts = in.counts();
        int n = fps.length, units = counts.length, lanes = SPECIES.length();
        int[] parent = new int[units];
        for (int u = 0; u < units; u++)
            parent[u] = u;
        long[] pairsAt = new long[units];
        long t0 = System.nanoTime();
        for (int u = 0; u < units; u++)
            pairsAt[u] = (long) counts[u] * (counts[u] - 1) / 2;
        for (int f = 0; f < n; f++) {
            for (int u = unitStart[f]; u < unitStart[f + 1]; u++)
                for (int v = u + 1; v < unitStart[f + 1]; v++)
                    if (verifier.verify(u, v)) unite(parent, pairsAt, u, v, (long) counts[u] * counts[v]);
        }
        long within = 0;
        int blocks = (n + BLOCK - 1) / BLOCK, reported = 0;
        for (int jb = 0; jb < n; jb += BLOCK) {
            int je = Math.min(n, jb + BLOCK);
            for (int i = 0; i < je; i++) {
                long x = fps[i];
                LongVector vx = LongVector.broadcast(SPECIES, x);
                int j = Math.max(jb, i + 1);
                for (; j + lanes <= je; j += lanes) {
                    VectorMask<Long> m = LongVector.fromArray(SPECIES, fps, j)
                        .lanewise(VectorOperators.XOR, vx)
                        .lanewise(VectorOperators.BIT_COUNT)
                        .compare(VectorOperators.LE, K);
                    if (m.anyTrue()) {
                        for (long bits = m.toLong(); bits != 0; bits &= bits - 1) {
                            within++;
                            pairOf(in, verifier, parent, pairsAt, i, j + Long.numberOfTrailingZeros(bits));
                        }
                    }
                }
                for (; j < je; j++) {
                    if (Long.bitCount(x ^ fps[j]) <= K) {
                        within++;
                        pairOf(in, verifier, parent, pairsAt, i, j);
                    }
                }
            }
            int block = jb / BLOCK + 1;
            if (block * 20L / blocks > reported) {
                reported = (int) (block * 20L / blocks);
                // work done grows with the square of the blocks seen
                System.out.printf(
                    Locale.ROOT,
                    "  brute force: %d of %d blocks (%.0f %% of the pairs), %d s%n",
                    block,
                    blocks,
                    100.0 * je * (double) je / ((double) n * n),
                    (System.nanoTime() - t0) / 1_000_000_000L
                );
            }
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        long verified = 0;
        for (long p : pairsAt)
            verified += p;
        for (int u = 0; u < units; u++)
            parent[u] = root(parent, u);
        long[] docsOf = new long[units];
        for (int u = 0; u < units; u++)
            docsOf[parent[u]] += counts[u];
        long groups = 0, docsIn = 0;
        for (int u = 0; u < units; u++) {
            if (parent[u] == u && docsOf[u] > 1) {
                groups++;
                docsIn += docsOf[u];
            }
        }
        return new Exact(millis, within, verified, pairsAt, parent, groups, docsIn);
    }

    /** The unit pairs of distinct fingerprints {@code f < g} (within k), verified. */
    private static void pairOf(Units in, HammingGroups.Verifier verifier, int[] parent, long[] pairsAt, int f, int g) {
        int[] unitStart = in.unitStart();
        for (int u = unitStart[f]; u < unitStart[f + 1]; u++)
            for (int v = unitStart[g]; v < unitStart[g + 1]; v++)
                if (verifier.verify(u, v)) unite(parent, pairsAt, Math.min(u, v), Math.max(u, v), (long) in.counts()[u] * in.counts()[v]);
    }

    private static void unite(int[] parent, long[] pairsAt, int a, int b, long p) {
        pairsAt[a] += p;
        int ra = root(parent, a), rb = root(parent, b);
        if (ra != rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }

    private static int root(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /**
     * The LSH result against the brute force's: units whose LSH pair count exceeds the exact one (must be 0: the LSH
     * path reports verified pairs only), units where it is lower (pairs missed), and exact groups (components of two or
     * more documents) the LSH path returned whole (the same units, not split).
     */
    record Comparison(long unitsAbove, long unitsBelow, long exactGroupsWhole) {
    }

    static Comparison compare(Units in, HammingGroups.Result lsh, Exact exact) {
        int units = in.counts().length;
        int[] lshRoots = lsh.roots();
        long above = 0, below = 0;
        for (int u = 0; u < units; u++) {
            long l = lsh.pairsAt(u), e = exact.pairsAt()[u];
            if (l > e) above++;
            else if (l < e) below++;
        }
        // an exact group is returned whole when all its units share one LSH root and that LSH group has no other unit
        // (it cannot: LSH pairs are exact pairs); so: all units of the exact component map to one LSH root
        int[] lshRootOfExact = new int[units];
        Arrays.fill(lshRootOfExact, -1);
        boolean[] split = new boolean[units];
        long[] docsOf = new long[units];
        for (int u = 0; u < units; u++) {
            int e = exact.roots()[u];
            docsOf[e] += in.counts()[u];
            if (lshRootOfExact[e] == -1) lshRootOfExact[e] = lshRoots[u];
            else if (lshRootOfExact[e] != lshRoots[u]) split[e] = true;
        }
        long whole = 0;
        for (int u = 0; u < units; u++)
            if (exact.roots()[u] == u && docsOf[u] > 1 && split[u] == false) whole++;
        return new Comparison(above, below, whole);
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>(List.of(1_000_000, 10_000_000));
        List<Integer> exactAt = new ArrayList<>(List.of(1_000_000));
        List<Integer> bruteAt = new ArrayList<>();
        double share = 0.10;
        long seed = 42;
        String results = null;
        int threads = 1;
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--sizes" -> sizes = parse(args[++a]);
                case "--exact" -> exactAt = parse(args[++a]);
                case "--brute" -> bruteAt = parse(args[++a]);
                case "--cluster-share" -> share = Double.parseDouble(args[++a]);
                case "--seed" -> seed = Long.parseLong(args[++a]);
                case "--results" -> results = args[++a];
                case "--threads" -> threads = Integer.parseInt(args[++a]);
                default -> throw new IllegalArgumentException("unknown option " + args[a]);
            }
        }
        StringBuilder rows = new StringBuilder();
        StringBuilder notes = new StringBuilder();
        StringBuilder bruteRows = new StringBuilder();
        boolean disagree = false;
        long start = System.nanoTime();
        for (int n : sizes) {
            long g0 = System.nanoTime();
            Units in = generate(n, share, seed);
            long genMs = (System.nanoTime() - g0) / 1_000_000;
            System.out.printf(
                Locale.ROOT,
                "N=%d: generated in %d ms: %d distinct fingerprints, %d units, %d clusters, %d planted verified pairs%n",
                n,
                genMs,
                in.distinct().length,
                in.counts().length,
                in.clusters(),
                in.plantedPairs()
            );
            Run lsh = run(in, HammingGroups.Candidates.LSH);
            String lshTime = String.format(Locale.ROOT, "%.1f s", lsh.millis() / 1000.0);
            if (threads > 1) { // the same run on more threads: the same result, and the speed-up against one thread
                java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads - 1);
                Run parallel = run(in, HammingGroups.Candidates.LSH, new HammingGroups.Workers(pool, threads));
                pool.shutdown();
                boolean same = parallel.result().verifiedPairs() == lsh.result().verifiedPairs()
                    && parallel.result().comparisons() == lsh.result().comparisons()
                    && parallel.groups() == lsh.groups()
                    && parallel.docsInGroups() == lsh.docsInGroups();
                for (int u = 0; same && u < in.counts().length; u++)
                    same = parallel.result().root(u) == lsh.result().root(u) && parallel.result().pairsAt(u) == lsh.result().pairsAt(u);
                disagree |= same == false;
                lshTime = String.format(
                    Locale.ROOT,
                    "%.1f s (1 thread); %.1f s (%d threads, %.2fx; same result: %s)",
                    lsh.millis() / 1000.0,
                    parallel.millis() / 1000.0,
                    threads,
                    (double) lsh.millis() / parallel.millis(),
                    same ? "yes" : "**NO**"
                );
                System.out.println("N=" + n + ": lsh " + lshTime);
            }
            Run auto = null;
            HammingGroups.Plan autoPlan = HammingGroups.plan(
                in.distinct().length,
                K,
                in.counts().length,
                in.counts().length,
                0,
                Signature.minAgreeing(0.35),
                HammingGroups.Candidates.AUTO
            );
            Run exact = exactAt.contains(n) ? run(in, HammingGroups.Candidates.EXACT) : null;
            long lshPairs = lsh.result().verifiedPairs();
            Exact brute = null;
            if (bruteAt.contains(n)) {
                System.gc();
                brute = bruteForce(in, GroupMembers.verifier(in.signatures(), new GroupMembers.Rule(K, Signature.minAgreeing(0.35))));
                Comparison c = compare(in, lsh.result(), brute);
                System.out.printf(
                    Locale.ROOT,
                    "N=%d: brute force %d ms, %d fingerprint pairs within k, %d verified pairs, %d groups; LSH %d verified pairs: %.4f %%; units above / below: %d / %d; exact groups whole: %d of %d%n",
                    n,
                    brute.millis(),
                    brute.withinK(),
                    brute.verifiedPairs(),
                    brute.groups(),
                    lshPairs,
                    100.0 * lshPairs / brute.verifiedPairs(),
                    c.unitsAbove(),
                    c.unitsBelow(),
                    c.exactGroupsWhole(),
                    brute.groups()
                );
                String agreesWithExact = "not run at this N";
                if (exact != null) {
                    boolean same = exact.result().verifiedPairs() == brute.verifiedPairs()
                        && exact.groups() == brute.groups()
                        && exact.docsInGroups() == brute.docsInGroups();
                    for (int u = 0; same && u < in.counts().length; u++)
                        same = exact.result().root(u) == brute.roots()[u];
                    agreesWithExact = same ? "yes (same verified pairs, same groups)" : "**NO**";
                    disagree |= same == false;
                }
                if (c.unitsAbove() > 0) disagree = true; // the LSH path reported a pair the brute force does not have
                bruteRows.append(
                    String.format(
                        Locale.ROOT,
                        "| %d | %.1f s | %d | %d | %d | %d | %d | **%.4f %%** (%d of %d) | %d | %d of %d | %s |%n",
                        n,
                        brute.millis() / 1000.0,
                        (long) in.distinct().length * (in.distinct().length - 1) / 2,
                        brute.withinK(),
                        brute.verifiedPairs(),
                        brute.groups(),
                        brute.docsInGroups(),
                        100.0 * lshPairs / brute.verifiedPairs(),
                        lshPairs,
                        brute.verifiedPairs(),
                        c.unitsAbove(),
                        c.exactGroupsWhole(),
                        brute.groups(),
                        agreesWithExact
                    )
                );
            }
            String vsExact = exact == null && brute == null ? "not run"
                : exact == null
                    ? String.format(
                        Locale.ROOT,
                        "%.4f %% (%d of %d; brute force %d ms)",
                        100.0 * lshPairs / brute.verifiedPairs(),
                        lshPairs,
                        brute.verifiedPairs(),
                        brute.millis()
                    )
                : String.format(
                    Locale.ROOT,
                    "%.4f %% (%d of %d; exact %d ms, %d candidate pairs)",
                    100.0 * lshPairs / exact.result().verifiedPairs(),
                    lshPairs,
                    exact.result().verifiedPairs(),
                    exact.millis(),
                    exact.result().comparisons()
                );
            String vsPlanted = String.format(
                Locale.ROOT,
                "%.4f %% (%d of %d)",
                100.0 * lshPairs / in.plantedPairs(),
                lshPairs,
                in.plantedPairs()
            );
            System.out.printf(
                Locale.ROOT,
                "N=%d: lsh %d ms, candidates %d, verified %d, groups %d, docs in groups %d, capped runs %d, max heap %d MB; recall vs exact %s; vs planted %s%n",
                n,
                lsh.millis(),
                lsh.result().comparisons(),
                lshPairs,
                lsh.groups(),
                lsh.docsInGroups(),
                lsh.result().cappedRuns(),
                lsh.maxHeapMb(),
                vsExact,
                vsPlanted
            );
            rows.append(
                String.format(
                    Locale.ROOT,
                    "| %d | %d | %d | %s | %s | %d | %d | %d | %d | %s | %s | %d MB | %d MB | %d |%n",
                    n,
                    in.counts().length,
                    in.clusters(),
                    autoPlan.candidates(),
                    lshTime,
                    lsh.result().comparisons(),
                    lshPairs,
                    lsh.groups(),
                    lsh.docsInGroups(),
                    vsExact,
                    vsPlanted,
                    HammingGroups.lshBytes(in.counts().length) >> 20,
                    lsh.maxHeapMb(),
                    lsh.bandsSeen()
                )
            );
            if (exact != null) {
                notes.append(
                    String.format(
                        Locale.ROOT,
                        "- N=%d, exact path (Manku's tables, plan %d blocks / %d key blocks / %d tables): %.1f s, %d candidate pairs, %d verified pairs, %d groups, %d docs in groups; LSH / exact time: %.3f%n",
                        n,
                        exact.result().plan().blocks(),
                        exact.result().plan().keyBlocks(),
                        exact.result().plan().tables(),
                        exact.millis() / 1000.0,
                        exact.result().comparisons(),
                        exact.result().verifiedPairs(),
                        exact.groups(),
                        exact.docsInGroups(),
                        (double) lsh.millis() / exact.millis()
                    )
                );
            }
            in = null;
        }
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo"))
            .stream()
            .filter(l -> l.startsWith("model name"))
            .findFirst()
            .map(l -> l.substring(l.indexOf(':') + 2))
            .orElse("?");
        StringBuilder md = new StringBuilder();
        md.append("# near-duplicate groups: the LSH candidate stage (in process)\n\n");
        md.append("Generated by `bench/groups.sh --lsh` (`bench/GroupsLshBench.java`); do not edit by hand.\n\n| | |\n|---|---|\n");
        md.append("| date | ").append(Instant.now()).append(" |\n");
        md.append("| machine | ")
            .append(Runtime.getRuntime().availableProcessors())
            .append(" cores, ")
            .append(cpu)
            .append("; shared with other builds (noisy) |\n");
        md.append("| load average at start | ").append(Files.readString(Path.of("/proc/loadavg")).trim()).append(" |\n");
        md.append("| JVM | ")
            .append(System.getProperty("java.vm.vendor"))
            .append(' ')
            .append(System.getProperty("java.version"))
            .append(", max heap ")
            .append(Runtime.getRuntime().maxMemory() >> 20)
            .append(" MB, ")
            .append(threads == 1 ? "one thread" : "one thread, then " + threads + " (`HammingGroups.Workers`)")
            .append(" |\n");
        md.append("| command | `").append(System.getenv().getOrDefault("BENCH_COMMAND", "bench/groups.sh --lsh")).append("` |\n");
        md.append(String.format(Locale.ROOT, "| run time | %.0f s |%n", (System.nanoTime() - start) / 1e9));
        md.append(
            String.format(
                Locale.ROOT,
                "| data | seed %d: %.0f %% of the N units in clusters of 2..4 (members: the center's fingerprint with 0..8 random bits flipped, its signature agreeing on 12..32 slots, uniform), the rest random; k = %d, min_similarity 0.35 (%d agreeing slots) |%n",
                seed,
                share * 100,
                K,
                Signature.minAgreeing(0.35)
            )
        );
        md.append(
            String.format(
                Locale.ROOT,
                "| bands | %d partitions x %d bands of %d slots = %d; recall at the threshold (%d slots): %.4f, at 13: %.4f, at 14: %.4f, at 16: %.5f |%n%n",
                SignatureBands.PARTITIONS,
                SignatureBands.BANDS_PER_PARTITION,
                SignatureBands.SLOTS_PER_BAND,
                SignatureBands.BANDS,
                Signature.minAgreeing(0.35),
                SignatureBands.recallAt(12),
                SignatureBands.recallAt(13),
                SignatureBands.recallAt(14),
                SignatureBands.recallAt(16)
            )
        );
        md.append(
            "Time: `HammingGroups.find` with an LSH plan (its input already merged and sorted). Candidate pairs: distinct unit pairs sharing a band key (document pairs), each verified. Recall vs exact: verified pairs of the LSH path / verified pairs of the exact path on the same units (Manku's tables where they ran, else the brute force below). Vs planted: verified pairs / the planted clusters' verifying pairs (identical copies included; at N where both ran, planted = exact: random pairs verify with probability ~1e-20). Reserved: `HammingGroups.lshBytes` (the band arrays; input and result come on top, as before). Max heap: heap used at band boundaries (input included, garbage included). Progress: `tableDone` calls (one per band).\n\n"
        );
        md.append(
            "| N | units | clusters | AUTO's choice | LSH time | candidate pairs | verified pairs | groups | docs in groups | recall vs exact | recall vs planted | reserved (band arrays) | max heap used | progress calls |\n"
        );
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        md.append(rows).append('\n');
        if (notes.length() > 0) md.append("Exact baseline:\n\n").append(notes).append('\n');
        if (bruteRows.length() > 0) {
            md.append("## Recall against exact enumeration by brute force\n\n");
            md.append(
                String.format(
                    Locale.ROOT,
                    "Exact reference: every distinct fingerprint against every other (a blocked scan over the sorted `long[]`, %d fingerprints per block, %d-lane popcount with the Vector API, one thread), each pair within k = %d expanded into its unit pairs and verified by the same `GroupMembers.verifier` as the LSH path; identical units and units sharing a fingerprint as in `HammingGroups`. Verified pairs are document pairs. LSH units above exact: units where the LSH path counted more pairs than the brute force (must be 0: it reports verified pairs only). Exact groups whole: components of the exact pairs that the LSH path returned as one group. Agrees with Manku's tables: where both exact methods ran on the same units, their verified pairs and groups are identical (the bench exits with status 2 otherwise).%n%n",
                    BLOCK,
                    SPECIES.length(),
                    K
                )
            );
            md.append(
                "| N | brute-force time | fingerprint pairs tested | pairs within k | exact verified pairs | exact groups | docs in exact groups | LSH recall of the exact verified pairs | LSH units above exact | exact groups the LSH path returns whole | agrees with Manku's tables |\n"
            );
            md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
            md.append(bruteRows).append('\n');
        }
        System.out.print(md);
        if (results != null) Files.writeString(Path.of("bench/results", results), md.toString());
        if (disagree) {
            System.err.println(
                "the exact references disagree, the LSH path reported a pair the brute force did not find, or threads changed the result"
            );
            System.exit(2);
        }
    }

    static List<Integer> parse(String s) {
        List<Integer> out = new ArrayList<>();
        if (s.isBlank()) return out;
        for (String p : s.split(","))
            out.add(Integer.parseInt(p.trim()));
        return out;
    }
}
