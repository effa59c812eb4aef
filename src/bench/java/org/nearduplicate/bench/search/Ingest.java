package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.zip.GZIPInputStream;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.harness.Json.num;
import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Bench.LOG;

/** Bench's ingest comparison: the eval pages indexed through the simhash pipeline vs plain indexing, --ingest-rounds rounds. */
final class Ingest {
    /** One bulk load of the eval pages. */
    record Run(String name, int docs, double seconds, long bytes) {
        double dps() {
            return docs / seconds;
        }

        double mbps() {
            return bytes / seconds / 1e6;
        }
    }

    /**
     * The ingest comparison: the runs (plain and pipeline, per round), the store sizes after the last round, and the
     * documents the pipeline rejected (count and first reason per run name).
     */
    record Result(List<Run> runs, int docs, long bytes, String note, long plainStore, long simhashStore, Map<String, Integer> rejected, Map<
        String,
        String> rejectedWhy) {
    }

    private final BenchConfig c;
    private final NodeClient node;
    private final Map<String, Integer> rejected = new LinkedHashMap<>();
    private final Map<String, String> rejectedWhy = new LinkedHashMap<>();

    Ingest(BenchConfig c, NodeClient node) {
        this.c = c;
        this.node = node;
    }

    Result run() throws Exception {
        Path file = Paths.get(c.evalDir(), "docs.jsonl.gz");
        if (!Files.exists(file)) {
            LOG.log("skipping the ingest comparison: " + file + " is absent");
            return new Result(List.of(), 0, 0, "skipped: " + file + " is absent", 0, 0, Map.of(), Map.of());
        }
        List<String> contents = new ArrayList<>();
        try (
            BufferedReader r = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8)
            )
        ) {
            String line;
            while ((line = r.readLine()) != null) {
                Map<?, ?> doc = Json.map(line);
                contents.add("{\"content\":" + Json.write(doc.get("content")) + "}");
            }
        }
        long bytes = 0;
        for (String c : contents)
            bytes += c.getBytes(StandardCharsets.UTF_8).length;
        LOG.log("ingest comparison: " + contents.size() + " eval documents, " + bytes / 1_000_000 + " MB of JSON");
        node.put("/_ingest/pipeline/bench-simhash", "{\"processors\":[{\"simhash\":{\"field\":\"content\",\"target_field\":\"fp\"}}]}");
        List<Run> runs = new ArrayList<>();
        long plainStore = 0, simStore = 0;
        for (int round = 0; round < c.ingestRounds(); round++) {
            for (boolean sim : new boolean[] { false, true }) {
                String idx = sim ? "bench_ingest_simhash" : "bench_ingest_plain";
                node.delete("/" + idx);
                node.put(
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
                ExecutorService ex = Executors.newFixedThreadPool(c.bulkThreads());
                List<Future<?>> fs = new ArrayList<>();
                for (int th = 0; th < c.bulkThreads(); th++)
                    fs.add(ex.submit(() -> {
                        int from;
                        while ((from = next.getAndAdd(batch)) < contents.size()) {
                            StringBuilder sb = new StringBuilder();
                            for (int i = from; i < Math.min(contents.size(), from + batch); i++)
                                sb.append("{\"index\":{}}\n").append(contents.get(i)).append('\n');
                            String r = node.send("POST", path, sb.toString(), "application/x-ndjson");
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
                node.post("/" + idx + "/_refresh", "");
                double sec = (System.nanoTime() - t) / 1e9;
                Run run = new Run(
                    sim ? "simhash pipeline + simhash field" : "plain (same text field, no pipeline)",
                    contents.size(),
                    sec,
                    bytes
                );
                LOG.log(
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
                    LOG.log("  first rejection: " + firstError.get());
                    rejectedWhy.put(run.name(), firstError.get());
                }
                runs.add(run);
                if (round == c.ingestRounds() - 1) {
                    node.post("/" + idx + "/_forcemerge?max_num_segments=1", "");
                    // sum of the live segment files (the store figure right after a merge may still count deleted files)
                    Map<?, ?> st = (Map<?, ?>) Json.parse(node.get("/" + idx + "/_stats/segments?include_segment_file_sizes=true"));
                    Map<?, ?> fsz = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) st.get("_all")).get("primaries")).get("segments"))
                        .get("file_sizes");
                    long size = 0;
                    for (Object v : fsz.values())
                        size += num((Map<?, ?>) v, "size_in_bytes");
                    if (sim) simStore = size;
                    else plainStore = size;
                }
            }
        }
        return new Result(runs, contents.size(), bytes, "", plainStore, simStore, rejected, rejectedWhy);
    }
}
