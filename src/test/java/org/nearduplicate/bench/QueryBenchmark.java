package org.nearduplicate.bench;

import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;

/**
 * The shard-level cost of one {@code near_duplicate} query, without HTTP or OpenSearch around it: a Lucene index of
 * {@code docs} random fingerprints (one segment, memory-mapped, as a force-merged shard), searched for the top 20
 * within {@code k} of a probe. Probes are near-copies (0..k flipped bits) of indexed fingerprints, so every query
 * has hits. {@code checkBits} compares key layouts with and without check bits; {@code scan} is the doc-values scan;
 * {@code k} queries one index at another distance than its layout's maximum (multi-probe layouts such as 4:16).
 * The index is built once per (docs, blocks, k, checkBits) under {@code target/query-bench/} and reused.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class QueryBenchmark {
    @Param({ "1000000" })
    public int docs;

    @Param({ "4:3" })
    public String layout;

    @Param({ "0", "16" })
    public int checkBits;

    @Param({ "false" })
    public boolean scan;

    /** The query's distance; -1: the layout's max_distance. Probes are copies with 0..k bits flipped. */
    @Param({ "-1" })
    public int k;

    private Directory directory;
    private DirectoryReader reader;
    private IndexSearcher searcher;
    private BlockLayout blockLayout;
    private long[] probes;
    private int next;

    @Setup(Level.Trial)
    public void open() throws IOException {
        String[] parts = layout.split(":");
        blockLayout = new BlockLayout(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), checkBits);
        if (k < 0) {
            k = blockLayout.maxDistance();
        }
        Path path = Path.of("target", "query-bench", docs + "-" + parts[0] + "-" + parts[1] + "-check" + checkBits);
        long[] sample = new long[4096];
        SplittableRandom random = new SplittableRandom(42);
        boolean built = Files.exists(path.resolve("done"));
        directory = new MMapDirectory(path);
        if (built == false) {
            IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(512).setUseCompoundFile(false);
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                writer.deleteAll();
                for (int i = 0; i < docs; i++) {
                    Document doc = new Document();
                    for (var field : SketchFields.simHashFields("fp", blockLayout, random.nextLong())) {
                        doc.add(field);
                    }
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            Files.createFile(path.resolve("done"));
        }
        // the same fingerprints again (same seed): probes are near-copies of indexed ones
        random = new SplittableRandom(42);
        int stride = Math.max(1, docs / sample.length);
        for (int i = 0, s = 0; i < docs && s < sample.length; i++) {
            long fp = random.nextLong();
            if (i % stride == 0) {
                sample[s++] = fp;
            }
        }
        probes = new long[sample.length];
        SplittableRandom flips = new SplittableRandom(7);
        for (int i = 0; i < probes.length; i++) {
            long probe = sample[i];
            for (int f = flips.nextInt(k + 1); f > 0; f--) {
                probe ^= 1L << flips.nextInt(64);
            }
            probes[i] = probe;
        }
        reader = DirectoryReader.open(directory);
        searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        reader.close();
        directory.close();
    }

    @Benchmark
    public TopDocs query() throws IOException {
        long probe = probes[next++ & (probes.length - 1)];
        return searcher.search(new SimHashQuery("fp", probe, k, blockLayout, scan), 20);
    }

    public static void main(String[] args) throws Exception {
        new Runner(new CommandLineOptions(args)).run();
    }
}
