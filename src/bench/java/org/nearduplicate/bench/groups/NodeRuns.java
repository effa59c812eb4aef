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

/** GroupsBench's _near_duplicates runs on the node, with the node's heap, breaker and CPU polled meanwhile. */
final class NodeRuns {
    private final GroupsRun run;
    private final GroupsConfig c;
    private final NodeClient node;

    NodeRuns(GroupsRun run) {
        this.run = run;
        this.c = run.c;
        this.node = run.node;
    }

    /** What _nodes/stats says about the node's heap, the near_duplicate breaker, its CPU and GC. */
    record NodeStats(long heapUsed, long heapPercent, long heapMax, long breaker, long breakerLimit, long breakerTripped, long cpuMillis,
        long gcMillis) {
        static NodeStats read(NodeClient client) throws Exception {
            Map<?, ?> nodes = (Map<?, ?>) client.getJson("/_nodes/stats/jvm,breaker,process").get("nodes");
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
    void samplePhase(NodeRun n, long startNanos) {
        try {
            Map<?, ?> nodes = (Map<?, ?>) Json.map(node.get("/_tasks?actions=indices:data/read/near_duplicate/groups&detailed"))
                .get("nodes");
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

    NodeRun run(int k, int rep) throws Exception {
        NodeRun n = new NodeRun();
        n.k = k;
        n.rep = rep;
        NodeStats before = NodeStats.read(node);
        n.heapBefore = before.heapUsed;
        LOG.log("_near_duplicates k=" + k + " run " + rep + " (heap before " + mb(before.heapUsed) + ")");
        // components: the mode the in-process HammingGroups check (and the committed results) compare against
        String body = c.signed()
            ? "{\"field\":\"fp\",\"size\":10}" // the defaults: k, min_similarity, mode
            : "{\"field\":\"fp\",\"max_distance\":" + k + ",\"size\":10,\"mode\":\"components\"}";
        long t = System.nanoTime();
        String resp = null;
        try (NodePoller p = new NodePoller(node, c.pollMs(), () -> samplePhase(n, t))) {
            try {
                resp = node.post("/" + c.index() + "/_near_duplicates", body);
            } catch (NodeClient.HttpError e) {
                n.error = e.status + ": " + e.getMessage();
            }
            n.wallMs = (System.nanoTime() - t) / 1e6;
            p.close();
            n.maxHeap = p.maxHeap.get();
            n.maxHeapPct = p.maxHeapPct.get();
            n.maxBreaker = p.maxBreaker.get();
            n.samples = p.samples.get();
        }
        NodeStats after = NodeStats.read(node);
        n.tripped = after.breakerTripped - before.breakerTripped;
        n.breakerBefore = before.breaker;
        n.cpuMs = after.cpuMillis - before.cpuMillis; // the node process's CPU time during the run (all its threads)
        n.gcMs = after.gcMillis - before.gcMillis;
        n.breakerAfter = after.breaker;
        if (after.breaker != before.breaker) {
            run.problems.add(
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
            LOG.log("  FAILED after " + (long) n.wallMs + " ms: " + n.error);
            run.problems.add("k=" + k + " run " + rep + ": " + n.error.substring(0, Math.min(600, n.error.length())));
            return n;
        }
        Map<?, ?> r = Json.map(resp);
        n.took = num(r, "took");
        Map<?, ?> counts = (Map<?, ?>) r.get("counts");
        n.docsScanned = num(counts, "docs_scanned");
        n.candidatePairs = num(counts, "candidate_pairs");
        n.verifiedPairs = num(counts, "verified_pairs");
        n.groups = num(counts, "groups");
        n.docsInGroups = num(counts, "docs_in_groups");
        Map<?, ?> plan = (Map<?, ?>) r.get("plan");
        n.blocks = num(plan, "blocks");
        n.keyBlocks = num(plan, "key_blocks");
        n.tables = num(plan, "tables");
        n.candidates = String.valueOf(plan.get("candidates"));
        if (plan.get("passes") != null) n.tables = num(plan, "passes");
        if (num(r, "max_distance") != k) run.problems.add(
            "run " + rep + ": the node's max_distance is " + num(r, "max_distance") + ", expected " + k
        );
        n.returned = ((List<?>) r.get("groups")).size();
        if (n.docsScanned != c.docs()) run.problems.add("k=" + k + " run " + rep + ": docs_scanned " + n.docsScanned + " != " + c.docs());
        LOG.log(
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
        LOG.log("  phases: " + n.phases() + "; node GC time " + n.gcMs + " ms");
        return n;
    }

}
