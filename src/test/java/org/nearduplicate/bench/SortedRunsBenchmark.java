package org.nearduplicate.bench;

import org.apache.lucene.document.BinaryPoint;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.FixedBitSet;

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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An alternative to block keys as terms, measured beside them: Manku's permuted tables as sorted runs in Lucene points.
 * Each document indexes 4 one-dimensional 9-byte points, {@code [block i][the fingerprint rotated so that block i leads]};
 * the BKD tree keeps each permutation sorted, and a query walks it once, pruning every cell whose common prefix is
 * already more than {@code t_i} bits from the probe on the leading block (the same pigeonhole thresholds as the
 * multi-probe keys) or more than k on all its known bits. Leaves hand over whole fingerprints, so candidates are
 * verified without a doc-values read. Not used by the plugin; see docs/performance.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SortedRunsBenchmark {
    private static final int BLOCKS = 4;

    @Param({ "1000000" })
    public int docs;

    @Param({ "3", "8", "12", "16" })
    public int k;

    private Directory directory;
    private DirectoryReader reader;
    private long[] probes;
    private int next;

    @Setup(Level.Trial)
    public void open() throws IOException {
        Path path = Path.of("target", "query-bench", docs + "-sorted-runs");
        boolean built = Files.exists(path.resolve("done"));
        directory = new MMapDirectory(path);
        SplittableRandom random = new SplittableRandom(42); // the same fingerprints as QueryBenchmark's indices
        if (built == false) {
            IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(512).setUseCompoundFile(false);
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                writer.deleteAll();
                for (int i = 0; i < docs; i++) {
                    long fp = random.nextLong();
                    Document doc = new Document();
                    for (int b = 0; b < BLOCKS; b++) {
                        doc.add(new BinaryPoint("runs", point(b, fp)));
                    }
                    doc.add(new NumericDocValuesField("fp", fp));
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            Files.createFile(path.resolve("done"));
            long bytes = 0;
            try (Stream<Path> files = Files.list(path)) {
                for (Path f : files.filter(p -> p.toString().matches(".*\\.kd[dim]$")).toList())
                    bytes += Files.size(f);
            }
            System.out.printf("sorted runs: %.1f point bytes per document%n", bytes / (double) docs);
        }
        random = new SplittableRandom(42);
        long[] sample = new long[4096];
        int stride = Math.max(1, docs / sample.length);
        for (int i = 0, s = 0; i < docs && s < sample.length; i++) {
            long fp = random.nextLong();
            if (i % stride == 0) sample[s++] = fp;
        }
        probes = new long[sample.length];
        SplittableRandom flips = new SplittableRandom(7);
        for (int i = 0; i < probes.length; i++) {
            long probe = sample[i];
            for (int f = flips.nextInt(k + 1); f > 0; f--)
                probe ^= 1L << flips.nextInt(64);
            probes[i] = probe;
        }
        reader = DirectoryReader.open(directory);
        // the walk must be exact: the same count as a scan of every fingerprint, for a few probes
        for (int i = 0; i < 8; i++) {
            long probe = probes[next];
            int walked = query();
            var values = reader.leaves().get(0).reader().getNumericDocValues("fp");
            int scanned = 0;
            for (int doc = values.nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (Long.bitCount(values.longValue() ^ probe) <= k) scanned++;
            }
            if (walked != scanned) throw new AssertionError("sorted runs found " + walked + ", the scan " + scanned + " at k " + k);
        }
        next = 0;
    }

    static byte[] point(int block, long fp) {
        byte[] p = new byte[9];
        p[0] = (byte) block;
        long rotated = Long.rotateLeft(fp, 16 * block);
        for (int i = 0; i < 8; i++)
            p[1 + i] = (byte) (rotated >>> (56 - 8 * i));
        return p;
    }

    static long rotated(byte[] p) {
        long v = 0;
        for (int i = 1; i < 9; i++)
            v = (v << 8) | (p[i] & 0xFF);
        return v;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        reader.close();
        directory.close();
    }

    /** The documents within k of the probe, exactly, as a bit set. */
    @Benchmark
    public int query() throws IOException {
        long probe = probes[next++ & (probes.length - 1)];
        LeafReader leaf = reader.leaves().get(0).reader();
        PointValues points = leaf.getPointValues("runs");
        FixedBitSet hits = new FixedBitSet(leaf.maxDoc());
        // pigeonhole thresholds: sum(t_i + 1) = k + 1
        int[] t = new int[BLOCKS];
        for (int b = 0; b < BLOCKS; b++)
            t[b] = (k + 1) / BLOCKS - 1 + (b < (k + 1) % BLOCKS ? 1 : 0);
        long[] probeRotated = new long[BLOCKS];
        for (int b = 0; b < BLOCKS; b++)
            probeRotated[b] = Long.rotateLeft(probe, 16 * b);
        points.intersect(new PointValues.IntersectVisitor() {
            @Override
            public void visit(int docID) {
                throw new UnsupportedOperationException("cells are never inside: their values are needed");
            }

            @Override
            public void visit(int docID, byte[] packedValue) {
                int b = packedValue[0];
                if (Long.bitCount(rotated(packedValue) ^ probeRotated[b]) <= k) hits.set(docID);
            }

            @Override
            public PointValues.Relation compare(byte[] min, byte[] max) {
                if (min[0] != max[0]) return PointValues.Relation.CELL_CROSSES_QUERY;
                int b = min[0];
                if (t[b] < 0) return PointValues.Relation.CELL_OUTSIDE_QUERY;
                long lo = rotated(min), hi = rotated(max);
                int common = Long.numberOfLeadingZeros(lo ^ hi);
                long known = common == 0 ? 0 : -1L << (64 - common);
                long differ = (lo ^ probeRotated[b]) & known;
                if (Long.bitCount(differ & 0xFFFF000000000000L) > t[b] || Long.bitCount(differ) > k) {
                    return PointValues.Relation.CELL_OUTSIDE_QUERY;
                }
                return PointValues.Relation.CELL_CROSSES_QUERY;
            }
        });
        return hits.cardinality();
    }
}
