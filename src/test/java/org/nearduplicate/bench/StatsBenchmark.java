package org.nearduplicate.bench;

import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.MMapDirectory;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.MemoryAccounting;
import org.nearduplicate.lucene.SegmentPathStats;
import org.nearduplicate.lucene.SimHashQuery;

/**
 * The cost of the always-on stats counters ({@link NearDuplicateStats}), in one JMH run (bench/stats.sh,
 * bench/results/RESULTS-stats-cost.md); every "counted" benchmark does exactly what its plain twin does plus the
 * stats calls the plugin makes for that work:
 * <ul>
 * <li>fingerprint: one typical page (the en-html page of median length among the first 200 of the public corpus)
 * through the engine, as {@link EngineBenchmark}; counted adds {@code stats.fingerprint(SIMHASH)}, which
 * SketchingService calls once per computed fingerprint;</li>
 * <li>query: one {@code near_duplicate} query at k = 16 (top 20 through an {@link IndexSearcher}) on an in-memory
 * index ({@link ByteBuffersDirectory}) of one segment of 1,000,000 random fingerprints, the layout of
 * {@link ScanBenchmark} (4 blocks, max_distance 16, 28 check bits), on the keys path and on the column path; counted
 * sets the {@link SegmentPathStats} listener (what the field mapper sets: a count and two {@code System.nanoTime()}
 * calls per segment) and calls {@code stats.query()} as SimHashProbe does per query;</li>
 * <li>increment: a bare {@code stats.fingerprint(SIMHASH)} (one {@code LongAdder} increment), by 1 and by 2 threads
 * on the same counter; segment: the per-segment work of the listener alone (count, two nanoTime calls, time).</li>
 * </ul>
 * {@link #main} prints the markdown tables: the ratios counted / plain of the average times, with the JMH 99.9%
 * error of each side, then the same comparisons interleaved in one JVM ({@link #interleaved}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StatsBenchmark {
    static final int DOCS = Integer.getInteger("stats.docs", 1_000_000);
    static final int K = 16;

    /** One typical page and the engine. */
    @State(Scope.Benchmark)
    public static class Page {
        SimHasher hasher;
        String page;
        NearDuplicateStats stats;

        @Setup(Level.Trial)
        public void load() throws IOException {
            hasher = new SimHasher(SimHashSettings.DEFAULT);
            page = typicalPage();
            stats = new NearDuplicateStats();
        }
    }

    static String typicalPage() throws IOException {
        List<String> docs = new ArrayList<>(EngineBenchmark.sampleDocuments("en-html"));
        docs.sort(Comparator.comparingInt(String::length));
        return docs.get(docs.size() / 2);
    }

    /** The in-memory index, its column cache and the probes. */
    @State(Scope.Benchmark)
    public static class Index {
        Directory directory;
        DirectoryReader reader;
        IndexSearcher searcher;
        FingerprintColumns columns;
        NearDuplicateStats stats;
        SegmentPathStats listener;
        long[] probes;
        int next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            directory = new ByteBuffersDirectory();
            try (Directory disk = new MMapDirectory(ScanBenchmark.index(DOCS))) {
                for (String file : disk.listAll()) {
                    if (file.equals("done") || file.equals("write.lock")) continue;
                    directory.copyFrom(disk, file, file, IOContext.DEFAULT);
                }
            }
            reader = DirectoryReader.open(directory);
            if (reader.leaves().size() != 1) throw new IllegalStateException("one segment expected");
            searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            columns = new FingerprintColumns(1L << 30, MemoryAccounting.NONE);
            columns.get(reader.leaves().get(0), "fp"); // loaded once, before measuring
            stats = new NearDuplicateStats();
            listener = new SegmentPathStats(stats);
            // probes: near-copies (0..k flipped bits) of indexed fingerprints, so that every query has hits
            long[] values = new long[reader.maxDoc()];
            NumericDocValues dv = reader.leaves().get(0).reader().getNumericDocValues("fp");
            for (int doc = dv.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = dv.nextDoc()) {
                values[doc] = dv.longValue();
            }
            SplittableRandom random = new SplittableRandom(99);
            probes = new long[1024];
            for (int i = 0; i < probes.length; i++) {
                long probe = values[random.nextInt(values.length)];
                for (int f = random.nextInt(K + 1); f > 0; f--) {
                    probe ^= 1L << random.nextInt(64);
                }
                probes[i] = probe;
            }
        }

        long probe() {
            return probes[next++ & (probes.length - 1)];
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            columns.clear();
            reader.close();
            directory.close();
        }
    }

    /** One shared stats instance: the 2-thread increments hit the same counter. */
    @State(Scope.Benchmark)
    public static class Counters {
        final NearDuplicateStats stats = new NearDuplicateStats();
    }

    // ---------------------------------------------------------------- fingerprint

    @Benchmark
    public long fingerprint(Page p) {
        return p.hasher.fingerprint(p.page);
    }

    @Benchmark
    public long fingerprintCounted(Page p) {
        long fp = p.hasher.fingerprint(p.page);
        p.stats.fingerprint(NearDuplicateStats.Method.SIMHASH);
        return fp;
    }

    // ---------------------------------------------------------------- query

    @Benchmark
    public TopDocs queryKeys(Index x) throws IOException {
        return x.searcher.search(new SimHashQuery("fp", x.probe(), K, ScanBenchmark.LAYOUT, false), 20);
    }

    @Benchmark
    public TopDocs queryKeysCounted(Index x) throws IOException {
        x.stats.query();
        return x.searcher.search(new SimHashQuery("fp", x.probe(), K, ScanBenchmark.LAYOUT, false).withListener(x.listener), 20);
    }

    @Benchmark
    public TopDocs queryColumn(Index x) throws IOException {
        return x.searcher.search(new SimHashQuery("fp", x.probe(), K, ScanBenchmark.LAYOUT, false).withColumns(x.columns), 20);
    }

    @Benchmark
    public TopDocs queryColumnCounted(Index x) throws IOException {
        x.stats.query();
        return x.searcher.search(
            new SimHashQuery("fp", x.probe(), K, ScanBenchmark.LAYOUT, false).withColumns(x.columns).withListener(x.listener),
            20
        );
    }

    // ---------------------------------------------------------------- the calls alone

    @Benchmark
    @Threads(1)
    public void increment1Thread(Counters c) {
        c.stats.fingerprint(NearDuplicateStats.Method.SIMHASH);
    }

    @Benchmark
    @Threads(2)
    public void increment2Threads(Counters c) {
        c.stats.fingerprint(NearDuplicateStats.Method.SIMHASH);
    }

    /** What the listener does per segment: count it, read the clock at its start and end, add the time. */
    @Benchmark
    @Threads(1)
    public void segmentListener(Counters c) {
        long start = System.nanoTime();
        c.stats.segment(NearDuplicateStats.Path.KEYS, 0);
        c.stats.segmentTime(NearDuplicateStats.Path.KEYS, System.nanoTime() - start);
    }

    /** Usage: {@code StatsBenchmark [jmh options]}, e.g. {@code -wi 2 -i 5 -f 1 -w 1s -r 2s}. */
    public static void main(String[] args) throws Exception {
        var options = new OptionsBuilder().parent(new CommandLineOptions(args)).include(StatsBenchmark.class.getName() + "\\.").build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, double[]> score = new HashMap<>();
        for (RunResult r : results) {
            var primary = r.getPrimaryResult();
            score.put(r.getParams().getBenchmark().replaceAll(".*\\.", ""), new double[] { primary.getScore(), primary.getScoreError() });
        }
        System.out.printf(
            Locale.ROOT,
            "%n| work | plain, µs/op (± 99.9%% error) | counted, µs/op (± error) | ratio counted / plain | ratio range from the errors |%n"
        );
        System.out.println("|---|---|---|---|---|");
        ratioRow(score, "fingerprint of one typical page (en-html)", "fingerprint", "fingerprintCounted");
        ratioRow(
            score,
            String.format(Locale.ROOT, "near_duplicate query, k = %d, keys path, %,d docs", K, DOCS),
            "queryKeys",
            "queryKeysCounted"
        );
        ratioRow(
            score,
            String.format(Locale.ROOT, "near_duplicate query, k = %d, column path, %,d docs", K, DOCS),
            "queryColumn",
            "queryColumnCounted"
        );
        System.out.printf(Locale.ROOT, "%n| call | threads | ns per call (± 99.9%% error) |%n|---|---|---|%n");
        callRow(score, "counter increment (`stats.fingerprint`, one `LongAdder`)", 1, "increment1Thread");
        callRow(
            score,
            "counter increment (`stats.fingerprint`, one `LongAdder`), both threads on the same counter",
            2,
            "increment2Threads"
        );
        callRow(score, "listener work per segment (count, 2 × `System.nanoTime()`, add time)", 1, "segmentListener");
        interleaved();
    }

    interface Op {
        long run() throws IOException;
    }

    static volatile long sink;

    /**
     * The same comparisons in this JVM, interleaved: each round runs plain and counted once each (alternating which
     * goes first), so that a change of load on the shared machine hits both alike; the ratio of the medians.
     */
    static void interleaved() throws IOException {
        Page p = new Page();
        p.load();
        Index x = new Index();
        x.open();
        StatsBenchmark b = new StatsBenchmark();
        System.out.printf(
            Locale.ROOT,
            "%n| work (interleaved, in process) | rounds | plain p50, µs | counted p50, µs | ratio counted / plain (p50) |%n|---|---|---|---|---|%n"
        );
        interleavedRow("fingerprint of one typical page (en-html)", 2000, () -> b.fingerprint(p), () -> b.fingerprintCounted(p));
        interleavedRow(
            String.format(Locale.ROOT, "near_duplicate query, k = %d, keys path, %,d docs", K, DOCS),
            300,
            () -> b.queryKeys(x).totalHits.value(),
            () -> b.queryKeysCounted(x).totalHits.value()
        );
        interleavedRow(
            String.format(Locale.ROOT, "near_duplicate query, k = %d, column path, %,d docs", K, DOCS),
            3000,
            () -> b.queryColumn(x).totalHits.value(),
            () -> b.queryColumnCounted(x).totalHits.value()
        );
        x.close();
    }

    private static void interleavedRow(String work, int rounds, Op plain, Op counted) throws IOException {
        for (int i = 0; i < rounds / 2; i++) { // warm-up
            sink += plain.run() + counted.run();
        }
        long[] a = new long[rounds], c = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            Op first = (i & 1) == 0 ? plain : counted, second = first == plain ? counted : plain;
            long t0 = System.nanoTime();
            sink += first.run();
            long t1 = System.nanoTime();
            sink += second.run();
            long t2 = System.nanoTime();
            a[i] = first == plain ? t1 - t0 : t2 - t1;
            c[i] = first == plain ? t2 - t1 : t1 - t0;
        }
        java.util.Arrays.sort(a);
        java.util.Arrays.sort(c);
        double pa = a[rounds / 2] / 1e3, pc = c[rounds / 2] / 1e3;
        System.out.printf(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.3f |%n", work, rounds, pa, pc, pc / pa);
    }

    private static void ratioRow(Map<String, double[]> score, String work, String plain, String counted) {
        double[] a = score.get(plain), b = score.get(counted);
        if (a == null || b == null) return;
        double low = (b[0] - b[1]) / (a[0] + a[1]), high = (b[0] + b[1]) / (a[0] - a[1]);
        System.out.printf(
            Locale.ROOT,
            "| %s | %.1f ± %.1f | %.1f ± %.1f | %.3f | %.3f to %.3f |%n",
            work,
            a[0] / 1e3,
            a[1] / 1e3,
            b[0] / 1e3,
            b[1] / 1e3,
            b[0] / a[0],
            low,
            high
        );
    }

    private static void callRow(Map<String, double[]> score, String call, int threads, String name) {
        double[] s = score.get(name);
        if (s == null) return;
        System.out.printf(Locale.ROOT, "| %s | %d | %.1f ± %.1f |%n", call, threads, s[0], s[1]);
    }
}
