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
// and with --exact the exact path (Manku's tables) for recall against exact enumeration.
//
//   java -Xmx3g -cp target/classes bench/GroupsLshBench.java --sizes 1000000,10000000 --exact 1000000
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

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
            }
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

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>(List.of(1_000_000, 10_000_000));
        List<Integer> exactAt = new ArrayList<>(List.of(1_000_000));
        double share = 0.10;
        long seed = 42;
        String results = null;
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--sizes" -> sizes = parse(args[++a]);
                case "--exact" -> exactAt = parse(args[++a]);
                case "--cluster-share" -> share = Double.parseDouble(args[++a]);
                case "--seed" -> seed = Long.parseLong(args[++a]);
                case "--results" -> results = args[++a];
                default -> throw new IllegalArgumentException("unknown option " + args[a]);
            }
        }
        StringBuilder rows = new StringBuilder();
        StringBuilder notes = new StringBuilder();
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
            String vsExact = exact == null
                ? "not run"
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
                    "| %d | %d | %d | %s | %.1f s | %d | %d | %d | %d | %s | %s | %d MB | %d MB | %d |%n",
                    n,
                    in.counts().length,
                    in.clusters(),
                    autoPlan.candidates(),
                    lsh.millis() / 1000.0,
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
            .append(" MB, one thread |\n");
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
            "Time: `HammingGroups.find` with an LSH plan (its input already merged and sorted). Candidate pairs: distinct unit pairs sharing a band key (document pairs), each verified. Recall vs exact: verified pairs of the LSH path / verified pairs of the exact path on the same units. Vs planted: verified pairs / the planted clusters' verifying pairs (identical copies included; at N where both ran, planted = exact: random pairs verify with probability ~1e-20). Reserved: `HammingGroups.lshBytes` (the band arrays; input and result come on top, as before). Max heap: heap used at band boundaries (input included, garbage included). Progress: `tableDone` calls (one per band).\n\n"
        );
        md.append(
            "| N | units | clusters | AUTO's choice | LSH time | candidate pairs | verified pairs | groups | docs in groups | recall vs exact | recall vs planted | reserved (band arrays) | max heap used | progress calls |\n"
        );
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        md.append(rows).append('\n');
        if (notes.length() > 0) md.append("Exact baseline:\n\n").append(notes).append('\n');
        System.out.print(md);
        if (results != null) Files.writeString(Path.of("bench/results", results), md.toString());
    }

    static List<Integer> parse(String s) {
        List<Integer> out = new ArrayList<>();
        if (s.isBlank()) return out;
        for (String p : s.split(","))
            out.add(Integer.parseInt(p.trim()));
        return out;
    }
}
