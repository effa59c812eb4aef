package org.nearduplicate.lucene;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.search.QueryUtils;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.tools.quality.Corpus;

/** SimHashQuery against a brute-force Hamming check on random corpora with planted neighbours. */
public class SimHashQueryTests extends PlatformTestCase {
    private static final String FIELD = "fp";

    /** A random corpus: id -> fingerprint of the live documents (deleted ones removed). */
    private static final class Corpus implements AutoCloseable {
        final Directory dir;
        final DirectoryReader reader;
        final IndexSearcher searcher;
        final Map<String, Long> live = new HashMap<>();
        final long[] centers;

        Corpus(Directory dir, DirectoryReader reader, long[] centers) {
            this.dir = dir;
            this.reader = reader;
            this.searcher = new IndexSearcher(reader);
            this.searcher.setQueryCache(null);
            this.centers = centers;
        }

        @Override
        public void close() throws IOException {
            reader.close();
            dir.close();
        }
    }

    public static long flipBits(long fp, int bits) {
        long result = fp;
        Set<Integer> flipped = new HashSet<>();
        while (flipped.size() < bits) {
            int bit = randomIntBetween(0, 63);
            if (flipped.add(bit)) {
                result ^= 1L << bit;
            }
        }
        return result;
    }

    private Corpus buildCorpus(BlockLayout layout) throws IOException {
        return buildCorpus(layout, true);
    }

    private Corpus buildCorpus(BlockLayout layout, boolean deletions) throws IOException {
        Directory dir = newDirectory();
        IndexWriterConfig config = new IndexWriterConfig();
        config.setMaxBufferedDocs(randomIntBetween(20, 100)); // several segments
        config.setMergePolicy(newLogMergePolicy());
        IndexWriter writer = new IndexWriter(dir, config);
        long[] centers = new long[randomIntBetween(5, 15)];
        for (int i = 0; i < centers.length; i++) {
            centers[i] = randomLong();
        }
        Map<String, Long> all = new HashMap<>();
        int docs = randomIntBetween(300, 1200);
        for (int i = 0; i < docs; i++) {
            String id = Integer.toString(i);
            long fp;
            if (randomBoolean()) {
                fp = randomLong();
            } else {
                // planted neighbour of a center at a random distance, including beyond k_max
                fp = flipBits(
                    centers[randomIntBetween(0, centers.length - 1)],
                    randomIntBetween(0, Math.max(12, layout.maxDistance() + 4))
                );
            }
            Document doc = new Document();
            doc.add(new StringField("id", id, Field.Store.YES));
            doc.add(new StringField("group", randomFrom("a", "b"), Field.Store.NO));
            if (rarely()) {
                writer.addDocument(doc); // no fingerprint at all
                continue;
            }
            for (var f : SketchFields.simHashFields(FIELD, layout, fp)) {
                doc.add(f);
            }
            writer.addDocument(doc);
            all.put(id, fp);
            if (rarely()) {
                writer.commit();
            }
        }
        int deleteCount = deletions ? randomIntBetween(1, docs / 10) : 0;
        for (int i = 0; i < deleteCount; i++) {
            String id = Integer.toString(randomIntBetween(0, docs - 1));
            writer.deleteDocuments(new Term("id", id));
            all.remove(id);
        }
        DirectoryReader reader = DirectoryReader.open(writer);
        writer.close();
        Corpus corpus = new Corpus(dir, reader, centers);
        corpus.live.putAll(all);
        return corpus;
    }

    /** A layout whose keys are single blocks and whose queries probe block variants up to k = 16. */
    private static BlockLayout randomMultiProbeLayout() {
        while (true) {
            int blocks = randomIntBetween(4, 8);
            int k = randomIntBetween(blocks, BlockLayout.MAX_DISTANCE);
            try {
                BlockLayout layout = new BlockLayout(blocks, k);
                return switch (randomIntBetween(0, 2)) {
                    case 0 -> layout;
                    case 1 -> new BlockLayout(blocks, k, 0);
                    default -> new BlockLayout(blocks, k, randomIntBetween(0, layout.maxCheckBits()));
                };
            } catch (IllegalArgumentException tooManyProbeKeys) {
                // e.g. 4 wide blocks at k = 16 fit, fewer blocks would not: draw again
            }
        }
    }

    private static BlockLayout randomLayout() {
        if (randomBoolean()) {
            return randomMultiProbeLayout();
        }
        int blocks = randomIntBetween(2, 8);
        int k = randomIntBetween(0, blocks - 1);
        while (BlockLayoutTestUtil.keyCount(blocks, k) > BlockLayout.MAX_KEYS) {
            k--;
        }
        BlockLayout layout = new BlockLayout(blocks, k);
        // the default check bits, none, or any allowed amount
        return switch (randomIntBetween(0, 2)) {
            case 0 -> layout;
            case 1 -> new BlockLayout(blocks, k, 0);
            default -> new BlockLayout(blocks, k, randomIntBetween(0, layout.maxCheckBits()));
        };
    }

    private long randomProbe(Corpus corpus) {
        return switch (randomIntBetween(0, 2)) {
            case 0 -> randomLong();
            case 1 -> corpus.centers[randomIntBetween(0, corpus.centers.length - 1)];
            default -> flipBits(corpus.centers[randomIntBetween(0, corpus.centers.length - 1)], randomIntBetween(0, 4));
        };
    }

    /** A key-lookup query that uses its keys in every segment, or, at random, scans the segments too small for them. */
    private static SimHashQuery keyQuery(long probe, int k, BlockLayout layout) {
        return new SimHashQuery(FIELD, probe, k, layout, false).withScanByCost(randomBoolean());
    }

    private static Map<String, Integer> bruteForce(Corpus corpus, long probe, int k) {
        Map<String, Integer> expected = new HashMap<>();
        for (Map.Entry<String, Long> e : corpus.live.entrySet()) {
            int d = Fingerprints.distance(e.getValue(), probe);
            if (d <= k) {
                expected.put(e.getKey(), d);
            }
        }
        return expected;
    }

    private static Map<String, Integer> hits(Corpus corpus, org.apache.lucene.search.Query query, float boost) throws IOException {
        TopDocs top = corpus.searcher.search(query, Math.max(1, corpus.reader.maxDoc()));
        Map<String, Integer> hits = new HashMap<>();
        float previous = Float.MAX_VALUE;
        for (ScoreDoc sd : top.scoreDocs) {
            assertTrue("hits must come closest first", sd.score <= previous);
            previous = sd.score;
            String id = corpus.searcher.storedFields().document(sd.doc).get("id");
            // score = boost / (1 + d) => d = boost / score - 1
            int distance = Math.round(boost / sd.score - 1);
            assertEquals(boost * SimHashQuery.closeness(distance), sd.score, 1e-6f);
            assertNull("duplicate hit " + id, hits.put(id, distance));
        }
        assertEquals(totalHits(top), hits.size());
        return hits;
    }

    public void testSeveralProbesMatchBruteForceToTheClosest() throws IOException {
        for (int round = 0; round < 3; round++) {
            BlockLayout layout = randomLayout();
            try (Corpus corpus = buildCorpus(layout)) {
                for (int i = 0; i < 10; i++) {
                    long[] probes = new long[randomIntBetween(1, 30)];
                    for (int p = 0; p < probes.length; p++) {
                        probes[p] = randomProbe(corpus);
                    }
                    int k = randomIntBetween(0, layout.maxDistance());
                    Map<String, Integer> expected = new HashMap<>();
                    for (long probe : probes) {
                        bruteForce(corpus, probe, k).forEach((id, d) -> expected.merge(id, d, Math::min));
                    }
                    boolean scan = randomBoolean();
                    SimHashQuery query = new SimHashQuery(FIELD, probes, k, layout, scan).withScanByCost(randomBoolean());
                    assertEquals(
                        layout + " " + probes.length + " probes k " + k + (scan ? " scan" : ""),
                        expected,
                        hits(corpus, query, 1f)
                    );
                }
            }
        }
    }

    /** Issue 23: a million probes at k = 16 overflowed the key count ("integer overflow"); now a limit, checked first. */
    public void testProbeKeysAreBoundedBeforeAnythingIsBuilt() {
        BlockLayout layout = new BlockLayout(4, 16);
        long perProbe = layout.probeKeyCount(16);
        assertEquals(4608, perProbe);
        long[] million = new long[1_000_000];
        for (int i = 0; i < million.length; i++) {
            million[i] = i * 0x9E3779B97F4A7C15L;
        }
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> new SimHashQuery(FIELD, million, 16, layout, false)
        );
        assertEquals(
            "[fingerprints] 1000000 fingerprints at max_distance 16 need 4608000000 probe keys, more than the limit 5000000; "
                + "lower [max_distance] or send at most 1085 fingerprints per query at this distance",
            e.getMessage()
        );
        // the limit counts distinct fingerprints; the largest batch of near_duplicate_check (1,000) fits at k = 16
        long[] atLimit = Arrays.copyOf(million, (int) (SimHashQuery.MAX_QUERY_PROBE_KEYS / perProbe));
        assertFalse(new SimHashQuery(FIELD, atLimit, 16, layout, false).keysBuilt());
        long[] repeated = new long[5_000];
        assertEquals(1, new SimHashQuery(FIELD, repeated, 16, layout, false).getFingerprints().length);
        long[] overLimit = Arrays.copyOf(million, atLimit.length + 1);
        expectThrows(IllegalArgumentException.class, () -> new SimHashQuery(FIELD, overLimit, 16, layout, false));
        // a scan looks up no keys: no limit
        assertTrue(new SimHashQuery(FIELD, million, 16, layout, true).isScan());
    }

    public void testKeyLookupMatchesBruteForce() throws IOException {
        for (int round = 0; round < 3; round++) {
            BlockLayout layout = randomLayout();
            try (Corpus corpus = buildCorpus(layout)) {
                for (int i = 0; i < 20; i++) {
                    long probe = randomProbe(corpus);
                    int k = randomIntBetween(0, layout.maxDistance());
                    SimHashQuery query = keyQuery(probe, k, layout);
                    assertEquals(
                        layout + " probe " + Fingerprints.toHex(probe) + " k " + k,
                        bruteForce(corpus, probe, k),
                        hits(corpus, query, 1f)
                    );
                    assertEquals(bruteForce(corpus, probe, k).size(), corpus.searcher.count(query));
                }
            }
        }
    }

    public void testScanIsChosenOnlyWhereItIsCheaper() {
        BlockLayout layout = new BlockLayout(4, 16);
        long probe = randomLong();
        for (int k : new int[] { 0, 3, 8, 10 }) {
            assertFalse("k " + k, new SimHashQuery(FIELD, probe, k, layout, false).scanIsCheaper(10_000_000));
        }
        SimHashQuery k16 = new SimHashQuery(FIELD, probe, 16, layout, false);
        assertTrue(k16.scanIsCheaper(1_000_000)); // 4,608 keys: measured 8.9 ms against a 7.0 ms scan at 1M
        assertFalse(k16.scanIsCheaper(10_000_000)); // 48 ms against 72 ms at 10M
        SimHashQuery k12 = new SimHashQuery(FIELD, probe, 12, layout, false);
        assertTrue(k12.scanIsCheaper(100_000));
        assertFalse(k12.scanIsCheaper(1_000_000)); // 1.9 ms against 7.0 ms
    }

    /**
     * A query whose segments are all scanned by cost never builds its probed keys (4,608 variants at k = 16), and still
     * answers exactly; one that uses them builds them once.
     */
    public void testScannedSegmentsBuildNoKeys() throws IOException {
        BlockLayout layout = new BlockLayout(4, 16);
        try (Corpus corpus = buildCorpus(layout)) {
            long probe = randomProbe(corpus);
            SimHashQuery byCost = new SimHashQuery(FIELD, probe, 16, layout, false);
            assertTrue("a test corpus is small", byCost.scanIsCheaper(corpus.reader.maxDoc()));
            assertEquals(bruteForce(corpus, probe, 16), hits(corpus, byCost, 1f));
            assertFalse(byCost.keysBuilt());
            SimHashQuery byKeys = new SimHashQuery(FIELD, probe, 16, layout, false).withScanByCost(false);
            assertEquals(bruteForce(corpus, probe, 16), hits(corpus, byKeys, 1f));
            assertTrue(byKeys.keysBuilt());
        }
    }

    /** Any k from 0 to 16 from one multi-probe index, with and without check bits, equals the brute force. */
    public void testMultiProbeAnswersEveryKExactly() throws IOException {
        BlockLayout layout = randomBoolean() ? new BlockLayout(4, 16) : randomMultiProbeLayout();
        try (Corpus corpus = buildCorpus(layout)) {
            for (int k = 0; k <= layout.maxDistance(); k++) {
                long probe = randomBoolean() ? corpus.centers[randomIntBetween(0, corpus.centers.length - 1)] : randomProbe(corpus);
                SimHashQuery query = keyQuery(probe, k, layout);
                Map<String, Integer> expected = bruteForce(corpus, probe, k);
                assertEquals(layout + " probe " + Fingerprints.toHex(probe) + " k " + k, expected, hits(corpus, query, 1f));
                assertEquals(expected.size(), corpus.searcher.count(query));
            }
        }
    }

    /** Check bits reject most key-sharing candidates; results must stay those of the brute force at every k. */
    public void testCheckBitsRejectOnlyFarCandidates() throws IOException {
        BlockLayout layout = new BlockLayout(4, 3, randomIntBetween(1, 24));
        try (Corpus corpus = buildCorpus(layout)) {
            for (long center : corpus.centers) {
                for (int k = 0; k <= 3; k++) {
                    SimHashQuery query = keyQuery(center, k, layout);
                    assertEquals(layout + " k " + k, bruteForce(corpus, center, k), hits(corpus, query, 1f));
                }
            }
        }
    }

    /** An index written without check bits (an older mapping) is still answered exactly by a layout that has them. */
    public void testIndexWithoutCheckBitsIsVerifiedFromDocValues() throws IOException {
        try (Corpus corpus = buildCorpus(new BlockLayout(4, 3, 0))) {
            BlockLayout checked = new BlockLayout(4, 3);
            assertEquals(16, checked.checkBits());
            for (int i = 0; i < 20; i++) {
                long probe = randomProbe(corpus);
                int k = randomIntBetween(0, 3);
                assertEquals(bruteForce(corpus, probe, k), hits(corpus, keyQuery(probe, k, checked), 1f));
            }
        }
    }

    public void testScanMatchesBruteForceBeyondIndexedDistance() throws IOException {
        BlockLayout layout = randomLayout();
        try (Corpus corpus = buildCorpus(layout)) {
            for (int i = 0; i < 20; i++) {
                long probe = randomProbe(corpus);
                int k = randomIntBetween(0, 64);
                SimHashQuery query = new SimHashQuery(FIELD, probe, k, layout, true);
                assertEquals(bruteForce(corpus, probe, k), hits(corpus, query, 1f));
                if (k <= layout.maxDistance()) {
                    assertEquals(hits(corpus, query, 1f), hits(corpus, keyQuery(probe, k, layout), 1f));
                }
            }
        }
    }

    public void testInsideBooleanAndConstantScore() throws IOException {
        BlockLayout layout = new BlockLayout(4, 3);
        try (Corpus corpus = buildCorpus(layout)) {
            for (int i = 0; i < 10; i++) {
                long probe = randomProbe(corpus);
                int k = randomIntBetween(0, 3);
                SimHashQuery nd = new SimHashQuery(FIELD, probe, k, layout, randomBoolean() && k <= 3 ? false : true);
                BooleanQuery bool = new BooleanQuery.Builder().add(nd, BooleanClause.Occur.FILTER)
                    .add(new TermQuery(new Term("group", "a")), BooleanClause.Occur.FILTER)
                    .build();
                Set<String> inGroupA = new HashSet<>();
                for (ScoreDoc sd : corpus.searcher.search(new TermQuery(new Term("group", "a")), corpus.reader.maxDoc() + 1).scoreDocs) {
                    inGroupA.add(corpus.searcher.storedFields().document(sd.doc).get("id"));
                }
                Set<String> expected = new HashSet<>(bruteForce(corpus, probe, k).keySet());
                expected.retainAll(inGroupA);
                Set<String> actual = new HashSet<>();
                for (ScoreDoc sd : corpus.searcher.search(bool, corpus.reader.maxDoc() + 1).scoreDocs) {
                    actual.add(corpus.searcher.storedFields().document(sd.doc).get("id"));
                }
                assertEquals(expected, actual);
                assertEquals(bruteForce(corpus, probe, k).size(), corpus.searcher.count(new ConstantScoreQuery(nd)));
            }
        }
    }

    /**
     * The caller's chance-match note (SimHashProbe computes it from the null distribution and the shard's size) shows in
     * the explanation of a match and in toString (profile), and changes nothing else: same hits, equal queries.
     */
    public void testChanceNoteInExplainAndToString() throws IOException {
        BlockLayout layout = new BlockLayout(4, 3);
        String note = "expected chance matches per probe among this shard's 1,000 documents: 0.0030 (basis)";
        try (Corpus corpus = buildCorpus(layout, false)) {
            // an indexed fingerprint, so that at least its document matches (a center may have no neighbour within 3)
            long probe = randomFrom(new ArrayList<>(corpus.live.values()));
            SimHashQuery plain = new SimHashQuery(FIELD, probe, 3, layout, randomBoolean());
            SimHashQuery noted = plain.withChanceNote(note);
            assertEquals(note, noted.chanceNote());
            assertNull(plain.chanceNote());
            assertEquals(plain, noted);
            assertEquals(plain.hashCode(), noted.hashCode());
            assertSame(noted, noted.withChanceNote(note));
            assertTrue(noted.toString(), noted.toString().endsWith("; " + note + ")"));
            assertFalse(plain.toString().contains("chance"));
            assertEquals(hits(corpus, plain, 1f), hits(corpus, noted, 1f));
            int matched = 0;
            for (int doc = 0; doc < corpus.reader.maxDoc(); doc++) {
                Explanation explanation = corpus.searcher.explain(noted, doc);
                if (explanation.isMatch()) {
                    matched++;
                    assertTrue(explanation.getDescription(), explanation.getDescription().contains("; " + note + ", score = "));
                    assertEquals(corpus.searcher.explain(plain, doc).getValue(), explanation.getValue());
                }
            }
            assertTrue(matched > 0);
        }
    }

    public void testExplainAndBoost() throws IOException {
        BlockLayout layout = new BlockLayout(4, 3);
        try (Corpus corpus = buildCorpus(layout)) {
            long probe = corpus.centers[0];
            int k = 3;
            float boost = (float) randomDoubleBetween(0.5, 5, true);
            SimHashQuery query = new SimHashQuery(FIELD, probe, k, layout, randomBoolean());
            Map<String, Integer> expected = bruteForce(corpus, probe, k);
            assertEquals(expected, hits(corpus, new org.apache.lucene.search.BoostQuery(query, boost), boost));
            for (int doc = 0; doc < corpus.reader.maxDoc(); doc++) {
                String id = corpus.searcher.storedFields().document(doc).get("id");
                if (corpus.live.containsKey(id) == false) {
                    continue;
                }
                Explanation explanation = corpus.searcher.explain(query, doc);
                int d = Fingerprints.distance(corpus.live.get(id), probe);
                assertEquals(expected.containsKey(id), explanation.isMatch());
                if (explanation.isMatch()) {
                    assertTrue(explanation.getDescription(), explanation.getDescription().contains("hamming distance " + d + " <= " + k));
                    assertEquals(SimHashQuery.closeness(d), explanation.getValue().floatValue(), 1e-6f);
                } else {
                    assertTrue(explanation.getDescription(), explanation.getDescription().contains("hamming distance " + d + " > " + k));
                }
            }
        }
        // Lucene's consistency checks (advance vs. collect, explain vs. score, equals); its skipTo check ignores
        // deletions, so it runs on a corpus without them
        try (Corpus corpus = buildCorpus(layout, false)) {
            QueryUtils.check(random(), new SimHashQuery(FIELD, corpus.centers[0], 3, layout, false), corpus.searcher);
            QueryUtils.check(random(), new SimHashQuery(FIELD, corpus.centers[1], 5, layout, true), corpus.searcher);
        }
    }

    public void testEqualsHashCodeAndToString() {
        BlockLayout layout = new BlockLayout(4, 3);
        long fp = randomLong();
        SimHashQuery q = new SimHashQuery(FIELD, fp, 2, layout, false);
        assertEquals(q, new SimHashQuery(FIELD, fp, 2, layout, false));
        assertEquals(q.hashCode(), new SimHashQuery(FIELD, fp, 2, layout, false).hashCode());
        assertNotEquals(q, new SimHashQuery(FIELD, fp ^ 1, 2, layout, false));
        assertNotEquals(q, new SimHashQuery(FIELD, fp, 1, layout, false));
        assertNotEquals(q, new SimHashQuery(FIELD, fp, 2, layout, true));
        assertNotEquals(q, new SimHashQuery("other", fp, 2, layout, false));
        assertNotEquals(q, new SimHashQuery(FIELD, fp, 2, new BlockLayout(6, 3), false));
        assertEquals("near_duplicate(fp:" + Fingerprints.toHex(fp) + " ~2 keys 64b/4blocks/k3/check16)", q.toString());
        assertNotEquals(q, new SimHashQuery(FIELD, fp, 2, new BlockLayout(4, 3, 0), false));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> new SimHashQuery(FIELD, fp, 4, layout, false));
        assertEquals("max_distance [4] exceeds the indexed max_distance [3] of field [fp]", e.getMessage());
        expectThrows(IllegalArgumentException.class, () -> new SimHashQuery(FIELD, fp, 65, layout, true));
    }
}
