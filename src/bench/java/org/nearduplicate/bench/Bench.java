// near-duplicate benchmark harness: single-file Java program, run with

// `java -cp target/classes:$(cat target/classpath.txt) bench/Bench.java ...` (bench/run.sh builds the plugin and the
// class path, starts a real node and calls this). See docs/performance.md.
// The plugin's classes must be on the class path: the key layouts (BlockLayout: key and check bits, probed keys) and
// the query's keys-or-scan decision per segment (SimHashQuery.scanIsCheaper) are the plugin's own code, called
// here, not copies of it, so a change there changes what this bench reports.
//
// What it does, against a running OpenSearch node with the plugin:
//  1. builds a synthetic index of --docs random 64-bit fingerprints (seeded, generated on the fly) with planted
//     neighbours at distances 0..10 around --probes probe fingerprints; every document carries the same
//     fingerprint in every representation: the plugin's simhash field (default 4 blocks / k_max 16, plus the
//     alternative layouts of --layouts), a long field (painless brute force), 4 x 16-bit keyword block keys and
//     10 keyword pair keys of 5 blocks (the hand-made pigeonhole layouts); the other methods get their own data:
//     `minhash` = the plugin's minhash field (128 random 32-bit values per doc, 32 bands x 4 rows) with planted
//     neighbours at estimated Jaccard 1.0..0.3, `imatch` = a keyword field with a random 40-hex key per doc and 3
//     planted exact copies per probe;
//  2. bulk loads with refresh_interval -1, measures an un-merged figure, force-merges to 1 segment;
//  3. runs every method at concurrency 1 and 4 with distinct probes, request_cache=false, and reports p50/p95/p99,
//     throughput and recall of the planted neighbours, plus the round-trip floor;
//  4. per-field disk usage (_disk_usage?run_expensive_tasks=true);
//  5. ingest of ../shared/eval/public/docs.jsonl.gz through the simhash pipeline vs plain indexing;
//  6. writes bench/results/RESULTS.md (and raw lines under bench/results/raw/).
//
// --ks 0,3,4,6,8,10,12,14,16 (any k from one index) replaces step 3 and the method tables: it loads only base, fp
// (the default mapping {"type":"simhash"}: 4 blocks, max_distance 16), long (unless --reps says otherwise) and
// fpscan (a simhash field mapped blocks 4 / max_distance 0), and runs per k, at concurrency 1, interleaved in one
// group: near_duplicate on fp at max_distance k (--queries), the same query with allow_scan on fpscan (a forced
// doc-values scan, since k > 0 exceeds its mapping; --scan-queries; n/a at k = 0), the painless brute force over
// long (--script-queries) and the round-trip floor; the results file has one row per k with the ratios.
// The floor of issue 26, a plain long[] loop over the same fingerprints in this JVM, is timed after every round of
// each k group (5 probes a round), so that it shares the group's noise; the node's GC, heap, near_duplicate breaker and
// search-pool counters are read before and after each group, and the 5 slowest near_duplicate queries are listed.
// --shards, --segments, --no-base, --css-modes and --css-slices: see bench/run.sh.
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
import java.util.zip.GZIPInputStream;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;

public class Bench {
    // ---------------------------------------------------------------- settings
    static String url = "http://127.0.0.1:9400";
    static long docs = 1_000_000;
    static int probes = 2000;
    static int queries = 2000;        // per fast method and concurrency level
    static int scriptQueries = 20;    // per brute-force method and concurrency level
    static int scanQueries = 100;     // allow_scan queries
    static long seed = 42;
    static String layoutsArg = "5:3,8:6,10:8";
    static String index = null;
    static boolean reuse = false;
    /** --load-only: load (or reuse) the indices, then stop (no queries, no results file). */
    static boolean loadOnly = false;
    /** --check-floor B,K,R: bench/check_scale.py's floor (see {@link #checkFloor}). */
    static String checkFloor = null;
    /** The algorithm id of the signed documents ({@code fps}): the default algorithm, with its signature. */
    static final String SIGNED_ALGORITHM = org.nearduplicate.core.SimHashSettings.DEFAULT.algorithmId();
    static Set<String> onlyReps = null; // --reps fp,long,hand4,...: load and query only these (base is always loaded)
    static boolean skipIngest = false;
    static String evalDir = "../shared/eval/public";
    static Path outDir = Paths.get("bench/results");
    static int bulkDocs = 5000;
    static int bulkThreads = 2;
    static int ingestRounds = 3;
    static String resultsName = null; // --results FILE: name of the results file (default RESULTS.md / RESULTS-10M.md)
    /** --ks 0,3,4,...: instead of the method comparison, per k: near_duplicate on the default field, a forced scan, painless. */
    static int[] ks = null;
    /** --shards N: primaries of every loaded index (default 1). */
    static int shards = 1;
    /** --no-base: load no base index (no bytes-per-document figures; saves a load at large --docs). */
    static boolean noBase = false;
    /** --segments N: force-merge target per shard after the load (default 1; 0: not force-merged). */
    static int segments = 1;
    /** --css-modes none,all: with --ks, the k rows once per search.concurrent_segment_search.mode (cluster setting). */
    static String[] cssModes = null;
    /** --css-slices N: search.concurrent.max_slice_count while --css-modes runs (0: the node's default). */
    static int cssSlices = 0;
    static final int PLANT = 11; // distances 0..10

    static HttpClient http;
    static final List<String> rawLines = Collections.synchronizedList(new ArrayList<>());
    static final StringBuilder md = new StringBuilder();
    static final Map<String, Object> facts = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--url" -> url = args[++i];
                case "--docs" -> docs = Long.parseLong(args[++i]);
                case "--probes" -> probes = Integer.parseInt(args[++i]);
                case "--queries" -> queries = Integer.parseInt(args[++i]);
                case "--script-queries" -> scriptQueries = Integer.parseInt(args[++i]);
                case "--scan-queries" -> scanQueries = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--layouts" -> layoutsArg = args[++i];
                case "--index" -> index = args[++i];
                case "--reuse" -> reuse = true;
                case "--load-only" -> loadOnly = true;
                case "--check-floor" -> checkFloor = args[++i];
                case "--ingest-rounds" -> ingestRounds = Integer.parseInt(args[++i]);
                case "--reps" -> {
                    onlyReps = new HashSet<>(Arrays.asList(args[++i].split(",")));
                    onlyReps.add("base");
                }
                case "--skip-ingest" -> skipIngest = true;
                case "--eval" -> evalDir = args[++i];
                case "--out" -> outDir = Paths.get(args[++i]);
                case "--bulk-docs" -> bulkDocs = Integer.parseInt(args[++i]);
                case "--results" -> resultsName = args[++i];
                case "--ks" -> ks = Arrays.stream(args[++i].split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
                case "--shards" -> shards = Integer.parseInt(args[++i]);
                case "--no-base" -> noBase = true;
                case "--segments" -> segments = Integer.parseInt(args[++i]);
                case "--css-modes" -> cssModes = args[++i].split(",");
                case "--css-slices" -> cssSlices = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (checkFloor != null) {
            checkFloor(checkFloor);
            return;
        }
        if (index == null) index = "bench" + docs + "_";
        if (resultsName == null) resultsName = docs >= 10_000_000 ? "RESULTS-10M.md" : "RESULTS.md";
        Files.createDirectories(outDir.resolve("raw"));
        http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .executor(Executors.newFixedThreadPool(8))
            .build();
        long started = System.nanoTime();
        log("target " + url + ", " + docs + " docs, " + probes + " probes x " + PLANT + " planted, seed " + seed);
        Map<?, ?> root = (Map<?, ?>) Json.parse(get("/"));
        facts.put("opensearch", ((Map<?, ?>) root.get("version")).get("number"));
        facts.put("plugins", get("/_cat/plugins?h=component,version").trim().replace('\n', ';'));
        facts.put("loadStart", cmd("cat", "/proc/loadavg"));
        try {
            Synthetic syn = new Synthetic();
            syn.run();
            if (loadOnly) {
                log("--load-only: loaded in " + (System.nanoTime() - started) / 1_000_000_000 + " s");
                System.exit(0);
            }
            IngestResult ingest = skipIngest ? null : new Ingest().run();
            writeResults(syn, ingest, (System.nanoTime() - started) / 1e9);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        log("done in " + (System.nanoTime() - started) / 1_000_000_000 + " s; wrote " + outDir.resolve(resultsName));
        System.exit(0);
    }

    /**
     * bench/check_scale.py's floor, measured in the same run as the check: the --docs fingerprints of the loaded indices
     * (the same {@link Data}, so the target's own values) in a plain {@code long[]}, and a batch of B probes at distance K
     * answered by a plain {@code Long.bitCount(v ^ q) <= K} loop, two ways: {@code naive}, one pass over the array per probe,
     * and {@code blocked}, blocks of 2,048 values compared with every probe before the next block (each value leaves
     * memory once per batch, as the column scan reads it). Each line read from stdin runs R batches of each (new probes
     * every time) and prints one JSON line: the median ms per batch of both. One core, this JVM.
     */
    static void checkFloor(String spec) throws IOException {
        String[] p = spec.split(",");
        int batch = Integer.parseInt(p[0]), k = Integer.parseInt(p[1]), reps = Integer.parseInt(p[2]);
        Data data = new Data(docs, probes, seed);
        long[] column = new long[Math.toIntExact(docs)];
        for (int i = 0; i < column.length; i++)
            column[i] = data.fp(i);
        SplittableRandom r = new SplittableRandom(seed + 26);
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        long sink = 0;
        System.out.println("{\"ready\":true,\"docs\":" + column.length + "}");
        System.out.flush();
        while (in.readLine() != null) {
            long[] naive = new long[reps], blocked = new long[reps];
            for (int rep = 0; rep < reps; rep++) {
                long[] q = new long[batch];
                for (int i = 0; i < batch; i++)
                    q[i] = r.nextLong();
                long t0 = System.nanoTime();
                sink += naiveLoop(column, q, k);
                naive[rep] = System.nanoTime() - t0;
                t0 = System.nanoTime();
                sink += blockedLoop(column, q, k);
                blocked[rep] = System.nanoTime() - t0;
            }
            Arrays.sort(naive);
            Arrays.sort(blocked);
            System.out.println(
                "{\"batch\":"
                    + batch
                    + ",\"k\":"
                    + k
                    + ",\"naive_ms\":"
                    + naive[reps / 2] / 1e6
                    + ",\"blocked_ms\":"
                    + blocked[reps / 2] / 1e6
                    + ",\"sink\":"
                    + (sink & 1)
                    + "}"
            );
            System.out.flush();
        }
    }

    /** The floor's loops, small methods so that the JIT compiles them whole (see {@link #checkFloor}). */
    static long naiveLoop(long[] column, long[] probes, int k) {
        long count = 0;
        for (long probe : probes)
            for (long v : column)
                if (Long.bitCount(v ^ probe) <= k) count++;
        return count;
    }

    static long blockedLoop(long[] column, long[] probes, int k) {
        long count = 0;
        for (int from = 0; from < column.length; from += 2048) {
            int to = Math.min(column.length, from + 2048);
            for (long probe : probes)
                for (int i = from; i < to; i++)
                    if (Long.bitCount(column[i] ^ probe) <= k) count++;
        }
        return count;
    }

    static void log(String s) {
        System.err.println("[bench " + LocalTime.now().withNano(0) + "] " + s);
    }

    // ---------------------------------------------------------------- HTTP
    static String send(String method, String path, String body, String contentType) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofMinutes(60));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", contentType);
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IOException(
                method + " " + path + " -> " + r.statusCode() + ": " + r.body().substring(0, Math.min(2000, r.body().length()))
            );
        }
        return r.body();
    }

    static String get(String path) throws Exception {
        return send("GET", path, null, null);
    }

    /**
     * A bulk request of documents with explicit ids (so a repeat is idempotent), retried with backoff on 429 (the
     * node's circuit breakers or write queue pushing back), as bulk clients are expected to.
     */
    static String bulkWithRetry(String path, String body) throws IOException, InterruptedException {
        for (int attempt = 1;; attempt++) {
            String r;
            try {
                r = send("POST", path, body, "application/x-ndjson");
            } catch (IOException e) {
                if (attempt < 10 && e.getMessage() != null && e.getMessage().contains("-> 429")) {
                    log("  bulk rejected with 429, retry " + attempt + " in " + attempt + " s");
                    Thread.sleep(1000L * attempt);
                    continue;
                }
                throw e;
            }
            if (r.contains("\"errors\":true")) {
                if (attempt < 10 && r.contains("\"status\":429")) {
                    log("  bulk items rejected with 429, retry " + attempt + " in " + attempt + " s");
                    Thread.sleep(1000L * attempt);
                    continue;
                }
                throw new IOException("bulk errors: " + r.substring(0, Math.min(1500, r.length())));
            }
            return r;
        }
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

    // ---------------------------------------------------------------- layouts (org.nearduplicate.core.keys.BlockLayout)
    /** check = the mapping's check_bits, -1 for the field's default. Key counts, widths and check bits are BlockLayout's. */
    record Layout(int blocks, int k, int check) {
        Layout(int blocks, int k) {
            this(blocks, k, -1);
        }

        String field() {
            return "fp_" + blocks + "_" + k + (check < 0 ? "" : "_c" + check);
        }

        String mapping() {
            return "{\"type\":\"simhash\",\"blocks\":"
                + blocks
                + ",\"max_distance\":"
                + k
                + (check < 0 ? "" : ",\"check_bits\":" + check)
                + "}";
        }

        String describe() {
            return blocks + " blocks, k_max " + k + (check < 0 ? "" : ", check_bits " + check);
        }

        boolean isDefault() {
            return blocks == 4 && k == 3 && check < 0;
        }

        /** the layout the node builds for this mapping */
        BlockLayout layout() {
            return new BlockLayout(blocks, k, check);
        }

        /** the check bits the field resolves to */
        int checkBits() {
            return layout().checkBits();
        }

        /** share of random candidates whose check bits are within k of the probe's */
        static double within(int bits, int k) {
            double w = 0;
            for (int d = 0; d <= Math.min(k, bits); d++)
                w += binom(bits, d);
            return w / Math.pow(2, bits);
        }

        int keys() {
            return layout().keyCount();
        }

        int width(int b) {
            return layout().blockWidth(b);
        }

        /** expected candidates per probe over n random fingerprints: sum over combinations of n / 2^kept bits. */
        double expectedCandidates(long n) {
            int[] combo = new int[blocks - k];
            return combos(0, 0, combo, n);
        }

        private double combos(int from, int depth, int[] combo, long n) {
            if (depth == combo.length) {
                int bits = 0;
                for (int b : combo)
                    bits += width(b);
                return n / Math.pow(2, bits);
            }
            double s = 0;
            for (int i = from; i <= blocks - (combo.length - depth); i++) {
                combo[depth] = i;
                s += combos(i + 1, depth + 1, combo, n);
            }
            return s;
        }

        int keyBytes() {
            return layout().keyBytes();
        }
    }

    // --ks: the field the forced scan runs on (a mapping promising k_max 0, so allow_scan at any k > 0 reads every fingerprint)
    static final int SCAN_KMAX = 0;
    static final String SCAN_FIELD = "fps";
    static final String SCAN_MAPPING = "{\"type\":\"simhash\",\"blocks\":4,\"max_distance\":" + SCAN_KMAX + "}";
    /** the layout of the default mapping {"type":"simhash"} (the --ks field fp), as SimHashFieldMapper builds it */
    static final BlockLayout DEFAULT_LAYOUT = new BlockLayout(SimHashFieldMapper.DEFAULT_BLOCKS, SimHashFieldMapper.DEFAULT_MAX_DISTANCE);

    /** keys a query at distance k probes on the default layout (SimHashQuery.checkProbeKeys: BlockLayout.probeKeyCount) */
    static long defaultProbeKeys(int k) {
        return SimHashQuery.checkProbeKeys(DEFAULT_LAYOUT, k, 1);
    }

    /** The default mapping's layout as the tables name it, read from the plugin's BlockLayout. */
    static String defaultLayoutText() {
        return DEFAULT_LAYOUT.blocks() + " blocks, k_max " + DEFAULT_LAYOUT.maxDistance() + ", check_bits " + DEFAULT_LAYOUT.checkBits();
    }

    /**
     * The path the default field's query for one probe at distance k takes on a segment of maxDoc documents: the very
     * query the node builds (no allow_scan, k within the mapping), asked its own cost model (SimHashQuery.scanIsCheaper).
     */
    static boolean defaultFieldScans(int k, long maxDoc) {
        return new SimHashQuery("fp", 0L, k, DEFAULT_LAYOUT, false).scanIsCheaper(Math.toIntExact(maxDoc));
    }

    /** The path the default field's query takes on one segment of {@code maxDoc} documents when the node's column cache is on. */
    static String defaultFieldPath(int k, long maxDoc) {
        return new SimHashQuery("fp", 0L, k, DEFAULT_LAYOUT, false).path(Math.toIntExact(maxDoc), true)
            .name()
            .toLowerCase(java.util.Locale.ROOT);
    }

    static long binom(int n, int k) {
        long r = 1;
        for (int i = 1; i <= k; i++)
            r = r * (n - k + i) / i;
        return r;
    }

    // ---------------------------------------------------------------- synthetic data set
    static String hex(long v) {
        return String.format("%016x", v);
    }

    /** fingerprint of document i: deterministic from the seed; planted neighbours are spread evenly through the ids. */
    static final class Data {
        final long n;
        final long[] probeFp;
        final long stride;

        Data(long n, int probes, long seed) {
            this.n = n;
            SplittableRandom r = new SplittableRandom(seed);
            probeFp = new long[probes];
            for (int i = 0; i < probes; i++)
                probeFp[i] = r.nextLong();
            stride = n / ((long) probes * PLANT);
            if (stride < 1) throw new IllegalArgumentException("too many probes for " + n + " docs");
        }

        /** planted slot of doc i (probe * PLANT + distance), or -1. */
        long planted(long i) {
            if (i % stride != 0) return -1;
            long j = i / stride;
            return j < (long) probeFp.length * PLANT ? j : -1;
        }

        long fp(long i) {
            long j = planted(i);
            long h = mix(seed * 0x9E3779B97F4A7C15L + i);
            if (j < 0) return h;
            int probe = (int) (j / PLANT), d = (int) (j % PLANT);
            long mask = 0;
            SplittableRandom r = new SplittableRandom(h);
            while (Long.bitCount(mask) < d)
                mask |= 1L << r.nextInt(64);
            return probeFp[probe] ^ mask;
        }

        static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /** ids of the planted docs of probe p within distance k. */
        Set<String> expected(int p, int k) {
            Set<String> s = new HashSet<>();
            for (int d = 0; d <= Math.min(k, PLANT - 1); d++)
                s.add(Long.toString(((long) p * PLANT + d) * stride)); // planted: 0..10
            return s;
        }
    }

    // ---------------------------------------------------------------- MinHash and I-Match data
    // Same ids and planted slots as Data: planted slot d of probe p is, for MinHash, a copy of the probe's signature
    // with exactly MH_KEEP[d] of the 128 values kept (at random positions) and the others replaced by random values,
    // so its estimated Jaccard with the probe is MH_KEEP[d] / 128; for I-Match, slots d <= IM_COPIES - 1 carry the
    // probe's key (exact copies), the others a random key.
    static final int MH = 128;
    static final double[] MH_SIM = { 1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6, 0.5, 0.4, 0.3 };
    static final int[] MH_KEEP = new int[PLANT];
    static {
        for (int d = 0; d < PLANT; d++)
            MH_KEEP[d] = (int) Math.ceil(MH_SIM[d] * MH - 1e-9);
    }
    static final int IM_COPIES = 3;

    static int[] mhProbe(long p) {
        SplittableRandom r = new SplittableRandom(Data.mix(seed * 0x632BE59BD9B4E019L + 0x5851F42D4C957F2DL * (p + 1)));
        int[] s = new int[MH];
        for (int i = 0; i < MH; i++)
            s[i] = r.nextInt();
        return s;
    }

    static int[] mhSig(Data data, long i) {
        SplittableRandom r = new SplittableRandom(Data.mix(seed * 0xC2B2AE3D27D4EB4FL + i));
        int[] s = new int[MH];
        for (int k = 0; k < MH; k++)
            s[k] = r.nextInt();
        long j = data.planted(i);
        if (j >= 0) {
            int[] ps = mhProbe(j / PLANT);
            int[] pos = new int[MH];
            for (int k = 0; k < MH; k++)
                pos[k] = k;
            int keep = MH_KEEP[(int) (j % PLANT)];
            for (int k = 0; k < keep; k++) {
                int x = k + r.nextInt(MH - k);
                int t = pos[k];
                pos[k] = pos[x];
                pos[x] = t;
                s[pos[k]] = ps[pos[k]];
            }
        }
        return s;
    }

    /** base64 of the values as big-endian 32-bit ints (MinHashSignatures.toBase64). */
    static String b64(int[] s) {
        byte[] b = new byte[s.length * 4];
        for (int i = 0; i < s.length; i++) {
            b[4 * i] = (byte) (s[i] >>> 24);
            b[4 * i + 1] = (byte) (s[i] >>> 16);
            b[4 * i + 2] = (byte) (s[i] >>> 8);
            b[4 * i + 3] = (byte) s[i];
        }
        return Base64.getEncoder().encodeToString(b);
    }

    static String imKey(long salt) {
        long a = Data.mix(salt), b = Data.mix(a ^ 0x9E3779B97F4A7C15L), c = Data.mix(b + 0x2545F4914F6CDD1DL);
        return String.format("%016x%016x%08x", a, b, c >>> 32);
    }

    static String imProbe(long p) {
        return imKey(seed * 0x3C6EF372FE94F82BL + 0xA54FF53A5F1D36F1L * (p + 1) + 7);
    }

    static String imDoc(Data data, long i) {
        long j = data.planted(i);
        if (j >= 0 && j % PLANT < IM_COPIES) return imProbe(j / PLANT);
        return imKey(seed * 0x1F83D9ABFB41BD6BL + i * 0x5BE0CD19137E2179L + 3);
    }

    /** ids of the planted MinHash neighbours of probe p with estimated Jaccard >= t. */
    static Set<String> mhExpected(Data data, int p, double t) {
        Set<String> s = new HashSet<>();
        for (int d = 0; d < PLANT; d++)
            if (MH_KEEP[d] / (double) MH >= t) s.add(Long.toString(((long) p * PLANT + d) * data.stride));
        return s;
    }

    static Set<String> imExpected(Data data, int p) {
        Set<String> s = new HashSet<>();
        for (int d = 0; d < IM_COPIES; d++)
            s.add(Long.toString(((long) p * PLANT + d) * data.stride));
        return s;
    }

    static String b16(long fp, int b) {
        return String.format("%04x", (fp >>> (48 - 16 * b)) & 0xFFFF);
    }

    // 5 blocks of 13,13,13,13,12 bits (most significant first), pair keys of two blocks
    static final int[] W5 = { 13, 13, 13, 13, 12 };

    static long block5(long fp, int b) {
        int start = 64;
        for (int i = 0; i <= b; i++)
            start -= W5[i];
        return (fp >>> start) & ((1L << W5[b]) - 1);
    }

    static final int[][] PAIRS = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } };

    static String pair(long fp, int p) {
        return Long.toHexString((block5(fp, PAIRS[p][0]) << 13) | block5(fp, PAIRS[p][1]));
    }

    record Stats(String name, int k, int conc, int n, double p50, double p95, double p99, double mean, double qps, double recall,
        long falseHits, double tookP50) {
    }

    final static class Synthetic {
        final Data data = new Data(docs, probes, seed);
        final List<Layout> layouts = new ArrayList<>();
        final List<Stats> stats = new ArrayList<>();
        long segmentsUnmerged;
        Stats unmerged;
        double floorP50, floorP99;

        Synthetic() {
            if (!layoutsArg.isBlank()) for (String s : layoutsArg.split(",")) {
                String[] p = s.trim().split(":");
                layouts.add(new Layout(Integer.parseInt(p[0]), Integer.parseInt(p[1]), p.length > 2 ? Integer.parseInt(p[2]) : -1));
            }
        }

        /** one index per representation, so that every method is queried on an index holding only what it needs. */
        /** doc gets the document's fingerprint, or its id when byId (representations with their own data). */
        /** {@code source}: the index keeps {@code _source} (the others disable it: their bytes are measured). */
        record Rep(String name, String props, java.util.function.BiConsumer<Long, StringBuilder> doc, boolean byId, boolean source) {
            Rep(String name, String props, java.util.function.BiConsumer<Long, StringBuilder> doc) {
                this(name, props, doc, false, false);
            }

            Rep(String name, String props, java.util.function.BiConsumer<Long, StringBuilder> doc, boolean byId) {
                this(name, props, doc, byId, false);
            }
        }

        final List<Rep> reps = new ArrayList<>();
        final Map<String, Map<String, Long>> files = new LinkedHashMap<>();
        final Map<String, Double> loadSecs = new LinkedHashMap<>();
        final Map<String, Double> mergeSecs = new LinkedHashMap<>();
        /** Segments of every index (primaries, all shards) as queried. */
        final Map<String, Long> segmentCounts = new LinkedHashMap<>();

        String idx(String rep) {
            return index + rep;
        }

        void run() throws Exception {
            reps.add(new Rep("base", "", (fp, sb) -> {}));
            reps.add(new Rep("fp", "\"fp\":{\"type\":\"simhash\"}", (fp, sb) -> sb.append("\"fp\":\"").append(hex(fp)).append('"')));
            // fps (only with --reps fps): signed documents as the simhash processor writes them (the default algorithm's object:
            // fingerprint, 32-byte signature, algorithm), random signatures, _source kept (bench/check_scale.py reads
            // target documents back to plant near-duplicates of them); ids are the document numbers, as everywhere
            reps.add(new Rep("fps", "\"fps\":{\"type\":\"simhash\"}", (i, sb) -> {
                sb.append("\"fps\":{\"fingerprint\":\"").append(hex(data.fp(i))).append("\",\"signature\":\"");
                SplittableRandom r = new SplittableRandom(Data.mix(seed * 0xD6E8FEB86659FD93L + i));
                for (int b = 0; b < 4; b++)
                    sb.append(hex(r.nextLong()));
                sb.append("\",\"algorithm\":\"").append(SIGNED_ALGORITHM).append("\"}");
            }, true, true));
            reps.add(new Rep("long", "\"fpl\":{\"type\":\"long\"}", (fp, sb) -> sb.append("\"fpl\":").append(fp)));
            StringBuilder h4 = new StringBuilder("\"fpl\":{\"type\":\"long\"}");
            for (int b = 0; b < 4; b++)
                h4.append(",\"b").append(b).append("\":{\"type\":\"keyword\",\"doc_values\":false}");
            reps.add(new Rep("hand4", h4.toString(), (fp, sb) -> {
                sb.append("\"fpl\":").append(fp);
                for (int b = 0; b < 4; b++)
                    sb.append(",\"b").append(b).append("\":\"").append(b16(fp, b)).append('"');
            }));
            StringBuilder h10 = new StringBuilder("\"fpl\":{\"type\":\"long\"}");
            for (int p = 0; p < 10; p++)
                h10.append(",\"p").append(p).append("\":{\"type\":\"keyword\",\"doc_values\":false}");
            reps.add(new Rep("hand10", h10.toString(), (fp, sb) -> {
                sb.append("\"fpl\":").append(fp);
                for (int p = 0; p < 10; p++)
                    sb.append(",\"p").append(p).append("\":\"").append(pair(fp, p)).append('"');
            }));
            for (Layout l : layouts) {
                reps.add(
                    new Rep(
                        l.field(),
                        "\"" + l.field() + "\":" + l.mapping(),
                        (fp, sb) -> sb.append('"').append(l.field()).append("\":\"").append(hex(fp)).append('"')
                    )
                );
            }
            reps.add(
                new Rep(
                    "minhash",
                    "\"mh\":{\"type\":\"minhash\"}",
                    (i, sb) -> sb.append("\"mh\":\"").append(b64(mhSig(data, i))).append('"'),
                    true
                )
            );
            reps.add(
                new Rep(
                    "imatch",
                    "\"im\":{\"type\":\"keyword\"}",
                    (i, sb) -> sb.append("\"im\":\"").append(imDoc(data, i)).append('"'),
                    true
                )
            );
            if (ks != null && scanQueries > 0) {
                // --ks: the forced scan runs on a simhash field whose mapping promises k_max 0 (one 64-bit key, no check
                // bits), queried with allow_scan: every k > 0 exceeds its mapping, so every fingerprint is read
                reps.add(
                    new Rep(
                        "fpscan",
                        "\"" + SCAN_FIELD + "\":" + SCAN_MAPPING,
                        (fp, sb) -> sb.append("\"" + SCAN_FIELD + "\":\"").append(hex(fp)).append('"')
                    )
                );
                if (onlyReps == null) onlyReps = new HashSet<>(List.of("base", "fp", "long"));
                onlyReps.add("fpscan");
            }
            if (ks != null && onlyReps == null) onlyReps = new HashSet<>(List.of("base", "fp", "long"));
            if (onlyReps != null) reps.removeIf(r -> !onlyReps.contains(r.name));
            if (onlyReps == null || !onlyReps.contains("fps")) reps.removeIf(r -> r.name.equals("fps"));
            if (noBase) reps.removeIf(r -> r.name.equals("base"));
            for (Rep r : reps) {
                long have = -1;
                try {
                    have = ((Number) ((Map<?, ?>) Json.parse(get("/" + idx(r.name) + "/_count"))).get("count")).longValue();
                } catch (IOException e) {}
                if (reuse && have == docs) {
                    log("reusing index " + idx(r.name) + " (" + have + " docs)");
                } else {
                    load(r);
                    if (r.name.equals("fp")) {
                        files.put("fp", Map.of());
                        unmerged = measure(
                            "near_duplicate (un-merged segments)",
                            3,
                            1,
                            Math.min(queries, 500),
                            0,
                            "fp",
                            p -> ndQuery("fp", p, 3, false),
                            100
                        );
                        Map<?, ?> segs = (Map<?, ?>) Json.parse(get("/" + idx(r.name) + "/_stats/segments,store"));
                        Map<?, ?> prim = (Map<?, ?>) ((Map<?, ?>) segs.get("_all")).get("primaries");
                        segmentsUnmerged = ((Number) ((Map<?, ?>) prim.get("segments")).get("count")).longValue();
                    }
                    long t = System.nanoTime();
                    if (segments > 0) post("/" + idx(r.name) + "/_forcemerge?max_num_segments=" + segments, "");
                    post("/" + idx(r.name) + "/_refresh", "");
                    mergeSecs.put(r.name, (System.nanoTime() - t) / 1e9);
                    log("  force-merged " + idx(r.name) + " in " + (int) ((System.nanoTime() - t) / 1e9) + " s");
                }
                Map<?, ?> segCount = (Map<?, ?>) Json.parse(get("/" + idx(r.name) + "/_stats/segments"));
                segmentCounts.put(
                    r.name,
                    num((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) segCount.get("_all")).get("primaries")).get("segments"), "count")
                );
                Map<?, ?> st = (Map<?, ?>) Json.parse(get("/" + idx(r.name) + "/_stats/segments,store?include_segment_file_sizes=true"));
                Map<?, ?> prim = (Map<?, ?>) ((Map<?, ?>) st.get("_all")).get("primaries");
                Map<String, Long> fsz = new LinkedHashMap<>();
                fsz.put("store", num((Map<?, ?>) prim.get("store"), "size_in_bytes"));
                Map<?, ?> fileSizes = (Map<?, ?>) ((Map<?, ?>) prim.get("segments")).get("file_sizes");
                for (Map.Entry<?, ?> e : fileSizes.entrySet())
                    fsz.put((String) e.getKey(), num((Map<?, ?>) e.getValue(), "size_in_bytes"));
                files.put(r.name, fsz);
            }
            Files.writeString(outDir.resolve("raw/file_sizes_" + docs + ".json"), Json.write(files));
            if (loadOnly) return; // --load-only: the indices are the product (e.g. bench/check_scale.py's target)
            queries();
        }

        /** bytes per doc of one component of a representation, minus the same component of the base index (_id etc.). */
        double per(String rep, String... exts) {
            long v = 0;
            for (String e : exts)
                if (files.containsKey("base")) v += files.get(rep).getOrDefault(e, 0L) - files.get("base").getOrDefault(e, 0L);
                else return Double.NaN;
            return v / (double) docs;
        }

        void load(Rep rep) throws Exception {
            String index = idx(rep.name);
            delete("/" + index);
            put(
                "/" + index,
                "{\"settings\":{\"number_of_shards\":"
                    + shards
                    + ",\"number_of_replicas\":0,\"refresh_interval\":\"-1\","
                    + "\"index.translog.durability\":\"async\",\"index.translog.flush_threshold_size\":\"2gb\"},"
                    + "\"mappings\":{\"_source\":{\"enabled\":"
                    + rep.source
                    + "},\"properties\":{"
                    + rep.props
                    + "}}}"
            );
            log("loading " + docs + " docs into " + index + " (bulk " + bulkDocs + ", " + bulkThreads + " threads)");
            AtomicLong next = new AtomicLong(), bytes = new AtomicLong(), done = new AtomicLong();
            long t = System.nanoTime();
            ExecutorService ex = Executors.newFixedThreadPool(bulkThreads);
            List<Future<?>> fs = new ArrayList<>();
            for (int th = 0; th < bulkThreads; th++)
                fs.add(ex.submit(() -> {
                    StringBuilder sb = new StringBuilder(bulkDocs * 400);
                    while (true) {
                        long from = next.getAndAdd(bulkDocs);
                        if (from >= docs) return null;
                        long to = Math.min(docs, from + bulkDocs);
                        sb.setLength(0);
                        for (long i = from; i < to; i++) {
                            sb.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n{");
                            rep.doc.accept(rep.byId ? i : data.fp(i), sb);
                            sb.append("}\n");
                        }
                        String body = sb.toString();
                        String r = bulkWithRetry("/" + index + "/_bulk", body);
                        bytes.addAndGet(body.length());
                        long d = done.addAndGet(to - from);
                        if ((d / bulkDocs) % 200 == 0) log("  " + d + " docs, " + (long) (d / ((System.nanoTime() - t) / 1e9)) + " docs/s");
                    }
                }));
            try {
                for (Future<?> f : fs)
                    f.get();
            } finally {
                ex.shutdownNow();
            }
            post("/" + index + "/_refresh", "");
            double sec = (System.nanoTime() - t) / 1e9;
            loadSecs.put(rep.name, sec);
            log("  loaded in " + (int) sec + " s (" + (long) (docs / sec) + " docs/s)");
        }

        String ndQuery(String field, int p, int k, boolean scan) {
            return "{\"size\":20,\"_source\":false,\"query\":{\"near_duplicate\":{\"field\":\""
                + field
                + "\",\"fingerprint\":\""
                + hex(pf(p))
                + "\",\"max_distance\":"
                + k
                + (scan ? ",\"allow_scan\":true" : "")
                + "}}}";
        }

        static final String HAMMING = "Long.bitCount(doc['fpl'].value ^ params.p) <= params.k";

        String script(int p, int k) {
            return "{\"script\":{\"script\":{\"lang\":\"painless\",\"source\":\""
                + HAMMING
                + "\",\"params\":{\"p\":"
                + pf(p)
                + ",\"k\":"
                + k
                + "}}}}";
        }

        String scriptQuery(int p, int k) {
            return "{\"size\":20,\"_source\":false,\"query\":{\"bool\":{\"filter\":[" + script(p, k) + "]}}}";
        }

        String hand4(int p, int k) {
            long fp = pf(p);
            StringBuilder s = new StringBuilder("{\"size\":20,\"_source\":false,\"query\":{\"bool\":{\"filter\":[{\"bool\":{\"should\":[");
            for (int b = 0; b < 4; b++)
                s.append(b == 0 ? "" : ",").append("{\"term\":{\"b").append(b).append("\":\"").append(b16(fp, b)).append("\"}}");
            return s.append("],\"minimum_should_match\":1}},").append(script(p, k)).append("]}}}").toString();
        }

        String hand10(int p, int k) {
            long fp = pf(p);
            StringBuilder s = new StringBuilder("{\"size\":20,\"_source\":false,\"query\":{\"bool\":{\"filter\":[{\"bool\":{\"should\":[");
            for (int q = 0; q < 10; q++)
                s.append(q == 0 ? "" : ",").append("{\"term\":{\"p").append(q).append("\":\"").append(pair(fp, q)).append("\"}}");
            return s.append("],\"minimum_should_match\":1}},").append(script(p, k)).append("]}}}").toString();
        }

        String mhQuery(int p, double t, boolean scan) {
            return "{\"size\":20,\"_source\":false,\"query\":{\"minhash_similar\":{\"field\":\"mh\",\"signature\":\""
                + b64(mhProbe(p >= 0 ? p : 1_000_000_000L - p))
                + "\",\"min_similarity\":"
                + t
                + (scan ? ",\"candidates\":\"scan\"" : "")
                + "}}}";
        }

        String imQuery(int p) {
            return "{\"size\":20,\"_source\":false,\"query\":{\"term\":{\"im\":\"" + imProbe(p >= 0 ? p : 1_000_000_000L - p) + "\"}}}";
        }

        M mh(double t, boolean scan, int n, int warm) {
            M m = m(
                "minhash_similar min_similarity " + t + (scan ? " (candidates: scan)" : " (LSH 32x4)"),
                -1,
                "minhash",
                n,
                warm,
                p -> mhQuery(p, t, scan)
            );
            m.exp = p -> mhExpected(data, p, t);
            return m;
        }

        M im() {
            M m = m("imatch key: term query on a keyword field", -1, "imatch", queries, 200, this::imQuery);
            m.exp = p -> imExpected(data, p);
            return m;
        }

        /** probe p >= 0: planted probe p; p < 0: a random warm-up probe with no planted neighbours. */
        long pf(int p) {
            return p >= 0 ? data.probeFp[p] : Data.mix(~(long) p * 31 + seed);
        }

        interface Q {
            String body(int probe);
        }

        /** runs n queries at concurrency conc; probes offset.. offset+n-1 (mod probes), so every query has a distinct probe when n <= probes. */
        /** one method under test: its own probes, latencies and recall counters. */
        final class M {
            final String name, rep;
            final int k, n, warmup;
            final Q q;
            java.util.function.IntFunction<Set<String>> exp; // planted ids a query of probe p must find (default: within k)
            final long[] lat;
            final double[] took;
            final long[] totals; // hits.total.value per query
            final AtomicLong found = new AtomicLong(), expected = new AtomicLong(), falseHits = new AtomicLong();
            long nanos;

            M(String name, int k, String rep, int n, int warmup, Q q) {
                this.name = name;
                this.k = k;
                this.rep = rep;
                this.n = n;
                this.warmup = warmup;
                this.q = q;
                lat = new long[n];
                took = new double[n];
                totals = new long[n];
            }

            String path() {
                return "/" + idx(rep) + "/_search?request_cache=false";
            }
        }

        M m(String name, int k, String rep, int n, int warmup, Q q) {
            return new M(name, k, rep, n, warmup, q);
        }

        Stats measure(String name, int k, int conc, int n, int offset, String rep, Q q, int warmup) throws Exception {
            List<Stats> r = measureGroup(List.of(m(name, k, rep, n, warmup, q)), conc, offset, 1);
            return r.isEmpty() ? null : r.get(0);
        }

        /**
         * Runs the methods of a group interleaved: {@code rounds} rounds, each running the next slice of every method's
         * queries, so that the machine's background noise hits all methods alike. Every query uses a distinct probe
         * (offset + i mod probes); all methods see the same probe sequence.
         */
        List<Stats> measureGroup(List<M> group, int conc, int offset, int rounds) throws Exception {
            return measureGroup(group, conc, offset, rounds, null);
        }

        /** The same; {@code perRound} (if not null) runs after every round, e.g. the floor loop sharing the rounds' noise. */
        List<Stats> measureGroup(List<M> group, int conc, int offset, int rounds, java.util.function.IntConsumer perRound)
            throws Exception {
            List<M> ms = new ArrayList<>();
            for (M m : group)
                if (files.containsKey(m.rep)) ms.add(m);
            for (M m : ms)
                for (int i = 0; i < m.warmup; i++)
                    post(m.path(), m.q.body(-1 - i - offset));
            ExecutorService ex = Executors.newFixedThreadPool(conc);
            try {
                for (int r = 0; r < rounds; r++) {
                    for (M m : ms) {
                        int from = (int) ((long) r * m.n / rounds), to = (int) ((long) (r + 1) * m.n / rounds);
                        if (to > from) runChunk(ex, m, conc, offset, from, to);
                    }
                    if (perRound != null) perRound.accept(r);
                }
            } finally {
                ex.shutdownNow();
            }
            List<Stats> out = new ArrayList<>();
            for (M m : ms) {
                long[] s = m.lat.clone();
                Arrays.sort(s);
                double[] tks = m.took.clone();
                Arrays.sort(tks);
                double mean = Arrays.stream(m.lat).average().orElse(0) / 1e6;
                Stats st = new Stats(
                    m.name,
                    m.k,
                    conc,
                    m.n,
                    pct(s, 50),
                    pct(s, 95),
                    pct(s, 99),
                    mean,
                    m.n / (m.nanos / 1e9),
                    m.expected.get() == 0 ? Double.NaN : m.found.get() / (double) m.expected.get(),
                    m.falseHits.get(),
                    tks[tks.length / 2]
                );
                log(
                    String.format(
                        Locale.ROOT,
                        "  %-48s k=%d c=%d n=%d p50 %.3f p95 %.3f p99 %.3f ms, %.0f q/s, recall %.3f",
                        m.name,
                        m.k,
                        conc,
                        m.n,
                        st.p50,
                        st.p95,
                        st.p99,
                        st.qps,
                        st.recall
                    )
                );
                rawLines.add(
                    String.format(
                        Locale.ROOT,
                        "%s\t%d\t%d\t%s",
                        m.name,
                        m.k,
                        conc,
                        Arrays.toString(Arrays.stream(m.lat).mapToDouble(x -> x / 1e6).toArray())
                    )
                );
                out.add(st);
            }
            return out;
        }

        void runChunk(ExecutorService ex, M m, int conc, int offset, int from, int to) throws Exception {
            AtomicInteger next = new AtomicInteger(from);
            String path = m.path();
            List<Future<?>> fs = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int c = 0; c < conc; c++)
                fs.add(ex.submit(() -> {
                    int i;
                    while ((i = next.getAndIncrement()) < to) {
                        int p = (offset + i) % probes;
                        String body = m.q.body(p);
                        long t = System.nanoTime();
                        String r = post(path, body);
                        m.lat[i] = System.nanoTime() - t;
                        int tk = r.indexOf("\"took\":");
                        m.took[i] = Integer.parseInt(r.substring(tk + 7, r.indexOf(',', tk)));
                        int tv = r.indexOf("\"total\":{\"value\":");
                        if (tv >= 0) {
                            tv += 17;
                            int e = tv;
                            while (Character.isDigit(r.charAt(e)))
                                e++;
                            m.totals[i] = Long.parseLong(r.substring(tv, e));
                        }
                        if (m.k >= 0 || m.exp != null) {
                            Set<String> exp = m.exp != null ? m.exp.apply(p) : data.expected(p, m.k);
                            Set<String> got = new HashSet<>();
                            int at = 0;
                            while ((at = r.indexOf("\"_id\":\"", at)) >= 0) {
                                at += 7;
                                got.add(r.substring(at, r.indexOf('"', at)));
                            }
                            m.expected.addAndGet(exp.size());
                            for (String id : got)
                                if (exp.contains(id)) m.found.incrementAndGet();
                                else m.falseHits.incrementAndGet();
                        }
                    }
                    return null;
                }));
            for (Future<?> f : fs)
                f.get();
            m.nanos += System.nanoTime() - t0;
        }

        static double pct(long[] sorted, double p) {
            int idx = (int) Math.ceil(p / 100 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 1e6;
        }

        void add(Stats st) {
            if (st != null) stats.add(st);
        }

        /** --ks: one row per k, the three methods and the round-trip floor measured in the same interleaved group. */
        record KsRow(int k, Stats floor, Stats nd, Stats scan, Stats script, double ndHits, double scanHits, double scriptHits,
            String agree, double loopP50, String mode, NodeSnap before, NodeSnap after, String slowest) {
        }

        /** What the node's `_nodes/_local/stats` says about its JVM, the near_duplicate breaker and the search pool. */
        record NodeSnap(long youngCount, long youngMs, long oldCount, long oldMs, long heapUsed, long heapMax, long breakerBytes,
            long breakerTripped, long searchRejected, long searchCompleted) {
        }

        static NodeSnap nodeSnap() throws Exception {
            Map<?, ?> nodes = (Map<?, ?>) ((Map<?, ?>) Json.parse(get("/_nodes/_local/stats/jvm,breaker,thread_pool"))).get("nodes");
            Map<?, ?> n = (Map<?, ?>) nodes.values().iterator().next();
            Map<?, ?> jvm = (Map<?, ?>) n.get("jvm");
            Map<?, ?> gcs = (Map<?, ?>) ((Map<?, ?>) jvm.get("gc")).get("collectors");
            Map<?, ?> young = (Map<?, ?>) gcs.get("young"), old = (Map<?, ?>) gcs.get("old");
            Map<?, ?> mem = (Map<?, ?>) jvm.get("mem");
            Map<?, ?> br = (Map<?, ?>) ((Map<?, ?>) n.get("breakers")).get("near_duplicate");
            Map<?, ?> search = (Map<?, ?>) ((Map<?, ?>) n.get("thread_pool")).get("search");
            return new NodeSnap(
                num(young, "collection_count"),
                num(young, "collection_time_in_millis"),
                num(old, "collection_count"),
                num(old, "collection_time_in_millis"),
                num(mem, "heap_used_in_bytes"),
                num(mem, "heap_max_in_bytes"),
                br == null ? -1 : num(br, "estimated_size_in_bytes"),
                br == null ? -1 : num(br, "tripped"),
                num(search, "rejected"),
                num(search, "completed")
            );
        }

        /**
         * The 5 slowest queries of a method: latency (server took) @ query index; * marks the first query of one of the
         * group's 10 rounds (the first after the other methods ran).
         */
        static String slowest(M m, int rounds) {
            if (m == null || m.n == 0) return "";
            Set<Integer> firsts = new HashSet<>();
            for (int r = 0; r < rounds; r++)
                firsts.add((int) ((long) r * m.n / rounds));
            Integer[] order = new Integer[m.n];
            for (int i = 0; i < m.n; i++)
                order[i] = i;
            Arrays.sort(order, (a, b) -> Long.compare(m.lat[b], m.lat[a]));
            List<Double> first = new ArrayList<>(), rest = new ArrayList<>();
            for (int i = 0; i < m.n; i++)
                (firsts.contains(i) ? first : rest).add(m.took[i]);
            Collections.sort(first);
            Collections.sort(rest);
            StringBuilder sb = new StringBuilder();
            sb.append(f(first.get(first.size() / 2))).append(" / ").append(f(rest.get(rest.size() / 2))).append(" | ");
            for (int j = 0; j < Math.min(5, m.n); j++) {
                int i = order[j];
                if (j > 0) sb.append(", ");
                sb.append(f(m.lat[i] / 1e6))
                    .append(" (")
                    .append((long) m.took[i])
                    .append(") @")
                    .append(i)
                    .append(firsts.contains(i) ? "*" : "");
            }
            return sb.toString();
        }

        /** The same fingerprints in a plain long[] (issue 26's floor: one core, the same machine, the same run). */
        long[] loopColumn;

        /** p50 in ms of a plain {@code Long.bitCount(v ^ q) <= k} loop over every indexed fingerprint, over 50 probes. */
        double loopFloorP50(int k) {
            return loopFloorP50(k, 50, 5, 0);
        }

        /** The same over {@code n} probes from {@code from} after {@code warm} unmeasured ones; the median of those n. */
        double loopFloorP50(int k, int n, int warm, int from) {
            if (loopColumn == null) {
                loopColumn = new long[Math.toIntExact(data.n)];
                for (int i = 0; i < loopColumn.length; i++)
                    loopColumn[i] = data.fp(i);
            }
            long[] times = new long[n];
            long sink = 0;
            for (int round = -warm; round < times.length; round++) {
                long q = data.probeFp[Math.floorMod(from + round, data.probeFp.length)];
                long t0 = System.nanoTime();
                int count = 0;
                for (long v : loopColumn)
                    if (Long.bitCount(v ^ q) <= k) count++;
                long t = System.nanoTime() - t0;
                sink += count;
                if (round >= 0) times[round] = t;
            }
            if (sink == Long.MIN_VALUE) log("unreachable");
            Arrays.sort(times);
            return times[times.length / 2] / 1e6;
        }

        final List<KsRow> ksRows = new ArrayList<>();

        static Stats statsOf(List<Stats> l, M m) {
            if (m == null) return null;
            for (Stats s : l)
                if (s.name.equals(m.name) && s.k == m.k) return s;
            return null;
        }

        static double meanHits(M m) {
            return m == null ? Double.NaN : Arrays.stream(m.totals).average().orElse(Double.NaN);
        }

        void ksQueries() throws Exception {
            if (cssModes == null) {
                ksQueries(null);
                return;
            }
            try {
                for (String mode : cssModes) {
                    put(
                        "/_cluster/settings",
                        "{\"transient\":{\"search.concurrent_segment_search.mode\":\""
                            + mode
                            + "\",\"search.concurrent.max_slice_count\":"
                            + (cssSlices > 0 ? String.valueOf(cssSlices) : "null")
                            + "}}"
                    );
                    log("search.concurrent_segment_search.mode = " + mode + (cssSlices > 0 ? ", max_slice_count " + cssSlices : ""));
                    ksQueries(mode);
                }
            } finally {
                put(
                    "/_cluster/settings",
                    "{\"transient\":{\"search.concurrent_segment_search.mode\":null,\"search.concurrent.max_slice_count\":null}}"
                );
            }
        }

        void ksQueries(String mode) throws Exception {
            log(
                "any-k queries (request_cache=false, distinct probes per query, size 20, concurrency 1, methods interleaved in 10 rounds), k = "
                    + Arrays.toString(ks)
            );
            int nFloor = Math.min(queries, 500);
            for (int k : ks) {
                M floor = m(
                    "round-trip floor (match_none, size 0)",
                    -1,
                    "fp",
                    nFloor,
                    100,
                    p -> "{\"size\":0,\"query\":{\"match_none\":{}}}"
                );
                M nd = m(
                    "near_duplicate, default simhash field (" + defaultLayoutText() + ")",
                    k,
                    "fp",
                    queries,
                    200,
                    p -> ndQuery("fp", p, k, false)
                );
                M scan = k > SCAN_KMAX && files.containsKey("fpscan")
                    ? m(
                        "near_duplicate allow_scan on a k_max " + SCAN_KMAX + " field (forced doc-values scan)",
                        k,
                        "fpscan",
                        scanQueries,
                        10,
                        p -> ndQuery(SCAN_FIELD, p, k, true)
                    )
                    : null;
                M script = m("painless brute-force script filter (long)", k, "long", scriptQueries, 3, p -> scriptQuery(p, k));
                List<M> g = new ArrayList<>(List.of(floor, nd));
                if (scan != null) g.add(scan);
                g.add(script);
                NodeSnap before = nodeSnap();
                // the floor loop runs 5 probes after every round of the group, so it shares the rounds' noise
                List<Long> loopTimes = new ArrayList<>();
                loopFloorP50(k, 1, 5, 0); // warm-up
                List<Stats> st = measureGroup(g, 1, 0, 10, r -> {
                    for (int i = 0; i < 5; i++)
                        loopTimes.add(Math.round(loopFloorP50(k, 1, 0, r * 5 + i) * 1e6));
                });
                Collections.sort(loopTimes);
                NodeSnap after = nodeSnap();
                stats.addAll(st);
                // every method saw the same probes (query i = probe i): their exact hit counts must agree
                StringBuilder agree = new StringBuilder();
                int bad = 0, compared = 0;
                for (M o : new M[] { scan, script }) {
                    if (o == null || statsOf(st, o) == null || statsOf(st, nd) == null) continue;
                    for (int i = 0; i < Math.min(o.n, nd.n); i++) {
                        compared++;
                        if (o.totals[i] != nd.totals[i]) {
                            bad++;
                            if (agree.length() < 200) agree.append(" probe ")
                                .append(i)
                                .append(": ")
                                .append(nd.totals[i])
                                .append(" vs ")
                                .append(o.totals[i]);
                        }
                    }
                }
                String ag = compared == 0 ? "n/a"
                    : bad == 0 ? "yes (" + compared + " pairs)"
                    : "**NO** (" + bad + " of " + compared + ":" + agree + ")";
                if (bad > 0) log("  hit counts differ at k=" + k + ":" + agree);
                ksRows.add(
                    new KsRow(
                        k,
                        statsOf(st, floor),
                        statsOf(st, nd),
                        statsOf(st, scan),
                        statsOf(st, script),
                        statsOf(st, nd) == null ? Double.NaN : meanHits(nd),
                        statsOf(st, scan) == null ? Double.NaN : meanHits(scan),
                        statsOf(st, script) == null ? Double.NaN : meanHits(script),
                        ag,
                        loopTimes.get(loopTimes.size() / 2) / 1e6,
                        mode,
                        before,
                        after,
                        statsOf(st, nd) == null ? "" : slowest(nd, 10)
                    )
                );
            }
        }

        void queries() throws Exception {
            if (ks != null) {
                ksQueries();
                return;
            }
            log("queries (request_cache=false, distinct probes per query, size 20, methods interleaved in 10 rounds)");
            int off = 0;
            for (int conc : new int[] { 1, 4 }) {
                List<M> k3 = new ArrayList<>();
                k3.add(
                    m(
                        "round-trip floor (match_none, size 0)",
                        -1,
                        files.containsKey("fp") ? "fp" : reps.get(reps.size() - 1).name,
                        queries,
                        200,
                        p -> "{\"size\":0,\"query\":{\"match_none\":{}}}"
                    )
                );
                k3.add(
                    m(
                        "near_duplicate (simhash default: " + defaultLayoutText() + ")",
                        3,
                        "fp",
                        queries,
                        200,
                        p -> ndQuery("fp", p, 3, false)
                    )
                );
                k3.add(m("hand-made pigeonhole 4x16-bit keyword keys + painless", 3, "hand4", queries, 200, p -> hand4(p, 3)));
                k3.add(m("hand-made pigeonhole 10 pair keys of 5 blocks + painless", 3, "hand10", queries, 200, p -> hand10(p, 3)));
                k3.add(m("painless brute-force script filter (long)", 3, "long", scriptQueries, 3, p -> scriptQuery(p, 3)));
                // (allow_scan at k <= k_max still uses the keys, so there is no scan row at k=3)
                k3.add(mh(0.8, false, queries, 200));
                k3.add(mh(0.4, false, queries, 200));
                k3.add(mh(0.4, true, scanQueries, 10));
                k3.add(im());
                for (Layout l : layouts)
                    if (l.k == 3) k3.add(
                        m(
                            "near_duplicate " + l.field() + " (" + l.describe() + ")",
                            3,
                            l.field(),
                            queries,
                            200,
                            p -> ndQuery(l.field(), p, 3, false)
                        )
                    );
                List<Stats> st3 = measureGroup(k3, conc, off, 10);
                stats.addAll(st3);
                if (conc == 1) for (Stats st : st3)
                    if (st.k < 0) {
                        floorP50 = st.p50;
                        floorP99 = st.p99;
                    }
                for (int k : new int[] { 6, 8 }) {
                    List<M> g = new ArrayList<>();
                    for (Layout l : layouts)
                        if (l.k >= k) g.add(
                            m(
                                "near_duplicate " + l.field() + " (" + l.describe() + ")",
                                k,
                                l.field(),
                                queries,
                                200,
                                p -> ndQuery(l.field(), p, k, false)
                            )
                        );
                    g.add(m("near_duplicate allow_scan (doc-values scan)", k, "fp", scanQueries, 10, p -> ndQuery("fp", p, k, true)));
                    g.add(m("painless brute-force script filter (long)", k, "long", scriptQueries, 3, p -> scriptQuery(p, k)));
                    stats.addAll(measureGroup(g, conc, off, 10));
                }
                off += queries;
            }
            // layouts measured at their own k_max for the trade-off table (k=3 layouts are in the k=3 group)
        }
    }

    // ---------------------------------------------------------------- ingest of the eval pages
    record IngestRun(String name, int docs, double seconds, long bytes) {
        double dps() {
            return docs / seconds;
        }

        double mbps() {
            return bytes / seconds / 1e6;
        }
    }

    record IngestResult(List<IngestRun> runs, int docs, long bytes, String note, long plainStore, long simhashStore) {
    }

    static final Map<String, Integer> rejected = new LinkedHashMap<>();
    static final Map<String, String> rejectedWhy = new LinkedHashMap<>();

    static final class Ingest {
        IngestResult run() throws Exception {
            Path file = Paths.get(evalDir, "docs.jsonl.gz");
            if (!Files.exists(file)) {
                log("skipping the ingest comparison: " + file + " is absent");
                return new IngestResult(List.of(), 0, 0, "skipped: " + file + " is absent", 0, 0);
            }
            List<String> contents = new ArrayList<>();
            try (
                BufferedReader r = new BufferedReader(
                    new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8)
                )
            ) {
                String line;
                while ((line = r.readLine()) != null) {
                    Map<?, ?> doc = (Map<?, ?>) Json.parse(line);
                    contents.add("{\"content\":" + Json.write(doc.get("content")) + "}");
                }
            }
            long bytes = 0;
            for (String c : contents)
                bytes += c.getBytes(StandardCharsets.UTF_8).length;
            log("ingest comparison: " + contents.size() + " eval documents, " + bytes / 1_000_000 + " MB of JSON");
            put("/_ingest/pipeline/bench-simhash", "{\"processors\":[{\"simhash\":{\"field\":\"content\",\"target_field\":\"fp\"}}]}");
            List<IngestRun> runs = new ArrayList<>();
            long plainStore = 0, simStore = 0;
            for (int round = 0; round < ingestRounds; round++) {
                for (boolean sim : new boolean[] { false, true }) {
                    String idx = sim ? "bench_ingest_simhash" : "bench_ingest_plain";
                    delete("/" + idx);
                    put(
                        "/" + idx,
                        "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"refresh_interval\":\"-1\"},"
                            + "\"mappings\":{\"properties\":{\"content\":{\"type\":\"text\",\"analyzer\":\"standard\"}"
                            + (sim ? ",\"fp\":{\"type\":\"simhash\"}" : "")
                            + "}}}"
                    );
                    String path = "/" + idx + "/_bulk" + (sim ? "?pipeline=bench-simhash" : "");
                    AtomicInteger next = new AtomicInteger();
                    AtomicInteger failed = new AtomicInteger();
                    java.util.concurrent.atomic.AtomicReference<String> firstError = new java.util.concurrent.atomic.AtomicReference<>();
                    int batch = 200;
                    long t = System.nanoTime();
                    ExecutorService ex = Executors.newFixedThreadPool(bulkThreads);
                    List<Future<?>> fs = new ArrayList<>();
                    for (int th = 0; th < bulkThreads; th++)
                        fs.add(ex.submit(() -> {
                            int from;
                            while ((from = next.getAndAdd(batch)) < contents.size()) {
                                StringBuilder sb = new StringBuilder();
                                for (int i = from; i < Math.min(contents.size(), from + batch); i++)
                                    sb.append("{\"index\":{}}\n").append(contents.get(i)).append('\n');
                                String r = send("POST", path, sb.toString(), "application/x-ndjson");
                                if (r.contains("\"errors\":true")) {
                                    // documents the pipeline rejects are counted and reported, not retried
                                    int at = 0, n = 0;
                                    while ((at = r.indexOf("\"error\":", at)) >= 0) {
                                        if (n++ == 0) {
                                            int rs = r.indexOf("\"reason\":\"", at);
                                            firstError.compareAndSet(null, rs < 0 ? "?" : r.substring(rs + 10, r.indexOf('"', rs + 10)));
                                        }
                                        at++;
                                    }
                                    failed.addAndGet(n);
                                }
                            }
                            return null;
                        }));
                    for (Future<?> f : fs)
                        f.get();
                    ex.shutdown();
                    post("/" + idx + "/_refresh", "");
                    double sec = (System.nanoTime() - t) / 1e9;
                    IngestRun run = new IngestRun(
                        sim ? "simhash pipeline + simhash field" : "plain (same text field, no pipeline)",
                        contents.size(),
                        sec,
                        bytes
                    );
                    log(
                        String.format(
                            Locale.ROOT,
                            "  round %d %-40s %.1f s, %.0f docs/s, %.2f MB/s, %d rejected",
                            round,
                            run.name(),
                            sec,
                            run.dps(),
                            run.mbps(),
                            failed.get()
                        )
                    );
                    if (failed.get() > 0) {
                        rejected.put(run.name(), failed.get());
                        log("  first rejection: " + firstError.get());
                        rejectedWhy.put(run.name(), firstError.get());
                    }
                    runs.add(run);
                    if (round == ingestRounds - 1) {
                        post("/" + idx + "/_forcemerge?max_num_segments=1", "");
                        // sum of the live segment files (the store figure right after a merge may still count deleted files)
                        Map<?, ?> st = (Map<?, ?>) Json.parse(get("/" + idx + "/_stats/segments?include_segment_file_sizes=true"));
                        Map<?, ?> fsz = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) st.get("_all")).get("primaries")).get(
                            "segments"
                        )).get("file_sizes");
                        long size = 0;
                        for (Object v : fsz.values())
                            size += num((Map<?, ?>) v, "size_in_bytes");
                        if (sim) simStore = size;
                        else plainStore = size;
                    }
                }
            }
            return new IngestResult(runs, contents.size(), bytes, "", plainStore, simStore);
        }
    }

    // ---------------------------------------------------------------- results
    static String f(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
    }

    static String cmd(String... c) {
        try {
            Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    static String mb(long bytes) {
        return bytes < 0 ? "n/a" : f(bytes / 1048576.0) + " MB";
    }

    static long num(Map<?, ?> m, String k) {
        Object o = m == null ? null : m.get(k);
        return o instanceof Number n ? n.longValue() : 0;
    }

    static void writeResults(Synthetic s, IngestResult ing, double seconds) throws Exception {
        String mem = cmd("sh", "-c", "free -g | awk '/Mem:/{print $2\" GB\"}'");
        md.append("# near-duplicate benchmark results\n\n");
        md.append(
            "Generated by `bench/run.sh` (`bench/Bench.java`); do not edit by hand. Re-run after any change to the engine or the query.\n\n"
        );
        md.append("| | |\n|---|---|\n");
        md.append("| date | ").append(ZonedDateTime.now(ZoneOffset.UTC).withNano(0)).append(" |\n");
        md.append("| machine | ")
            .append(cmd("nproc"))
            .append(" cores (`nproc`), ")
            .append(mem)
            .append(" RAM, ")
            .append(cmd("sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"))
            .append("; shared with other builds (noisy) |\n");
        md.append("| client JDK | ")
            .append(System.getProperty("java.vendor"))
            .append(' ')
            .append(System.getProperty("java.version"))
            .append(" (JDK HttpClient, HTTP/1.1 keep-alive) |\n");
        md.append("| OpenSearch | ")
            .append(facts.get("opensearch"))
            .append(" (integ-test distribution), single node, plugins: ")
            .append(facts.get("plugins"))
            .append(" |\n");
        md.append("| data | ")
            .append(docs)
            .append(" random 64-bit fingerprints (seed ")
            .append(seed)
            .append("), ")
            .append(probes)
            .append(" probes with planted neighbours at distances 0..10 (")
            .append(probes * PLANT)
            .append(" docs) |\n");
        if (s.files.containsKey("minhash")) md.append("| data, MinHash | ")
            .append(docs)
            .append(" random signatures of ")
            .append(MH)
            .append(
                " 32-bit values (base64 of big-endian ints, the field's default algorithm `minhash-v1:...,hashes=128`, 32 bands x 4 rows); per probe "
            )
            .append(PLANT)
            .append(" planted neighbours = the probe's signature with ")
            .append(Arrays.toString(MH_KEEP))
            .append(" of the 128 values kept at random positions, the rest random (estimated Jaccard ")
            .append(Arrays.toString(Arrays.stream(MH_KEEP).mapToObj(k -> f(k / (double) MH)).toArray()))
            .append(") |\n");
        if (s.files.containsKey("imatch")) md.append("| data, I-Match | ")
            .append(docs)
            .append(" random 40-hex keys (SHA-1-like, seeded) in a `keyword` field (doc values on, as `collapse` needs); per probe ")
            .append(IM_COPIES)
            .append(" planted exact copies of the probe's key |\n");
        md.append("| index | ")
            .append(shards)
            .append(shards == 1 ? " shard" : " shards")
            .append(", 0 replicas, `_source` disabled, loaded with `_bulk` (")
            .append(bulkDocs)
            .append(" docs, ")
            .append(bulkThreads)
            .append(" threads) and `refresh_interval: -1`, then ")
            .append(
                segments > 0
                    ? "force-merged to " + segments + (segments == 1 ? " segment" : " segments") + " per shard"
                    : "not force-merged"
            )
            .append("; segments as queried: ")
            .append(s.segmentCounts)
            .append(" |\n");
        md.append("| queries | HTTP round trip from a local client, `request_cache=false`, a distinct probe per query, `size: 20`, ")
            .append(queries)
            .append(" queries per fast method (")
            .append(scriptQueries)
            .append(" brute-force, ")
            .append(scanQueries)
            .append(" allow_scan) after a warm-up with other probes |\n");
        md.append("| run time | ").append((int) seconds).append(" s |\n\n");
        if (ks != null) {
            md.setLength(md.length() - 1); // inside the table above
            md.append("| load average (`/proc/loadavg`) | at the start ")
                .append(facts.get("loadStart"))
                .append("; at the end ")
                .append(cmd("cat", "/proc/loadavg"))
                .append(" (the node and this client included) |\n\n");
            ksResults(s);
            Files.writeString(outDir.resolve(resultsName), md.toString());
            Files.write(outDir.resolve("raw/latencies_" + docs + "_ks.tsv"), rawLines);
            return;
        }
        md.append(
            "k-NN (binary vectors, hamming space): **not measured** — the integ-test distribution has no k-NN plugin and Maven Central only has `org.opensearch.plugin:opensearch-knn` 2.19.1.0 and 3.5.0.0, none for 3.6.0 (plugins must match the node version exactly).\n\n"
        );

        // latency table
        Stats plugin1 = find(s.stats, "near_duplicate (simhash", 3, 1);
        md.append(
            "## Queries\n\nLatency is the client-side round trip in ms; `x plugin` is the method's p50 divided by the plugin's p50 at the same k and concurrency (k=6/8: divided by the best indexed layout). Recall = planted neighbours within k found / planted within k; \"other hits\" counts returned documents that are not planted neighbours of that probe (true matches that occur in the random data; every SimHash method here is exact, so they return the same documents). MinHash and I-Match rows (k = -, ratio against the SimHash k=3 row) run on their own data, interleaved with the SimHash methods: recall = planted neighbours with estimated Jaccard >= min_similarity found (MinHash; the LSH keys are exact from 0.758 up, S-curve recall below), planted exact copies found (I-Match). Negative size figures below are measurement noise of the base subtraction (a few KB).\n\n"
        );
        md.append(
            "| method | k | conc | p50 | p95 | p99 | mean | q/s | recall (other hits) | server `took` p50 (ms, integer) | x plugin (p50) |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
        );
        for (Stats st : s.stats) {
            Stats ref = st.k <= 3 ? find(s.stats, "near_duplicate (simhash", 3, st.conc) : bestIndexed(s.stats, st.k, st.conc);
            String ratio = st.name.startsWith("round-trip floor") || ref == null ? "" : f(st.p50 / ref.p50);
            md.append("| ")
                .append(st.name)
                .append(" | ")
                .append(st.k < 0 ? "-" : st.k)
                .append(" | ")
                .append(st.conc)
                .append(" | ")
                .append(f(st.p50))
                .append(" | ")
                .append(f(st.p95))
                .append(" | ")
                .append(f(st.p99))
                .append(" | ")
                .append(f(st.mean))
                .append(" | ")
                .append(f(st.qps))
                .append(" | ")
                .append(Double.isNaN(st.recall) ? "" : f(st.recall) + (st.falseHits > 0 ? " (" + st.falseHits + " false)" : ""))
                .append(" | ")
                .append(f(st.tookP50))
                .append(" | ")
                .append(ratio)
                .append(" |\n");
        }
        if (s.unmerged != null) {
            md.append("\nUn-merged (")
                .append(s.segmentsUnmerged)
                .append(" segments, right after the bulk load, before force-merge): near_duplicate k=3 c=1 p50 ")
                .append(f(s.unmerged.p50))
                .append(" ms, p99 ")
                .append(f(s.unmerged.p99))
                .append(" ms (n=")
                .append(s.unmerged.n)
                .append(").\n");
        }

        // sizes
        md.append("\n## Index size on disk\n\n");
        md.append(
            "Each representation lives in its own index (same documents, `_source` disabled, force-merged to 1 segment). Sizes come from `_stats/segments?include_segment_file_sizes=true` (OpenSearch has no per-field `_disk_usage` API); every figure is the index's bytes per document **minus those of a base index with the same ids and no fields** (the base is "
        )
            .append(
                f(
                    s.files.values()
                        .iterator()
                        .next()
                        .entrySet()
                        .stream()
                        .filter(e -> !e.getKey().equals("store"))
                        .mapToLong(Map.Entry::getValue)
                        .sum() / (double) docs
                )
            )
            .append(
                " bytes/doc: `_id`, sequence numbers). Stored fields (`.fdt`: the recovery source OpenSearch keeps for a while when `_source` is disabled) are left out. Terms = `.tim .tip .tmd .doc .pos .pay .psm` (the simhash keys' check bits are term frequencies, in `.doc`), doc values = `.dvd .dvm`, points = `.kdd .kdi .kdm`.\n\n"
            );
        md.append(
            "| representation | index | keys/doc | terms + postings | doc values | points | total (terms + doc values + points) | load docs/s |\n|---|---|---|---|---|---|---|---|\n"
        );
        sizeRow(s, "simhash field, default (" + defaultLayoutText() + ")", "fp", DEFAULT_LAYOUT.blocks());
        for (Layout l : s.layouts)
            sizeRow(s, "simhash field " + l.describe(), l.field(), l.keys());
        sizeRow(s, "long field (brute-force script)", "long", 0);
        sizeRow(s, "4 x 16-bit keyword keys + long field (hand-made)", "hand4", 4);
        sizeRow(s, "10 pair keys of 5 blocks + long field (hand-made)", "hand10", 10);
        sizeRow(s, "minhash field (128 values, 32 bands x 4 rows)", "minhash", 32);
        sizeRow(s, "imatch key: keyword field, one 40-hex key", "imatch", 1);
        perMethod(s);

        // trade-off table
        md.append(
            "\n## Block layouts: trade-off\n\nCandidates per query = expected number of random documents sharing at least one key with a probe (sum over key combinations of N / 2^kept bits, computed, not measured) plus the planted ones; fingerprint reads = the candidates whose check bits pass (x the share of random check values within k_max, computed); latency = measured p50 at concurrency 1.\n\n"
        );
        md.append(
            "| blocks | k_max | check bits | keys/doc | key bytes | kept bits/key | key index bytes/doc | expected candidates/query at N="
        )
            .append(docs)
            .append(
                " | at 10M | at 50M docs/shard | fingerprint reads at 10M | p50 ms at k=k_max |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            );
        List<Layout> all = new ArrayList<>();
        all.add(new Layout(4, 3));
        all.addAll(s.layouts);
        for (Layout l : all) {
            String field = l.isDefault() ? "fp" : l.field();
            if (!s.files.containsKey(field)) continue;
            Stats st = l.isDefault() ? plugin1 : find(s.stats, "near_duplicate " + field + " ", l.k, 1);
            if (!s.files.containsKey(field)) continue;
            int kept = 0;
            for (int b = l.k; b < l.blocks; b++)
                kept += l.width(b);
            double pass = l.checkBits() == 0 ? 1 : Layout.within(l.checkBits(), l.k);
            md.append("| ")
                .append(l.blocks)
                .append(" | ")
                .append(l.k)
                .append(" | ")
                .append(l.checkBits())
                .append(" | ")
                .append(l.keys())
                .append(" | ")
                .append(l.keyBytes())
                .append(" | ")
                .append(kept)
                .append(kept == keptMax(l) ? "" : ".." + keptMax(l))
                .append(" | ")
                .append(f(s.per(field, TERMS)))
                .append(" | ")
                .append(f(l.expectedCandidates(docs)))
                .append(" | ")
                .append(f(l.expectedCandidates(10_000_000)))
                .append(" | ")
                .append(f(l.expectedCandidates(50_000_000)))
                .append(" | ")
                .append(f(l.expectedCandidates(10_000_000) * pass))
                .append(" | ")
                .append(st == null ? "" : f(st.p50))
                .append(" |\n");
        }

        // ingest
        md.append("\n## Ingest\n\n");
        if (ing == null) md.append("Not run (`--skip-ingest`).\n");
        else if (ing.runs.isEmpty()) md.append(ing.note).append('\n');
        else {
            md.append(ing.docs)
                .append(" documents of `")
                .append(evalDir)
                .append("/docs.jsonl.gz` (")
                .append(f(ing.bytes / 1e6))
                .append(" MB of JSON, text and HTML, English and Chinese), `_bulk` of 200 docs with ")
                .append(bulkThreads)
                .append(
                    " client threads, 1 shard, `refresh_interval: -1`, timed up to the final refresh; "
                        + ingestRounds
                        + " alternating rounds, the median reported (each round's time is listed: this machine is shared, compare within a round). Both indices map `content` as `text` with the `standard` analyzer; the simhash one adds a `simhash` field `fp` filled by the `simhash` ingest processor (HTML extraction, analysis, SimHash).\n\n"
                );
            md.append(
                "| method | docs/s (median) | MB/s (median) | rounds (s) | segment files after merge (bytes/doc, with `_source`) |\n|---|---|---|---|---|\n"
            );
            double[] med = new double[2];
            for (int sim = 0; sim < 2; sim++) {
                final int fs = sim;
                List<IngestRun> rs = ing.runs.stream().filter(r -> r.name().startsWith(fs == 1 ? "simhash" : "plain")).toList();
                double[] secs = rs.stream().mapToDouble(IngestRun::seconds).sorted().toArray();
                double m = secs[secs.length / 2];
                med[sim] = ing.docs / m;
                md.append("| ")
                    .append(rs.get(0).name())
                    .append(" | ")
                    .append(f(ing.docs / m))
                    .append(" | ")
                    .append(f(ing.bytes / m / 1e6))
                    .append(" | ")
                    .append(String.join(", ", rs.stream().map(r -> f(r.seconds())).toList()))
                    .append(" | ")
                    .append(f((sim == 1 ? ing.simhashStore : ing.plainStore) / (double) ing.docs))
                    .append(" |\n");
            }
            if (!rejected.isEmpty()) md.append("\nRejected documents (counted in the time, last round): ")
                .append(rejected)
                .append(" — first reason: `")
                .append(rejectedWhy.values().iterator().next().replace('|', '/').replace('\n', ' '))
                .append("`\n");
            md.append("\nFingerprinting ingest throughput = **").append(f(100 * med[1] / med[0])).append(" %** of plain indexing.\n");
            facts.put("ingestRatio", med[1] / med[0]);
        }

        // targets
        md.append("\n## Targets (N = ").append(docs).append(")\n\n| target | measured | met |\n|---|---|---|\n");
        Stats script1 = find(s.stats, "painless brute-force", 3, 1), h4 = find(s.stats, "hand-made pigeonhole 4x16", 3, 1), h10 = find(
            s.stats,
            "hand-made pigeonhole 10 pair",
            3,
            1
        );
        target(
            "k=3 p50 <= 1 ms and within 2x of the round-trip floor",
            () -> f(plugin1.p50) + " ms (floor " + f(s.floorP50) + " ms, " + f(plugin1.p50 / s.floorP50) + "x)",
            () -> plugin1.p50 <= 1 && plugin1.p50 <= 2 * s.floorP50
        );
        target("k=3 p99 <= 5 ms", () -> f(plugin1.p99) + " ms", () -> plugin1.p99 <= 5);
        target(
            ">= 400x faster than the brute-force script (p50)",
            () -> f(script1.p50 / plugin1.p50) + "x",
            () -> script1.p50 / plugin1.p50 >= 400
        );
        target("faster than hand-made 4x16 keys (p50)", () -> f(h4.p50 / plugin1.p50) + "x", () -> h4.p50 > plugin1.p50);
        target("faster than hand-made 5-choose-2 pair keys (p50)", () -> f(h10.p50 / plugin1.p50) + "x", () -> h10.p50 > plugin1.p50);
        for (int k : new int[] { 6, 8 }) {
            Stats b = bestIndexed(s.stats, k, 1);
            target(
                "k=" + k + " served from the index",
                b == null ? "no layout with k_max >= " + k : b.name + ": p50 " + f(b.p50) + " ms, recall " + f(b.recall),
                b != null && b.recall == 1.0
            );
        }
        double keyBytes = s.per("fp", TERMS);
        target(
            "key overhead <= 40 bytes/doc at the default layout",
            f(keyBytes) + " bytes/doc (terms + postings of `fp`; + " + f(s.per("fp", DV)) + " bytes/doc fingerprint doc values)",
            keyBytes <= 40
        );
        if (facts.containsKey("ingestRatio")) {
            double r = (Double) facts.get("ingestRatio");
            target("ingest with fingerprinting >= 50% of plain", () -> f(100 * r) + " %", () -> r >= 0.5);
        }
        md.append("\n");
        Files.writeString(outDir.resolve(resultsName), md.toString());
        Files.write(outDir.resolve("raw/latencies_" + docs + ".tsv"), rawLines);
    }

    /** --ks results: per k, near_duplicate on the default field vs a forced scan vs painless, same probes, same group. */
    static void ksResults(Synthetic s) {
        md.append("## Any k on a real node: `near_duplicate` on the default field vs a forced scan vs painless\n\n");
        md.append(
            "One group per k, run at concurrency 1 with the methods interleaved in 10 rounds (so that the machine's noise hits them alike); every query of a group uses a distinct probe, and query i of every method uses the same probe i (a planted probe with neighbours at distances 0..10). Latency = client-side HTTP round trip in ms (`_search?request_cache=false`, `size: 20`, `_source: false`). The round-trip floor (`match_none`, `size: 0`) is measured in the same group.\n\n"
        );
        md.append(
            "* **near_duplicate**: `{\"near_duplicate\":{\"field\":\"fp\",\"max_distance\":k}}` on a field mapped `{\"type\":\"simhash\"}` (the default layout: "
        )
            .append(DEFAULT_LAYOUT.blocks())
            .append(" blocks, `max_distance` ")
            .append(DEFAULT_LAYOUT.maxDistance())
            .append(", ")
            .append(DEFAULT_LAYOUT.checkBits())
            .append(" check bits), index `")
            .append(s.idx("fp"))
            .append(
                "`. The query picks keys or a doc-values scan per segment by its cost model; the `path` column is that model evaluated for this index's single segment of "
            )
            .append(docs)
            .append(" documents (the plugin's `SimHashQuery.scanIsCheaper`, called by the bench: computed, not observed).\n");
        md.append("* **forced scan**: the same query with `\"allow_scan\": true` on a separate index `")
            .append(s.idx("fpscan"))
            .append("` whose field `")
            .append(SCAN_FIELD)
            .append("` is mapped `")
            .append(SCAN_MAPPING)
            .append("` (one 64-bit key, no check bits, same fingerprints, same doc values). Every k > ")
            .append(SCAN_KMAX)
            .append(
                " exceeds that mapping, so the query reads every document's fingerprint from doc values (`SimHashQuery` scan mode) — the cost `allow_scan` has on any field beyond its `max_distance`. At k = 0 the mapping covers k, so no scan can be forced: n/a. (`allow_scan: true` on the default field would not force a scan: up to its `max_distance` 16 the keys / cost model answer.)\n"
            );
        md.append("* **painless**: `bool.filter` of a `script` query `")
            .append(Synthetic.HAMMING)
            .append("` over a `long` field holding the same fingerprints (index `")
            .append(s.idx("long"))
            .append("`), i.e. the brute force a user would write without the plugin.\n\n");
        md.append(
            "Recall = planted neighbours within k found in the returned 20 hits / planted within k (planted distances are 0..10). `near_duplicate` sorts closest first, so its top 20 hold every planted neighbour; the painless filter is constant-score (index order), so at large k, where more than 20 documents match, its top 20 can miss planted ones: compare the exact hit counts instead (`hits` = mean `hits.total.value`, exact below 10,000). `counts agree` compares `hits.total.value` of near_duplicate with the scan's and painless's query by query on the probes they share.\n\n"
        );
        // documents per segment as queried (the force-merge target is a maximum: the merge policy may leave fewer)
        long segDocs = docs / Math.max(1, s.segmentCounts.getOrDefault("fp", (long) shards * Math.max(1, segments)));
        md.append(cssModes == null ? "" : "| concurrent segment search ")
            .append("| k | probed keys | path (1 segment of ")
            .append(segDocs)
            .append(
                ") | near_duplicate p50 / p95 / p99 | scan p50 / p99 | painless p50 / p99 | scan / nd (p50) | painless / nd (p50) | floor p50 / p99 | nd - floor (p50) | long[] loop p50 | nd / long[] loop (p50) | hits nd / scan / painless | recall nd / scan / painless | counts agree | n nd / scan / painless |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            );
        if (cssModes != null) md.setLength(md.length() - 1);
        if (cssModes != null) md.append("---|\n");
        for (Synthetic.KsRow r : s.ksRows) {
            long keys = defaultProbeKeys(r.k());
            if (cssModes != null) md.append("| `").append(r.mode()).append(cssSlices > 0 ? "`, " + cssSlices + " slices " : "` ");
            md.append("| ").append(r.k()).append(" | ").append(keys).append(" | ").append(defaultFieldPath(r.k(), segDocs)).append(" | ");
            md.append(r.nd() == null ? "" : "**" + f(r.nd().p50()) + "** / " + f(r.nd().p95()) + " / " + f(r.nd().p99())).append(" | ");
            md.append(r.scan() == null ? "n/a" : f(r.scan().p50()) + " / " + f(r.scan().p99())).append(" | ");
            md.append(r.script() == null ? "" : f(r.script().p50()) + " / " + f(r.script().p99())).append(" | ");
            md.append(r.scan() == null || r.nd() == null ? "" : f(r.scan().p50() / r.nd().p50()) + "x").append(" | ");
            md.append(r.script() == null || r.nd() == null ? "" : f(r.script().p50() / r.nd().p50()) + "x").append(" | ");
            md.append(r.floor() == null ? "" : f(r.floor().p50()) + " / " + f(r.floor().p99())).append(" | ");
            md.append(r.floor() == null || r.nd() == null ? "" : f(r.nd().p50() - r.floor().p50())).append(" | ");
            md.append(f(r.loopP50())).append(" | ");
            md.append(r.nd() == null ? "" : f(r.nd().p50() / r.loopP50()) + "x").append(" | ");
            md.append(f(r.ndHits())).append(" / ").append(f(r.scanHits())).append(" / ").append(f(r.scriptHits())).append(" | ");
            md.append(r.nd() == null ? "" : f(r.nd().recall()))
                .append(" / ")
                .append(r.scan() == null ? "n/a" : f(r.scan().recall()))
                .append(" / ")
                .append(r.script() == null ? "" : f(r.script().recall()))
                .append(" | ");
            md.append(r.agree()).append(" | ");
            md.append(r.nd() == null ? "" : r.nd().n())
                .append(" / ")
                .append(r.scan() == null ? "-" : r.scan().n())
                .append(" / ")
                .append(r.script() == null ? "" : r.script().n())
                .append(" |\n");
        }
        md.append(
            "\n### The node during each k group\n\nFrom `_nodes/_local/stats/jvm,breaker,thread_pool` right before and after the group (all its methods and rounds): garbage collections in the group (count / total ms), heap used after it, the `near_duplicate` breaker's estimate after it (the cached columns are reserved there), search-pool rejections in the group. `took` first / rest = the median server `took` (ms) of the 10 near_duplicate queries that open a round (the first after the other methods of the group ran) and of the others. Slowest = the 5 slowest near_duplicate queries of the group: round trip ms (server `took` ms) @ query index, `*` = the first query of a round (the first after the other methods of the group ran).\n\n"
        );
        md.append(cssModes == null ? "" : "| concurrent segment search ")
            .append(
                "| k | young GC n / ms | old GC n / ms | heap used after / max | near_duplicate breaker after | search rejected | near_duplicate `took` p50, first of a round / rest | slowest near_duplicate queries |\n|"
            )
            .append(cssModes == null ? "" : "---|")
            .append("---|---|---|---|---|---|---|---|\n");
        for (Synthetic.KsRow r : s.ksRows) {
            Synthetic.NodeSnap b = r.before(), a = r.after();
            if (cssModes != null) md.append("| `").append(r.mode()).append("` ");
            md.append("| ")
                .append(r.k())
                .append(" | ")
                .append(a.youngCount() - b.youngCount())
                .append(" / ")
                .append(a.youngMs() - b.youngMs())
                .append(" | ")
                .append(a.oldCount() - b.oldCount())
                .append(" / ")
                .append(a.oldMs() - b.oldMs())
                .append(" | ")
                .append(mb(a.heapUsed()))
                .append(" / ")
                .append(mb(a.heapMax()))
                .append(" | ")
                .append(mb(a.breakerBytes()))
                .append(" | ")
                .append(a.searchRejected() - b.searchRejected())
                .append(" | ")
                .append(r.slowest())
                .append(" |\n");
        }
        md.append(
            "\n### Every row, with the server's `took`\n\n| method | k | n | p50 | p95 | p99 | mean | q/s | recall | server `took` p50 (ms, integer) |\n|---|---|---|---|---|---|---|---|---|---|\n"
        );
        for (Stats st : s.stats) {
            md.append("| ")
                .append(st.name())
                .append(" | ")
                .append(st.k() < 0 ? "-" : st.k())
                .append(" | ")
                .append(st.n())
                .append(" | ")
                .append(f(st.p50()))
                .append(" | ")
                .append(f(st.p95()))
                .append(" | ")
                .append(f(st.p99()))
                .append(" | ")
                .append(f(st.mean()))
                .append(" | ")
                .append(f(st.qps()))
                .append(" | ")
                .append(Double.isNaN(st.recall()) ? "" : f(st.recall()))
                .append(" | ")
                .append(f(st.tookP50()))
                .append(" |\n");
        }
        if (s.unmerged != null) {
            md.append("\nUn-merged (")
                .append(s.segmentsUnmerged)
                .append(" segments, right after the bulk load, before force-merge): near_duplicate k=3 c=1 p50 ")
                .append(f(s.unmerged.p50()))
                .append(" ms, p99 ")
                .append(f(s.unmerged.p99()))
                .append(" ms (n=")
                .append(s.unmerged.n())
                .append(").\n");
        }
        md.append(
            "\n## Indices: size and load time\n\nBytes per document minus a base index with the same ids and no fields (as in RESULTS.md). Load = `_bulk` ("
        )
            .append(bulkDocs)
            .append(" docs, ")
            .append(bulkThreads)
            .append(" client threads) up to the refresh; merge = `_forcemerge?max_num_segments=")
            .append(segments)
            .append("`.\n\n");
        md.append(
            "| representation | index | terms + postings | doc values | points | load s | load docs/s | force-merge s |\n|---|---|---|---|---|---|---|---|\n"
        );
        String[][] rows = {
            { "base (ids only)", "base" },
            { "simhash, default mapping `{\"type\":\"simhash\"}`", "fp" },
            { "simhash `" + SCAN_MAPPING + "` (forced scan)", "fpscan" },
            { "long (painless)", "long" } };
        for (String[] r : rows) {
            if (!s.files.containsKey(r[1])) continue;
            Double secs = s.loadSecs.get(r[1]), merge = s.mergeSecs.get(r[1]);
            md.append("| ")
                .append(r[0])
                .append(" | `")
                .append(s.idx(r[1]))
                .append("` | ")
                .append(r[1].equals("base") ? "" : f(s.per(r[1], TERMS)))
                .append(" | ")
                .append(r[1].equals("base") ? "" : f(s.per(r[1], DV)))
                .append(" | ")
                .append(r[1].equals("base") ? "" : f(s.per(r[1], POINTS)))
                .append(" | ")
                .append(secs == null ? "(reused)" : f(secs))
                .append(" | ")
                .append(secs == null ? "" : f(docs / secs))
                .append(" | ")
                .append(merge == null ? "" : f(merge))
                .append(" |\n");
        }
        md.append("\n");
    }

    /** one row per method: bytes per document and latency side by side (the figures of the two tables above). */
    static void perMethod(Synthetic s) {
        String[][] rows = {
            { "SimHash `near_duplicate` k <= 3 (default 4/3)", "fp", "near_duplicate (simhash" },
            { "MinHash `minhash_similar` >= 0.8 (LSH, exact here)", "minhash", "minhash_similar min_similarity 0.8 (LSH" },
            { "MinHash `minhash_similar` >= 0.4 (LSH, S-curve)", "minhash", "minhash_similar min_similarity 0.4 (LSH" },
            { "MinHash `minhash_similar` >= 0.4, `candidates: scan`", "minhash", "minhash_similar min_similarity 0.4 (candidates: scan" },
            { "I-Match key, `term` on `keyword`", "imatch", "imatch key" }, };
        boolean any = false;
        for (String[] r : rows)
            any |= s.files.containsKey(r[1]) && !r[1].equals("fp");
        if (!any) return;
        md.append(
            "\n## Per method\n\nBytes per document of the method's field (terms + postings + doc values + points, minus the base index) and the latency / recall of the rows above (concurrency 1 and 4).\n\n"
        );
        md.append(
            "| method | bytes/doc (terms + postings / doc values / total) | p50 c1 | p95 c1 | p99 c1 | p50 c4 | p99 c4 | recall c1 | x SimHash p50 c1 |\n|---|---|---|---|---|---|---|---|---|\n"
        );
        Stats sim = find(s.stats, "near_duplicate (simhash", 3, 1);
        for (String[] r : rows) {
            if (!s.files.containsKey(r[1])) continue;
            Stats a = findAny(s.stats, r[2], 1), b = findAny(s.stats, r[2], 4);
            double t = s.per(r[1], TERMS), d = s.per(r[1], DV), pt = s.per(r[1], POINTS);
            md.append("| ")
                .append(r[0])
                .append(" | ")
                .append(f(t))
                .append(" / ")
                .append(f(d))
                .append(" / ")
                .append(f(t + d + pt))
                .append(" | ")
                .append(a == null ? "" : f(a.p50))
                .append(" | ")
                .append(a == null ? "" : f(a.p95))
                .append(" | ")
                .append(a == null ? "" : f(a.p99))
                .append(" | ")
                .append(b == null ? "" : f(b.p50))
                .append(" | ")
                .append(b == null ? "" : f(b.p99))
                .append(" | ")
                .append(a == null ? "" : f(a.recall))
                .append(" | ")
                .append(a == null || sim == null ? "" : f(a.p50 / sim.p50))
                .append(" |\n");
        }
    }

    static Stats findAny(List<Stats> l, String prefix, int conc) {
        for (Stats s : l)
            if (s.name.startsWith(prefix) && s.conc == conc) return s;
        return null;
    }

    static int keptMax(Layout l) {
        int kept = 0;
        for (int b = 0; b < l.blocks - l.k; b++)
            kept += l.width(b);
        return kept;
    }

    static void target(String what, java.util.function.Supplier<String> measured, java.util.function.BooleanSupplier met) {
        try {
            target(what, measured.get(), met.getAsBoolean());
        } catch (NullPointerException e) {
            md.append("| ").append(what).append(" | not measured in this run | - |\n");
        }
    }

    static void target(String what, String measured, boolean met) {
        md.append("| ").append(what).append(" | ").append(measured).append(" | ").append(met ? "yes" : "**no**").append(" |\n");
    }

    static final String[] TERMS = { "tim", "tip", "tmd", "doc", "pos", "pay", "psm" }, DV = { "dvd", "dvm" }, POINTS = {
        "kdd",
        "kdi",
        "kdm" };

    static void sizeRow(Synthetic s, String name, String rep, int keys) {
        if (!s.files.containsKey(rep)) return;
        Double secs = s.loadSecs.get(rep);
        md.append("| ")
            .append(name)
            .append(" | `")
            .append(s.idx(rep))
            .append("` | ")
            .append(keys)
            .append(" | ")
            .append(f(s.per(rep, TERMS)))
            .append(" | ")
            .append(f(s.per(rep, DV)))
            .append(" | ")
            .append(f(s.per(rep, POINTS)))
            .append(" | ")
            .append(f(s.per(rep, TERMS) + s.per(rep, DV) + s.per(rep, POINTS)))
            .append(" | ")
            .append(secs == null ? "(reused)" : f(docs / secs))
            .append(" |\n");
    }

    static Stats find(List<Stats> l, String prefix, int k, int conc) {
        for (Stats s : l)
            if (s.name.startsWith(prefix) && s.k == k && s.conc == conc) return s;
        return null;
    }

    static Stats bestIndexed(List<Stats> l, int k, int conc) {
        Stats best = null;
        for (Stats s : l)
            if (s.name.startsWith("near_duplicate fp_") && s.k == k && s.conc == conc && (best == null || s.p50 < best.p50)) best = s;
        return best;
    }

    // ---------------------------------------------------------------- minimal JSON
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
}
