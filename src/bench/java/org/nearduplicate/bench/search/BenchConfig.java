package org.nearduplicate.bench.search;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.nearduplicate.bench.harness.*;

/**
 * Bench's command line (bench/run.sh passes its options through).
 *
 * @param onlyReps  the representations to load and query (base always among them), or null for all but fps
 * @param index     the prefix of the indices' names
 * @param resultsName the results file's name under outDir
 * @param ks        --ks: instead of the method comparison, per k: near_duplicate on the default field, a forced scan, painless
 * @param cssModes  --css-modes: with --ks, the k rows once per search.concurrent_segment_search.mode, or null
 * @param cssSlices search.concurrent.max_slice_count while --css-modes runs (0: the node's default)
 * @param checkFloor --check-floor B,K,R: bench/check_scale.py's floor (see {@link CheckFloor}), or null
 * @param fpkVersion --fpk-version: the simhash version the {@code fpk} documents are written and mapped with (7: with
 *                   their candidate keys; 6: the same fingerprints and signatures without keys, the exact baseline)
 * @param fpkProbe   --fpk-probe: how the {@code fpk} queries give their probe ({@link KeysNodeRuns})
 * @param ingestVersions --ingest-versions V,V: simhash versions ingested next to the default in the ingest comparison
 *                   (a pipeline with {@code "version": V} into a field mapped {@code simhash-vV}; none by default)
 * @param argv       the command line as given (the results quote it)
 */
record BenchConfig(String url, long docs, int probes, int queries, int scriptQueries, int scanQueries, long seed, String layouts,
    String index, boolean reuse, boolean loadOnly, String checkFloor, Set<String> onlyReps, boolean skipIngest, String evalDir, Path outDir,
    int bulkDocs, int bulkThreads, int ingestRounds, int[] ingestVersions, String resultsName, int[] ks, int shards, boolean noBase,
    int segments, String[] cssModes, int cssSlices, int fpkVersion, String fpkProbe, String[] argv) {
    static final String USAGE = """
        usage: Bench [options]   (bench/run.sh starts the node and passes its options here)
          --url URL              the node (default http://127.0.0.1:9400)
          --docs N               synthetic fingerprints (default 1000000)
          --probes N             probes, each with 11 planted neighbours at distances 0..10 (default 2000)
          --queries N            queries per fast method and concurrency level (default 2000)
          --script-queries N     queries per brute-force method and concurrency level (default 20)
          --scan-queries N       allow_scan queries (default 100; 0 with --ks: no forced-scan index)
          --seed N               (default 42)
          --layouts "B:K[:C],..."  alternative simhash layouts (default "5:3,8:6,10:8"; "" for none)
          --reps a,b,...         load and query only these representations (fp,long,hand4,hand10,fp_5_3,minhash,imatch,fps)
          --index PREFIX         index name prefix (default bench<docs>_)
          --reuse                reuse loaded indices holding --docs documents
          --load-only            load (or reuse) the indices, then stop
          --check-floor B,K,R    bench/check_scale.py's floor loop on stdin requests, no node
          --skip-ingest          no eval-corpus ingest
          --ingest-rounds N      (default 3)
          --ingest-versions V,V  also ingest through a simhash pipeline with "version": V into a field mapped
                                 simhash-vV, interleaved with plain and the default (e.g. 6)
          --eval DIR             the eval corpus (default ../shared/eval/public)
          --out DIR              results directory (default bench/results)
          --results FILE         results file name (default RESULTS.md, RESULTS-10M.md from 10M docs)
          --bulk-docs N          documents per bulk request (default 5000)
          --ks 0,3,4,...         per k: near_duplicate vs a forced allow_scan scan vs painless
          --shards N             primaries of every loaded index (default 1)
          --segments N           force-merge target per shard (default 1; 0: not merged)
          --no-base              no base index (no bytes-per-document figures)
          --css-modes none,all   with --ks: the k rows once per search.concurrent_segment_search.mode
          --css-slices N         search.concurrent.max_slice_count while --css-modes runs
          --fpk-version 7|6      with --reps fpk: simhash-v7 documents with keys (default) or v6 ones without (the
                                 exact baseline); fpk = the KeysModel's documents (bench/results/RESULTS-keys-node-*.md)
          --fpk-probe P          with --reps fpk: value (fingerprint, signature and keys; default), value-nokeys
                                 (fingerprint and signature) or like (the probe document by _id)""";

    static BenchConfig parse(String[] argv) {
        String url = "http://127.0.0.1:9400", layouts = "5:3,8:6,10:8", index = null, checkFloor = null;
        String evalDir = "../shared/eval/public", resultsName = null;
        long docs = 1_000_000, seed = 42;
        int probes = 2000, queries = 2000, scriptQueries = 20, scanQueries = 100, bulkDocs = 5000, bulkThreads = 2;
        int ingestRounds = 3, shards = 1, segments = 1, cssSlices = 0, fpkVersion = 7;
        String fpkProbe = "value";
        boolean reuse = false, loadOnly = false, skipIngest = false, noBase = false;
        Set<String> onlyReps = null;
        Path outDir = Paths.get("bench/results");
        int[] ks = null;
        int[] ingestVersions = new int[0];
        String[] cssModes = null;
        Args a = new Args(argv, USAGE);
        for (String o; (o = a.next()) != null;) {
            switch (o) {
                case "--url" -> url = a.value();
                case "--docs" -> docs = a.longValue();
                case "--probes" -> probes = a.intValue();
                case "--queries" -> queries = a.intValue();
                case "--script-queries" -> scriptQueries = a.intValue();
                case "--scan-queries" -> scanQueries = a.intValue();
                case "--seed" -> seed = a.longValue();
                case "--layouts" -> layouts = a.value();
                case "--index" -> index = a.value();
                case "--reuse" -> reuse = true;
                case "--load-only" -> loadOnly = true;
                case "--check-floor" -> checkFloor = a.value();
                case "--ingest-rounds" -> ingestRounds = a.intValue();
                case "--ingest-versions" -> ingestVersions = a.ints();
                case "--reps" -> {
                    onlyReps = new HashSet<>(Arrays.asList(a.value().split(",")));
                    onlyReps.add("base");
                }
                case "--skip-ingest" -> skipIngest = true;
                case "--eval" -> evalDir = a.value();
                case "--out" -> outDir = Paths.get(a.value());
                case "--bulk-docs" -> bulkDocs = a.intValue();
                case "--results" -> resultsName = a.value();
                case "--ks" -> ks = a.ints();
                case "--shards" -> shards = a.intValue();
                case "--no-base" -> noBase = true;
                case "--segments" -> segments = a.intValue();
                case "--css-modes" -> cssModes = a.value().split(",");
                case "--css-slices" -> cssSlices = a.intValue();
                case "--fpk-version" -> fpkVersion = a.intValue();
                case "--fpk-probe" -> fpkProbe = a.value();
                default -> throw a.unknown();
            }
        }
        if (index == null) index = "bench" + docs + "_";
        if (fpkVersion != 6 && fpkVersion != 7) throw new IllegalArgumentException("--fpk-version must be 6 or 7");
        if (List.of("value", "value-nokeys", "like").contains(fpkProbe) == false) {
            throw new IllegalArgumentException("--fpk-probe must be value, value-nokeys or like, not " + fpkProbe);
        }
        if (resultsName == null && onlyReps != null && onlyReps.contains("fpk")) {
            resultsName = "RESULTS-keys-node-" + (docs % 1_000_000 == 0 ? docs / 1_000_000 + "M" : String.valueOf(docs)) + ".md";
        }
        if (resultsName == null) resultsName = docs >= 10_000_000 ? "RESULTS-10M.md" : "RESULTS.md";
        // --ks loads base, fp and long unless --reps says otherwise, and the forced-scan index fpscan
        if (ks != null && onlyReps == null) onlyReps = new HashSet<>(List.of("base", "fp", "long"));
        if (ks != null && scanQueries > 0) onlyReps.add("fpscan");
        return new BenchConfig(
            url,
            docs,
            probes,
            queries,
            scriptQueries,
            scanQueries,
            seed,
            layouts,
            index,
            reuse,
            loadOnly,
            checkFloor,
            onlyReps == null ? null : Set.copyOf(onlyReps),
            skipIngest,
            evalDir,
            outDir,
            bulkDocs,
            bulkThreads,
            ingestRounds,
            ingestVersions,
            resultsName,
            ks,
            shards,
            noBase,
            segments,
            cssModes,
            cssSlices,
            fpkVersion,
            fpkProbe,
            argv.clone()
        );
    }
}
