package org.nearduplicate.bench.groups;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

import org.nearduplicate.bench.harness.*;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.groups.SignatureBands;
import org.nearduplicate.core.sketch.Signature;

import static org.nearduplicate.bench.groups.LshStages.*;

/**
 * In-process benchmark of the LSH candidate stage of HammingGroups (issue 26 item 2), run by bench/groups.sh --lsh. No
 * node: the grouping step alone, at the HammingGroups level ({@link LshStages}). Per N: the LSH path (time, candidate
 * pairs, verified pairs, groups, heap), the planted truth, with --exact the exact path (Manku's tables) and with --brute
 * a blocked brute-force scan: two exact references for recall against exact enumeration; at sizes where both run, the
 * bench fails (status 2) unless they agree. --threads T: the LSH path also on T threads (HammingGroups.Workers),
 * checked equal to the one-thread result. Options: {@link LshConfig#USAGE} (--help).
 */
public final class GroupsLshBench {
    private GroupsLshBench() {}

    public static void main(String[] args) throws Exception {
        LshConfig config = LshConfig.parse(args);
        List<Integer> sizes = config.sizes(), exactAt = config.exactAt(), bruteAt = config.bruteAt();
        double share = config.clusterShare();
        long seed = config.seed();
        String results = config.results();
        int threads = config.threads();
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
        md.append(
            "Generated by `bench/groups.sh --lsh` (`org.nearduplicate.bench.groups.GroupsLshBench`); do not edit by hand.\n\n| | |\n|---|---|\n"
        );
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
}
