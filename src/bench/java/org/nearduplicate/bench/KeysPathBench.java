package org.nearduplicate.bench;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.LSBRadixSorter;

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
import org.nearduplicate.core.sketch.Signature;
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
          --profile-only       only the per-phase breakdown of one probe (and the index, built if missing)
          --dir PATH     where the indices are built and kept (default target/keys-path-bench)""";
    /** The share of a document's slots taken from its topic's common values ({@code --common-share}). */
    static double commonShare = KeysModel.COMMON_SHARE;
    /** Only the per-phase breakdown ({@code --profile-only}). */
    static boolean profileOnly;
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
                case "--profile-only" -> profileOnly = true;
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
            if (profileOnly) {
                profile(leaf, searcher, probes, keys2, queries);
                return;
            }
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
            profile(leaf, searcher, probes, keys2, queries);
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

    /**
     * Where the time of one probe goes on the candidate-key path (>= 2 shared keys), measured phase by phase on the
     * same probes as the query table, with the same Lucene calls the path makes: the 28 {@code seekExact}, the
     * postings decoded and copied, the copy radix-sorted and counted by runs, then the candidates' fingerprints read
     * (in doc order) and the signatures of the near ones. Alternatives are timed on the same copied postings in the
     * same rounds: bulk decoding ({@code nextPostings}), and counting by an open-addressing hash, by two bitsets over the
     * segment (only touched words cleared) and by buckets of the doc id's high bits. Each phase is its own method (one
     * JIT unit each, as in the path).
     */
    static void profile(LeafReader leaf, IndexSearcher searcher, Doc[] probes, SimHashQuery[] keys2, int rounds) throws IOException {
        String[] names = {
            "seekExact of the probe's 28 keys (terms dictionary)",
            "postings decoded + copied (nextDoc loop)",
            "copy radix-sorted (LSBRadixSorter)",
            "sorted copy counted by runs (>= 2 of a doc)",
            "fingerprints of the candidates read and compared (doc order)",
            "signatures of the near candidates read and compared",
            "alt: postings decoded + copied in bulk (nextPostings)",
            "alt: counted by an open-addressing hash, then candidates sorted",
            "alt: counted by two bitsets over the segment, touched words cleared",
            "alt: each key's sorted run counted window by window (up to 2^18 docs, byte counts in L2), no sort",
            "whole query (IndexSearcher, top 20), for reference",
            "the path's own seek + candidates (SharedKeyPostings, no verification), for reference" };
        int phases = names.length;
        long[][] nanos = new long[phases][rounds];
        long[] postingsRead = new long[rounds], candidates = new long[rounds], near = new long[rounds];
        int maxDoc = leaf.maxDoc();
        Terms terms = leaf.terms(KEYS);
        Phases ph = new Phases(maxDoc);
        int minAgreeing = new SimHashQuery.Verification(SIGNATURES, MIN_SIMILARITY).minAgreeing();
        long sink = 0;
        int warmup = Math.max(300, rounds);
        int kb = LAYOUT.keyBytes();
        for (int r = -warmup; r < rounds; r++) {
            int i = Math.floorMod(r, keys2.length);
            Doc probe = probes[i];
            byte[] k = probe.keys();
            long[] at = new long[phases + 1];
            at[0] = System.nanoTime();
            int nf = ph.seek(terms, k, kb);
            at[1] = System.nanoTime();
            int filled = ph.decode(nf);
            at[2] = System.nanoTime();
            ph.radixSort(filled);
            at[3] = System.nanoTime();
            int nc = ph.runs(filled);
            at[4] = System.nanoTime();
            int nn = ph.fingerprints(leaf.getNumericDocValues(FIELD), nc, probe.fingerprint());
            at[5] = System.nanoTime();
            sink += ph.signatures(leaf.getBinaryDocValues(SIGNATURES), nn, probe.signature(), minAgreeing);
            at[6] = System.nanoTime();
            int filledBulk = ph.decodeBulk(nf);
            at[7] = System.nanoTime();
            if (filledBulk != filled) throw new IllegalStateException("bulk decoding read " + filledBulk + " of " + filled);
            int nh = ph.hashCount(filled);
            at[8] = System.nanoTime();
            int nb = ph.bitsetCount(filled);
            at[9] = System.nanoTime();
            int nk = ph.windowCount();
            at[10] = System.nanoTime();
            if (nh != nc || nb != nc || nk != nc) throw new IllegalStateException("counts differ: " + nc + " " + nh + " " + nb + " " + nk);
            sink += searcher.search(keys2[i], 20).scoreDocs.length;
            at[11] = System.nanoTime();
            sink += BenchAccess.candidateKeyWork(leaf, KEYS, new byte[][] { k }, kb, 2)[0];
            at[12] = System.nanoTime();
            if (r < 0) continue;
            for (int p = 0; p < phases; p++)
                nanos[p][r] = at[p + 1] - at[p];
            postingsRead[r] = filled;
            candidates[r] = nc;
            near[r] = nn;
        }
        ScanBenchmark.sink += sink;
        System.out.printf(
            Locale.ROOT,
            "%nWhere one probe's time goes (>= 2 shared keys; %d probes, every phase timed in each probe's round; mean %,.0f postings, %,.0f candidates, %,.1f near fingerprints per probe):%n%n",
            rounds,
            mean(postingsRead),
            mean(candidates),
            mean(near)
        );
        System.out.println("| phase | p50 | mean | share of the phases' p50 sum | ns per item (p50) |");
        System.out.println("| --- | --- | --- | --- | --- |");
        double[] p50 = new double[phases];
        for (int p = 0; p < phases; p++) {
            long[] s = nanos[p].clone();
            Arrays.sort(s);
            p50[p] = s[s.length / 2];
        }
        double sum = 0;
        for (int p = 0; p < 6; p++)
            sum += p50[p];
        double[] per = { 28, mean(postingsRead), mean(postingsRead), mean(postingsRead), mean(candidates), Math.max(1e-9, mean(near)) };
        for (int p = 0; p < phases; p++) {
            System.out.printf(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s |%n",
                names[p],
                ScanBenchmark.ms(p50[p] / 1e6),
                ScanBenchmark.ms(mean(nanos[p]) / 1e6),
                p < 6 ? String.format(Locale.ROOT, "%.0f %%", 100 * p50[p] / sum)
                    : p == 10 ? "(phases' sum " + ScanBenchmark.ms(sum / 1e6) + ")"
                    : "-",
                String.format(Locale.ROOT, "%.1f", p50[p] / (p < 6 ? per[p] : p < 10 ? per[1] : per[1]))
            );
        }
    }

    static double mean(long[] v) {
        return Arrays.stream(v).average().orElse(0);
    }

    /** The phases of {@link #profile}, one method each, on reused scratch arrays. */
    static final class Phases {
        final int[] scratch = new int[1 << 20], bulk = new int[1 << 20], tmp = new int[1 << 20], touched = new int[1 << 20];
        final long[] bits;
        final int[] cands = new int[1 << 20], cands2 = new int[1 << 20];
        final LSBRadixSorter sorter = new LSBRadixSorter();
        final DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
        TermsEnum te;
        final BytesRef[] found = new BytesRef[64];
        final TermState[] states = new TermState[64];
        PostingsEnum pe;
        /** The runs (one per key) of the bulk copy in {@code tmp}. */
        final int[] runFrom = new int[64], runTo = new int[64];
        int runs;

        Phases(int maxDoc) {
            bits = new long[2 * ((maxDoc >>> 6) + 1)];
        }

        int seek(Terms terms, byte[] k, int kb) throws IOException {
            te = terms.iterator();
            int nf = 0;
            for (int o = 0; o < k.length; o += kb) {
                BytesRef term = new BytesRef(k, o, kb);
                if (te.seekExact(term)) {
                    found[nf] = term;
                    states[nf++] = te.termState();
                }
            }
            return nf;
        }

        int decode(int nf) throws IOException {
            int filled = 0;
            for (int t = 0; t < nf; t++) {
                te.seekExact(found[t], states[t]);
                pe = te.postings(pe, PostingsEnum.NONE);
                for (int d = pe.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = pe.nextDoc())
                    scratch[filled++] = d;
            }
            System.arraycopy(scratch, 0, bulk, 0, filled); // the unsorted copy, for the alternatives (not timed apart)
            return filled;
        }

        int decodeBulk(int nf) throws IOException {
            int filled = 0;
            runs = 0;
            for (int t = 0; t < nf; t++) {
                te.seekExact(found[t], states[t]);
                pe = te.postings(pe, PostingsEnum.NONE);
                if (pe.nextDoc() == DocIdSetIterator.NO_MORE_DOCS) continue;
                runFrom[runs] = filled;
                do {
                    pe.nextPostings(DocIdSetIterator.NO_MORE_DOCS, buffer);
                    System.arraycopy(buffer.docs, 0, tmp, filled, buffer.size);
                    filled += buffer.size;
                } while (buffer.size > 0 && pe.docID() != DocIdSetIterator.NO_MORE_DOCS);
                runTo[runs++] = filled;
            }
            return filled;
        }

        void radixSort(int filled) {
            int max = 0;
            for (int i = 0; i < filled; i++)
                max = Math.max(max, scratch[i]);
            sorter.sort(32 - Integer.numberOfLeadingZeros(Math.max(1, max)), scratch, filled);
        }

        int runs(int filled) {
            int nc = 0;
            for (int i = 0; i < filled;) {
                int d = scratch[i], first = i;
                while (i < filled && scratch[i] == d)
                    i++;
                if (i - first >= 2) cands[nc++] = d;
            }
            return nc;
        }

        int fingerprints(NumericDocValues fps, int nc, long fingerprint) throws IOException {
            int nn = 0;
            for (int c = 0; c < nc; c++) {
                if (fps.advanceExact(cands[c]) && Long.bitCount(fps.longValue() ^ fingerprint) <= K) cands2[nn++] = cands[c];
            }
            return nn;
        }

        int signatures(BinaryDocValues sigs, int nn, byte[] ps, int minAgreeing) throws IOException {
            int hits = 0;
            for (int c = 0; c < nn; c++) {
                if (sigs.advanceExact(cands2[c])) {
                    BytesRef s = sigs.binaryValue();
                    if (Signature.agreesOnAtLeast(ps, s.bytes, s.offset, minAgreeing)) hits++;
                }
            }
            return hits;
        }

        /** Docs held at least twice in {@code bulk[0..n)}, by an open-addressing hash (keys doc + 1, 0 empty); sorted. */
        int hashCount(int n) {
            int capacity = Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1;
            int[] table = new int[capacity];
            byte[] counts = new byte[capacity];
            int mask = capacity - 1, size = 0;
            for (int i = 0; i < n; i++) {
                int key = bulk[i] + 1;
                int h = (key * 0x9E3779B9) >>> 7 & mask;
                while (table[h] != 0 && table[h] != key)
                    h = (h + 1) & mask;
                table[h] = key;
                if (++counts[h] == 2) cands2[size++] = key - 1;
            }
            Arrays.sort(cands2, 0, size);
            return size;
        }

        /** Docs held at least twice, by two interleaved bitsets over the segment, only touched words cleared; sorted. */
        int bitsetCount(int n) {
            int nt = 0, size = 0;
            for (int i = 0; i < n; i++) {
                int d = bulk[i];
                int w = (d >>> 6) << 1;
                long bit = 1L << d;
                long once = bits[w];
                if ((once & bit) == 0) {
                    if (once == 0) touched[nt++] = w;
                    bits[w] = once | bit;
                } else if ((bits[w + 1] & bit) == 0) {
                    bits[w + 1] |= bit;
                    cands2[size++] = d;
                }
            }
            for (int i = 0; i < nt; i++) {
                bits[touched[i]] = 0;
                bits[touched[i] + 1] = 0;
            }
            Arrays.sort(cands2, 0, size);
            return size;
        }

        /** SharedKeyPostings.ProbeCounter's way, on the bulk copy: each key's sorted run read window by window. */
        int windowCount() {
            return BenchAccess.countShared(tmp, runFrom, runTo, runs, 2);
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
