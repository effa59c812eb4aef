package org.nearduplicate.bench;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.nearduplicate.bench.KeysModel.Doc;
import org.nearduplicate.bench.harness.Args;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.lucene.BenchAccess;
import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.MemoryAccounting;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;

/**
 * The candidate-key path of the verified match (issue 40) against the exact column scan and the plain {@code long[]}
 * popcount loop, in process, in one run (bench/keys_path.sh, bench/results/RESULTS-keys-path.md).
 *
 * <p>One force-merged segment of N documents of the {@link KeysModel} (random full min-wise values with topics'
 * common values, 20 % planted pairs; shared with the real-node bench, bench/run.sh --reps fpk), indexed as the field
 * would: the fingerprint, the signature and the 28 keys (one docs-only term each). Probes are the first documents of
 * planted pairs.
 *
 * <p>Per probe (p50, p90, interleaved rounds): the floor ({@code bitCount(v ^ q) <= 16} over a {@code long[]} of the N
 * fingerprints), the exact query (max_distance 16, min_similarity 0.40, the node's column cache: the default query
 * today), and the same query on its candidate keys with 1 and with 2 shared keys required, all top 20 through an
 * {@link IndexSearcher}; candidates per probe; recall of the keys path against the exact hits; bytes of the keys field.
 */
public final class KeysPathBench {
    static final String USAGE = """
        usage: KeysPathBench [--docs N[,N]] [--queries N] [--recall-probes N] [--dir PATH]   (bench/keys_path.sh)
          --docs N[,N]         documents per index (default 1000000)
          --queries N          probes timed per path (default 200)
          --recall-probes N    probes whose candidates and hits are counted (default 2000)
          --common-share X     share of a document's slots taken from its topic's common values (default 0.858;
                               0: every full value random, every key a distinct term: the most bytes)
          --dir PATH     where the indices are built and kept (default target/keys-path-bench)""";
    /** The share of a document's slots taken from its topic's common values ({@code --common-share}). */
    static double commonShare = KeysModel.COMMON_SHARE;
    static final String FIELD = "fp";
    static final String SIGNATURES = SketchFields.signatureField(FIELD);
    static final String KEYS = FIELD + "#keys";
    static final CandidateKeys LAYOUT = KeysModel.LAYOUT;
    static final BlockLayout BLOCKS = new BlockLayout(4, 16);
    static final int K = 16;
    /** Probes per query of the batch table. */
    static final int BATCH = 100;
    static final double MIN_SIMILARITY = 0.40;

    private KeysPathBench() {}

    /** Document i of an index of {@code docs} ({@link KeysModel}): made again for probes without reading the index. */
    static Doc doc(int i, int docs) {
        return new KeysModel(docs, commonShare).doc(i);
    }

    static Path index(Path dir, int docs) throws IOException {
        Path path = dir.resolve(docs + (commonShare == KeysModel.COMMON_SHARE ? "" : "-common" + commonShare));
        if (Files.exists(path.resolve("done"))) return path;
        long start = System.nanoTime();
        try (Directory directory = new MMapDirectory(path)) {
            IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(512).setUseCompoundFile(false);
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                writer.deleteAll();
                for (int i = 0; i < docs; i++) {
                    Doc d = doc(i, docs);
                    Document document = new Document();
                    document.add(new NumericDocValuesField(FIELD, d.fingerprint()));
                    document.add(new BinaryDocValuesField(SIGNATURES, new BytesRef(d.signature())));
                    for (var f : SketchFields.candidateKeyFields(KEYS, d.keys(), LAYOUT.keyBytes()))
                        document.add(f);
                    writer.addDocument(document);
                }
                writer.forceMerge(1);
            }
        }
        Files.createFile(path.resolve("done"));
        System.out.printf(Locale.ROOT, "built %s in %.0f s%n%n", path, (System.nanoTime() - start) / 1e9);
        return path;
    }

    public static void main(String[] args) throws Exception {
        String docsList = "1000000";
        int queries = 200, recallProbes = 2000;
        Path dir = Path.of("target", "keys-path-bench");
        Args a = new Args(args, USAGE);
        for (String o; (o = a.next()) != null;) {
            switch (o) {
                case "--docs" -> docsList = a.value();
                case "--queries" -> queries = a.intValue();
                case "--recall-probes" -> recallProbes = a.intValue();
                case "--dir" -> dir = Path.of(a.value());
                case "--common-share" -> commonShare = Double.parseDouble(a.value());
                default -> throw a.unknown();
            }
        }
        for (String docs : docsList.split(","))
            run(dir, Integer.parseInt(docs), queries, recallProbes);
    }

    static SimHashQuery query(Doc probe, int minShared) {
        return new SimHashQuery(
            FIELD,
            new long[] { probe.fingerprint() },
            new byte[][] { probe.signature() },
            new SimHashQuery.Verification(SIGNATURES, MIN_SIMILARITY),
            K,
            BLOCKS,
            true,
            new SimHashQuery.CandidateKeyProbes(new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, minShared), new byte[][] { probe.keys() })
        );
    }

    static void run(Path dir, int docs, int queries, int recallProbes) throws IOException {
        Path path = index(dir, docs);
        try (Directory directory = new MMapDirectory(path); DirectoryReader reader = DirectoryReader.open(directory)) {
            if (reader.leaves().size() != 1) throw new IllegalStateException("one segment expected");
            LeafReader leaf = reader.leaves().get(0).reader();
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            long[] values = new long[leaf.maxDoc()];
            NumericDocValues dv = leaf.getNumericDocValues(FIELD);
            for (int d = dv.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = dv.nextDoc())
                values[d] = dv.longValue();
            FingerprintColumns columns = new FingerprintColumns(1L << 30, MemoryAccounting.NONE);
            columns.get(reader.leaves().get(0), FIELD);
            // probes: the first documents of planted pairs, spread over them
            int pairs = docs / 10;
            int total = Math.max(queries + 20, recallProbes);
            Doc[] probes = new Doc[total];
            for (int i = 0; i < total; i++)
                probes[i] = doc(2 * (int) ((long) i * pairs / total), docs);
            SimHashQuery[] exact = new SimHashQuery[total], keys1 = new SimHashQuery[total], keys2 = new SimHashQuery[total];
            for (int i = 0; i < total; i++) {
                keys1[i] = query(probes[i], 1).withColumns(columns);
                keys2[i] = query(probes[i], 2).withColumns(columns);
                exact[i] = keys1[i].withExact(true);
            }
            System.out.printf(
                Locale.ROOT,
                "## %,d documents (one segment, common share %s); %,d probes counted, %d timed per path; load average at the start: %s%n%n",
                docs,
                commonShare,
                recallProbes,
                queries,
                ScanBenchmark.loadAverage()
            );
            bytes(path, docs);
            // candidates, postings and recall, per probe
            long[] c1 = new long[recallProbes], c2 = new long[recallProbes], postings = new long[recallProbes];
            long exactHits = 0, found1 = 0, found2 = 0;
            for (int i = 0; i < recallProbes; i++) {
                byte[][] k = { probes[i].keys() };
                long[] w1 = BenchAccess.candidateKeyWork(leaf, KEYS, k, LAYOUT.keyBytes(), 1);
                long[] w2 = BenchAccess.candidateKeyWork(leaf, KEYS, k, LAYOUT.keyBytes(), 2);
                c1[i] = w1[0];
                c2[i] = w2[0];
                postings[i] = w1[1];
                Set<Integer> e = hits(searcher, exact[i]), h1 = hits(searcher, keys1[i]), h2 = hits(searcher, keys2[i]);
                if (e.containsAll(h1) == false || e.containsAll(h2) == false) throw new IllegalStateException(
                    "a keys hit the exact path lacks"
                );
                exactHits += e.size();
                found1 += h1.size();
                found2 += h2.size();
            }
            System.out.printf(
                Locale.ROOT,
                "| per probe | mean | p50 | p90 | max | per document of the index (mean) |%n| --- | --- | --- | --- | --- | --- |%n"
            );
            row("postings of the probe's 28 keys", postings, docs);
            row("candidates sharing >= 1 key", c1, docs);
            row("candidates sharing >= 2 keys", c2, docs);
            System.out.printf(
                Locale.ROOT,
                "%nverified hits (exact, the probe itself included): %,d over %,d probes; found by keys >= 1: %,d (recall %.5f), >= 2: %,d (recall %.5f)%n%n",
                exactHits,
                recallProbes,
                found1,
                (double) found1 / exactHits,
                found2,
                (double) found2 / exactHits
            );
            ScanBenchmark.Run[] methods = {
                i -> ScanBenchmark.floor(values, probes[i % total].fingerprint(), K),
                i -> searcher.search(exact[i % total], 20).scoreDocs.length,
                i -> searcher.search(keys1[i % total], 20).scoreDocs.length,
                i -> searcher.search(keys2[i % total], 20).scoreDocs.length };
            double[][] t = ScanBenchmark.interleaved(20, queries, methods, new int[] { queries, queries, queries, queries });
            System.out.println("| path | p50 | p90 | p50 / floor | p50 / exact column query |");
            System.out.println("| --- | --- | --- | --- | --- |");
            String[] names = {
                "floor: plain long[] popcount loop over N",
                "exact: column query (today's default)",
                "candidate keys, >= 1 shared",
                "candidate keys, >= 2 shared" };
            for (int m = 0; m < methods.length; m++) {
                System.out.printf(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s |%n",
                    names[m],
                    ScanBenchmark.ms(t[m][0]),
                    ScanBenchmark.ms(t[m][1]),
                    ScanBenchmark.ratio(t[m][0], t[0][0]),
                    ScanBenchmark.ratio(t[m][0], t[1][0])
                );
            }
            batches(searcher, values, probes, total, columns, Math.max(3, queries / 40));
            System.out.println("\nload average (1/5/15 min) at the end: " + ScanBenchmark.loadAverage() + "\n");
            columns.clear();
        }
    }

    /** A query of {@link #BATCH} probes (a near_duplicate_check batch): the column's blocked scan against the keys. */
    static void batches(IndexSearcher searcher, long[] values, Doc[] probes, int total, FingerprintColumns columns, int rounds)
        throws IOException {
        int batches = total / BATCH;
        SimHashQuery[][] queries = new SimHashQuery[3][batches];
        for (int b = 0; b < batches; b++) {
            long[] fps = new long[BATCH];
            byte[][] sigs = new byte[BATCH][], keys = new byte[BATCH][];
            for (int j = 0; j < BATCH; j++) {
                Doc d = probes[b * BATCH + j];
                fps[j] = d.fingerprint();
                sigs[j] = d.signature();
                keys[j] = d.keys();
            }
            for (int s = 1; s <= 2; s++) {
                queries[s][b] = new SimHashQuery(
                    FIELD,
                    fps,
                    sigs,
                    new SimHashQuery.Verification(SIGNATURES, MIN_SIMILARITY),
                    K,
                    BLOCKS,
                    true,
                    new SimHashQuery.CandidateKeyProbes(new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, s), keys)
                ).withColumns(columns);
            }
            queries[0][b] = queries[1][b].withExact(true);
        }
        ScanBenchmark.Run[] methods = { i -> {
            long c = 0;
            for (int j = 0; j < BATCH; j++)
                c += ScanBenchmark.floor(values, probes[(i % batches) * BATCH + j].fingerprint(), K);
            return c;
        },
            i -> searcher.search(queries[0][i % batches], 20).scoreDocs.length,
            i -> searcher.search(queries[1][i % batches], 20).scoreDocs.length,
            i -> searcher.search(queries[2][i % batches], 20).scoreDocs.length };
        double[][] t = ScanBenchmark.interleaved(1, rounds, methods, new int[] { rounds, rounds, rounds, rounds });
        System.out.printf(Locale.ROOT, "%n%d probes per query (a near_duplicate_check batch), %d rounds, per probe:%n%n", BATCH, rounds);
        System.out.println("| path | p50 per probe | p50 / floor | p50 / exact column query |");
        System.out.println("| --- | --- | --- | --- |");
        String[] names = {
            "floor: " + BATCH + " plain long[] popcount loops",
            "exact: column query, blocked scan",
            "candidate keys, >= 1 shared",
            "candidate keys, >= 2 shared" };
        for (int m = 0; m < methods.length; m++) {
            System.out.printf(
                Locale.ROOT,
                "| %s | %s | %s | %s |%n",
                names[m],
                ScanBenchmark.ms(t[m][0] / BATCH),
                ScanBenchmark.ratio(t[m][0], t[0][0]),
                ScanBenchmark.ratio(t[m][0], t[1][0])
            );
        }
    }

    static Set<Integer> hits(IndexSearcher searcher, SimHashQuery query) throws IOException {
        Set<Integer> hits = new HashSet<>();
        for (ScoreDoc sd : searcher.search(query, 1000).scoreDocs)
            hits.add(sd.doc);
        return hits;
    }

    static void row(String name, long[] values, int docs) {
        long[] s = values.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(0);
        System.out.printf(
            Locale.ROOT,
            "| %s | %,.1f | %,d | %,d | %,d | %.2e |%n",
            name,
            mean,
            s[s.length / 2],
            s[(int) (s.length * 0.9)],
            s[s.length - 1],
            mean / docs
        );
    }

    /** Bytes per document by file kind: the terms and postings files hold the keys field alone (no other field has terms). */
    static void bytes(Path path, int docs) throws IOException {
        TreeMap<String, Long> byExtension = new TreeMap<>();
        try (Stream<Path> files = Files.list(path)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                int dot = name.lastIndexOf('.');
                if (dot < 0) continue;
                byExtension.merge(name.substring(dot + 1), Files.size(f), Long::sum);
            }
        }
        Set<String> postings = Set.of("tim", "tip", "tmd", "doc", "psm");
        long keys = 0, all = 0;
        StringBuilder sb = new StringBuilder();
        for (var e : byExtension.entrySet()) {
            all += e.getValue();
            if (postings.contains(e.getKey())) keys += e.getValue();
            sb.append(String.format(Locale.ROOT, "%s %.1f, ", e.getKey(), (double) e.getValue() / docs));
        }
        System.out.printf(
            Locale.ROOT,
            "bytes per document: keys field (terms + postings: tim/tip/tmd/doc/psm) **%.1f**; whole index %.1f (%s)%n%n",
            (double) keys / docs,
            (double) all / docs,
            sb.substring(0, Math.max(0, sb.length() - 2))
        );
    }
}
