package org.nearduplicate.bench.groups;

import java.nio.file.Path;
import java.nio.file.Paths;

import org.nearduplicate.bench.harness.*;

/**
 * GroupsBench's command line (bench/groups.sh passes its options through).
 *
 * @param signed        documents carry signatures as the default algorithm writes them (fingerprint + 32-byte
 *                      signature, loaded as the field's object value), the runs use the DEFAULT settings (no
 *                      max_distance, no mode: k = 16, the default algorithm's min_similarity, representative groups, the
 *                      LSH candidate stage), the in-process reference is HammingGroups.find with the same AUTO plan over
 *                      the same units, and the node's verified and candidate pairs must equal it; clusters 0..8 bits
 *                      from their center (so members are within 16), signatures agreeing on 12..32 slots with the
 *                      center, uniform
 * @param rewrite       after the write-back, run it again (nothing changed: every document already right)
 * @param writeBaseline before the first write, a first write of the same groups into two other fields with
 *                      requests_per_second 1e9: a throttled run keeps one bulk request in flight (the writer's behaviour
 *                      before 0.7.0's second request), and a rate of 1e9 documents per second never waits. Same run,
 *                      same index, same groups; the baseline runs first, so the default write's documents are the
 *                      larger (two more fields in _source)
 * @param fieldVersion  --field-version (with --signed): 6 maps {@code fp} with {@code "algorithm": "simhash-v6"} and
 *                      loads the documents as a v6 pipeline writes them; 7 maps the default field (checked to be
 *                      {@code simhash-v7}) and loads the same fingerprints and signatures with their 28 candidate keys
 *                      ({@link ClusterData#minima}); 0 (not given): the default mapping, values without keys
 * @param command       the command line the results file names (BENCH_COMMAND, else this program's)
 */
record GroupsConfig(String url, long docs, int shards, int[] ks, int reps, int bruteSample, long seed, double clusterShare, String index,
    boolean reuse, boolean skipWrite, boolean signed, boolean rewrite, boolean writeBaseline, int bulkDocs, int bulkThreads, int pollMs,
    String resultsName, Path outDir, int fieldVersion, String command) {
    static final String USAGE = """
        usage: GroupsBench [options]   (bench/groups.sh starts the node and passes its options here)
          --url URL            the node (default http://127.0.0.1:9500)
          --docs N             fingerprints (default 1000000)
          --shards S           (default 1)
          --ks 3,8             max_distance values (default 3,8; --signed: 16)
          --reps R             runs per k (default 2)
          --brute-sample M     brute-force sample (default 50000)
          --seed N             (default 42)
          --cluster-share F    share of documents in planted clusters (default 0.01; --signed 0.10)
          --index NAME         (default groups[signed]<docs>_<shards>s)
          --reuse              reuse a loaded index
          --skip-write         no _write task
          --signed             simhash-v4 documents at the default settings
          --rewrite            the write-back twice
          --write-baseline     a first write-back at requests_per_second 1e9
          --field-version V    with --signed: 6 (a simhash-v6 field, values without keys) or 7 (the default field,
                               simhash-v7, values with their candidate keys); index name suffix _vV
          --bulk-docs N        (default 5000)
          --bulk-threads N     (default 2)
          --poll-ms N          heap and breaker polling interval (default 500)
          --results NAME       (default RESULTS-groups.md)
          --out DIR            (default bench/results)""";

    /** The mapping of the field {@code fp}. */
    String fieldMapping() {
        return fieldVersion == 6 ? "{\"type\":\"simhash\",\"algorithm\":\"simhash-v6\"}" : "{\"type\":\"simhash\"}";
    }

    /** Whether the documents carry candidate keys. */
    boolean keys() {
        return fieldVersion == 7;
    }

    static GroupsConfig parse(String[] argv) {
        String url = "http://127.0.0.1:9500", index = null, resultsName = "RESULTS-groups.md";
        long docs = 1_000_000, seed = 42;
        int shards = 1, reps = 2, bruteSample = 50_000, bulkDocs = 5000, bulkThreads = 2, pollMs = 500;
        int[] ks = { 3, 8 };
        double clusterShare = 0.01;
        boolean clusterShareGiven = false, reuse = false, skipWrite = false, signed = false, rewrite = false, writeBaseline = false;
        Path outDir = Paths.get("bench/results");
        int fieldVersion = 0;
        Args a = new Args(argv, USAGE);
        for (String o; (o = a.next()) != null;) {
            switch (o) {
                case "--url" -> url = a.value();
                case "--docs" -> docs = a.longValue();
                case "--shards" -> shards = a.intValue();
                case "--ks" -> ks = a.ints();
                case "--reps" -> reps = a.intValue();
                case "--brute-sample" -> bruteSample = a.intValue();
                case "--seed" -> seed = a.longValue();
                case "--cluster-share" -> {
                    clusterShare = a.doubleValue();
                    clusterShareGiven = true;
                }
                case "--index" -> index = a.value();
                case "--reuse" -> reuse = true;
                case "--skip-write" -> skipWrite = true;
                case "--signed" -> signed = true;
                case "--rewrite" -> rewrite = true;
                case "--write-baseline" -> writeBaseline = true;
                case "--bulk-docs" -> bulkDocs = a.intValue();
                case "--bulk-threads" -> bulkThreads = a.intValue();
                case "--poll-ms" -> pollMs = a.intValue();
                case "--results" -> resultsName = a.value();
                case "--out" -> outDir = Paths.get(a.value());
                case "--field-version" -> fieldVersion = a.intValue();
                default -> throw a.unknown();
            }
        }
        if (docs > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("--docs must fit in one Java array");
        if (signed && !clusterShareGiven) clusterShare = 0.10;
        if (signed) ks = new int[] { GroupsBench.SIGNED_K };
        if (fieldVersion != 0 && (signed == false || (fieldVersion != 6 && fieldVersion != 7))) {
            throw new IllegalArgumentException("--field-version must be 6 or 7, with --signed");
        }
        if (index == null) index = "groups"
            + (signed ? "signed" : "")
            + docs
            + "_"
            + shards
            + "s"
            + (fieldVersion == 0 ? "" : "_v" + fieldVersion);
        String command = System.getenv("BENCH_COMMAND");
        if (command == null || command.isBlank()) command = "java -cp target/test-classes:... org.nearduplicate.bench.groups.GroupsBench "
            + String.join(" ", argv);
        return new GroupsConfig(
            url,
            docs,
            shards,
            ks,
            reps,
            bruteSample,
            seed,
            clusterShare,
            index,
            reuse,
            skipWrite,
            signed,
            rewrite,
            writeBaseline,
            bulkDocs,
            bulkThreads,
            pollMs,
            resultsName,
            outDir,
            fieldVersion,
            command
        );
    }
}
