package org.nearduplicate.bench;

import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.lucene.BenchAccess;
import org.nearduplicate.lucene.ColumnScan;
import org.nearduplicate.lucene.FingerprintColumn;
import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.MemoryAccounting;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;

/**
 * The column scan against the physical floor, in process, in one run (bench/scan.sh, bench/results/RESULTS-scan.md):
 * one force-merged segment of N random fingerprints on the default layout (4 blocks, max_distance 16, 28 check bits;
 * the index of {@link QueryBenchmark}, reused), and per k, p50/p90 of
 * <ul>
 * <li>floor: a plain {@code long[]} loop counting {@code bitCount(v ^ q) <= k}, the same probes;</li>
 * <li>column query: {@code near_duplicate} with the node's column cache, top 20 through an {@link IndexSearcher}
 * (what a shard runs), and the bare {@link ColumnScan#scan};</li>
 * <li>100 probes per pass: the floor as 100 plain loops, the query with 100 fingerprints and the bare scan, per probe;</li>
 * <li>keys: the same query on its block keys only; doc-values scan: {@code allow_scan} without a column.</li>
 * </ul>
 * Probes are near-copies (0..k flipped bits) of indexed fingerprints, as in QueryBenchmark.
 * usage: ScanBenchmark docs[,docs] k[,k] [queries]
 */
public class ScanBenchmark {
    static final BlockLayout LAYOUT = new BlockLayout(4, 16, 28);
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int[] docsList = Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).toArray();
        int[] ks = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        int queries = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        System.out.println("cost constants: " + BenchAccess.columnCosts());
        for (int docs : docsList) {
            run(docs, ks, queries);
        }
    }

    static Path index(int docs) throws IOException {
        Path path = Path.of("target", "query-bench", docs + "-4-16-check28");
        if (Files.exists(path.resolve("done")) == false) {
            long start = System.nanoTime();
            SplittableRandom random = new SplittableRandom(42);
            try (Directory directory = new MMapDirectory(path)) {
                IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(512).setUseCompoundFile(false);
                try (IndexWriter writer = new IndexWriter(directory, config)) {
                    writer.deleteAll();
                    for (int i = 0; i < docs; i++) {
                        Document doc = new Document();
                        for (var field : SketchFields.simHashFields("fp", LAYOUT, random.nextLong())) {
                            doc.add(field);
                        }
                        writer.addDocument(doc);
                    }
                    writer.forceMerge(1);
                }
            }
            Files.createFile(path.resolve("done"));
            System.out.printf(Locale.ROOT, "built %s in %.0f s%n", path, (System.nanoTime() - start) / 1e9);
        }
        return path;
    }

    interface Run {
        long once(int i) throws IOException;
    }

    /** Per method p50/p90 in ms: {@code warmup} rounds, then rounds of every method on the same probe; method m runs in its first runs[m] rounds. */
    static double[][] interleaved(int warmup, int rounds, Run[] methods, int[] runs) throws IOException {
        for (int i = 0; i < warmup; i++) {
            for (Run m : methods)
                sink += m.once(i);
        }
        long[][] nanos = new long[methods.length][];
        for (int m = 0; m < methods.length; m++)
            nanos[m] = new long[runs[m]];
        for (int i = 0; i < rounds; i++) {
            for (int m = 0; m < methods.length; m++) {
                if (i >= runs[m]) continue;
                long start = System.nanoTime();
                sink += methods[m].once(warmup + i);
                nanos[m][i] = System.nanoTime() - start;
            }
        }
        double[][] out = new double[methods.length][];
        for (int m = 0; m < methods.length; m++) {
            long[] n = nanos[m];
            Arrays.sort(n);
            out[m] = new double[] { n[n.length / 2] / 1e6, n[Math.min(n.length - 1, (int) (n.length * 0.9))] / 1e6 };
        }
        return out;
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }

    static long floor(long[] values, long probe, int k) {
        long count = 0;
        for (long v : values) {
            if (Long.bitCount(v ^ probe) <= k) count++;
        }
        return count;
    }

    static void run(int docs, int[] ks, int queries) throws IOException {
        Path path = index(docs);
        try (Directory directory = new MMapDirectory(path); DirectoryReader reader = DirectoryReader.open(directory)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            if (reader.leaves().size() != 1) throw new IllegalStateException("one segment expected");
            LeafReaderContext leaf = reader.leaves().get(0);
            // the floor's array: the same values, read from the doc values
            long[] values = new long[leaf.reader().maxDoc()];
            NumericDocValues dv = leaf.reader().getNumericDocValues("fp");
            for (int doc = dv.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = dv.nextDoc()) {
                values[doc] = dv.longValue();
            }
            FingerprintColumns columns = new FingerprintColumns(1L << 30, MemoryAccounting.NONE);
            long start = System.nanoTime();
            FingerprintColumn column = columns.get(leaf, "fp");
            double loadMs = (System.nanoTime() - start) / 1e6;
            System.out.printf(
                Locale.ROOT,
                "%n## %,d documents (one segment)%n%ncolumn load on first use: %.1f ms (%,d bytes); load average at the start: %s%n%n",
                docs,
                loadMs,
                column.bytes(),
                loadAverage()
            );
            System.out.println(
                "| k | path | floor p50 | column query p50 (p90) | ratio | bare scan p50 | ratio | keys p50 (p90) | ratio | doc-values scan p50 | ratio"
                    + " | floor 100 probes, per probe | column query 100 probes, per probe | ratio | bare scan 100 probes, per probe | ratio |"
            );
            System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
            SplittableRandom sampleRandom = new SplittableRandom(99);
            for (int k : ks) {
                long[] probes = new long[1024];
                SplittableRandom flips = new SplittableRandom(7 + k);
                for (int i = 0; i < probes.length; i++) {
                    long probe = values[sampleRandom.nextInt(values.length)];
                    for (int f = flips.nextInt(k + 1); f > 0; f--) {
                        probe ^= 1L << flips.nextInt(64);
                    }
                    probes[i] = probe;
                }
                IntToLongFunction p = i -> probes[i & (probes.length - 1)];
                SimHashQuery shape = new SimHashQuery("fp", probes[0], k, LAYOUT, k > LAYOUT.maxDistance()).withColumns(columns);
                String route = shape.path(values.length, true).name().toLowerCase(Locale.ROOT);
                // interleaved: each round runs every method once on the same probe, so that a load change on the
                // machine (other processes on its 2 cores) hits them alike and the ratios stay comparable
                Run[] single = {
                    i -> floor(values, p.applyAsLong(i), k),
                    i -> searcher.search(new SimHashQuery("fp", p.applyAsLong(i), k, LAYOUT, false).withColumns(columns), 20).totalHits
                        .value(),
                    i -> ColumnScan.scan(column, new long[] { p.applyAsLong(i) }, k).size(),
                    i -> searcher.search(BenchAccess.keysOnly("fp", new long[] { p.applyAsLong(i) }, k, LAYOUT), 20).totalHits.value(),
                    i -> searcher.search(new SimHashQuery("fp", p.applyAsLong(i), k, LAYOUT, true), 20).totalHits.value() };
                int dvRuns = docs >= 5_000_000 ? 8 : 20;
                double[][] t = interleaved(10, queries, single, new int[] { queries, queries, queries, queries, dvRuns });
                double[] floor = t[0], query = t[1], bare = t[2], keys = t[3], docValues = t[4];
                int batchRuns = docs >= 5_000_000 ? 5 : 10;
                Run[] batch = { i -> {
                    long c = 0;
                    for (int j = 0; j < 100; j++)
                        c += floor(values, p.applyAsLong(i * 100 + j), k);
                    return c;
                }, i -> {
                    long[] b = new long[100];
                    for (int j = 0; j < 100; j++)
                        b[j] = p.applyAsLong(i * 100 + j);
                    return searcher.search(new SimHashQuery("fp", b, k, LAYOUT, false).withColumns(columns), 20).totalHits.value();
                }, i -> {
                    long[] b = new long[100];
                    for (int j = 0; j < 100; j++)
                        b[j] = p.applyAsLong(i * 100 + j);
                    return ColumnScan.scan(column, b, k).size();
                } };
                double[][] b100 = interleaved(1, batchRuns, batch, new int[] { batchRuns, batchRuns, batchRuns });
                double[] floor100 = b100[0], query100 = b100[1], bare100 = b100[2];
                String route100 = new SimHashQuery("fp", Arrays.copyOf(probes, 100), k, LAYOUT, false).withColumns(columns)
                    .path(values.length, true)
                    .name()
                    .toLowerCase(Locale.ROOT);
                List<String> row = new ArrayList<>();
                row.add(Integer.toString(k));
                row.add(route + (route.equals(route100) ? "" : " (100 probes: " + route100 + ")"));
                row.add(ms(floor[0]));
                row.add(ms(query[0]) + " (" + ms(query[1]) + ")");
                row.add(ratio(query[0], floor[0]));
                row.add(ms(bare[0]));
                row.add(ratio(bare[0], floor[0]));
                row.add(ms(keys[0]) + " (" + ms(keys[1]) + ")");
                row.add(ratio(keys[0], floor[0]));
                row.add(ms(docValues[0]));
                row.add(ratio(docValues[0], floor[0]));
                row.add(ms(floor100[0] / 100));
                row.add(ms(query100[0] / 100));
                row.add(ratio(query100[0], floor100[0]));
                row.add(ms(bare100[0] / 100));
                row.add(ratio(bare100[0], floor100[0]));
                System.out.println("| " + String.join(" | ", row) + " |");
            }
            System.out.println("\ncache after the run: " + columns.stats());
            System.out.println("load average (1/5/15 min, /proc/loadavg) at the end: " + loadAverage());
            columns.clear();
        }
    }

    static String ms(double ms) {
        return String.format(Locale.ROOT, ms < 1 ? "%.3f ms" : ms < 10 ? "%.2f ms" : "%.1f ms", ms);
    }

    static String ratio(double a, double b) {
        return String.format(Locale.ROOT, "%.2fx", a / b);
    }
}
