package org.nearduplicate.bench.search;

import java.nio.file.Files;
import java.time.Duration;

import org.nearduplicate.bench.harness.*;

/**
 * The node benchmark of bench/run.sh, against a running node with the plugin (see docs/performance.md). The plugin's
 * classes are on the class path: the key layouts (BlockLayout: key and check bits, probed keys) and the query's
 * keys-or-scan decision per segment (SimHashQuery.scanIsCheaper) are the plugin's own code, called here, not copies of
 * it, so a change there changes what this bench reports.
 * <ol>
 * <li>builds a synthetic index of --docs random 64-bit fingerprints (seeded, generated on the fly) with planted
 * neighbours at distances 0..10 around --probes probe fingerprints; every document carries the same fingerprint in
 * every representation: the plugin's simhash field (default 4 blocks / k_max 16, plus the alternative layouts of
 * --layouts), a long field (painless brute force), 4 x 16-bit keyword block keys and 10 keyword pair keys of 5 blocks
 * (the hand-made pigeonhole layouts); the other methods get their own data: {@code minhash} = the plugin's minhash field
 * (128 random 32-bit values per doc, 32 bands x 4 rows) with planted neighbours at estimated Jaccard 1.0..0.3,
 * {@code imatch} = a keyword field with a random 40-hex key per doc and 3 planted exact copies per probe
 * ({@link Synthetic}, {@link SyntheticData});</li>
 * <li>bulk loads with refresh_interval -1, measures an un-merged figure, force-merges to 1 segment;</li>
 * <li>runs every method at concurrency 1 and 4 with distinct probes, request_cache=false, and reports p50/p95/p99,
 * throughput and recall of the planted neighbours, plus the round-trip floor ({@link QueryRuns}, {@link Measure});</li>
 * <li>per-field disk usage (_disk_usage?run_expensive_tasks=true);</li>
 * <li>ingest of ../shared/eval/public/docs.jsonl.gz through the simhash pipeline vs plain indexing ({@link Ingest});</li>
 * <li>writes bench/results/RESULTS.md and raw lines under bench/results/raw/ ({@link BenchResults}).</li>
 * </ol>
 * --ks 0,3,4,6,8,10,12,14,16 (any k from one index) replaces step 3 and the method tables: it loads only base, fp (the
 * default mapping {"type":"simhash"}: 4 blocks, max_distance 16), long (unless --reps says otherwise) and fpscan (a
 * simhash field mapped blocks 4 / max_distance 0), and runs per k, at concurrency 1, interleaved in one group:
 * near_duplicate on fp at max_distance k (--queries), the same query with allow_scan on fpscan (a forced doc-values
 * scan, since k > 0 exceeds its mapping; --scan-queries; n/a at k = 0), the painless brute force over long
 * (--script-queries) and the round-trip floor; the results file has one row per k with the ratios ({@link KsResults}).
 * The floor of issue 26, a plain long[] loop over the same fingerprints in this JVM, is timed after every round of each
 * k group (5 probes a round), so that it shares the group's noise; the node's GC, heap, near_duplicate breaker and
 * search-pool counters are read before and after each group, and the 5 slowest near_duplicate queries are listed.
 * Options: {@link BenchConfig#USAGE} (--help).
 */
public final class Bench {
    static final Log LOG = new Log("bench");

    private Bench() {}

    public static void main(String[] args) throws Exception {
        BenchConfig c = BenchConfig.parse(args);
        if (c.checkFloor() != null) {
            CheckFloor.run(c);
            return;
        }
        Files.createDirectories(c.outDir().resolve("raw"));
        NodeClient node = new NodeClient(c.url(), 8, Duration.ofMinutes(60), LOG);
        long started = System.nanoTime();
        LOG.log(
            "target "
                + c.url()
                + ", "
                + c.docs()
                + " docs, "
                + c.probes()
                + " probes x "
                + SyntheticData.PLANT
                + " planted, seed "
                + c.seed()
        );
        BenchResults results = new BenchResults(c);
        results.facts.put("opensearch", Json.at(node.getJson("/"), "version").get("number"));
        results.facts.put("plugins", node.get("/_cat/plugins?h=component,version").trim().replace('\n', ';'));
        results.facts.put("loadStart", Report.cmd("cat", "/proc/loadavg"));
        try {
            Synthetic syn = new Synthetic(c, node, results.rawLines);
            syn.run();
            if (c.loadOnly()) {
                LOG.log("--load-only: loaded in " + (System.nanoTime() - started) / 1_000_000_000 + " s");
                System.exit(0);
            }
            Ingest.Result ingest = c.skipIngest() ? null : new Ingest(c, node).run();
            // --reps fpk: KeysNodeRuns wrote the results file (the method tables would overwrite it with empty rows)
            if (syn.files.containsKey(Synthetic.KEYS_REP) == false) results.write(syn, ingest, (System.nanoTime() - started) / 1e9);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        LOG.log("done in " + (System.nanoTime() - started) / 1_000_000_000 + " s; wrote " + c.outDir().resolve(c.resultsName()));
        System.exit(0);
    }
}
