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

/**
 * Bench's ingest comparison: the eval pages indexed through the simhash pipeline (the processor's default version into a
 * default {@code simhash} field) vs plain indexing, and through a pipeline of each {@code --ingest-versions} version
 * ({@code "version": V} into a field mapped {@code simhash-vV}), --ingest-rounds rounds, the sides interleaved.
 */
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
     * The ingest comparison: the runs (every side, per round), the store sizes after the last round by run name, the
     * algorithm each pipeline side wrote (by run name, read back from one document) and the documents the pipelines
     * rejected (count and first reason per run name).
     */
    record Result(List<Run> runs, int docs, long bytes, String note, Map<String, Long> stores, Map<String, String> algorithms, Map<
        String,
        Integer> rejected, Map<String, String> rejectedWhy) {
    }

    /** Run names: the plain side and the default pipeline's side (the results' ratio is default over plain). */
    static final String PLAIN = "plain (same text field, no pipeline)";
    static final String DEFAULT = "simhash pipeline + simhash field";

    /** Run name of the side of simhash version {@code version}. */
    static String versionSide(int version) {
        return "v" + version + ": simhash pipeline with \"version\": " + version + " + simhash field mapped simhash-v" + version;
    }

    /** One side of the comparison: its run name, index, pipeline (null: none) and field mapping (null: none). */
    private record Side(String name, String index, String pipeline, String field) {
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
            return new Result(List.of(), 0, 0, "skipped: " + file + " is absent", Map.of(), Map.of(), Map.of(), Map.of());
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
        List<Side> sides = new ArrayList<>();
        sides.add(new Side(PLAIN, "bench_ingest_plain", null, null));
        node.put("/_ingest/pipeline/bench-simhash", "{\"processors\":[{\"simhash\":{\"field\":\"content\",\"target_field\":\"fp\"}}]}");
        sides.add(new Side(DEFAULT, "bench_ingest_simhash", "bench-simhash", "{\"type\":\"simhash\"}"));
        for (int version : c.ingestVersions()) {
            String pipeline = "bench-simhash-v" + version;
            node.put(
                "/_ingest/pipeline/" + pipeline,
                "{\"processors\":[{\"simhash\":{\"field\":\"content\",\"target_field\":\"fp\",\"version\":" + version + "}}]}"
            );
            sides.add(
                new Side(
                    versionSide(version),
                    "bench_ingest_simhash_v" + version,
                    pipeline,
                    "{\"type\":\"simhash\",\"algorithm\":\"simhash-v" + version + "\"}"
                )
            );
        }
        List<Run> runs = new ArrayList<>();
        Map<String, Long> stores = new LinkedHashMap<>();
        Map<String, String> algorithms = new LinkedHashMap<>();
        for (int round = 0; round < c.ingestRounds(); round++) {
            for (Side side : sides) {
                boolean sim = side.pipeline() != null;
                String idx = side.index();
                node.delete("/" + idx);
                node.put(
                    "/" + idx,
                    "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"refresh_interval\":\"-1\"},"
                        + "\"mappings\":{\"properties\":{\"content\":{\"type\":\"text\",\"analyzer\":\"standard\"}"
                        + (sim ? ",\"fp\":" + side.field() : "")
                        + "}}}"
                );
                String path = "/" + idx + "/_bulk" + (sim ? "?pipeline=" + side.pipeline() : "");
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
                Run run = new Run(side.name(), contents.size(), sec, bytes);
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
                    stores.put(side.name(), size);
                    if (sim) {
                        // the algorithm the pipeline wrote, from one document's _source
                        String hit = node.get("/" + idx + "/_search?size=1&filter_path=hits.hits._source.fp.algorithm");
                        java.util.regex.Matcher m = java.util.regex.Pattern.compile("simhash-v[0-9]+").matcher(hit);
                        algorithms.put(side.name(), m.find() ? m.group() : "? (" + hit + ")");
                    }
                }
            }
        }
        return new Result(runs, contents.size(), bytes, "", stores, algorithms, rejected, rejectedWhy);
    }
}
