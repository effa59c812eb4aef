package org.nearduplicate.lucene;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.sketch.Signature;

/**
 * The candidate-key path of {@link SimHashQuery} against brute force, over several segments, deletions, several probes
 * and planted neighbours whose full min-wise values agree with a probe's in any number of slots: documents are made
 * from full minima as ingest makes them (signature {@code Signature.finish(minima)}, keys {@code CandidateKeys.keys(minima)}),
 * with unrelated documents sharing single full values (a small pool of common values per slot) and full values that
 * differ but agree in their 8 kept bits (the edge of the guarantee).
 */
public class CandidateKeyPathTests extends PlatformTestCase {
    private static final String FIELD = "fp";
    private static final String SIGNATURES = SketchFields.signatureField(FIELD);
    private static final String KEYS = FIELD + "#keys";
    private static final CandidateKeys LAYOUT = CandidateKeys.forMinAgreeing(13, 32);
    private static final BlockLayout BLOCKS = new BlockLayout(4, 16);

    private record Doc(long fingerprint, long[] minima, byte[] signature, byte[] keys) {
        static Doc of(long fingerprint, long[] minima) {
            return new Doc(fingerprint, minima, Signature.finish(minima), LAYOUT.keys(minima));
        }
    }

    /** The signature slot a full value gives ({@link Signature#finish} keeps 8 bits of each slot's value). */
    private static byte slotByte(long value) {
        long[] one = new long[Signature.SLOTS];
        one[0] = value;
        return Signature.finish(one)[0];
    }

    private static long randomValue() {
        return randomLong() >>> 1; // min-wise values are 63-bit
    }

    /** A full value other than {@code value} whose kept 8 bits equal its own: an 8-bit slot agreeing by chance. */
    private static long sameByte(long value) {
        byte target = slotByte(value);
        while (true) {
            long v = randomValue();
            if (v != value && slotByte(v) == target) return v;
        }
    }

    /** Full values of {@code base} kept in exactly {@code agreeing} random slots, others new (sometimes agreeing in 8 bits). */
    private static long[] variant(long[] base, int agreeing, long[][] pool) {
        long[] v = base.clone();
        int[] slots = shuffledSlots();
        for (int i = agreeing; i < slots.length; i++) {
            int slot = slots[i];
            long value;
            do {
                value = rarely() ? sameByte(base[slot])
                    : randomBoolean() ? pool[slot][randomIntBetween(0, pool[slot].length - 1)]
                    : randomValue();
            } while (value == base[slot]);
            v[slot] = value;
        }
        return v;
    }

    /** Unrelated full values that share single values (and so some keys) with others through a small pool per slot. */
    private static long[] unrelated(long[][] pool) {
        long[] v = new long[Signature.SLOTS];
        for (int i = 0; i < v.length; i++)
            v[i] = randomInt(9) < 3 ? pool[i][randomIntBetween(0, pool[i].length - 1)] : randomValue();
        return v;
    }

    private static int[] shuffledSlots() {
        int[] slots = new int[Signature.SLOTS];
        for (int i = 0; i < slots.length; i++)
            slots[i] = i;
        for (int i = slots.length - 1; i > 0; i--) {
            int j = randomIntBetween(0, i);
            int t = slots[i];
            slots[i] = slots[j];
            slots[j] = t;
        }
        return slots;
    }

    private static int fullAgreeing(long[] a, long[] b) {
        int same = 0;
        for (int i = 0; i < a.length; i++)
            if (a[i] == b[i]) same++;
        return same;
    }

    /** Keys equal as terms (key number and hash): what the postings see, hash collisions included. */
    private static int sharedKeyTerms(byte[] a, byte[] b) {
        int kb = LAYOUT.keyBytes(), shared = 0;
        for (int o = 0; o < a.length; o += kb)
            if (Arrays.equals(a, o, o + kb, b, o, o + kb)) shared++;
        return shared;
    }

    private static Document document(String id, Doc doc, boolean withKeys) {
        Document d = new Document();
        d.add(new StringField("id", id, Field.Store.YES));
        for (var f : SketchFields.simHashFields(FIELD, BLOCKS, doc.fingerprint))
            d.add(f);
        d.add(new BinaryDocValuesField(SIGNATURES, new BytesRef(doc.signature)));
        if (withKeys) {
            for (var f : SketchFields.candidateKeyFields(KEYS, doc.keys, LAYOUT.keyBytes()))
                d.add(f);
        }
        return d;
    }

    public void testCandidateKeysEqualBruteForceAndKeepTheGuarantee() throws IOException {
        int guaranteedChecked = 0, excludedByKeys = 0;
        for (int round = 0; round < 4; round++) {
            long[][] pool = new long[Signature.SLOTS][];
            for (int i = 0; i < pool.length; i++) {
                pool[i] = new long[randomIntBetween(1, 4)];
                for (int j = 0; j < pool[i].length; j++)
                    pool[i][j] = randomValue();
            }
            Doc[] bases = new Doc[randomIntBetween(4, 12)];
            for (int b = 0; b < bases.length; b++)
                bases[b] = Doc.of(randomLong(), unrelated(pool));
            Map<String, Doc> live = new HashMap<>();
            try (Directory dir = newDirectory()) {
                IndexWriterConfig config = new IndexWriterConfig();
                config.setMaxBufferedDocs(randomIntBetween(20, 100));
                config.setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE);
                IndexWriter writer = new IndexWriter(dir, config);
                int docs = randomIntBetween(300, 900);
                for (int i = 0; i < docs; i++) {
                    Doc doc;
                    if (randomInt(9) < 2) {
                        doc = Doc.of(randomLong(), unrelated(pool));
                    } else {
                        Doc base = bases[randomIntBetween(0, bases.length - 1)];
                        // most near the guarantee's edge (11..16 agreeing full values), some anywhere
                        int agreeing = randomBoolean() ? randomIntBetween(10, 16) : randomIntBetween(0, Signature.SLOTS);
                        doc = Doc.of(
                            SimHashQueryTests.flipBits(base.fingerprint, randomIntBetween(0, 20)),
                            variant(base.minima, agreeing, pool)
                        );
                    }
                    writer.addDocument(document(Integer.toString(i), doc, true));
                    live.put(Integer.toString(i), doc);
                }
                for (int i = 0; i < docs / 15; i++) {
                    String id = Integer.toString(randomIntBetween(0, docs - 1));
                    writer.deleteDocuments(new Term("id", id));
                    live.remove(id);
                }
                try (DirectoryReader reader = DirectoryReader.open(writer)) {
                    writer.close();
                    assertTrue("several segments", reader.leaves().size() > 1);
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setQueryCache(null);
                    FingerprintColumns columns = new FingerprintColumns(1L << 30, MemoryAccounting.NONE);
                    for (int q = 0; q < 30; q++) {
                        int probes = randomIntBetween(1, 4);
                        long[] fps = new long[probes];
                        byte[][] sigs = new byte[probes][];
                        byte[][] keys = new byte[probes][];
                        long[][] minima = new long[probes][];
                        for (int p = 0; p < probes; p++) {
                            Doc base = bases[randomIntBetween(0, bases.length - 1)];
                            Doc probe = randomBoolean()
                                ? base
                                : Doc.of(
                                    SimHashQueryTests.flipBits(base.fingerprint, randomIntBetween(0, 4)),
                                    variant(base.minima, randomIntBetween(20, 32), pool)
                                );
                            fps[p] = probe.fingerprint;
                            sigs[p] = probe.signature;
                            keys[p] = probe.keys;
                            minima[p] = probe.minima;
                        }
                        int k = randomFrom(16, 16, 8, 20);
                        double minSimilarity = randomFrom(0.40, 0.40, 0.35, 0.5);
                        int minAgreeing = Signature.minAgreeing(minSimilarity);
                        int minShared = randomIntBetween(1, 2);
                        SimHashQuery.CandidateKeyPath path = new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, minShared);
                        int guaranteed = path.guaranteedAgreeing();
                        assertEquals(12 + minShared, guaranteed);
                        Map<String, Integer> exact = new HashMap<>(), byKeys = new HashMap<>();
                        Map<String, Integer> covered = new HashMap<>();
                        live.forEach((id, doc) -> {
                            int best = Integer.MAX_VALUE, bestKeyed = Integer.MAX_VALUE, bestCovered = Integer.MAX_VALUE;
                            for (int p = 0; p < probes; p++) {
                                int d = Long.bitCount(doc.fingerprint ^ fps[p]);
                                if (d > k || Signature.agreeingSlots(sigs[p], 0, doc.signature, 0) < minAgreeing) continue;
                                best = Math.min(best, d);
                                if (sharedKeyTerms(keys[p], doc.keys) >= minShared) bestKeyed = Math.min(bestKeyed, d);
                                if (fullAgreeing(minima[p], doc.minima) >= guaranteed) bestCovered = Math.min(bestCovered, d);
                            }
                            if (best <= k) exact.put(id, best);
                            if (bestKeyed <= k) byKeys.put(id, bestKeyed);
                            if (bestCovered <= k) covered.put(id, bestCovered);
                        });
                        SimHashQuery query = new SimHashQuery(
                            FIELD,
                            fps,
                            sigs,
                            new SimHashQuery.Verification(SIGNATURES, minSimilarity),
                            k,
                            BLOCKS,
                            true,
                            new SimHashQuery.CandidateKeyProbes(path, keys)
                        );
                        if (randomBoolean()) query = query.withColumns(columns);
                        Map<String, Integer> actual = hits(searcher, query, reader.maxDoc());
                        String what = "k " + k + " t " + minSimilarity + " probes " + probes + " s " + minShared;
                        assertEquals(what, byKeys, actual);
                        for (var e : actual.entrySet()) {
                            assertTrue(what + ": a keys hit is a verified match", exact.containsKey(e.getKey()));
                            assertTrue(what + ": never closer than the exact answer", e.getValue() >= exact.get(e.getKey()));
                        }
                        for (var e : covered.entrySet()) {
                            Integer found = actual.get(e.getKey());
                            assertNotNull(what + ": a pair the guarantee covers is found: " + e.getKey(), found);
                            assertTrue(what, found <= e.getValue());
                            guaranteedChecked++;
                        }
                        excludedByKeys += exact.size() - actual.size();
                        // led by a selective clause, the candidates are advanced to its documents
                        String filtered = randomFrom(live.keySet().toArray(new String[0]));
                        org.apache.lucene.search.BooleanQuery conjunction = new org.apache.lucene.search.BooleanQuery.Builder().add(
                            new org.apache.lucene.search.TermQuery(new Term("id", filtered)),
                            org.apache.lucene.search.BooleanClause.Occur.FILTER
                        ).add(query, org.apache.lucene.search.BooleanClause.Occur.MUST).build();
                        assertEquals(what + " conjunction", byKeys.containsKey(filtered) ? 1 : 0, searcher.count(conjunction));
                        // the exact switch: today's answer, from the column or the doc values
                        assertEquals(what + " exact", exact, hits(searcher, query.withExact(true), reader.maxDoc()));
                        assertNotEquals(query, query.withExact(true));
                        // explain agrees with the path on hits and on the verified documents the keys leave out
                        for (ScoreDoc sd : searcher.search(query, 5).scoreDocs) {
                            Explanation explanation = searcher.explain(query, sd.doc);
                            assertTrue(explanation.toString(), explanation.isMatch());
                            assertTrue(explanation.toString(), explanation.getDescription().contains("candidate keys"));
                        }
                        for (ScoreDoc sd : searcher.search(query.withExact(true), 50).scoreDocs) {
                            String id = searcher.storedFields().document(sd.doc).get("id");
                            if (actual.containsKey(id) == false) {
                                Explanation explanation = searcher.explain(query, sd.doc);
                                assertFalse(explanation.toString(), explanation.isMatch());
                                // it shares too few keys with every probe, or enough only with probes it does not verify with
                                assertTrue(explanation.toString(), explanation.getDescription().contains("candidate keys"));
                            }
                        }
                    }
                }
            }
        }
        assertTrue("the guarantee was exercised: " + guaranteedChecked, guaranteedChecked > 50);
        logger.info("pairs the guarantee covers checked: {}, verified matches the keys leave out: {}", guaranteedChecked, excludedByKeys);
    }

    private static Map<String, Integer> hits(IndexSearcher searcher, SimHashQuery query, int maxDoc) throws IOException {
        TopDocs top = searcher.search(query, Math.max(1, maxDoc));
        Map<String, Integer> hits = new HashMap<>();
        float previous = Float.POSITIVE_INFINITY;
        for (ScoreDoc sd : top.scoreDocs) {
            assertTrue("closest first", sd.score <= previous);
            previous = sd.score;
            hits.put(searcher.storedFields().document(sd.doc).get("id"), Math.round(1f / sd.score - 1));
        }
        return hits;
    }

    /**
     * A segment written without candidate keys (before them), or holding a document without keys (the marker term), is
     * answered exactly; one whose documents all have keys, by its keys.
     */
    public void testSegmentWithoutKeysIsAnsweredExactly() throws IOException {
        long[] base = new long[Signature.SLOTS];
        for (int i = 0; i < base.length; i++)
            base[i] = randomValue();
        // one agreeing full value in each of the 12 groups (so no key shared), two more slots agreeing in their 8 bits
        // only: verified at 13 agreeing slots, yet outside the keys' guarantee
        long[] edge = new long[Signature.SLOTS];
        int[] groupStarts = { 0, 3, 6, 9, 12, 15, 18, 21, 24, 26, 28, 30 };
        for (int i = 0; i < edge.length; i++)
            edge[i] = randomValue() ^ 1;
        for (int i = 0; i < edge.length; i++)
            if (edge[i] == base[i]) edge[i] ^= 2;
        for (int start : groupStarts)
            edge[start] = base[start];
        edge[1] = sameByte(base[1]);
        edge[4] = sameByte(base[4]);
        Doc probe = Doc.of(42L, base), neighbour = Doc.of(43L, edge);
        assertTrue(Signature.agreeingSlots(probe.signature, 0, neighbour.signature, 0) >= 13);
        assertFalse(LAYOUT.shareKey(base, edge));
        try (Directory dir = newDirectory(); IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
            writer.addDocument(document("old", neighbour, false));
            writer.commit();
            writer.addDocument(document("new", neighbour, true));
            writer.commit();
            // a segment where one document has no keys (its marker term) and one has them: exact for both
            Document marked = document("marked", neighbour, false);
            marked.add(SketchFields.withoutCandidateKeysField(KEYS));
            writer.addDocument(marked);
            writer.addDocument(document("keyed", neighbour, true));
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                assertEquals(3, reader.leaves().size());
                IndexSearcher searcher = new IndexSearcher(reader);
                SimHashQuery.CandidateKeyPath path = new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, 1);
                SimHashQuery query = new SimHashQuery(
                    FIELD,
                    new long[] { probe.fingerprint },
                    new byte[][] { probe.signature },
                    new SimHashQuery.Verification(SIGNATURES, 0.40),
                    16,
                    BLOCKS,
                    true,
                    new SimHashQuery.CandidateKeyProbes(path, new byte[][] { probe.keys })
                );
                Map<String, Integer> hits = hits(searcher, query, 4);
                assertEquals(
                    "the segments without keys or with a keyless document answer exactly, the keyed one by its keys",
                    Map.of("old", 1, "marked", 1, "keyed", 1),
                    hits
                );
                Map<String, Integer> all = Map.of("old", 1, "new", 1, "marked", 1, "keyed", 1);
                assertEquals(all, hits(searcher, query.withExact(true), 4));
                // a probe without keys: every segment exactly
                SimHashQuery noKeys = new SimHashQuery(
                    FIELD,
                    new long[] { probe.fingerprint },
                    new byte[][] { probe.signature },
                    new SimHashQuery.Verification(SIGNATURES, 0.40),
                    16,
                    BLOCKS,
                    true,
                    new SimHashQuery.CandidateKeyProbes(path, new byte[][] { null })
                );
                assertEquals(all, hits(searcher, noKeys, 4));
            }
        }
    }

    public void testTheListenerIsToldTheCandidateKeyPath() throws IOException {
        long[] minima = new long[Signature.SLOTS];
        for (int i = 0; i < minima.length; i++)
            minima[i] = randomValue();
        Doc doc = Doc.of(7L, minima);
        try (Directory dir = newDirectory(); IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
            writer.addDocument(document("a", doc, true));
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                searcher.setQueryCache(null);
                java.util.List<SegmentPath> paths = new java.util.ArrayList<>();
                SimHashQuery.Listener listener = new SimHashQuery.Listener() {
                    @Override
                    public void segment(SegmentPath path) {
                        paths.add(path);
                    }

                    @Override
                    public void segmentTime(SegmentPath path, long nanos) {}
                };
                SimHashQuery query = new SimHashQuery(
                    FIELD,
                    new long[] { doc.fingerprint },
                    new byte[][] { doc.signature },
                    new SimHashQuery.Verification(SIGNATURES, 0.40),
                    16,
                    BLOCKS,
                    true,
                    new SimHashQuery.CandidateKeyProbes(new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, 2), new byte[][] { doc.keys })
                ).withListener(listener);
                assertEquals(1, searcher.count(query));
                assertEquals(java.util.List.of(SegmentPath.CANDIDATE_KEYS), paths);
                // the node's stats count the path under its own name, with the postings it read (the document's 28 keys)
                org.nearduplicate.core.stats.NearDuplicateStats stats = new org.nearduplicate.core.stats.NearDuplicateStats();
                assertEquals(1, searcher.count(query.withListener(new SegmentPathStats(stats))));
                var snapshot = stats.snapshot();
                assertEquals(1, snapshot.get(org.nearduplicate.core.stats.NearDuplicateStats.Stat.QUERIES_CANDIDATE_KEYS_SEGMENTS));
                assertEquals(0, snapshot.get(org.nearduplicate.core.stats.NearDuplicateStats.Stat.QUERIES_KEYS_SEGMENTS));
                assertEquals(28, snapshot.get(org.nearduplicate.core.stats.NearDuplicateStats.Stat.QUERIES_CANDIDATE_KEYS_POSTINGS));
                assertTrue(query.toString(), query.toString().contains("candidate_keys pairs:3x8+2x4,w=32 >= 2"));
                // explain names the path, the keys shared and the candidates' postings in the segment
                String explained = searcher.explain(query, 0).getDescription();
                assertTrue(explained, explained.contains("(28 candidate keys pairs:3x8+2x4,w=32 in field [fp#keys] shared, >= 2"));
                assertTrue(explained, explained.contains("candidates from 28 postings of the probes' keys in the segment)"));
                paths.clear();
                assertEquals(1, searcher.count(query.withExact(true)));
                assertNotEquals(java.util.List.of(SegmentPath.CANDIDATE_KEYS), paths);
            }
        }
    }

    /**
     * The per-segment cost rule: a segment where the probe's keys are common (every document shares all 28, as
     * boilerplate shared by much of an index would) is answered exactly, since reading their postings would cost more
     * than scanning it; a segment where they are rare is answered by the keys. The answer is the exact one on both, and
     * explain follows the path the segment took.
     */
    public void testCommonKeysInALargeSegmentAreAnsweredExactly() throws IOException {
        long[] minima = new long[Signature.SLOTS];
        for (int i = 0; i < minima.length; i++)
            minima[i] = randomValue();
        Doc probe = Doc.of(0L, minima);
        int common = 2000; // 56,000 postings of the probe's keys, more than CANDIDATE_KEY_POSTINGS_ALWAYS_READ
        try (Directory dir = newDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig();
            config.setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE);
            config.setMaxBufferedDocs(common + 1);
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                // the common segment: the probe's keys everywhere, one document also within k (a match), the others far
                writer.addDocument(document("near-common", Doc.of(1L, minima), true));
                for (int i = 1; i < common; i++)
                    writer.addDocument(document("far-" + i, Doc.of(~0L ^ randomInt(255), minima), true));
                writer.commit();
                // the rare segment: unrelated documents and one near-duplicate of the probe
                writer.addDocument(document("near-rare", Doc.of(3L, minima), true));
                for (int i = 0; i < 200; i++) {
                    long[] other = new long[Signature.SLOTS];
                    for (int j = 0; j < other.length; j++)
                        other[j] = randomValue();
                    writer.addDocument(document("other-" + i, Doc.of(randomLong(), other), true));
                }
                writer.commit();
                try (DirectoryReader reader = DirectoryReader.open(writer)) {
                    assertEquals(2, reader.leaves().size());
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setQueryCache(null);
                    java.util.List<SegmentPath> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
                    SimHashQuery.Listener listener = new SimHashQuery.Listener() {
                        @Override
                        public void segment(SegmentPath path) {
                            seen.add(path);
                        }

                        @Override
                        public void segmentTime(SegmentPath path, long nanos) {}
                    };
                    SimHashQuery query = new SimHashQuery(
                        FIELD,
                        new long[] { probe.fingerprint },
                        new byte[][] { probe.signature },
                        new SimHashQuery.Verification(SIGNATURES, 0.40),
                        16,
                        BLOCKS,
                        false,
                        new SimHashQuery.CandidateKeyProbes(new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, 2), new byte[][] { probe.keys })
                    ).withListener(listener);
                    int commonDocs = reader.leaves().get(0).reader().maxDoc(), rareDocs = reader.leaves().get(1).reader().maxDoc();
                    assertFalse(query.candidateKeysCheaper(28L * commonDocs, commonDocs, false));
                    assertTrue(query.candidateKeysCheaper(28L, rareDocs, false));
                    assertTrue("a few postings are always read", query.candidateKeysCheaper(4096, 1, true));
                    Map<String, Integer> hits = hits(searcher, query, reader.maxDoc());
                    assertEquals(Map.of("near-common", 1, "near-rare", 2), hits);
                    assertEquals(2, seen.size());
                    assertTrue(seen.toString(), seen.contains(SegmentPath.CANDIDATE_KEYS));
                    assertTrue(seen.toString(), seen.contains(SegmentPath.DOC_VALUES));
                    assertEquals(hits, hits(searcher, query.withExact(true), reader.maxDoc()));
                    for (ScoreDoc sd : searcher.search(query, 5).scoreDocs) {
                        String id = searcher.storedFields().document(sd.doc).get("id");
                        String description = searcher.explain(query, sd.doc).getDescription();
                        assertEquals(description, id.equals("near-rare"), description.contains("candidate keys"));
                    }
                }
            }
        }
    }

    /** Copied postings, lazy ones and a mix give the same candidates and eligible probes, by nextDoc and by advance. */
    public void testCandidatesDoNotDependOnHowPostingsAreRead() throws IOException {
        long[][] pool = new long[Signature.SLOTS][];
        for (int i = 0; i < pool.length; i++)
            pool[i] = new long[] { randomValue(), randomValue() };
        try (Directory dir = newDirectory(); IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
            int docs = randomIntBetween(500, 2000);
            for (int i = 0; i < docs; i++)
                writer.addDocument(document(Integer.toString(i), Doc.of(randomLong(), unrelated(pool)), true));
            writer.forceMerge(1);
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                var leaf = reader.leaves().get(0).reader();
                int walked = 0;
                for (int q = 0; q < 20; q++) {
                    byte[][] keys = new byte[randomIntBetween(1, 5)][];
                    for (int p = 0; p < keys.length; p++)
                        keys[p] = LAYOUT.keys(unrelated(pool));
                    int minShared = randomIntBetween(1, 3);
                    SharedKeyPostings found = SharedKeyPostings.seek(leaf.terms(KEYS), keys, LAYOUT.keyBytes(), minShared);
                    if (found == null) continue;
                    String copied = walk(found.candidates(minShared), -1);
                    if (copied.isEmpty() == false) walked++;
                    assertEquals(copied, walk(found.candidates(minShared, 0, 0), -1));
                    assertEquals(copied, walk(found.candidates(minShared, randomIntBetween(1, 40), randomIntBetween(1, 200)), -1));
                    int stride = randomIntBetween(2, 50);
                    assertEquals(walk(found.candidates(minShared), stride), walk(found.candidates(minShared, 0, 0), stride));
                    // each candidate shares the minimum with its eligible probes, per the brute-force count
                    SharedKeyPostings.Candidates c = found.candidates(minShared, 3, 100);
                    for (int doc = c.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = c.nextDoc()) {
                        int[] shared = found.sharedPerProbe(doc);
                        int eligible = 0;
                        for (int n : shared)
                            if (n >= minShared) eligible++;
                        assertEquals(eligible, c.eligibleCount());
                    }
                }
                assertTrue("some probes had candidates", walked > 0);
            }
        }
    }

    /**
     * The window-by-window count equals a brute-force count of sorted runs, with doc ids spanning several windows (up to
     * 2^22 docs: 16 windows of 2^18), near window edges and near the largest doc id, several probes in one counter.
     */
    public void testProbeCounterEqualsBruteForce() {
        for (int round = 0; round < 30; round++) {
            int runs = randomIntBetween(1, 28), minShared = randomIntBetween(1, 4), probes = randomIntBetween(1, 3);
            int top = randomFrom(1 << 10, 1 << 19, 1 << 22, Integer.MAX_VALUE - 1);
            SharedKeyPostings.ProbeCounter counter = new SharedKeyPostings.ProbeCounter(runs);
            java.util.List<Long> expected = new java.util.ArrayList<>();
            for (int p = 0; p < probes; p++) {
                // a pool of doc ids the runs draw from (so that documents recur), edges of windows included
                int[] pool = new int[randomIntBetween(1, 300)];
                for (int i = 0; i < pool.length; i++) {
                    int edge = (randomIntBetween(0, top >>> SharedKeyPostings.ProbeCounter.MAX_WINDOW_BITS)
                        << SharedKeyPostings.ProbeCounter.MAX_WINDOW_BITS) + randomIntBetween(-1, 1);
                    pool[i] = randomBoolean() ? randomIntBetween(0, top) : Math.max(0, Math.min(top, edge));
                }
                int[] docs = new int[runs * pool.length];
                int filled = 0;
                Map<Integer, Integer> counts = new HashMap<>();
                for (int r = 0; r < runs; r++) {
                    java.util.TreeSet<Integer> run = new java.util.TreeSet<>();
                    for (int i = randomIntBetween(0, pool.length); i > 0; i--)
                        run.add(pool[randomIntBetween(0, pool.length - 1)]);
                    counter.from[r] = filled;
                    for (int d : run) {
                        docs[filled++] = d;
                        counts.merge(d, 1, Integer::sum);
                    }
                    counter.to[r] = filled;
                }
                int before = counter.size;
                assertTrue(counter.count(docs, runs, minShared, p));
                java.util.List<Long> mine = new java.util.ArrayList<>();
                for (var e : new java.util.TreeMap<>(counts).entrySet())
                    if (e.getValue() >= minShared) mine.add((long) e.getKey() << 32 | p);
                expected.addAll(mine);
                assertEquals(mine, Arrays.stream(counter.candidates, before, counter.size).boxed().toList());
            }
            assertEquals(expected.size(), counter.size);
        }
    }

    /** The candidates and their eligible probes, by nextDoc ({@code stride} < 0) or by advancing {@code stride} docs at a time. */
    private static String walk(SharedKeyPostings.Candidates candidates, int stride) throws IOException {
        StringBuilder sb = new StringBuilder();
        int doc = stride < 0 ? candidates.nextDoc() : candidates.advance(0);
        while (doc != DocIdSetIterator.NO_MORE_DOCS) {
            int[] eligible = Arrays.copyOf(candidates.eligible(), candidates.eligibleCount());
            Arrays.sort(eligible);
            sb.append(doc).append(Arrays.toString(eligible)).append(' ');
            doc = stride < 0 ? candidates.nextDoc() : candidates.advance(doc + stride);
        }
        return sb.toString();
    }

    public void testBadCandidateKeysAreRefused() {
        SimHashQuery.CandidateKeyPath path = new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, 1);
        expectThrows(IllegalArgumentException.class, () -> new SimHashQuery.CandidateKeyPath(KEYS, LAYOUT, 0));
        expectThrows(IllegalArgumentException.class, () -> new SimHashQuery.CandidateKeyProbes(path, new byte[][] { new byte[7] }));
        byte[] sig = Signature.of(1, 2, 3);
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> new SimHashQuery(
                FIELD,
                new long[] { 1 },
                null,
                null,
                3,
                BLOCKS,
                false,
                new SimHashQuery.CandidateKeyProbes(path, new byte[1][])
            )
        );
        assertTrue(e.getMessage(), e.getMessage().contains("verified"));
        expectThrows(
            IllegalArgumentException.class,
            () -> new SimHashQuery(
                FIELD,
                new long[] { 1, 2 },
                new byte[][] { sig, sig },
                new SimHashQuery.Verification(SIGNATURES, 0.4),
                3,
                BLOCKS,
                false,
                new SimHashQuery.CandidateKeyProbes(path, new byte[1][])
            )
        );
        assertEquals(path, new SimHashQuery.CandidateKeyPath(KEYS, CandidateKeys.forMinAgreeing(13, 32), 1));
    }
}
