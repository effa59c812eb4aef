package org.nearduplicate.bench.groups;

import java.io.*;
import java.nio.file.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.groups.GroupsBench.LOG;
import static org.nearduplicate.bench.harness.Json.num;
import static org.nearduplicate.bench.harness.Report.*;

/** GroupsBench's _near_duplicates/_write tasks, followed to the end, and the groups they wrote checked by aggregations. */
final class WriteBacks {
    private final GroupsRun run;
    private final GroupsConfig c;
    private final NodeClient node;

    WriteBacks(GroupsRun run) {
        this.run = run;
        this.c = run.c;
        this.node = run.node;
    }

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

    WriteBack write(int k, List<NodeRuns.NodeRun> reference, String label) throws Exception {
        return write(k, reference, label, "duplicate_group", "", "");
    }

    /**
     * {@code extraBody}: more request fields (starting with a comma); {@code extraParams}: more URL parameters (starting
     * with {@code &}); {@code groupField}: where the check reads the groups.
     */
    WriteBack write(int k, List<NodeRuns.NodeRun> reference, String label, String groupField, String extraBody, String extraParams)
        throws Exception {
        WriteBack w = new WriteBack();
        w.k = k;
        w.label = label;
        LOG.log("write-back (" + label + ") at k=" + k);
        NodeRuns.NodeStats before = NodeRuns.NodeStats.read(node);
        long t = System.nanoTime();
        String r;
        try {
            r = node.post(
                "/" + c.index() + "/_near_duplicates/_write?wait_for_completion=false" + extraParams,
                (c.signed() ? "{\"field\":\"fp\"" : "{\"field\":\"fp\",\"max_distance\":" + k + ",\"mode\":\"components\"")
                    + extraBody
                    + "}"
            );
        } catch (NodeClient.HttpError e) {
            w.error = e.getMessage();
            run.problems.add("write-back k=" + k + ": " + e.getMessage());
            return w;
        }
        w.task = (String) Json.map(r).get("task");
        Map<?, ?> done = null;
        List<String> seen = new ArrayList<>();
        try (NodePoller p = new NodePoller(node, c.pollMs(), null)) {
            while (true) {
                Map<?, ?> tr = Json.map(node.get("/_tasks/" + w.task));
                double at = (System.nanoTime() - t) / 1e9;
                if (Boolean.TRUE.equals(tr.get("completed"))) {
                    w.wallMs = (System.nanoTime() - t) / 1e6;
                    done = tr;
                    break;
                }
                Map<?, ?> task = (Map<?, ?>) tr.get("task");
                Object status = task == null ? null : task.get("status");
                if (status != null) seen.add(String.format(Locale.ROOT, "%.1f s: `%s`", at, Json.write(status)));
                Thread.sleep(c.pollMs());
            }
            p.close();
            w.maxHeap = p.maxHeap.get();
            w.maxHeapPct = p.maxHeapPct.get();
            w.maxBreaker = p.maxBreaker.get();
        }
        NodeRuns.NodeStats afterStats = NodeRuns.NodeStats.read(node);
        if (afterStats.breaker() != before.breaker()) {
            run.problems.add(
                "write-back k="
                    + k
                    + ": near_duplicate breaker estimate "
                    + before.breaker()
                    + " bytes before, "
                    + afterStats.breaker()
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
            run.problems.add("write-back k=" + k + " failed: " + w.error);
            LOG.log("  write-back failed: " + w.error);
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
        LOG.log(
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
        node.post("/" + c.index() + "/_refresh", "");
        Map<String, Object> after = null;
        while (true) {
            String agg = "{\"size\":0,\"aggs\":{\"g\":{\"composite\":{\"size\":10000,\"sources\":[{\"g\":{\"terms\":{\"field\":\""
                + groupField
                + "\"}}}]"
                + (after == null ? "" : ",\"after\":" + Json.write(after))
                + "}}}}";
            Map<?, ?> ar = (Map<?, ?>) ((Map<?, ?>) Json.map(node.post("/" + c.index() + "/_search?request_cache=false", agg))
                .get("aggregations")).get("g");
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
        Map<?, ?> card = (Map<?, ?>) ((Map<?, ?>) Json.map(
            node.post(
                "/" + c.index() + "/_search?request_cache=false",
                "{\"size\":0,\"aggs\":{\"c\":{\"cardinality\":{\"field\":\"" + groupField + "\",\"precision_threshold\":40000}}}}"
            )
        ).get("aggregations")).get("c");
        w.cardinality = num(card, "value");
        w.exists = run.existsCount(groupField);
        long expectGroups = w.groups, expectDocs = w.docsInGroups;
        for (NodeRuns.NodeRun n : reference)
            if (n.error == null) {
                expectGroups = n.groups;
                expectDocs = n.docsInGroups;
            }
        LOG.log(
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
        long singletons = c.docs() - expectDocs;
        if (w.aggGroups != expectGroups + singletons
            || w.aggDocs != c.docs()
            || w.exists != c.docs()
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
                + c.docs()
                + " docs)";
            run.problems.add("**WRITE-BACK MISMATCH** " + msg);
            LOG.log("WRITE-BACK MISMATCH: " + msg);
        }
        if (w.cardinality != w.aggGroups && w.aggGroups <= 40000) run.problems.add(
            "write-back: cardinality aggregation " + w.cardinality + " vs composite " + w.aggGroups + " (cardinality is approximate)"
        );
        if (w.failed > 0) run.problems.add(
            "write-back k=" + k + ": " + w.failed + " failed documents: " + Json.write(resp.get("failures"))
        );
        return w;
    }

}
