// near-duplicate groups benchmark: single-file Java program (JDK only), run after the Maven build with

//   java -Xmx3g -cp target/classes bench/GroupsBench.java --url http://127.0.0.1:9500 [options]
// (bench/groups.sh builds the plugin, starts a real node on NODE_PORT 9500 with NODE_HEAP 2g, calls this, stops it).
// target/classes must be on the class path: the in-process baseline calls org.nearduplicate.core.groups.HammingGroups.
//
// What it does, against a running OpenSearch node with the plugin:
//  1. generates --docs N fingerprints from --seed (on the fly, document i -> fingerprint i): random 64-bit values plus
//     planted clusters (--cluster-share, default 1% of the documents, in clusters of 2..5 members; every member is
//     its cluster's random center with 1..8 random bits flipped), so there are real groups at k=3 and at k=8; loads
//     them with _bulk into `groups<N>_<S>s` ({"fp":{"type":"simhash"}}, --shards S, 0 replicas, refresh_interval -1;
//     _source stays enabled: the write-back is partial updates, which need it), refreshes and force-merges to one
//     segment (--reuse skips all this when the index already holds N documents);
//  2. per k of --ks (default 3,8), --reps times (default 2): POST /<index>/_near_duplicates
//     {"field":"fp","max_distance":k,"size":10}: client wall time, took, counts, plan; meanwhile GET
//     _nodes/stats/jvm,breaker every --poll-ms (500) ms: the largest heap used (bytes and %) and the largest estimated
//     size of the near_duplicate breaker; a 429 (breaker) is recorded, not fatal;
//  3. baselines in the same run on the same fingerprints: (a) in-process HammingGroups.find (sort + dedupe + counts,
//     then find), whose groups, docs in groups and verified pairs must EQUAL the node's (the program fails loudly
//     otherwise); (b) brute force (all pairs, XOR + bitCount, union-find) on a seeded sample of --brute-sample docs
//     (default 50,000), extrapolated to N by (N/sample)^2; HammingGroups.find on the same sample must agree with it;
//  4. once, at the first k: POST /<index>/_near_duplicates/_write?wait_for_completion=false, then GET _tasks/<id>
//     until completed (time, written, docs/s, status samples); then a composite aggregation over duplicate_group
//     (exact: every bucket) and a cardinality aggregation: the distinct groups must equal the groups count;
//  5. writes bench/results/RESULTS-groups.md (--results NAME; --out DIR).
//
// Options: --url U --docs N --shards S --ks 3,8 --reps R --brute-sample M --seed N --cluster-share F --index NAME
// --reuse --skip-write --write-baseline --bulk-docs N --bulk-threads N --poll-ms N --results NAME --out DIR. BENCH_COMMAND (set by
// bench/groups.sh) is the command line written into the results file.
package org.nearduplicate.bench;

import java.io.*;
import java.net.URI;
import java.net.http.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.core.groups.HammingGroups;

public class GroupsBench {
    // ---------------------------------------------------------------- settings
    static String url = "http://127.0.0.1:9500";
    static long docs = 1_000_000;
    static int shards = 1;
    static int[] ks = { 3, 8 };
    static int reps = 2;
    static int bruteSample = 50_000;
    static long seed = 42;
    static double clusterShare = 0.01;
    static boolean clusterShareGiven = false;
    /** The default k of signed fields (simhash-v4 and v5) (what a request without max_distance gets), for the in-process reference. */
    static final int SIGNED_K = 16;
    static final int SIG = org.nearduplicate.core.sketch.Signature.BYTES;
    static String index = null;
    static boolean reuse = false;
    static boolean skipWrite = false;
    /**
     * --signed: documents carry signatures as the default algorithm writes them (fingerprint + 32-byte signature, loaded as the field's object
     * value), the runs use the DEFAULT settings (no max_distance, no mode: k = 16, the default algorithm's min_similarity, representative
     * groups, the LSH candidate stage), the in-process reference is HammingGroups.find with the same AUTO plan over the
     * same units, and the node's verified and candidate pairs must equal it; clusters 0..8 bits from their center (so
     * members are within 16), signatures agreeing on 12..32 slots with the center, uniform.
     */
    static boolean signed = false;
    /** --rewrite: after the write-back, run it again (nothing changed: every document already right). */
    static boolean rewrite = false;
    /**
     * --write-baseline: before the first write, a first write of the same groups into two other fields with
     * requests_per_second 1e9: a throttled run keeps one bulk request in flight (the writer's behaviour before 0.7.0's
     * second request), and a rate of 1e9 documents per second never waits. Same run, same index, same groups; the
     * baseline runs first, so the default write's documents are the larger (two more fields in _source).
     */
    static boolean writeBaseline = false;
    static int bulkDocs = 5000;
    static int bulkThreads = 2;
    static int pollMs = 500;
    static String resultsName = "RESULTS-groups.md";
    static Path outDir = Paths.get("bench/results");

    /** The signed in-process reference runs on as many threads as the node's default (its allocated processors). */
    static final int FIND_THREADS = Runtime.getRuntime().availableProcessors();
    static final java.util.concurrent.ExecutorService FIND_POOL = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "find");
        t.setDaemon(true);
        return t;
    });

    static HttpClient http;
    static final Map<String, Object> facts = new LinkedHashMap<>();
    static final List<String> problems = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--url" -> url = args[++i];
                case "--docs" -> docs = Long.parseLong(args[++i]);
                case "--shards" -> shards = Integer.parseInt(args[++i]);
                case "--ks" -> ks = Arrays.stream(args[++i].split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--brute-sample" -> bruteSample = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--cluster-share" -> {
                    clusterShare = Double.parseDouble(args[++i]);
                    clusterShareGiven = true;
                }
                case "--index" -> index = args[++i];
                case "--reuse" -> reuse = true;
                case "--skip-write" -> skipWrite = true;
                case "--signed" -> signed = true;
                case "--rewrite" -> rewrite = true;
                case "--write-baseline" -> writeBaseline = true;
                case "--bulk-docs" -> bulkDocs = Integer.parseInt(args[++i]);
                case "--bulk-threads" -> bulkThreads = Integer.parseInt(args[++i]);
                case "--poll-ms" -> pollMs = Integer.parseInt(args[++i]);
                case "--results" -> resultsName = args[++i];
                case "--out" -> outDir = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (docs > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("--docs must fit in one Java array");
        if (signed && !clusterShareGiven) clusterShare = 0.10;
        if (signed) ks = new int[] { SIGNED_K };
        if (index == null) index = "groups" + (signed ? "signed" : "") + docs + "_" + shards + "s";
        String command = System.getenv("BENCH_COMMAND");
        if (command == null || command.isBlank()) command = "java -cp target/classes bench/GroupsBench.java " + String.join(" ", args);
        facts.put("command", command);
        Files.createDirectories(outDir);
        http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .executor(Executors.newFixedThreadPool(6))
            .build();
        long started = System.nanoTime();
        try {
            // the version from the node's info: Elasticsearch's integ-test distribution has no GET / handler
            Map<?, ?> nodes = (Map<?, ?>) ((Map<?, ?>) Json.parse(get("/_nodes/_local?filter_path=nodes.*.version"))).get("nodes");
            facts.put("opensearch", ((Map<?, ?>) nodes.values().iterator().next()).get("version"));
            facts.put("plugins", get("/_cat/plugins?h=component,version").trim().replace('\n', ';'));
            facts.put("loadStart", cmd("cat", "/proc/loadavg"));
            Data data = new Data(docs, seed, clusterShare);
            log(
                "target "
                    + url
                    + ", "
                    + docs
                    + " docs ("
                    + data.clusters
                    + " planted clusters, "
                    + data.plantedDocs()
                    + " docs), "
                    + shards
                    + " shard(s), seed "
                    + seed
                    + ", index "
                    + index
            );
            Load load = load(data);
            NodeStats idle = NodeStats.read();
            facts.put("heapMax", idle.heapMax);
            facts.put("breakerLimit", idle.breakerLimit);
            facts.put("heapIdle", idle.heapUsed);
            // node runs first (the client holds nothing big yet), then the in-process baselines
            Map<Integer, List<NodeRun>> node = new LinkedHashMap<>();
            for (int k : ks) {
                List<NodeRun> runs = new ArrayList<>();
                for (int r = 1; r <= reps; r++)
                    runs.add(nodeRun(k, r));
                node.put(k, runs);
            }
            List<WriteBack> writes = new ArrayList<>();
            if (!skipWrite) {
                if (writeBaseline) writes.add(
                    writeBack(
                        ks[0],
                        node.get(ks[0]),
                        "first run, one bulk request in flight (baseline: requests_per_second 1e9, fields base_group/base_distance)",
                        "base_group",
                        ",\"group_field\":\"base_group\",\"distance_field\":\"base_distance\"",
                        "&requests_per_second=1000000000"
                    )
                );
                writes.add(writeBack(ks[0], node.get(ks[0]), "first run"));
                if (rewrite) writes.add(writeBack(ks[0], node.get(ks[0]), "re-run, nothing changed"));
            }
            InProcess in = signed ? inProcessSigned(data) : inProcess(data);
            Brute brute = signed ? null : brute(data);
            // exactness: the node's answer vs HammingGroups in process, on the same fingerprints
            for (int k : ks) {
                InProcess.PerK p = in.perK.get(k);
                for (NodeRun n : node.get(k)) {
                    if (n.error != null) continue;
                    // signed: the default (representative) groups split components, so exactness is the verified pairs
                    // (and, below, the candidate pairs) of the same plan over the same units
                    boolean eq = signed
                        ? n.verifiedPairs == p.verifiedPairs
                        : n.groups == p.groups && n.docsInGroups == p.docsInGroups && n.verifiedPairs == p.verifiedPairs;
                    n.exact = eq;
                    if (!eq) {
                        String msg = "k="
                            + k
                            + " run "
                            + n.rep
                            + ": node groups/docs_in_groups/verified_pairs "
                            + n.groups
                            + "/"
                            + n.docsInGroups
                            + "/"
                            + n.verifiedPairs
                            + " != in-process "
                            + p.groups
                            + "/"
                            + p.docsInGroups
                            + "/"
                            + p.verifiedPairs;
                        problems.add("**NOT EXACT** " + msg);
                        log("NOT EXACT: " + msg);
                    }
                    if (n.candidatePairs != p.candidatePairs || n.tables != p.plan.tables()) {
                        problems.add(
                            "k="
                                + k
                                + " run "
                                + n.rep
                                + ": candidate_pairs/plan tables differ from in-process: "
                                + n.candidatePairs
                                + "/"
                                + n.tables
                                + " vs "
                                + p.candidatePairs
                                + "/"
                                + p.plan.tables()
                        );
                    }
                }
            }
            writeResults(data, load, node, writes, in, brute, (System.nanoTime() - started) / 1e9);
            boolean failed = problems.stream().anyMatch(s -> s.startsWith("**"));
            log("done in " + (System.nanoTime() - started) / 1_000_000_000 + " s; wrote " + outDir.resolve(resultsName));
            if (failed) {
                log("FAILED: " + problems);
                System.exit(2);
            }
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    static void log(String s) {
        System.err.println("[groups-bench " + LocalTime.now().withNano(0) + "] " + s);
    }

    // ---------------------------------------------------------------- HTTP
    static final class HttpError extends IOException {
        final int status;

        HttpError(int status, String msg) {
            super(msg);
            this.status = status;
        }
    }

    static String send(String method, String path, String body, String contentType) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofMinutes(90));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", contentType);
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new HttpError(
                r.statusCode(),
                method + " " + path + " -> " + r.statusCode() + ": " + r.body().substring(0, Math.min(2000, r.body().length()))
            );
        }
        return r.body();
    }

    static String get(String path) throws Exception {
        return send("GET", path, null, null);
    }

    static String post(String path, String body) throws Exception {
        return send("POST", path, body, "application/json");
    }

    static String put(String path, String body) throws Exception {
        return send("PUT", path, body, "application/json");
    }

    static void delete(String path) {
        try {
            send("DELETE", path, null, null);
        } catch (Exception ignored) {}
    }

    static Map<?, ?> json(String s) {
        return (Map<?, ?>) Json.parse(s);
    }

    /** A bulk request with explicit ids (a repeat is idempotent), retried with backoff on 429. */
    static void bulkWithRetry(String path, String body) throws IOException, InterruptedException {
        for (int attempt = 1;; attempt++) {
            String r;
            try {
                r = send("POST", path, body, "application/x-ndjson");
            } catch (HttpError e) {
                if (attempt < 10 && e.status == 429) {
                    log("  bulk rejected with 429, retry " + attempt);
                    Thread.sleep(1000L * attempt);
                    continue;
                }
                throw e;
            }
            if (r.contains("\"errors\":true")) {
                if (attempt < 10 && r.contains("\"status\":429")) {
                    log("  bulk items rejected with 429, retry " + attempt);
                    Thread.sleep(1000L * attempt);
                    continue;
                }
                throw new IOException("bulk errors: " + r.substring(0, Math.min(1500, r.length())));
            }
            return;
        }
    }

    // ---------------------------------------------------------------- data
    static String hex(long v) {
        return String.format("%016x", v);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Fingerprint of document i, deterministic from the seed. The planted clusters sit at ids c * stride ..
     * c * stride + size(c) - 1 (c < clusters); size 2..5; member = center(c) with 1..8 distinct random bits flipped.
     */
    static final class Data {
        final long n, clusters, stride, seed;

        Data(long n, long seed, double share) {
            this.n = n;
            this.seed = seed;
            clusters = Math.max(1, Math.round(n * share / 3.5));
            stride = n / clusters;
            if (stride < 5) throw new IllegalArgumentException("--cluster-share too large for " + n + " docs");
        }

        int size(long c) {
            return 2 + (int) Long.remainderUnsigned(mix(seed * 0x632BE59BD9B4E019L + c + 1), 4);
        }

        long center(long c) {
            return mix(mix(seed * 0x85EBCA77C2B2AE63L + c) + 0x27D4EB2F165667C5L);
        }

        /** the planted cluster of document i, or -1 */
        long cluster(long i) {
            long c = i / stride;
            return c < clusters && i % stride < size(c) ? c : -1;
        }

        long fp(long i) {
            long h = mix(seed * 0x9E3779B97F4A7C15L + i);
            long c = cluster(i);
            if (c < 0) return h;
            SplittableRandom r = new SplittableRandom(h);
            int d = 1 + r.nextInt(8);
            long mask = 0;
            while (Long.bitCount(mask) < d)
                mask |= 1L << r.nextInt(64);
            return center(c) ^ mask;
        }

        /**
         * The 32-byte signature of document i (--signed): random outside the clusters; in a cluster, the first member has
         * the cluster's random center signature, every other member the center's with 32 - a slots changed, a uniform in
         * 12..32 (so members agree with the center on 12..32 slots).
         */
        void signature(long i, byte[] out, int off) {
            long c = cluster(i);
            if (c < 0) {
                SplittableRandom r = new SplittableRandom(mix(seed * 0xD6E8FEB86659FD93L + i));
                for (int b = 0; b < SIG; b += 8) {
                    long v = r.nextLong();
                    for (int x = 0; x < 8; x++)
                        out[off + b + x] = (byte) (v >>> (8 * x));
                }
                return;
            }
            SplittableRandom rc = new SplittableRandom(mix(seed * 0xA0761D6478BD642FL + c));
            for (int b = 0; b < SIG; b += 8) {
                long v = rc.nextLong();
                for (int x = 0; x < 8; x++)
                    out[off + b + x] = (byte) (v >>> (8 * x));
            }
            if (i % stride == 0) return; // the cluster's first member: the center signature
            SplittableRandom r = new SplittableRandom(mix(seed * 0xE7037ED1A0B428DBL + i));
            int agree = 12 + r.nextInt(21);
            int[] slots = new int[SIG];
            for (int x = 0; x < SIG; x++)
                slots[x] = x;
            for (int x = 0; x < SIG - agree; x++) {
                int j = x + r.nextInt(SIG - x);
                int t = slots[x];
                slots[x] = slots[j];
                slots[j] = t;
                out[off + slots[x]] += (byte) (1 + r.nextInt(255));
            }
        }

        long plantedDocs() {
            long s = 0;
            for (long c = 0; c < clusters; c++)
                s += size(c);
            return s;
        }
    }

    // ---------------------------------------------------------------- load
    record Load(boolean reused, double loadSecs, double mergeSecs, long count, long segments, long storeBytes) {
    }

    static long count() {
        try {
            return ((Number) json(get("/" + index + "/_count")).get("count")).longValue();
        } catch (Exception e) {
            return -1;
        }
    }

    static Load load(Data data) throws Exception {
        // a node just (re)started may still be recovering the index: wait for it, or --reuse would see no documents
        try {
            get("/" + index + "/_settings"); // 404 when there is no such index: nothing to wait for
            get("/_cluster/health/" + index + "?wait_for_status=yellow&timeout=120s");
        } catch (HttpError e) {
            log("  no healthy index " + index + " (" + e.status + "): loading it");
        }
        long have = count();
        double loadSecs = 0, mergeSecs = 0;
        boolean reused = reuse && have == docs;
        if (reused) {
            log("reusing index " + index + " (" + have + " docs)");
            // a previous write-back left duplicate_group in the documents: clear it, so the write-back writes afresh
            long stale = existsCount("duplicate_group");
            if (stale > 0) {
                log("  clearing duplicate_group/duplicate_distance from " + stale + " docs of a previous run");
                post(
                    "/" + index + "/_update_by_query?refresh=true&conflicts=proceed",
                    "{\"query\":{\"exists\":{\"field\":\"duplicate_group\"}},"
                        + "\"script\":{\"source\":\"ctx._source.remove('duplicate_group'); ctx._source.remove('duplicate_distance')\"}}"
                );
            }
        } else {
            delete("/" + index);
            put(
                "/" + index,
                "{\"settings\":{\"number_of_shards\":"
                    + shards
                    + ",\"number_of_replicas\":0,\"refresh_interval\":\"-1\","
                    + "\"index.translog.durability\":\"async\",\"index.translog.flush_threshold_size\":\"1gb\"},"
                    + "\"mappings\":{\"properties\":{\"fp\":{\"type\":\"simhash\"}}}}"
            );
            log("loading " + docs + " docs into " + index + " (bulk " + bulkDocs + ", " + bulkThreads + " threads)");
            AtomicLong next = new AtomicLong(), done = new AtomicLong();
            final long t0 = System.nanoTime();
            ExecutorService ex = Executors.newFixedThreadPool(bulkThreads);
            List<Future<?>> fs = new ArrayList<>();
            for (int th = 0; th < bulkThreads; th++)
                fs.add(ex.submit(() -> {
                    StringBuilder sb = new StringBuilder(bulkDocs * 64);
                    while (true) {
                        long from = next.getAndAdd(bulkDocs);
                        if (from >= docs) return null;
                        long to = Math.min(docs, from + bulkDocs);
                        sb.setLength(0);
                        byte[] sig = new byte[SIG];
                        for (long i = from; i < to; i++) {
                            sb.append("{\"index\":{\"_id\":\"").append(i);
                            if (signed) {
                                data.signature(i, sig, 0);
                                sb.append("\"}}\n{\"fp\":{\"fingerprint\":\"").append(hex(data.fp(i))).append("\",\"signature\":\"");
                                for (byte b : sig)
                                    sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
                                sb.append("\"}}\n");
                            } else {
                                sb.append("\"}}\n{\"fp\":\"").append(hex(data.fp(i))).append("\"}\n");
                            }
                        }
                        bulkWithRetry("/" + index + "/_bulk", sb.toString());
                        long d = done.addAndGet(to - from);
                        if ((d / bulkDocs) % 200 == 0) log(
                            "  " + d + " docs, " + (long) (d / ((System.nanoTime() - t0) / 1e9)) + " docs/s"
                        );
                    }
                }));
            try {
                for (Future<?> f : fs)
                    f.get();
            } finally {
                ex.shutdownNow();
            }
            post("/" + index + "/_refresh", "");
            loadSecs = (System.nanoTime() - t0) / 1e9;
            log("  loaded in " + (int) loadSecs + " s (" + (long) (docs / loadSecs) + " docs/s)");
            long t = System.nanoTime();
            post("/" + index + "/_forcemerge?max_num_segments=1", "");
            post("/" + index + "/_refresh", "");
            mergeSecs = (System.nanoTime() - t) / 1e9;
            log("  force-merged in " + (int) mergeSecs + " s");
        }
        long n = count();
        if (n != docs) throw new IllegalStateException("index " + index + " holds " + n + " docs, expected " + docs);
        Map<?, ?> st = json(get("/" + index + "/_stats/segments,store"));
        Map<?, ?> prim = (Map<?, ?>) ((Map<?, ?>) st.get("_all")).get("primaries");
        return new Load(
            reused,
            loadSecs,
            mergeSecs,
            n,
            num((Map<?, ?>) prim.get("segments"), "count"),
            num((Map<?, ?>) prim.get("store"), "size_in_bytes")
        );
    }

    static long existsCount(String field) throws Exception {
        return ((Number) json(post("/" + index + "/_count", "{\"query\":{\"exists\":{\"field\":\"" + field + "\"}}}")).get("count"))
            .longValue();
    }

    // ---------------------------------------------------------------- node stats polling
    record NodeStats(long heapUsed, long heapPercent, long heapMax, long breaker, long breakerLimit, long breakerTripped, long cpuMillis,
        long gcMillis) {
        static NodeStats read() throws Exception {
            Map<?, ?> nodes = (Map<?, ?>) json(get("/_nodes/stats/jvm,breaker,process")).get("nodes");
            Map<?, ?> node = (Map<?, ?>) nodes.values().iterator().next();
            Map<?, ?> mem = (Map<?, ?>) ((Map<?, ?>) node.get("jvm")).get("mem");
            Map<?, ?> br = (Map<?, ?>) ((Map<?, ?>) node.get("breakers")).get("near_duplicate");
            return new NodeStats(
                num(mem, "heap_used_in_bytes"),
                num(mem, "heap_used_percent"),
                num(mem, "heap_max_in_bytes"),
                num(br, "estimated_size_in_bytes"),
                num(br, "limit_size_in_bytes"),
                num(br, "tripped"),
                num((Map<?, ?>) ((Map<?, ?>) node.get("process")).get("cpu"), "total_in_millis"),
                gcMillis((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) node.get("jvm")).get("gc")).get("collectors"))
            );
        }

        /** The collection time of all the JVM's collectors. */
        private static long gcMillis(Map<?, ?> collectors) {
            long total = 0;
            for (Object c : collectors.values())
                total += num((Map<?, ?>) c, "collection_time_in_millis");
            return total;
        }
    }

    /** Polls the node's stats every pollMs until closed; keeps the maxima. */
    static final class Poller implements AutoCloseable {
        final AtomicLong maxHeap = new AtomicLong(), maxHeapPct = new AtomicLong(), maxBreaker = new AtomicLong(), samples =
            new AtomicLong();
        final ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor();
        final Runnable extra;

        Poller(Runnable extra) {
            this.extra = extra;
            ex.scheduleWithFixedDelay(this::poll, 0, pollMs, TimeUnit.MILLISECONDS);
        }

        void poll() {
            try {
                NodeStats s = NodeStats.read();
                maxHeap.accumulateAndGet(s.heapUsed, Math::max);
                maxHeapPct.accumulateAndGet(s.heapPercent, Math::max);
                maxBreaker.accumulateAndGet(s.breaker, Math::max);
                samples.incrementAndGet();
                if (extra != null) extra.run();
            } catch (Exception e) {
                log("  stats poll failed: " + e.getMessage());
            }
        }

        @Override
        public void close() throws InterruptedException {
            ex.shutdown();
            ex.awaitTermination(30, TimeUnit.SECONDS);
            poll(); // one last sample after the run
        }
    }

    // ---------------------------------------------------------------- _near_duplicates on the node
    static final class NodeRun {
        int k, rep;
        double wallMs;
        long took, docsScanned, candidatePairs, verifiedPairs, groups, docsInGroups, blocks, keyBlocks, tables, returned;
        long maxHeap, maxHeapPct, maxBreaker, samples, heapBefore, tripped, breakerBefore, breakerAfter;
        String error, candidates;
        Boolean exact;
        long cpuMs, gcMs;
        /** Each phase of the task's status seen while the run went on: first and last time seen, seconds from the start. */
        final Map<String, double[]> phases = new LinkedHashMap<>();

        String phases() {
            StringBuilder b = new StringBuilder();
            synchronized (phases) {
                for (Map.Entry<String, double[]> e : phases.entrySet())
                    b.append(b.length() == 0 ? "" : ", ")
                        .append(e.getKey())
                        .append(String.format(Locale.ROOT, " %.1f-%.1f s", e.getValue()[0], e.getValue()[1]));
            }
            return b.toString();
        }
    }

    /** Records the phase of the running groups task, as its status gives it, into {@code n}. */
    static void samplePhase(NodeRun n, long startNanos) {
        try {
            Map<?, ?> nodes = (Map<?, ?>) json(get("/_tasks?actions=indices:data/read/near_duplicate/groups&detailed")).get("nodes");
            if (nodes == null) return;
            double at = (System.nanoTime() - startNanos) / 1e9;
            for (Object node : nodes.values()) {
                for (Object task : ((Map<?, ?>) ((Map<?, ?>) node).get("tasks")).values()) {
                    Object status = ((Map<?, ?>) task).get("status");
                    if (status instanceof Map<?, ?> st && st.get("phase") != null) {
                        synchronized (n.phases) {
                            n.phases.computeIfAbsent(String.valueOf(st.get("phase")), x -> new double[] { at, at })[1] = at;
                        }
                    }
                }
            }
        } catch (Exception e) {
            // the task may end between the polls: nothing to record
        }
    }

    static NodeRun nodeRun(int k, int rep) throws Exception {
        NodeRun n = new NodeRun();
        n.k = k;
        n.rep = rep;
        NodeStats before = NodeStats.read();
        n.heapBefore = before.heapUsed;
        log("_near_duplicates k=" + k + " run " + rep + " (heap before " + mb(before.heapUsed) + ")");
        // components: the mode the in-process HammingGroups check (and the committed results) compare against
        String body = signed
            ? "{\"field\":\"fp\",\"size\":10}" // the defaults: k, min_similarity, mode
            : "{\"field\":\"fp\",\"max_distance\":" + k + ",\"size\":10,\"mode\":\"components\"}";
        long t = System.nanoTime();
        String resp = null;
        try (Poller p = new Poller(() -> samplePhase(n, t))) {
            try {
                resp = post("/" + index + "/_near_duplicates", body);
            } catch (HttpError e) {
                n.error = e.status + ": " + e.getMessage();
            }
            n.wallMs = (System.nanoTime() - t) / 1e6;
            p.close();
            n.maxHeap = p.maxHeap.get();
            n.maxHeapPct = p.maxHeapPct.get();
            n.maxBreaker = p.maxBreaker.get();
            n.samples = p.samples.get();
        }
        NodeStats after = NodeStats.read();
        n.tripped = after.breakerTripped - before.breakerTripped;
        n.breakerBefore = before.breaker;
        n.cpuMs = after.cpuMillis - before.cpuMillis; // the node process's CPU time during the run (all its threads)
        n.gcMs = after.gcMillis - before.gcMillis;
        n.breakerAfter = after.breaker;
        if (after.breaker != before.breaker) {
            problems.add(
                "k="
                    + k
                    + " run "
                    + rep
                    + ": near_duplicate breaker estimate "
                    + before.breaker
                    + " bytes before the run, "
                    + after.breaker
                    + " after it (not released?)"
            );
        }
        if (n.error != null) {
            log("  FAILED after " + (long) n.wallMs + " ms: " + n.error);
            problems.add("k=" + k + " run " + rep + ": " + n.error.substring(0, Math.min(600, n.error.length())));
            return n;
        }
        Map<?, ?> r = json(resp);
        n.took = num(r, "took");
        Map<?, ?> c = (Map<?, ?>) r.get("counts");
        n.docsScanned = num(c, "docs_scanned");
        n.candidatePairs = num(c, "candidate_pairs");
        n.verifiedPairs = num(c, "verified_pairs");
        n.groups = num(c, "groups");
        n.docsInGroups = num(c, "docs_in_groups");
        Map<?, ?> plan = (Map<?, ?>) r.get("plan");
        n.blocks = num(plan, "blocks");
        n.keyBlocks = num(plan, "key_blocks");
        n.tables = num(plan, "tables");
        n.candidates = String.valueOf(plan.get("candidates"));
        if (plan.get("passes") != null) n.tables = num(plan, "passes");
        if (num(r, "max_distance") != k) problems.add(
            "run " + rep + ": the node's max_distance is " + num(r, "max_distance") + ", expected " + k
        );
        n.returned = ((List<?>) r.get("groups")).size();
        if (n.docsScanned != docs) problems.add("k=" + k + " run " + rep + ": docs_scanned " + n.docsScanned + " != " + docs);
        log(
            String.format(
                Locale.ROOT,
                "  wall %.0f ms, took %d ms, candidates %d, verified %d, groups %d, docs in groups %d, plan %d/%d/%d tables, max heap %s (%d%%), max breaker %s (%d samples; breaker before %d, after %d bytes)",
                n.wallMs,
                n.took,
                n.candidatePairs,
                n.verifiedPairs,
                n.groups,
                n.docsInGroups,
                n.blocks,
                n.keyBlocks,
                n.tables,
                mb(n.maxHeap),
                n.maxHeapPct,
                mb(n.maxBreaker),
                n.samples,
                n.breakerBefore,
                n.breakerAfter
            )
        );
        log("  phases: " + n.phases() + "; node GC time " + n.gcMs + " ms");
        return n;
    }

    // ---------------------------------------------------------------- write-back
    static final class WriteBack {
        int k;
        String task;
        double wallMs;
        long took, written, singletons, noops, cleared, groups, docsInGroups, failed, batches;
        long maxHeap, maxHeapPct, maxBreaker;
        final List<String> statuses = new ArrayList<>();
        String label;
        long aggGroups, aggDocs, aggSmallBuckets, cardinality, exists;
        String error;
    }

    static WriteBack writeBack(int k, List<NodeRun> reference, String label) throws Exception {
        return writeBack(k, reference, label, "duplicate_group", "", "");
    }

    /**
     * {@code extraBody}: more request fields (starting with a comma); {@code extraParams}: more URL parameters (starting
     * with {@code &}); {@code groupField}: where the check reads the groups.
     */
    static WriteBack writeBack(int k, List<NodeRun> reference, String label, String groupField, String extraBody, String extraParams)
        throws Exception {
        WriteBack w = new WriteBack();
        w.k = k;
        w.label = label;
        log("write-back (" + label + ") at k=" + k);
        NodeStats before = NodeStats.read();
        long t = System.nanoTime();
        String r;
        try {
            r = post(
                "/" + index + "/_near_duplicates/_write?wait_for_completion=false" + extraParams,
                (signed ? "{\"field\":\"fp\"" : "{\"field\":\"fp\",\"max_distance\":" + k + ",\"mode\":\"components\"") + extraBody + "}"
            );
        } catch (HttpError e) {
            w.error = e.getMessage();
            problems.add("write-back k=" + k + ": " + e.getMessage());
            return w;
        }
        w.task = (String) json(r).get("task");
        Map<?, ?> done = null;
        List<String> seen = new ArrayList<>();
        try (Poller p = new Poller(null)) {
            while (true) {
                Map<?, ?> tr = json(get("/_tasks/" + w.task));
                double at = (System.nanoTime() - t) / 1e9;
                if (Boolean.TRUE.equals(tr.get("completed"))) {
                    w.wallMs = (System.nanoTime() - t) / 1e6;
                    done = tr;
                    break;
                }
                Map<?, ?> task = (Map<?, ?>) tr.get("task");
                Object status = task == null ? null : task.get("status");
                if (status != null) seen.add(String.format(Locale.ROOT, "%.1f s: `%s`", at, Json.write(status)));
                Thread.sleep(pollMs);
            }
            p.close();
            w.maxHeap = p.maxHeap.get();
            w.maxHeapPct = p.maxHeapPct.get();
            w.maxBreaker = p.maxBreaker.get();
        }
        NodeStats afterStats = NodeStats.read();
        if (afterStats.breaker != before.breaker) {
            problems.add(
                "write-back k="
                    + k
                    + ": near_duplicate breaker estimate "
                    + before.breaker
                    + " bytes before, "
                    + afterStats.breaker
                    + " after (not released?)"
            );
        }
        // a sample of the statuses seen while running: first, last and up to 6 between
        int m = seen.size();
        for (int i = 0; i < m; i++) {
            if (m <= 8 || i == 0 || i == m - 1 || i % Math.max(1, m / 6) == 0) w.statuses.add(seen.get(i));
        }
        if (done.get("error") != null) {
            w.error = Json.write(done.get("error"));
            problems.add("write-back k=" + k + " failed: " + w.error);
            log("  write-back failed: " + w.error);
            return w;
        }
        Map<?, ?> resp = (Map<?, ?>) done.get("response");
        w.took = num(resp, "took");
        w.written = num(resp, "written");
        w.singletons = num(resp, "singletons");
        w.noops = num(resp, "noops");
        w.cleared = num(resp, "cleared");
        w.groups = num(resp, "groups");
        w.docsInGroups = num(resp, "docs_in_groups");
        w.failed = num(resp, "failed");
        w.batches = num(resp, "batches");
        log(
            String.format(
                Locale.ROOT,
                "  done: wall %.1f s, took %d ms, written %d, noops %d, cleared %d, groups %d, docs in groups %d, failed %d, %d status samples",
                w.wallMs / 1000,
                w.took,
                w.written,
                w.noops,
                w.cleared,
                w.groups,
                w.docsInGroups,
                w.failed,
                seen.size()
            )
        );
        // check: distinct group values == groups (composite aggregation, every bucket; plus cardinality)
        post("/" + index + "/_refresh", "");
        Map<String, Object> after = null;
        while (true) {
            String agg = "{\"size\":0,\"aggs\":{\"g\":{\"composite\":{\"size\":10000,\"sources\":[{\"g\":{\"terms\":{\"field\":\""
                + groupField
                + "\"}}}]"
                + (after == null ? "" : ",\"after\":" + Json.write(after))
                + "}}}}";
            Map<?, ?> ar = (Map<?, ?>) ((Map<?, ?>) json(post("/" + index + "/_search?request_cache=false", agg)).get("aggregations")).get(
                "g"
            );
            List<?> buckets = (List<?>) ar.get("buckets");
            for (Object b : buckets) {
                long dc = num((Map<?, ?>) b, "doc_count");
                w.aggGroups++;
                w.aggDocs += dc;
                if (dc < 2) w.aggSmallBuckets++;
            }
            if (buckets.isEmpty() || ar.get("after_key") == null) break;
            @SuppressWarnings("unchecked")
            Map<String, Object> ak = (Map<String, Object>) ar.get("after_key");
            after = ak;
        }
        Map<?, ?> card = (Map<?, ?>) ((Map<?, ?>) json(
            post(
                "/" + index + "/_search?request_cache=false",
                "{\"size\":0,\"aggs\":{\"c\":{\"cardinality\":{\"field\":\"" + groupField + "\",\"precision_threshold\":40000}}}}"
            )
        ).get("aggregations")).get("c");
        w.cardinality = num(card, "value");
        w.exists = existsCount(groupField);
        long expectGroups = w.groups, expectDocs = w.docsInGroups;
        for (NodeRun n : reference)
            if (n.error == null) {
                expectGroups = n.groups;
                expectDocs = n.docsInGroups;
            }
        log(
            "  check: "
                + w.aggGroups
                + " distinct "
                + groupField
                + " values (composite), cardinality "
                + w.cardinality
                + ", "
                + w.aggDocs
                + " docs in them, "
                + w.exists
                + " docs with the field; groups "
                + expectGroups
                + ", docs in groups "
                + expectDocs
        );
        // every document in no group holds its own _id (the singleton pass): one bucket of one document each
        long singletons = docs - expectDocs;
        if (w.aggGroups != expectGroups + singletons
            || w.aggDocs != docs
            || w.exists != docs
            || w.aggSmallBuckets != singletons
            || w.groups != expectGroups) {
            String msg = "write-back k="
                + k
                + ": "
                + w.aggGroups
                + " distinct "
                + groupField
                + " values over "
                + w.aggDocs
                + " docs ("
                + w.exists
                + " docs with the field, "
                + w.aggSmallBuckets
                + " single-doc buckets; response groups "
                + w.groups
                + ") vs _near_duplicates groups "
                + expectGroups
                + ", docs in groups "
                + expectDocs
                + " (expected "
                + (expectGroups + singletons)
                + " values, "
                + singletons
                + " of them single documents, over all "
                + docs
                + " docs)";
            problems.add("**WRITE-BACK MISMATCH** " + msg);
            log("WRITE-BACK MISMATCH: " + msg);
        }
        if (w.cardinality != w.aggGroups && w.aggGroups <= 40000) problems.add(
            "write-back: cardinality aggregation " + w.cardinality + " vs composite " + w.aggGroups + " (cardinality is approximate)"
        );
        if (w.failed > 0) problems.add("write-back k=" + k + ": " + w.failed + " failed documents: " + Json.write(resp.get("failures")));
        return w;
    }

    // ---------------------------------------------------------------- in-process baselines
    static final class InProcess {
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
    }

    static long[] all; // the N fingerprints, kept for the brute-force sample

    static InProcess inProcess(Data data) {
        InProcess in = new InProcess();
        long t = System.nanoTime();
        all = new long[(int) docs];
        for (int i = 0; i < all.length; i++)
            all[i] = data.fp(i);
        in.genMs = (System.nanoTime() - t) / 1e6;
        t = System.nanoTime();
        long[] sorted = all.clone();
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
        log(
            "in-process: generated "
                + docs
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
        for (int k : ks) {
            InProcess.PerK p = new InProcess.PerK();
            for (int r = 1; r <= reps; r++) {
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
                log(
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
    static InProcess inProcessSigned(Data data) {
        InProcess in = new InProcess();
        int n = (int) docs;
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
        long[] order = new long[n];
        for (int j = 0; j < n; j++)
            order[j] = fps[j] >>> 24 << 24 | j; // the signed order of the top 40 bits, then the index
        Arrays.sort(order);
        int[] idx = new int[n];
        for (int j = 0; j < n; j++)
            idx[j] = (int) (order[j] & 0xFFFFFF);
        order = null;
        for (int j = 1; j < n; j++) { // insertion sort: only ties on the top 40 bits move
            int x = idx[j];
            int q = j - 1;
            while (q >= 0 && lessUnit(fps, sigs, x, idx[q])) {
                idx[q + 1] = idx[q];
                q--;
            }
            idx[q + 1] = x;
        }
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
        log(
            "in-process (signed): generated "
                + docs
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
        for (int r = 1; r <= reps; r++) {
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
            log(
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

    static boolean lessUnit(long[] fps, byte[] sigs, int a, int b) {
        int c = Long.compare(fps[a], fps[b]);
        return c != 0 ? c < 0 : org.nearduplicate.core.groups.GroupMembers.compareSignatures(sigs, a, sigs, b) < 0;
    }

    static final class Brute {
        int sample;
        final Map<Integer, double[]> perK = new LinkedHashMap<>(); // k -> {ms, pairs, groups, docsInGroups}
        final Map<Integer, Boolean> agrees = new LinkedHashMap<>();
    }

    /** All pairs of a seeded sample (selection sampling, in id order), XOR + bitCount, union-find. */
    static Brute brute(Data data) {
        Brute b = new Brute();
        int m = (int) Math.min(bruteSample, docs);
        b.sample = m;
        long[] s = new long[m];
        SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
        int got = 0;
        for (long i = 0; i < docs && got < m; i++) {
            if (r.nextLong(docs - i) < m - got) s[got++] = all[(int) i];
        }
        for (int k : ks) {
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
            long[] hgComponents = components(hg.roots(), counts, n);
            long hgGroups = hgComponents[0], hgDocs = hgComponents[1];
            boolean eq = hgGroups == groups && hgDocs == inGroups && hg.verifiedPairs() == pairs;
            b.agrees.put(k, eq);
            if (!eq) problems.add(
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
            log(
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
                    docs,
                    ms * Math.pow(docs / (double) m, 2) / 1000
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

    // ---------------------------------------------------------------- results
    static String f(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
    }

    static String mb(long bytes) {
        return f(bytes / 1048576.0) + " MB";
    }

    static String secs(double ms) {
        return ms >= 100_000 ? f(ms / 1000) + " s" : f(ms) + " ms";
    }

    static String cmd(String... c) {
        try {
            Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    static long num(Map<?, ?> m, String k) {
        Object o = m == null ? null : m.get(k);
        return o instanceof Number n ? n.longValue() : 0;
    }

    static void writeResults(
        Data data,
        Load load,
        Map<Integer, List<NodeRun>> node,
        List<WriteBack> writes,
        InProcess in,
        Brute brute,
        double seconds
    ) throws Exception {
        StringBuilder md = new StringBuilder();
        long heapMax = (Long) facts.get("heapMax"), limit = (Long) facts.get("breakerLimit");
        md.append("# near-duplicate groups benchmark (`_near_duplicates`)\n\n");
        md.append("Generated by `bench/groups.sh` (`bench/GroupsBench.java`); do not edit by hand.\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| date | ").append(ZonedDateTime.now(ZoneOffset.UTC).withNano(0)).append(" |\n");
        md.append("| machine | ")
            .append(cmd("nproc"))
            .append(" cores (`nproc`), ")
            .append(cmd("sh", "-c", "free -g | awk '/Mem:/{print $2\" GB\"}'"))
            .append(" RAM, ")
            .append(cmd("sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"))
            .append("; shared with other builds (noisy: compare ratios of one run) |\n");
        md.append("| load average at start | ").append(facts.get("loadStart")).append(" |\n");
        md.append("| node | ")
            .append(String.valueOf(facts.get("plugins")).contains("-es") ? "Elasticsearch " : "OpenSearch ")
            .append(facts.get("opensearch"))
            .append(" (integ-test distribution), single node, heap ")
            .append(mb(heapMax))
            .append(", `near_duplicate` breaker limit ")
            .append(mb(limit))
            .append(", plugins: ")
            .append(facts.get("plugins"))
            .append(" |\n");
        md.append("| client | ")
            .append(System.getProperty("java.vendor"))
            .append(' ')
            .append(System.getProperty("java.version"))
            .append(", JDK HttpClient, max heap ")
            .append(mb(Runtime.getRuntime().maxMemory()))
            .append("; in-process baselines run in this JVM after the node runs |\n");
        if (signed) md.append("| data | ")
            .append(docs)
            .append(" signed documents (object values of the default algorithm: fingerprint + 32-byte signature; seed ")
            .append(seed)
            .append("): random fingerprints and signatures plus ")
            .append(data.clusters)
            .append(" planted clusters of 2..5 members (")
            .append(data.plantedDocs())
            .append(" docs, ")
            .append(f(100.0 * data.plantedDocs() / docs))
            .append(
                "%), each member its cluster's random center fingerprint with 1..8 random bits flipped (members within k = 16 of each other) and the center's signature with 0..20 slots changed (agreeing on 12..32 slots, uniform); "
            )
            .append(in.distinct)
            .append(" distinct fingerprints, ")
            .append(in.units)
            .append(" units |\n");
        else md.append("| data | ")
            .append(docs)
            .append(" fingerprints (seed ")
            .append(seed)
            .append("): random 64-bit values plus ")
            .append(data.clusters)
            .append(" planted clusters of 2..5 members (")
            .append(data.plantedDocs())
            .append(" docs, ")
            .append(f(100.0 * data.plantedDocs() / docs))
            .append("%), each member its cluster's random center with 1..8 random bits flipped; ")
            .append(in.distinct)
            .append(" distinct fingerprints |\n");
        md.append("| index | `")
            .append(index)
            .append("`: `{\"fp\":{\"type\":\"simhash\"}}`, ")
            .append(shards)
            .append(
                " shard(s), 0 replicas, `_source` enabled (the write-back's partial updates need it), `refresh_interval: -1` while loading, "
            )
            .append(load.segments)
            .append(" segment(s) after force merge, store ")
            .append(mb(load.storeBytes))
            .append(" |\n");
        if (load.reused) md.append("| load | reused an index already holding ").append(docs).append(" docs (`--reuse`) |\n");
        else md.append("| load | `_bulk` (")
            .append(bulkDocs)
            .append(" docs, ")
            .append(bulkThreads)
            .append(" threads): ")
            .append(f(load.loadSecs))
            .append(" s (")
            .append((long) (docs / load.loadSecs))
            .append(" docs/s), force merge to 1 segment ")
            .append(f(load.mergeSecs))
            .append(" s |\n");
        md.append("| stats polling | `GET _nodes/stats/jvm,breaker` every ")
            .append(pollMs)
            .append(" ms while a request runs; heap used includes garbage not yet collected; idle heap before the runs ")
            .append(mb((Long) facts.get("heapIdle")))
            .append(" |\n");
        md.append("| run time | ").append((int) seconds).append(" s |\n");
        md.append("| command | `").append(facts.get("command")).append("` |\n\n");

        if (signed) {
            md.append(
                "## `_near_duplicates` at the defaults (`{\"field\":\"fp\",\"size\":10}`: k = 16, min_similarity "
                    + org.nearduplicate.core.SimHashSettings.DEFAULT.recommendedMinSimilarity()
                    + ", representative groups)\n\n"
            );
            md.append(
                "Client wall time is the HTTP round trip; `took` is the node's. Exact = verified pairs equal to `HammingGroups.find` in process on the same units with the same plan (the candidate pairs too, else listed under Problems). Plan: `lsh` band passes (tables column).\n\n"
            );
        } else {
            md.append("## `_near_duplicates` per k (size 10)\n\n");
            md.append(
                "Client wall time is the HTTP round trip; `took` is the node's. Exact = groups, docs in groups and verified pairs equal to `HammingGroups.find` in process on the same fingerprints.\n\n"
            );
        }
        md.append(
            "| k | run | wall | took | candidate pairs | verified pairs | groups | docs in groups | plan (blocks / key blocks / tables) | max heap used | max `near_duplicate` breaker | exact |\n"
        );
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<Integer, List<NodeRun>> e : node.entrySet()) {
            for (NodeRun n : e.getValue()) {
                md.append("| ").append(n.k).append(" | ").append(n.rep).append(" | ").append(secs(n.wallMs)).append(" | ");
                if (n.error != null) {
                    md.append("**failed** | ")
                        .append(n.error.replace("|", "\\|").replace("\n", " "), 0, Math.min(300, n.error.length()))
                        .append(" | | | | | ")
                        .append(mb(n.maxHeap))
                        .append(" (")
                        .append(n.maxHeapPct)
                        .append("%) | ")
                        .append(mb(n.maxBreaker))
                        .append(" | n/a |\n");
                    continue;
                }
                md.append(secs(n.took))
                    .append(" | ")
                    .append(n.candidatePairs)
                    .append(" | ")
                    .append(n.verifiedPairs)
                    .append(" | ")
                    .append(n.groups)
                    .append(" | ")
                    .append(n.docsInGroups)
                    .append(" | ")
                    .append(n.blocks)
                    .append(" / ")
                    .append(n.keyBlocks)
                    .append(" / ")
                    .append(n.tables)
                    .append(" | ")
                    .append(mb(n.maxHeap))
                    .append(" (")
                    .append(n.maxHeapPct)
                    .append("%) | ")
                    .append(mb(n.maxBreaker))
                    .append(" (")
                    .append(f(100.0 * n.maxBreaker / limit))
                    .append("% of limit) | ")
                    .append(n.exact == null ? "n/a" : n.exact ? "yes" : "**NO**")
                    .append(" |\n");
            }
        }
        md.append(
            "\nNode process CPU time during each run (`GET _nodes/stats/process` before and after; all the node's threads; the band passes run on `near_duplicate.groups.threads`, by default every allocated processor): "
        );
        for (List<NodeRun> runs : node.values())
            for (NodeRun n : runs)
                md.append("run ").append(n.rep).append(" ").append(secs(n.cpuMs)).append(" of ").append(secs(n.wallMs)).append(" wall; ");
        md.append("load average at the end ")
            .append(cmd("cat", "/proc/loadavg"))
            .append(" (2 cores: wall above CPU is time the node waited for a core).\n");
        md.append("\nPhases of each run (the groups task's `status.phase` in `GET _tasks` every ")
            .append(pollMs)
            .append(" ms: first and last time seen, from the request; the node's JVM garbage-collection time during the run): ");
        for (List<NodeRun> runs : node.values())
            for (NodeRun n : runs)
                md.append("run ").append(n.rep).append(": ").append(n.phases()).append("; GC ").append(secs(n.gcMs)).append(". ");
        md.append('\n');
        if (brute == null) {
            writeSignedBaseline(md, node, in, limit);
        } else {
            md.append("\n## Baselines (same run, same fingerprints) and ratios\n\n");
            md.append("In process: generate ")
                .append(secs(in.genMs))
                .append(", sort + dedupe + counts ")
                .append(secs(in.sortMs))
                .append(" (")
                .append(in.distinct)
                .append(" distinct), then `HammingGroups.find` (best of ")
                .append(reps)
                .append(" runs; all runs listed). Brute force: all pairs of a seeded sample of ")
                .append(brute.sample)
                .append(" docs (XOR + `Long.bitCount`, union-find, one thread), extrapolated to ")
                .append(docs)
                .append(" docs by (N/sample)^2 = ")
                .append(f(Math.pow(docs / (double) brute.sample, 2)))
                .append(".\n\n");
            md.append(
                "| k | node wall (best) | in-process find (runs) | in-process sort + find | node / in-process find | node / in-process sort + find | brute force on sample | brute force extrapolated to N | brute extrapolated / node | HammingGroups = brute force on the sample |\n"
            );
            md.append("|---|---|---|---|---|---|---|---|---|---|\n");
            for (int k : ks) {
                double nodeBest = node.get(k).stream().filter(n -> n.error == null).mapToDouble(n -> n.wallMs).min().orElse(Double.NaN);
                InProcess.PerK p = in.perK.get(k);
                double[] bf = brute.perK.get(k);
                double extra = bf[0] * Math.pow(docs / (double) brute.sample, 2);
                StringBuilder runs = new StringBuilder();
                for (double d : p.findMs)
                    runs.append(runs.length() == 0 ? "" : ", ").append(secs(d));
                md.append("| ")
                    .append(k)
                    .append(" | ")
                    .append(secs(nodeBest))
                    .append(" | ")
                    .append(runs)
                    .append(" | ")
                    .append(secs(p.best() + in.sortMs))
                    .append(" | ")
                    .append(f(nodeBest / p.best()))
                    .append("x | ")
                    .append(f(nodeBest / (p.best() + in.sortMs)))
                    .append("x | ")
                    .append(secs(bf[0]))
                    .append(" (")
                    .append((long) bf[1])
                    .append(" pairs, ")
                    .append((long) bf[2])
                    .append(" groups) | ")
                    .append(extra >= 3_600_000 ? f(extra / 3_600_000) + " h" : f(extra / 1000) + " s")
                    .append(" | ")
                    .append(f(extra / nodeBest))
                    .append("x | ")
                    .append(brute.agrees.get(k) ? "yes" : "**NO**")
                    .append(" |\n");
            }
            md.append("\nIn-process counts: ");
            for (int k : ks) {
                InProcess.PerK p = in.perK.get(k);
                md.append("k=")
                    .append(k)
                    .append(": ")
                    .append(p.groups)
                    .append(" groups, ")
                    .append(p.docsInGroups)
                    .append(" docs in groups, ")
                    .append(p.verifiedPairs)
                    .append(" verified pairs, ")
                    .append(p.candidatePairs)
                    .append(" candidate pairs, plan ")
                    .append(p.plan.blocks())
                    .append("/")
                    .append(p.plan.keyBlocks())
                    .append("/")
                    .append(p.plan.tables())
                    .append(" (")
                    .append(p.plan.bucketBits())
                    .append(" bucket bits); ");
            }
            md.setLength(md.length() - 2);
            md.append(".\n\n");
            // the grouping step's reservation, from the plugin's own accounting (HammingGroups.inputBytes/resultBytes/tableBytes)
            md.append(
                "Breaker reservation of the grouping step (distinct fingerprints + counts, result, one table: `HammingGroups.inputBytes + resultBytes + tableBytes`): "
            );
            for (int k : ks) {
                InProcess.PerK p = in.perK.get(k);
                long bytes = HammingGroups.inputBytes(in.distinct) + HammingGroups.resultBytes(in.distinct) + HammingGroups.tableBytes(
                    in.distinct,
                    p.plan
                );
                md.append("k=")
                    .append(k)
                    .append(": ")
                    .append(mb(bytes))
                    .append(" (")
                    .append(f(100.0 * bytes / limit))
                    .append("% of the limit); ");
            }
            long perDoc = HammingGroups.inputBytes(1) + HammingGroups.resultBytes(1) + HammingGroups.TABLE_BYTES_PER_FINGERPRINT;
            long fixed = HammingGroups.maxFixedTableBytes();
            md.append("at ")
                .append(perDoc)
                .append(" bytes per distinct fingerprint plus at most ")
                .append(mb(fixed))
                .append(" of bucket counters and scratch, one run fits this node's limit up to about ")
                .append((limit - fixed) / perDoc)
                .append(" distinct fingerprints; two concurrent runs share the limit (the second one gets the breaker's 429).\n\n");
        }
        for (WriteBack w : writes) {
            md.append("## Write-back, ")
                .append(w.label)
                .append(" (`_near_duplicates/_write?wait_for_completion=false`, k=")
                .append(w.k)
                .append(signed ? ", the defaults" : "")
                .append(")\n\n");
            if (w.error != null) {
                md.append("**Failed**: `").append(w.error.replace("`", "'")).append("`\n\n");
            } else {
                md.append(
                    "| task | wall (submit to completed) | took | written (members) | singletons written | noops | cleared | groups | docs in groups | failed | batches | written docs/s (wall) | written docs/s (took) | max heap used | max breaker |\n"
                );
                md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
                md.append("| `")
                    .append(w.task)
                    .append("` | ")
                    .append(secs(w.wallMs))
                    .append(" | ")
                    .append(secs(w.took))
                    .append(" | ")
                    .append(w.written)
                    .append(" | ")
                    .append(w.singletons)
                    .append(" | ")
                    .append(w.noops)
                    .append(" | ")
                    .append(w.cleared)
                    .append(" | ")
                    .append(w.groups)
                    .append(" | ")
                    .append(w.docsInGroups)
                    .append(" | ")
                    .append(w.failed)
                    .append(" | ")
                    .append(w.batches)
                    .append(" | ")
                    .append((long) ((w.written + w.singletons) / (w.wallMs / 1000)))
                    .append(" | ")
                    .append(w.took > 0 ? (long) ((w.written + w.singletons) / (w.took / 1000.0)) : 0)
                    .append(" | ")
                    .append(mb(w.maxHeap))
                    .append(" (")
                    .append(w.maxHeapPct)
                    .append("%) | ")
                    .append(mb(w.maxBreaker))
                    .append(" |\n\n");
                md.append(
                    "`took` is the task response's: from the request to the last write, the grouping included (0.4.0 on; wall - took ~ the task's start, "
                        + "the result's storing and the "
                ).append(pollMs).append(" ms polling); docs/s (took) is documents written per second of the whole task.\n\n");
                md.append("Check after a refresh: a composite aggregation over `duplicate_group` found ")
                    .append(w.aggGroups)
                    .append(" distinct values (")
                    .append(w.aggSmallBuckets)
                    .append(" with a single document) over ")
                    .append(w.aggDocs)
                    .append(" documents; `cardinality` (precision_threshold 40000) says ")
                    .append(w.cardinality)
                    .append("; ")
                    .append(w.exists)
                    .append(
                        " documents have the field. Expected: every document has it, those in no group their own `_id` (one single-document value each), and the groups of the `_near_duplicates` answer at k="
                    )
                    .append(w.k)
                    .append("): ")
                    .append(
                        node.get(w.k)
                            .stream()
                            .filter(n -> n.error == null)
                            .map(n -> n.groups + " groups, " + n.docsInGroups + " docs")
                            .findFirst()
                            .orElse("n/a")
                    )
                    .append(".\n\n");
                md.append("Task status seen while running (`GET _tasks/<id>` every ").append(pollMs).append(" ms; a sample):\n\n");
                for (String s : w.statuses)
                    md.append("- ").append(s).append('\n');
                if (w.statuses.isEmpty()) md.append("- (the task completed before the first poll)\n");
                md.append('\n');
            }
        }
        md.append("## Problems seen\n\n");
        if (problems.isEmpty()) md.append("None: every run exact, no failure.\n");
        for (String p : problems)
            md.append("- ").append(p.replace("\n", " ")).append('\n');
        Files.writeString(outDir.resolve(resultsName), md.toString());
    }

    // ---------------------------------------------------------------- JSON (just what the node's answers need)
    static void writeSignedBaseline(StringBuilder md, Map<Integer, List<NodeRun>> node, InProcess in, long limit) {
        InProcess.PerK p = in.perK.get(SIGNED_K);
        double nodeBest = node.get(SIGNED_K).stream().filter(n -> n.error == null).mapToDouble(n -> n.wallMs).min().orElse(Double.NaN);
        md.append("\n## In-process reference (same run, same units)\n\n");
        md.append("Generate ")
            .append(secs(in.genMs))
            .append(", sort + merge into units ")
            .append(secs(in.sortMs))
            .append(", then `HammingGroups.find` with the node's plan (")
            .append(p.plan.candidates())
            .append(", ")
            .append(p.plan.tables())
            .append(" passes, ")
            .append(FIND_THREADS)
            .append(" threads as the node's default), runs: ");
        for (int i = 0; i < p.findMs.size(); i++)
            md.append(i == 0 ? "" : ", ")
                .append(secs(p.findMs.get(i)))
                .append(" (calling thread's CPU ")
                .append(secs(p.findCpuMs.get(i)))
                .append(")");
        md.append(". Verified pairs ")
            .append(p.verifiedPairs)
            .append(", candidate pairs ")
            .append(p.candidatePairs)
            .append(", components with 2+ documents ")
            .append(p.groups)
            .append(" (")
            .append(p.docsInGroups)
            .append(
                " docs; the node's default groups split components by representative, so its groups are compared through the verified pairs). Node wall (best) / in-process find (best): "
            )
            .append(f(nodeBest / p.best()))
            .append("x.\n\n");
    }

    static final class Json {
        final String s;
        int i;

        Json(String s) {
            this.s = s;
        }

        static Object parse(String s) {
            Json j = new Json(s);
            j.ws();
            return j.value();
        }

        void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i)))
                i++;
        }

        Object value() {
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = str();
                    ws();
                    i++;
                    ws();
                    m.put(k, value());
                    ws();
                    if (s.charAt(i++) == '}') return m;
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    ws();
                    l.add(value());
                    ws();
                    if (s.charAt(i++) == ']') return l;
                }
            }
            if (c == '"') return str();
            if (s.startsWith("true", i)) {
                i += 4;
                return true;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return false;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int st = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0)
                i++;
            String n = s.substring(st, i);
            if (n.contains(".") || n.contains("e") || n.contains("E")) return Double.parseDouble(n);
            try {
                return Long.parseLong(n);
            } catch (NumberFormatException e) {
                return new java.math.BigInteger(n);
            }
        }

        String str() {
            StringBuilder b = new StringBuilder();
            i++;
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case 'r' -> b.append('\r');
                        case 'b' -> b.append('\b');
                        case 'f' -> b.append('\f');
                        case 'u' -> {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> b.append(e);
                    }
                } else b.append(c);
            }
        }

        static String write(Object o) {
            StringBuilder b = new StringBuilder();
            write(o, b);
            return b.toString();
        }

        static void write(Object o, StringBuilder b) {
            if (o == null) b.append("null");
            else if (o instanceof String str) {
                b.append('"');
                for (int i = 0; i < str.length(); i++) {
                    char c = str.charAt(i);
                    switch (c) {
                        case '"' -> b.append("\\\"");
                        case '\\' -> b.append("\\\\");
                        case '\n' -> b.append("\\n");
                        case '\r' -> b.append("\\r");
                        case '\t' -> b.append("\\t");
                        default -> {
                            if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                            else b.append(c);
                        }
                    }
                }
                b.append('"');
            } else if (o instanceof Map<?, ?> m) {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) b.append(',');
                    first = false;
                    write(String.valueOf(e.getKey()), b);
                    b.append(':');
                    write(e.getValue(), b);
                }
                b.append('}');
            } else if (o instanceof List<?> l) {
                b.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) b.append(',');
                    write(l.get(i), b);
                }
                b.append(']');
            } else b.append(o);
        }
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
