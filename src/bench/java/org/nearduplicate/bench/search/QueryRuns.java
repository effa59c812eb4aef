package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Bench.LOG;
import static org.nearduplicate.bench.search.Layout.*;
import static org.nearduplicate.bench.search.SyntheticData.*;

/** Bench's query groups: per k with --ks (one row per k), else every method at k 3, 6 and 8, concurrency 1 and 4. */
final class QueryRuns {
    private final Synthetic s;
    private final BenchConfig c;
    private final NodeClient node;
    private final Measure measure;

    QueryRuns(Synthetic s) {
        this.s = s;
        this.c = s.c;
        this.node = s.node;
        this.measure = s.measure;
    }

    void ksQueries() throws Exception {
        if (c.cssModes() == null) {
            ksQueries(null);
            return;
        }
        try {
            for (String mode : c.cssModes()) {
                node.put(
                    "/_cluster/settings",
                    "{\"transient\":{\"search.concurrent_segment_search.mode\":\""
                        + mode
                        + "\",\"search.concurrent.max_slice_count\":"
                        + (c.cssSlices() > 0 ? String.valueOf(c.cssSlices()) : "null")
                        + "}}"
                );
                LOG.log(
                    "search.concurrent_segment_search.mode = " + mode + (c.cssSlices() > 0 ? ", max_slice_count " + c.cssSlices() : "")
                );
                ksQueries(mode);
            }
        } finally {
            node.put(
                "/_cluster/settings",
                "{\"transient\":{\"search.concurrent_segment_search.mode\":null,\"search.concurrent.max_slice_count\":null}}"
            );
        }
    }

    void ksQueries(String mode) throws Exception {
        LOG.log(
            "any-k queries (request_cache=false, distinct probes per query, size 20, concurrency 1, methods interleaved in 10 rounds), k = "
                + Arrays.toString(c.ks())
        );
        int nFloor = Math.min(c.queries(), 500);
        for (int k : c.ks()) {
            Measure.M floor = measure.m(
                "round-trip floor (match_none, size 0)",
                -1,
                "fp",
                nFloor,
                100,
                p -> "{\"size\":0,\"query\":{\"match_none\":{}}}"
            );
            Measure.M nd = measure.m(
                "near_duplicate, default simhash field (" + defaultLayoutText() + ")",
                k,
                "fp",
                c.queries(),
                200,
                p -> s.ndQuery("fp", p, k, false)
            );
            Measure.M scan = k > SCAN_KMAX && s.files.containsKey("fpscan")
                ? measure.m(
                    "near_duplicate allow_scan on a k_max " + SCAN_KMAX + " field (forced doc-values scan)",
                    k,
                    "fpscan",
                    c.scanQueries(),
                    10,
                    p -> s.ndQuery(SCAN_FIELD, p, k, true)
                )
                : null;
            Measure.M script = measure.m(
                "painless brute-force script filter (long)",
                k,
                "long",
                c.scriptQueries(),
                3,
                p -> s.scriptQuery(p, k)
            );
            List<Measure.M> g = new ArrayList<>(List.of(floor, nd));
            if (scan != null) g.add(scan);
            g.add(script);
            Measure.NodeSnap before = measure.nodeSnap();
            // the floor loop runs 5 probes after every round of the group, so it shares the rounds' noise
            List<Long> loopTimes = new ArrayList<>();
            measure.loopFloorP50(k, 1, 5, 0); // warm-up
            List<MethodStats> st = measure.measureGroup(g, 1, 0, 10, r -> {
                for (int i = 0; i < 5; i++)
                    loopTimes.add(Math.round(measure.loopFloorP50(k, 1, 0, r * 5 + i) * 1e6));
            });
            Collections.sort(loopTimes);
            Measure.NodeSnap after = measure.nodeSnap();
            s.stats.addAll(st);
            // every method saw the same probes (query i = probe i): their exact hit counts must agree
            StringBuilder agree = new StringBuilder();
            int bad = 0, compared = 0;
            for (Measure.M o : new Measure.M[] { scan, script }) {
                if (o == null || measure.statsOf(st, o) == null || measure.statsOf(st, nd) == null) continue;
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
            if (bad > 0) LOG.log("  hit counts differ at k=" + k + ":" + agree);
            s.ksRows.add(
                new Measure.KsRow(
                    k,
                    measure.statsOf(st, floor),
                    measure.statsOf(st, nd),
                    measure.statsOf(st, scan),
                    measure.statsOf(st, script),
                    measure.statsOf(st, nd) == null ? Double.NaN : measure.meanHits(nd),
                    measure.statsOf(st, scan) == null ? Double.NaN : measure.meanHits(scan),
                    measure.statsOf(st, script) == null ? Double.NaN : measure.meanHits(script),
                    ag,
                    loopTimes.get(loopTimes.size() / 2) / 1e6,
                    mode,
                    before,
                    after,
                    measure.statsOf(st, nd) == null ? "" : measure.slowest(nd, 10)
                )
            );
        }
    }

    void run() throws Exception {
        if (c.ks() != null) {
            ksQueries();
            return;
        }
        LOG.log("queries (request_cache=false, distinct probes per query, size 20, methods interleaved in 10 rounds)");
        int off = 0;
        for (int conc : new int[] { 1, 4 }) {
            List<Measure.M> k3 = new ArrayList<>();
            k3.add(
                measure.m(
                    "round-trip floor (match_none, size 0)",
                    -1,
                    s.files.containsKey("fp") ? "fp" : s.reps.get(s.reps.size() - 1).name(),
                    c.queries(),
                    200,
                    p -> "{\"size\":0,\"query\":{\"match_none\":{}}}"
                )
            );
            k3.add(
                measure.m(
                    "near_duplicate (simhash default: " + defaultLayoutText() + ")",
                    3,
                    "fp",
                    c.queries(),
                    200,
                    p -> s.ndQuery("fp", p, 3, false)
                )
            );
            k3.add(measure.m("hand-made pigeonhole 4x16-bit keyword keys + painless", 3, "hand4", c.queries(), 200, p -> s.hand4(p, 3)));
            k3.add(
                measure.m("hand-made pigeonhole 10 pair keys of 5 blocks + painless", 3, "hand10", c.queries(), 200, p -> s.hand10(p, 3))
            );
            k3.add(measure.m("painless brute-force script filter (long)", 3, "long", c.scriptQueries(), 3, p -> s.scriptQuery(p, 3)));
            // (allow_scan at k <= k_max still uses the keys, so there is no scan row at k=3)
            k3.add(s.mh(0.8, false, c.queries(), 200));
            k3.add(s.mh(0.4, false, c.queries(), 200));
            k3.add(s.mh(0.4, true, c.scanQueries(), 10));
            k3.add(s.im());
            for (Layout l : s.layouts)
                if (l.k() == 3) k3.add(
                    measure.m(
                        "near_duplicate " + l.field() + " (" + l.describe() + ")",
                        3,
                        l.field(),
                        c.queries(),
                        200,
                        p -> s.ndQuery(l.field(), p, 3, false)
                    )
                );
            List<MethodStats> st3 = measure.measureGroup(k3, conc, off, 10);
            s.stats.addAll(st3);
            if (conc == 1) for (MethodStats st : st3)
                if (st.k() < 0) {
                    s.floorP50 = st.p50();
                    s.floorP99 = st.p99();
                }
            for (int k : new int[] { 6, 8 }) {
                List<Measure.M> g = new ArrayList<>();
                for (Layout l : s.layouts)
                    if (l.k() >= k) g.add(
                        measure.m(
                            "near_duplicate " + l.field() + " (" + l.describe() + ")",
                            k,
                            l.field(),
                            c.queries(),
                            200,
                            p -> s.ndQuery(l.field(), p, k, false)
                        )
                    );
                g.add(
                    measure.m("near_duplicate allow_scan (doc-values scan)", k, "fp", c.scanQueries(), 10, p -> s.ndQuery("fp", p, k, true))
                );
                g.add(measure.m("painless brute-force script filter (long)", k, "long", c.scriptQueries(), 3, p -> s.scriptQuery(p, k)));
                s.stats.addAll(measure.measureGroup(g, conc, off, 10));
            }
            off += c.queries();
        }
        // layouts measured at their own k_max for the trade-off table (k=3 layouts are in the k=3 group)
    }
}
