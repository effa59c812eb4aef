package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.KeysModel;
import org.nearduplicate.bench.harness.*;
import org.nearduplicate.core.SimHashSettings;

import static org.nearduplicate.bench.harness.Json.num;
import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Bench.LOG;
import static org.nearduplicate.bench.search.Layout.*;
import static org.nearduplicate.bench.search.SyntheticData.*;

/**
 * Bench's synthetic indices: one per representation of the same fingerprints ({@link Rep}), loaded, force-merged and
 * measured on disk; then the query runs ({@link QueryRuns}) on them.
 */
final class Synthetic {
    final BenchConfig c;
    final NodeClient node;
    final SyntheticData data;
    final Measure measure;
    /** The algorithm id of the signed documents ({@code fps}): the default algorithm, with its signature. */
    static final String SIGNED_ALGORITHM = SimHashSettings.DEFAULT.algorithmId();
    /** The representation of the candidate-key benchmark (--reps fpk, {@link KeysNodeRuns}): index and field name. */
    static final String KEYS_REP = "fpk";
    /** Its documents ({@link KeysModel}: the in-process KeysPathBench's data). */
    final KeysModel keysModel;
    final List<Layout> layouts = new ArrayList<>();
    final List<MethodStats> stats = new ArrayList<>();
    /** --ks: one row per k (and per concurrent segment search mode). */
    final List<Measure.KsRow> ksRows = new ArrayList<>();
    long segmentsUnmerged;
    MethodStats unmerged;
    double floorP50, floorP99;

    Synthetic(BenchConfig c, NodeClient node, List<String> rawLines) {
        this.c = c;
        this.node = node;
        this.data = new SyntheticData(c.docs(), c.probes(), c.seed());
        this.keysModel = new KeysModel(c.docs());
        this.measure = new Measure(this, rawLines);
        if (!c.layouts().isBlank()) for (String s : c.layouts().split(",")) {
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
        return c.index() + rep;
    }

    void run() throws Exception {
        reps.add(new Rep("base", "", (fp, sb) -> {}));
        reps.add(new Rep("fp", "\"fp\":{\"type\":\"simhash\"}", (fp, sb) -> sb.append("\"fp\":\"").append(hex(fp)).append('"')));
        // fps (only with --reps fps): signed documents as the simhash processor writes them (the default algorithm's object:
        // fingerprint, 32-byte signature, algorithm), random signatures, _source kept (bench/check_scale.py reads
        // target documents back to plant near-duplicates of them); ids are the document numbers, as everywhere
        reps.add(new Rep("fps", "\"fps\":{\"type\":\"simhash\"}", (i, sb) -> {
            sb.append("\"fps\":{\"fingerprint\":\"").append(hex(data.fp(i))).append("\",\"signature\":\"");
            SplittableRandom r = new SplittableRandom(mix(c.seed() * 0xD6E8FEB86659FD93L + i));
            for (int b = 0; b < 4; b++)
                sb.append(hex(r.nextLong()));
            sb.append("\",\"algorithm\":\"").append(SIGNED_ALGORITHM).append("\"}");
        }, true, true));
        // fpk (only with --reps fpk): the KeysModel's documents (full min-wise values with topics' common values, planted
        // pairs), as the simhash processor writes them: simhash-v7's object with the candidate keys (--fpk-version 6: v6's,
        // the same fingerprint and signature without keys), _source kept (like probes read it); ids are document numbers
        reps.add(new Rep(KEYS_REP, "\"" + KEYS_REP + "\":{\"type\":\"simhash\",\"algorithm\":\"" + keysAlgorithm() + "\"}", (i, sb) -> {
            KeysModel.Doc d = keysModel.doc(i);
            sb.append('"').append(KEYS_REP).append("\":{\"fingerprint\":\"").append(d.fingerprintHex());
            sb.append("\",\"signature\":\"").append(d.signatureHex());
            if (c.fpkVersion() >= 7) sb.append("\",\"keys\":\"").append(d.storedKeys());
            sb.append("\",\"algorithm\":\"").append(keysAlgorithm()).append("\"}");
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
                (i, sb) -> sb.append("\"mh\":\"").append(b64(data.mhSig(i))).append('"'),
                true
            )
        );
        reps.add(
            new Rep("imatch", "\"im\":{\"type\":\"keyword\"}", (i, sb) -> sb.append("\"im\":\"").append(data.imDoc(i)).append('"'), true)
        );
        if (c.ks() != null && c.scanQueries() > 0) {
            // --ks: the forced scan runs on a simhash field whose mapping promises k_max 0 (one 64-bit key, no check
            // bits), queried with allow_scan: every k > 0 exceeds its mapping, so every fingerprint is read
            reps.add(
                new Rep(
                    "fpscan",
                    "\"" + SCAN_FIELD + "\":" + SCAN_MAPPING,
                    (fp, sb) -> sb.append("\"" + SCAN_FIELD + "\":\"").append(hex(fp)).append('"')
                )
            );
        }
        if (c.onlyReps() != null) reps.removeIf(r -> !c.onlyReps().contains(r.name));
        if (c.onlyReps() == null || !c.onlyReps().contains("fps")) reps.removeIf(r -> r.name.equals("fps"));
        if (c.onlyReps() == null || !c.onlyReps().contains(KEYS_REP)) reps.removeIf(r -> r.name.equals(KEYS_REP));
        if (c.noBase()) reps.removeIf(r -> r.name.equals("base"));
        for (Rep r : reps) {
            long have = -1;
            try {
                have = ((Number) ((Map<?, ?>) Json.parse(node.get("/" + idx(r.name) + "/_count"))).get("count")).longValue();
            } catch (IOException e) {}
            if (c.reuse() && have == c.docs()) {
                LOG.log("reusing index " + idx(r.name) + " (" + have + " docs)");
            } else {
                load(r);
                if (r.name.equals("fp")) {
                    files.put("fp", Map.of());
                    unmerged = measure.measure(
                        "near_duplicate (un-merged segments)",
                        3,
                        1,
                        Math.min(c.queries(), 500),
                        0,
                        "fp",
                        p -> ndQuery("fp", p, 3, false),
                        100
                    );
                    Map<?, ?> segs = (Map<?, ?>) Json.parse(node.get("/" + idx(r.name) + "/_stats/segments,store"));
                    Map<?, ?> prim = (Map<?, ?>) ((Map<?, ?>) segs.get("_all")).get("primaries");
                    segmentsUnmerged = ((Number) ((Map<?, ?>) prim.get("segments")).get("count")).longValue();
                }
                long t = System.nanoTime();
                if (c.segments() > 0) node.post("/" + idx(r.name) + "/_forcemerge?max_num_segments=" + c.segments(), "");
                node.post("/" + idx(r.name) + "/_refresh", "");
                mergeSecs.put(r.name, (System.nanoTime() - t) / 1e9);
                LOG.log("  force-merged " + idx(r.name) + " in " + (int) ((System.nanoTime() - t) / 1e9) + " s");
            }
            Map<?, ?> segCount = (Map<?, ?>) Json.parse(node.get("/" + idx(r.name) + "/_stats/segments"));
            segmentCounts.put(
                r.name,
                num((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) segCount.get("_all")).get("primaries")).get("segments"), "count")
            );
            Map<?, ?> st = (Map<?, ?>) Json.parse(node.get("/" + idx(r.name) + "/_stats/segments,store?include_segment_file_sizes=true"));
            Map<?, ?> prim = (Map<?, ?>) ((Map<?, ?>) st.get("_all")).get("primaries");
            Map<String, Long> fsz = new LinkedHashMap<>();
            fsz.put("store", num((Map<?, ?>) prim.get("store"), "size_in_bytes"));
            Map<?, ?> fileSizes = (Map<?, ?>) ((Map<?, ?>) prim.get("segments")).get("file_sizes");
            for (Map.Entry<?, ?> e : fileSizes.entrySet())
                fsz.put((String) e.getKey(), num((Map<?, ?>) e.getValue(), "size_in_bytes"));
            files.put(r.name, fsz);
        }
        Files.writeString(c.outDir().resolve("raw/file_sizes_" + c.docs() + ".json"), Json.write(files));
        if (c.loadOnly()) return; // --load-only: the indices are the product (e.g. bench/check_scale.py's target)
        if (files.containsKey(KEYS_REP)) new KeysNodeRuns(this).run();
        else new QueryRuns(this).run();
    }

    /** The simhash algorithm id of the {@code fpk} documents and mapping (--fpk-version). */
    String keysAlgorithm() {
        return (c.fpkVersion() >= 7 ? SimHashSettings.DEFAULT_V7 : SimHashSettings.DEFAULT).algorithmId();
    }

    /** bytes per doc of one component of a representation, minus the same component of the base index (_id etc.). */
    double per(String rep, String... exts) {
        long v = 0;
        for (String e : exts)
            if (files.containsKey("base")) v += files.get(rep).getOrDefault(e, 0L) - files.get("base").getOrDefault(e, 0L);
            else return Double.NaN;
        return v / (double) c.docs();
    }

    void load(Rep rep) throws Exception {
        String index = idx(rep.name);
        node.delete("/" + index);
        node.put(
            "/" + index,
            "{\"settings\":{\"number_of_shards\":"
                + c.shards()
                + ",\"number_of_replicas\":0,\"refresh_interval\":\"-1\","
                + "\"index.translog.durability\":\"async\",\"index.translog.flush_threshold_size\":\"2gb\"},"
                + "\"mappings\":{\"_source\":{\"enabled\":"
                + rep.source
                + "},\"properties\":{"
                + rep.props
                + "}}}"
        );
        LOG.log("loading " + c.docs() + " docs into " + index + " (bulk " + c.bulkDocs() + ", " + c.bulkThreads() + " threads)");
        AtomicLong next = new AtomicLong(), bytes = new AtomicLong(), done = new AtomicLong();
        long t = System.nanoTime();
        ExecutorService ex = Executors.newFixedThreadPool(c.bulkThreads());
        List<Future<?>> fs = new ArrayList<>();
        for (int th = 0; th < c.bulkThreads(); th++)
            fs.add(ex.submit(() -> {
                StringBuilder sb = new StringBuilder(c.bulkDocs() * 400);
                while (true) {
                    long from = next.getAndAdd(c.bulkDocs());
                    if (from >= c.docs()) return null;
                    long to = Math.min(c.docs(), from + c.bulkDocs());
                    sb.setLength(0);
                    for (long i = from; i < to; i++) {
                        sb.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n{");
                        rep.doc.accept(rep.byId ? i : data.fp(i), sb);
                        sb.append("}\n");
                    }
                    String body = sb.toString();
                    String r = node.bulkWithRetry("/" + index + "/_bulk", body);
                    bytes.addAndGet(body.length());
                    long d = done.addAndGet(to - from);
                    if ((d / c.bulkDocs()) % 200 == 0) LOG.log(
                        "  " + d + " docs, " + (long) (d / ((System.nanoTime() - t) / 1e9)) + " docs/s"
                    );
                }
            }));
        try {
            for (Future<?> f : fs)
                f.get();
        } finally {
            ex.shutdownNow();
        }
        node.post("/" + index + "/_refresh", "");
        double sec = (System.nanoTime() - t) / 1e9;
        loadSecs.put(rep.name, sec);
        LOG.log("  loaded in " + (int) sec + " s (" + (long) (c.docs() / sec) + " docs/s)");
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
            + b64(data.mhProbe(p >= 0 ? p : 1_000_000_000L - p))
            + "\",\"min_similarity\":"
            + t
            + (scan ? ",\"candidates\":\"scan\"" : "")
            + "}}}";
    }

    String imQuery(int p) {
        return "{\"size\":20,\"_source\":false,\"query\":{\"term\":{\"im\":\"" + data.imProbe(p >= 0 ? p : 1_000_000_000L - p) + "\"}}}";
    }

    Measure.M mh(double t, boolean scan, int n, int warm) {
        Measure.M m = measure.m(
            "minhash_similar min_similarity " + t + (scan ? " (candidates: scan)" : " (LSH 32x4)"),
            -1,
            "minhash",
            n,
            warm,
            p -> mhQuery(p, t, scan)
        );
        m.exp = p -> data.mhExpected(p, t);
        return m;
    }

    Measure.M im() {
        Measure.M m = measure.m("imatch key: term query on a keyword field", -1, "imatch", c.queries(), 200, this::imQuery);
        m.exp = p -> data.imExpected(p);
        return m;
    }

    /** probe p >= 0: planted probe p; p < 0: a random warm-up probe with no planted neighbours. */
    long pf(int p) {
        return p >= 0 ? data.probeFp[p] : mix(~(long) p * 31 + c.seed());
    }

}
