package org.nearduplicate.bench.groups;

import java.io.*;
import java.nio.file.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.groups.GroupsBench.LOG;
import static org.nearduplicate.bench.groups.GroupsBench.SIG;
import static org.nearduplicate.bench.harness.Json.num;
import static org.nearduplicate.bench.harness.Report.*;

/** GroupsBench's index: the fingerprints loaded, refreshed and force-merged (or an index already holding them reused). */
final class GroupsLoad {
    private final GroupsRun run;
    private final GroupsConfig c;
    private final NodeClient node;

    GroupsLoad(GroupsRun run) {
        this.run = run;
        this.c = run.c;
        this.node = run.node;
    }

    /** The candidate keys of --field-version 7: simhash-v7's. */
    private static final org.nearduplicate.core.keys.CandidateKeys KEYS = org.nearduplicate.core.keys.CandidateKeys.V7;

    record Load(boolean reused, double loadSecs, double mergeSecs, long count, long segments, long storeBytes) {
    }

    Load load(ClusterData data) throws Exception {
        // a node just (re)started may still be recovering the index: wait for it, or --reuse would see no documents
        try {
            node.get("/" + c.index() + "/_settings"); // 404 when there is no such index: nothing to wait for
            node.get("/_cluster/health/" + c.index() + "?wait_for_status=yellow&timeout=120s");
        } catch (NodeClient.HttpError e) {
            LOG.log("  no healthy index " + c.index() + " (" + e.status + "): loading it");
        }
        long have = run.count();
        double loadSecs = 0, mergeSecs = 0;
        boolean reused = c.reuse() && have == c.docs();
        if (reused) {
            LOG.log("reusing index " + c.index() + " (" + have + " docs)");
            // a previous write-back left duplicate_group in the documents: clear it, so the write-back writes afresh
            long stale = run.existsCount("duplicate_group");
            if (stale > 0) {
                LOG.log("  clearing duplicate_group/duplicate_distance from " + stale + " docs of a previous run");
                node.post(
                    "/" + c.index() + "/_update_by_query?refresh=true&conflicts=proceed",
                    "{\"query\":{\"exists\":{\"field\":\"duplicate_group\"}},"
                        + "\"script\":{\"source\":\"ctx._source.remove('duplicate_group'); ctx._source.remove('duplicate_distance')\"}}"
                );
            }
        } else {
            node.delete("/" + c.index());
            node.put(
                "/" + c.index(),
                "{\"settings\":{\"number_of_shards\":"
                    + c.shards()
                    + ",\"number_of_replicas\":0,\"refresh_interval\":\"-1\","
                    + "\"index.translog.durability\":\"async\",\"index.translog.flush_threshold_size\":\"1gb\"},"
                    + "\"mappings\":{\"properties\":{\"fp\":"
                    + c.fieldMapping()
                    + "}}}"
            );
            LOG.log("loading " + c.docs() + " docs into " + c.index() + " (bulk " + c.bulkDocs() + ", " + c.bulkThreads() + " threads)");
            AtomicLong next = new AtomicLong(), done = new AtomicLong();
            final long t0 = System.nanoTime();
            ExecutorService ex = Executors.newFixedThreadPool(c.bulkThreads());
            List<Future<?>> fs = new ArrayList<>();
            for (int th = 0; th < c.bulkThreads(); th++)
                fs.add(ex.submit(() -> {
                    StringBuilder sb = new StringBuilder(c.bulkDocs() * 64);
                    while (true) {
                        long from = next.getAndAdd(c.bulkDocs());
                        if (from >= c.docs()) return null;
                        long to = Math.min(c.docs(), from + c.bulkDocs());
                        sb.setLength(0);
                        byte[] sig = new byte[SIG];
                        for (long i = from; i < to; i++) {
                            sb.append("{\"index\":{\"_id\":\"").append(i);
                            if (c.signed()) {
                                data.signature(i, sig, 0);
                                sb.append("\"}}\n{\"fp\":{\"fingerprint\":\"").append(hex(data.fp(i))).append("\",\"signature\":\"");
                                for (byte b : sig)
                                    sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
                                if (c.keys()) sb.append("\",\"keys\":\"")
                                    .append(org.nearduplicate.core.keys.StoredKeys.encode(KEYS, data.minima(i, sig, 0)));
                                sb.append("\"}}\n");
                            } else {
                                sb.append("\"}}\n{\"fp\":\"").append(hex(data.fp(i))).append("\"}\n");
                            }
                        }
                        node.bulkWithRetry("/" + c.index() + "/_bulk", sb.toString());
                        long d = done.addAndGet(to - from);
                        if ((d / c.bulkDocs()) % 200 == 0) LOG.log(
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
            node.post("/" + c.index() + "/_refresh", "");
            loadSecs = (System.nanoTime() - t0) / 1e9;
            LOG.log("  loaded in " + (int) loadSecs + " s (" + (long) (c.docs() / loadSecs) + " docs/s)");
            long t = System.nanoTime();
            node.post("/" + c.index() + "/_forcemerge?max_num_segments=1", "");
            node.post("/" + c.index() + "/_refresh", "");
            mergeSecs = (System.nanoTime() - t) / 1e9;
            LOG.log("  force-merged in " + (int) mergeSecs + " s");
        }
        if (c.fieldVersion() != 0) {
            // the field's algorithm as the node mapped it: v6 as asked, or the default, which must be v7
            String mapping = node.get("/" + c.index() + "/_mapping/field/fp");
            String want = "simhash-v" + c.fieldVersion();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("simhash-v[0-9]+").matcher(mapping);
            String got = m.find() ? m.group() : null;
            if (got != null && got.equals(want) == false) throw new IllegalStateException(
                "field fp is mapped " + got + ", expected " + want
            );
            LOG.log("  field fp: " + (got == null ? "default algorithm (not named in the mapping)" : got));
        }
        long n = run.count();
        if (n != c.docs()) throw new IllegalStateException("index " + c.index() + " holds " + n + " docs, expected " + c.docs());
        Map<?, ?> st = Json.map(node.get("/" + c.index() + "/_stats/segments,store"));
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

}
