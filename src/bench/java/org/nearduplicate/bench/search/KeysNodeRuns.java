package org.nearduplicate.bench.search;

import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.*;

import org.nearduplicate.bench.KeysModel;
import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Bench.LOG;

/**
 * The real-node benchmark of the candidate-key path (issue 40; {@code bench/run.sh --reps fpk}): on the {@code fpk}
 * index ({@link KeysModel}'s documents, one shard, force-merged), the same probes (the first documents of planted
 * pairs, as KeysPathBench's) answered three ways per probe, interleaved (the order alternates probe by probe): the
 * default {@code near_duplicate} query (k and min_similarity of the field: 16 and 0.40), the same query with
 * {@code exact: true} (the column path), and the plain {@code long[]} popcount loop over the N fingerprints in this JVM
 * (the floor). Reports p50/p90 of the client's round trip and of the node's {@code took}, and the recall of the default
 * against exact, probe by probe (the hits' ids compared; a default hit exact lacks is counted too).
 *
 * <p>Probes ({@code --fpk-probe}): {@code value} sends the processor's object members (fingerprint, signature, keys,
 * algorithm), {@code value-nokeys} the fingerprint and signature only, {@code like} the probe document by {@code _id}.
 * When the node refuses {@code exact} (a build without the option), only the default and the floor are timed, and the
 * results say so.
 */
final class KeysNodeRuns {
    static final int K = 16;
    static final int SIZE = 20;
    static final int WARMUP = 50;

    private final Synthetic s;
    private final BenchConfig c;
    private final NodeClient node;
    private final KeysModel model;
    private final String index, field;
    /** The probes' document numbers: timed probe i is {@code ids[i]}, the warm-up's follow. */
    private long[] ids;
    /** The probe form sent (--fpk-probe, or value-nokeys when the node refuses a probe's keys) and why it changed. */
    private String probeForm, probeNote = "";
    /** Why the node refused {@code exact: true}, or empty. */
    private String exactNote = "";

    KeysNodeRuns(Synthetic s) {
        this.s = s;
        this.c = s.c;
        this.node = s.node;
        this.model = s.keysModel;
        this.index = s.idx(Synthetic.KEYS_REP);
        this.field = Synthetic.KEYS_REP;
    }

    /** One path's measurements, per probe. */
    static final class Path {
        final String name;
        final long[] nanos;
        final double[] took;
        final List<Set<String>> hits = new ArrayList<>();
        final long[] totals;

        Path(String name, int n) {
            this.name = name;
            nanos = new long[n];
            took = new double[n];
            totals = new long[n];
        }
    }

    String query(long id, KeysModel.Doc d, boolean exact) {
        StringBuilder q = new StringBuilder("{\"size\":").append(SIZE)
            .append(",\"_source\":false,\"query\":{\"near_duplicate\":{\"field\":\"");
        q.append(field).append('"');
        if (probeForm.equals("like")) {
            q.append(",\"like\":{\"_index\":\"").append(index).append("\",\"_id\":\"").append(id).append("\"}");
        } else {
            q.append(",\"fingerprint\":\"").append(d.fingerprintHex()).append("\",\"signature\":\"").append(d.signatureHex()).append('"');
            if (probeForm.equals("value") && c.fpkVersion() >= 7) q.append(",\"keys\":\"").append(d.storedKeys()).append('"');
            q.append(",\"algorithm\":\"").append(s.keysAlgorithm()).append('"');
        }
        if (exact) q.append(",\"exact\":true");
        return q.append("}}}").toString();
    }

    /** Runs one query: its latency, took, total and hit ids into {@code p} at {@code i} (i < 0: warm-up, not kept). */
    void run(Path p, int i, String body) throws Exception {
        long t = System.nanoTime();
        String r = node.post("/" + index + "/_search?request_cache=false", body);
        long nanos = System.nanoTime() - t;
        if (i < 0) return;
        Map<?, ?> m = Json.map(r);
        p.nanos[i] = nanos;
        p.took[i] = ((Number) m.get("took")).doubleValue();
        Map<?, ?> hits = (Map<?, ?>) m.get("hits");
        p.totals[i] = Json.num((Map<?, ?>) hits.get("total"), "value");
        Set<String> ids = new TreeSet<>();
        for (Object h : (List<?>) hits.get("hits"))
            ids.add((String) ((Map<?, ?>) h).get("_id"));
        p.hits.add(ids);
    }

    /** Why a pair can be verified without sharing the keys the default path needs: its agreement, from the model. */
    String missedPair(long probe, long hit) {
        KeysModel.Doc a = model.doc(probe), b = model.doc(hit);
        int full = 0, slots = 0;
        for (int s = 0; s < a.minima().length; s++)
            if (a.minima()[s] == b.minima()[s]) full++;
        byte[] sa = a.signature(), sb = b.signature();
        for (int s = 0; s < sa.length; s++)
            if (sa[s] == sb[s]) slots++;
        int keys = KeysModel.LAYOUT.sharedKeys(a.minima(), b.minima(), KeysModel.LAYOUT.keyCount());
        return String.format(Locale.ROOT, "%d - %d: %d, %d, %d", probe, hit, full, slots, keys);
    }

    /** The reason of an error answer, from its JSON body. */
    static String reason(NodeClient.HttpError e) {
        String m = e.getMessage();
        int at = m.indexOf("\"reason\":\"");
        return at < 0 ? m.substring(0, Math.min(200, m.length())) : m.substring(at + 10, m.indexOf('"', at + 10));
    }

    static long floor(long[] column, long q) {
        long count = 0;
        for (long v : column)
            if (Long.bitCount(v ^ q) <= K) count++;
        return count;
    }

    void run() throws Exception {
        int n = c.queries();
        int total = n + WARMUP;
        String loadStart = cmd("cat", "/proc/loadavg").trim();
        ids = new long[total];
        KeysModel.Doc[] probes = new KeysModel.Doc[total];
        for (int j = 0; j < total; j++) {
            ids[j] = model.probeId(j, total);
            probes[j] = model.doc(ids[j]);
        }
        probeForm = c.fpkProbe();
        if (probeForm.equals("value") && c.fpkVersion() >= 7) {
            try {
                node.post("/" + index + "/_search?request_cache=false", query(ids[0], probes[0], false));
            } catch (NodeClient.HttpError e) {
                if (e.status != 400 || e.getMessage().contains("[keys]") == false) throw e;
                probeForm = "value-nokeys";
                probeNote = "the node refused a probe's `keys` (" + reason(e) + "): the probes give the fingerprint and signature only";
                LOG.log("  " + probeNote);
            }
        }
        boolean exactOk = true;
        try {
            node.post("/" + index + "/_search?request_cache=false", query(ids[0], probes[0], true));
        } catch (NodeClient.HttpError e) {
            if (e.status != 400) throw e;
            exactOk = false;
            exactNote = reason(e);
            LOG.log("  the node refuses exact: true (" + exactNote + ")");
        }
        LOG.log("  the floor's column: " + c.docs() + " fingerprints of the model in this JVM");
        long[] column = new long[Math.toIntExact(c.docs())];
        for (int i = 0; i < column.length; i++)
            column[i] = model.doc(i).fingerprint();
        Path def = new Path("default near_duplicate query", n), exact = new Path("the same with exact: true (the column)", n);
        Path roundTrip = new Path("round-trip floor: match_none, size 0", n);
        String none = "{\"size\":0,\"query\":{\"match_none\":{}}}";
        long[] floorNanos = new long[n];
        long sink = 0;
        Map<?, ?> statsBefore = stats();
        // warm-up on the last WARMUP probes (not timed), then the n timed probes, the order alternating probe by probe
        for (int j = 0; j < total; j++) {
            int i = j < WARMUP ? -1 : j - WARMUP;
            int pj = j < WARMUP ? n + j : j - WARMUP;
            String d = query(ids[pj], probes[pj], false), e = query(ids[pj], probes[pj], true);
            if ((j & 1) == 0) {
                run(def, i, d);
                if (exactOk) run(exact, i, e);
            } else {
                if (exactOk) run(exact, i, e);
                run(def, i, d);
            }
            run(roundTrip, i, none);
            long t = System.nanoTime();
            sink += floor(column, probes[pj].fingerprint());
            if (i >= 0) floorNanos[i] = System.nanoTime() - t;
            if (i >= 0 && (i + 1) % Math.max(1, n / 5) == 0) LOG.log("  " + (i + 1) + " of " + n + " probes");
        }
        Map<?, ?> statsAfter = stats();
        if (sink == Long.MIN_VALUE) LOG.log("unreachable");
        String loadEnd = cmd("cat", "/proc/loadavg").trim();
        write(n, def, exactOk ? exact : null, roundTrip, floorNanos, loadStart, loadEnd, statsBefore, statsAfter);
    }

    Map<?, ?> stats() {
        try {
            return Json.map(node.get("/_plugins/_near_duplicate/stats"));
        } catch (Exception e) {
            return Map.of();
        }
    }

    static double p(long[] nanos, double q) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return pct(s, q);
    }

    static double p(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.floor(q / 100 * s.length))];
    }

    void write(
        int n,
        Path def,
        Path exact,
        Path roundTrip,
        long[] floor,
        String loadStart,
        String loadEnd,
        Map<?, ?> before,
        Map<?, ?> after
    ) throws Exception {
        double floorP50 = p(floor, 50), exactP50 = exact == null ? Double.NaN : p(exact.nanos, 50);
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "# The candidate-key path on a real node: %,d documents, one shard (issue 40)%n%n", c.docs()));
        StringBuilder command = new StringBuilder("bench/run.sh");
        for (String arg : c.argv()) {
            if (arg.equals("--url")) continue;
            if (arg.startsWith("http://")) continue; // BENCH_URL's node: said below
            command.append(' ').append(arg.isEmpty() || arg.contains(" ") ? "\"" + arg + "\"" : arg);
        }
        md.append("Command: `").append(command).append("` (against the node at ").append(node.url()).append(")");
        md.append(String.format(Locale.ROOT, " (node: OpenSearch %s, heap %s; ", version(), heap()));
        md.append("date ")
            .append(Instant.now().truncatedTo(ChronoUnit.MINUTES))
            .append(", commit ")
            .append(cmd("git", "rev-parse", "--short", "HEAD").trim());
        md.append("; 2 cores shared with other jobs).\n\n");
        md.append("Load average (/proc/loadavg) at the start of the query runs: ")
            .append(loadStart)
            .append("; at the end: ")
            .append(loadEnd)
            .append(".\n\n");
        Map<String, Long> f = s.files.get(Synthetic.KEYS_REP);
        md.append(
            String.format(
                Locale.ROOT,
                "Index `%s`: %,d documents of the KeysModel (bench's shared data model: topics with common full min-wise values, 20 %% planted pairs; "
                    + "the in-process KeysPathBench's), field `%s` mapped `%s`, documents %s, `_source` kept; %d segment(s); store %.1f bytes/doc"
                    + " (with `_source`)%s.%n%n",
                index,
                c.docs(),
                field,
                s.keysAlgorithm()
                    .substring(0, s.keysAlgorithm().indexOf(':') < 0 ? s.keysAlgorithm().length() : s.keysAlgorithm().indexOf(':')),
                c.fpkVersion() >= 7
                    ? "{fingerprint, signature, keys, algorithm}"
                    : "{fingerprint, signature, algorithm} (no keys: the exact baseline)",
                s.segmentCounts.getOrDefault(Synthetic.KEYS_REP, -1L),
                f == null ? Double.NaN : f.getOrDefault("store", 0L) / (double) c.docs(),
                s.loadSecs.containsKey(Synthetic.KEYS_REP)
                    ? String.format(
                        Locale.ROOT,
                        "; loaded in %.0f s (%,.0f docs/s, bulk %d x %d threads), force-merged in %.0f s",
                        s.loadSecs.get(Synthetic.KEYS_REP),
                        c.docs() / s.loadSecs.get(Synthetic.KEYS_REP),
                        c.bulkDocs(),
                        c.bulkThreads(),
                        s.mergeSecs.getOrDefault(Synthetic.KEYS_REP, Double.NaN)
                    )
                    : " (reused)"
            )
        );
        md.append(
            String.format(
                Locale.ROOT,
                "%,d probes (the first documents of planted pairs, spread over them; %d more before them as warm-up), probe form `%s`; "
                    + "per probe, in alternating order: the default query, the same with `exact: true`, a `match_none` search (the round "
                    + "trip's floor), and the floor (a plain `long[]` "
                    + "`Long.bitCount(v ^ q) <= %d` loop over the %,d fingerprints, one core of the bench's JVM). Size %d, "
                    + "`request_cache=false`, concurrency 1; latencies are the client's round trips, `took` the node's.%n%n",
                n,
                WARMUP,
                probeForm + (probeNote.isEmpty() ? "" : " (" + probeNote + ")"),
                K,
                c.docs(),
                SIZE
            )
        );
        md.append(
            "| path | p50 ms | p90 ms | mean ms | took p50 / p90 ms | p50 / floor | p50 / exact |\n| --- | --- | --- | --- | --- | --- | --- |\n"
        );
        md.append(
            String.format(
                Locale.ROOT,
                "| floor: plain long[] popcount loop over N | %.3f | %.3f | %.3f | - | 1.00x | %s |%n",
                floorP50,
                p(floor, 90),
                Arrays.stream(floor).average().orElse(0) / 1e6,
                exact == null ? "n/a" : String.format(Locale.ROOT, "%.3fx", floorP50 / exactP50)
            )
        );
        for (Path path : exact == null ? List.of(def) : List.of(def, exact)) {
            double p50 = p(path.nanos, 50);
            md.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %.3f | %.3f | %.3f | %.0f / %.0f | %.2fx | %s |%n",
                    path.name,
                    p50,
                    p(path.nanos, 90),
                    Arrays.stream(path.nanos).average().orElse(0) / 1e6,
                    p(path.took, 50),
                    p(path.took, 90),
                    p50 / floorP50,
                    exact == null ? "n/a" : String.format(Locale.ROOT, "**%.3fx**", p50 / exactP50)
                )
            );
        }
        double rt = p(roundTrip.nanos, 50);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.3f | %.3f | %.3f | %.0f / %.0f | - | - |%n",
                roundTrip.name,
                rt,
                p(roundTrip.nanos, 90),
                Arrays.stream(roundTrip.nanos).average().orElse(0) / 1e6,
                p(roundTrip.took, 50),
                p(roundTrip.took, 90)
            )
        );
        md.append('\n');
        if (exact != null) {
            double d = p(def.nanos, 50) - rt, e = exactP50 - rt;
            md.append(
                String.format(
                    Locale.ROOT,
                    "Less the round-trip floor's p50 (what a search costs whatever its query): default %.3f ms, exact %.3f ms, "
                        + "default / exact **%.3fx**.%n%n",
                    d,
                    e,
                    d / e
                )
            );
        }
        if (exact == null) {
            md.append("`exact: true` was refused by this node (").append(exactNote).append("): no exact path, no recall against it.\n\n");
        } else {
            long expected = 0, found = 0, extra = 0, truncated = 0;
            List<String> missed = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Set<String> e = exact.hits.get(i), d = def.hits.get(i);
                expected += e.size();
                for (String id : d)
                    if (e.contains(id)) found++;
                    else extra++;
                for (String id : e)
                    if (d.contains(id) == false) missed.add(missedPair(ids[i], Long.parseLong(id)));
                if (exact.totals[i] > SIZE || def.totals[i] > SIZE) truncated++;
            }
            md.append(
                String.format(
                    Locale.ROOT,
                    "Recall of the default against exact, probe by probe: **%,d of %,d** exact hits found (%.5f); default hits exact lacks: %,d; "
                        + "probes with more than %d hits (compared on the top %d only): %,d.%n%n",
                    found,
                    expected,
                    expected == 0 ? Double.NaN : (double) found / expected,
                    extra,
                    SIZE,
                    SIZE,
                    truncated
                )
            );
            if (missed.isEmpty() == false) {
                md.append(
                    "Exact hits the default missed (probe - hit: full min-wise values agreeing of 32, 8-bit signature slots agreeing, "
                )
                    .append("keys shared of 28; the default path needs 2 shared keys, guaranteed from 14 agreeing full values): ")
                    .append(String.join("; ", missed))
                    .append(".\n\n");
            }
        }
        long partners = 0;
        for (int i = 0; i < n; i++)
            if (def.hits.get(i).contains(Long.toString(ids[i] + 1))) partners++;
        md.append(
            String.format(
                Locale.ROOT,
                "Hits per probe (default): mean %.2f (the probe itself, its planted partner when their full values agree enough, "
                    + "chance matches); planted partners found: %,d of %,d.%n%n",
                Arrays.stream(def.totals).average().orElse(0),
                partners,
                n
            )
        );
        String diff = statsDiff(before, after);
        if (!diff.isEmpty()) md.append("Node stats (`_plugins/_near_duplicate/stats`) counted during the runs: ")
            .append(diff)
            .append(".\n");
        Files.writeString(c.outDir().resolve(c.resultsName()), md.toString());
        LOG.log("wrote " + c.outDir().resolve(c.resultsName()) + "\n" + md);
    }

    String version() {
        try {
            return String.valueOf(Json.at(node.getJson("/"), "version").get("number"));
        } catch (Exception e) {
            return "?";
        }
    }

    /** The node's heap as the node reports it. */
    String heap() {
        try {
            Map<?, ?> nodes = (Map<?, ?>) Json.map(node.get("/_nodes/_local/stats/jvm")).get("nodes");
            Map<?, ?> jvm = (Map<?, ?>) ((Map<?, ?>) nodes.values().iterator().next()).get("jvm");
            return mb(Json.num((Map<?, ?>) jvm.get("mem"), "heap_max_in_bytes"));
        } catch (Exception e) {
            return "?";
        }
    }

    /** The numeric counters that changed between two stats answers, flattened (path=delta). */
    static String statsDiff(Map<?, ?> before, Map<?, ?> after) {
        Map<String, Double> b = new TreeMap<>(), a = new TreeMap<>();
        flatten("", before, b);
        flatten("", after, a);
        StringBuilder sb = new StringBuilder();
        for (var e : a.entrySet()) {
            if (e.getKey().contains("nodes.") == false) continue;
            double d = e.getValue() - b.getOrDefault(e.getKey(), 0.0);
            if (d == 0) continue;
            String key = e.getKey().replaceFirst("^nodes\\.[^.]+\\.", "");
            if (key.contains("time") || key.contains("millis") || key.contains("nanos")) continue;
            sb.append(sb.length() == 0 ? "" : ", ").append('`').append(key).append("` +").append(String.format(Locale.ROOT, "%,.0f", d));
        }
        return sb.toString();
    }

    static void flatten(String prefix, Object o, Map<String, Double> out) {
        if (o instanceof Map<?, ?> m) {
            for (var e : m.entrySet())
                flatten(prefix.isEmpty() ? String.valueOf(e.getKey()) : prefix + "." + e.getKey(), e.getValue(), out);
        } else if (o instanceof Number x) {
            out.put(prefix, x.doubleValue());
        }
    }
}
