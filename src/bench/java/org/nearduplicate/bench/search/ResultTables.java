package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Layout.*;
import static org.nearduplicate.bench.search.SyntheticData.*;

/** Two of Bench's tables: the --ks rows (one per k) and the per-method comparison (SimHash, MinHash, I-Match). */
final class ResultTables {
    private final BenchConfig c;
    private final BenchResults results;
    private final StringBuilder md;

    ResultTables(BenchConfig c, BenchResults results) {
        this.c = c;
        this.results = results;
        this.md = results.md;
    }

    void ks(Synthetic s) {
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
            .append(c.docs())
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
        long segDocs = c.docs() / Math.max(1, s.segmentCounts.getOrDefault("fp", (long) c.shards() * Math.max(1, c.segments())));
        md.append(c.cssModes() == null ? "" : "| concurrent segment search ")
            .append("| k | probed keys | path (1 segment of ")
            .append(segDocs)
            .append(
                ") | near_duplicate p50 / p95 / p99 | scan p50 / p99 | painless p50 / p99 | scan / nd (p50) | painless / nd (p50) | floor p50 / p99 | nd - floor (p50) | long[] loop p50 | nd / long[] loop (p50) | hits nd / scan / painless | recall nd / scan / painless | counts agree | n nd / scan / painless |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            );
        if (c.cssModes() != null) md.setLength(md.length() - 1);
        if (c.cssModes() != null) md.append("---|\n");
        for (Measure.KsRow r : s.ksRows) {
            long keys = defaultProbeKeys(r.k());
            if (c.cssModes() != null) md.append("| `")
                .append(r.mode())
                .append(c.cssSlices() > 0 ? "`, " + c.cssSlices() + " slices " : "` ");
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
        md.append(c.cssModes() == null ? "" : "| concurrent segment search ")
            .append(
                "| k | young GC n / ms | old GC n / ms | heap used after / max | near_duplicate breaker after | search rejected | near_duplicate `took` p50, first of a round / rest | slowest near_duplicate queries |\n|"
            )
            .append(c.cssModes() == null ? "" : "---|")
            .append("---|---|---|---|---|---|---|---|\n");
        for (Measure.KsRow r : s.ksRows) {
            Measure.NodeSnap b = r.before(), a = r.after();
            if (c.cssModes() != null) md.append("| `").append(r.mode()).append("` ");
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
        for (MethodStats st : s.stats) {
            md.append(
                row(
                    st.name(),
                    st.k() < 0 ? "-" : st.k(),
                    st.n(),
                    f(st.p50()),
                    f(st.p95()),
                    f(st.p99()),
                    f(st.mean()),
                    f(st.qps()),
                    Double.isNaN(st.recall()) ? "" : f(st.recall()),
                    f(st.tookP50())
                )
            );
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
            .append(c.bulkDocs())
            .append(" docs, ")
            .append(c.bulkThreads())
            .append(" client threads) up to the refresh; merge = `_forcemerge?max_num_segments=")
            .append(c.segments())
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
                .append(r[1].equals("base") ? "" : f(s.per(r[1], BenchResults.TERMS)))
                .append(" | ")
                .append(r[1].equals("base") ? "" : f(s.per(r[1], BenchResults.DV)))
                .append(" | ")
                .append(r[1].equals("base") ? "" : f(s.per(r[1], BenchResults.POINTS)))
                .append(" | ")
                .append(secs == null ? "(reused)" : f(secs))
                .append(" | ")
                .append(secs == null ? "" : f(c.docs() / secs))
                .append(" | ")
                .append(merge == null ? "" : f(merge))
                .append(" |\n");
        }
        md.append("\n");
    }

    /** one row per method: bytes per document and latency side by side (the figures of the two tables above). */
    void perMethod(Synthetic s) {
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
        MethodStats sim = results.find(s.stats, "near_duplicate (simhash", 3, 1);
        for (String[] r : rows) {
            if (!s.files.containsKey(r[1])) continue;
            MethodStats a = results.findAny(s.stats, r[2], 1), b = results.findAny(s.stats, r[2], 4);
            double t = s.per(r[1], BenchResults.TERMS), d = s.per(r[1], BenchResults.DV), pt = s.per(r[1], BenchResults.POINTS);
            md.append("| ")
                .append(r[0])
                .append(" | ")
                .append(f(t))
                .append(" / ")
                .append(f(d))
                .append(" / ")
                .append(f(t + d + pt))
                .append(" | ")
                .append(a == null ? "" : f(a.p50()))
                .append(" | ")
                .append(a == null ? "" : f(a.p95()))
                .append(" | ")
                .append(a == null ? "" : f(a.p99()))
                .append(" | ")
                .append(b == null ? "" : f(b.p50()))
                .append(" | ")
                .append(b == null ? "" : f(b.p99()))
                .append(" | ")
                .append(a == null ? "" : f(a.recall()))
                .append(" | ")
                .append(a == null || sim == null ? "" : f(a.p50() / sim.p50()))
                .append(" |\n");
        }
    }

}
