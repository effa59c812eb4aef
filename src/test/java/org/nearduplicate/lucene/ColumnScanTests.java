package org.nearduplicate.lucene;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.keys.BlockLayout;

/** The column path: the column, its scan, its cache, and the query's answers on every path against brute force. */
public class ColumnScanTests extends PlatformTestCase {
    private static final String FIELD = "fp";

    /** Accounting that counts what is held and can refuse. */
    private static final class CountingAccounting implements MemoryAccounting {
        final AtomicLong held = new AtomicLong();
        volatile boolean refuse;

        @Override
        public void reserve(long bytes, String label) {
            if (refuse) {
                throw new IllegalStateException("breaker: " + label);
            }
            held.addAndGet(bytes);
        }

        @Override
        public void release(long bytes) {
            held.addAndGet(-bytes);
        }
    }

    /** Index: id -> fingerprint of live docs with one; group term on every doc. */
    private static final class Corpus implements AutoCloseable {
        final Directory dir;
        final DirectoryReader reader;
        final IndexSearcher searcher;
        final Map<String, Long> live = new HashMap<>();
        final Map<String, String> group = new HashMap<>();
        long[] centers;

        Corpus(Directory dir, DirectoryReader reader) {
            this.dir = dir;
            this.reader = reader;
            this.searcher = new IndexSearcher(reader);
            this.searcher.setQueryCache(null);
        }

        @Override
        public void close() throws IOException {
            reader.close();
            dir.close();
        }
    }

    private Corpus corpus(BlockLayout layout, double missing) throws IOException {
        Directory dir = newDirectory();
        IndexWriterConfig config = new IndexWriterConfig();
        config.setMaxBufferedDocs(randomIntBetween(30, 200)); // several segments
        config.setMergePolicy(newLogMergePolicy());
        IndexWriter writer = new IndexWriter(dir, config);
        long[] centers = new long[randomIntBetween(3, 10)];
        for (int i = 0; i < centers.length; i++) {
            centers[i] = randomLong();
        }
        Map<String, Long> all = new HashMap<>();
        Map<String, String> groups = new HashMap<>();
        int docs = randomIntBetween(400, 1500);
        for (int i = 0; i < docs; i++) {
            String id = Integer.toString(i);
            String g = randomFrom("a", "b", "c", "d", "e", "f", "g", "h");
            Document doc = new Document();
            doc.add(new StringField("id", id, Field.Store.YES));
            doc.add(new StringField("group", g, Field.Store.NO));
            groups.put(id, g);
            if (random().nextDouble() < missing) {
                writer.addDocument(doc);
                continue;
            }
            long fp = switch (randomIntBetween(0, 3)) {
                case 0 -> randomLong();
                case 1 -> 0L; // a legal fingerprint, not "missing"
                default -> SimHashQueryTests.flipBits(centers[randomIntBetween(0, centers.length - 1)], randomIntBetween(0, 40));
            };
            for (var f : SketchFields.simHashFields(FIELD, layout, fp)) {
                doc.add(f);
            }
            writer.addDocument(doc);
            all.put(id, fp);
        }
        for (int i = randomIntBetween(0, docs / 10); i > 0; i--) {
            String id = Integer.toString(randomIntBetween(0, docs - 1));
            writer.deleteDocuments(new Term("id", id));
            all.remove(id);
            groups.remove(id);
        }
        DirectoryReader reader = DirectoryReader.open(writer);
        writer.close();
        Corpus corpus = new Corpus(dir, reader);
        corpus.live.putAll(all);
        corpus.group.putAll(groups);
        corpus.centers = centers;
        return corpus;
    }

    private long[] probes(Corpus corpus, int n) {
        long[] probes = new long[n];
        for (int i = 0; i < n; i++) {
            probes[i] = switch (randomIntBetween(0, 3)) {
                case 0 -> randomLong();
                case 1 -> 0L;
                default -> SimHashQueryTests.flipBits(
                    corpus.centers[randomIntBetween(0, corpus.centers.length - 1)],
                    randomIntBetween(0, 8)
                );
            };
        }
        return probes;
    }

    private static Map<String, Integer> bruteForce(Corpus corpus, long[] probes, int k, String group) {
        Map<String, Integer> expected = new HashMap<>();
        for (Map.Entry<String, Long> e : corpus.live.entrySet()) {
            if (group != null && group.equals(corpus.group.get(e.getKey())) == false) continue;
            int best = 65;
            for (long p : probes) {
                best = Math.min(best, Long.bitCount(e.getValue() ^ p));
            }
            if (best <= k) {
                expected.put(e.getKey(), best);
            }
        }
        return expected;
    }

    private static Map<String, Integer> hits(Corpus corpus, Query query) throws IOException {
        TopDocs top = corpus.searcher.search(query, Math.max(1, corpus.reader.maxDoc()));
        Map<String, Integer> hits = new HashMap<>();
        for (ScoreDoc sd : top.scoreDocs) {
            String id = corpus.searcher.storedFields().document(sd.doc).get("id");
            assertNull("one hit per document", hits.put(id, Math.round(1f / sd.score - 1)));
        }
        return hits;
    }

    private static BlockLayout layout() {
        return randomBoolean() ? new BlockLayout(4, 16) : new BlockLayout(4, 3);
    }

    public void testColumnReadsEveryValueExactly() throws IOException {
        for (double missing : new double[] { 0, 0.1, 0.6, 0.97 }) {
            try (Corpus corpus = corpus(new BlockLayout(4, 3), missing)) {
                for (LeafReaderContext leaf : corpus.reader.leaves()) {
                    var values = leaf.reader().getNumericDocValues(FIELD);
                    if (values == null) continue;
                    FingerprintColumn column = FingerprintColumn.load(values, leaf.reader().maxDoc());
                    var truth = leaf.reader().getNumericDocValues(FIELD);
                    int count = 0;
                    for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                        boolean has = truth.advanceExact(doc);
                        assertEquals("doc " + doc, has, column.has(doc));
                        if (has) {
                            assertEquals(truth.longValue(), column.get(doc));
                            count++;
                        }
                    }
                    assertEquals(count, column.count());
                    assertEquals(FingerprintColumn.bytes(leaf.reader().maxDoc(), count), column.bytes());
                    if (missing == 0) {
                        assertTrue(column.isDense());
                    }
                    if (missing > 0.9 && leaf.reader().maxDoc() > 50) {
                        assertFalse(column.isDense());
                    }
                }
            }
        }
    }

    /** ColumnScan.scan against brute force on a column, every k, one and several probes (fingerprint 0 included). */
    public void testScanIsExactForEveryK() throws IOException {
        try (Corpus corpus = corpus(new BlockLayout(4, 3), randomFrom(0.0, 0.2, 0.9))) {
            for (LeafReaderContext leaf : corpus.reader.leaves()) {
                var values = leaf.reader().getNumericDocValues(FIELD);
                if (values == null) continue;
                FingerprintColumn column = FingerprintColumn.load(values, leaf.reader().maxDoc());
                for (int k = 0; k <= 64; k++) {
                    long[] probes = probes(corpus, randomFrom(1, 2, 3, 17));
                    ColumnScan.Matches matches = ColumnScan.scan(column, probes, k);
                    int j = 0;
                    for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                        if (column.has(doc) == false) continue;
                        int best = 65;
                        for (long p : probes)
                            best = Math.min(best, Long.bitCount(column.get(doc) ^ p));
                        if (best <= k) {
                            assertTrue("k " + k + " doc " + doc, j < matches.size());
                            assertEquals("k " + k, doc, matches.doc(j));
                            assertEquals("k " + k, best, matches.distance(j));
                            j++;
                        }
                    }
                    assertEquals("k " + k, j, matches.size());
                }
            }
        }
    }

    /** The block-at-a-time cursor: nextDoc and advance (which skips whole blocks) against the collected matches. */
    public void testCursorAdvancesExactly() throws IOException {
        for (double missing : new double[] { 0, 0.2, 0.9 }) {
            int maxDoc = ColumnScan.BLOCK * 5 + randomIntBetween(0, ColumnScan.BLOCK);
            long[] values = new long[maxDoc];
            boolean[] has = new boolean[maxDoc];
            for (int i = 0; i < maxDoc; i++) {
                values[i] = randomBoolean() ? randomLong() : randomFrom(0L, 1L, 3L, 7L);
                has[i] = random().nextDouble() >= missing;
            }
            FingerprintColumn column = FingerprintColumn.load(sparseValues(values, has), maxDoc);
            long[] probes = randomBoolean() ? new long[] { 0L } : new long[] { 0L, randomLong(), 15L };
            int k = randomFrom(0, 2, 20, 64);
            ColumnScan.Matches all = ColumnScan.scan(column, probes, k);
            // the collected matches against brute force
            int j = 0;
            for (int doc = 0; doc < maxDoc; doc++) {
                if (has[doc] == false) continue;
                int best = 65;
                for (long p : probes)
                    best = Math.min(best, Long.bitCount(values[doc] ^ p));
                if (best <= k) {
                    assertEquals(doc, all.doc(j));
                    assertEquals(best, all.distance(j++));
                }
            }
            assertEquals(j, all.size());
            // random walks of nextDoc and advance
            for (int walk = 0; walk < 20; walk++) {
                ColumnScan.Cursor cursor = new ColumnScan.Cursor(column, probes, k);
                int doc = -1;
                while (true) {
                    int target = randomBoolean() ? doc + 1 : doc + 1 + randomIntBetween(0, ColumnScan.BLOCK * 2);
                    int got = randomBoolean() && target == doc + 1 ? cursor.nextDoc() : cursor.advance(target);
                    int expected = org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS;
                    int expectedDistance = -1;
                    for (int i = 0; i < all.size(); i++) {
                        if (all.doc(i) >= target) {
                            expected = all.doc(i);
                            expectedDistance = all.distance(i);
                            break;
                        }
                    }
                    assertEquals("target " + target, expected, got);
                    if (got == org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS) break;
                    assertEquals(expectedDistance, cursor.distance());
                    doc = got;
                }
            }
        }
    }

    static org.apache.lucene.index.NumericDocValues sparseValues(long[] values, boolean[] has) {
        return ArrayDocValues.of(values, has);
    }

    /** Big enough for several blocks of a multi-probe scan. */
    public void testBlockedScanAcrossBlocks() throws IOException {
        int maxDoc = ColumnScan.BLOCK * 3 + 17;
        long[] values = new long[maxDoc];
        for (int i = 0; i < maxDoc; i++)
            values[i] = randomBoolean() ? randomLong() : 0L;
        boolean[] every = new boolean[maxDoc];
        java.util.Arrays.fill(every, true);
        FingerprintColumn column = FingerprintColumn.load(ArrayDocValues.of(values, every), maxDoc);
        long[] probes = { 0L, 1L, randomLong(), -1L };
        for (int k : new int[] { 0, 1, 20, 30, 64 }) {
            ColumnScan.Matches m = ColumnScan.scan(column, probes, k);
            int j = 0;
            for (int doc = 0; doc < maxDoc; doc++) {
                int best = 65;
                for (long p : probes)
                    best = Math.min(best, Long.bitCount(values[doc] ^ p));
                if (best <= k) {
                    assertEquals(doc, m.doc(j));
                    assertEquals(best, m.distance(j++));
                }
            }
            assertEquals(j, m.size());
        }
    }

    /**
     * The query with columns against brute force, the doc-values scan and the keys, for every k 0..64, several
     * segments, deletions, missing values and several probes; also inside a conjunction (the random-access scorer).
     */
    public void testQueryIsExactOnEveryPath() throws IOException {
        BlockLayout layout = layout();
        CountingAccounting accounting = new CountingAccounting();
        FingerprintColumns columns = new FingerprintColumns(1L << 30, accounting);
        try (Corpus corpus = corpus(layout, randomFrom(0.0, 0.05, 0.5))) {
            for (int k = 0; k <= 64; k++) {
                long[] probes = probes(corpus, randomFrom(1, 1, 2, 5, 30));
                Map<String, Integer> expected = bruteForce(corpus, probes, k, null);
                boolean keys = k <= layout.maxDistance();
                SimHashQuery column = new SimHashQuery(FIELD, probes, k, layout, keys == false || randomBoolean()).withColumns(columns);
                assertEquals("column, k " + k, expected, hits(corpus, column));
                assertEquals("doc-values scan, k " + k, expected, hits(corpus, new SimHashQuery(FIELD, probes, k, layout, true)));
                if (keys) {
                    SimHashQuery keyOnly = new SimHashQuery(FIELD, probes, k, layout, false).withScanByCost(false);
                    assertEquals("keys, k " + k, expected, hits(corpus, keyOnly));
                    assertEquals("keys with columns, k " + k, expected, hits(corpus, keyOnly.withColumns(columns)));
                }
                String g = randomFrom("a", "b");
                Query conjunction = new BooleanQuery.Builder().add(new TermQuery(new Term("group", g)), BooleanClause.Occur.FILTER)
                    .add(column, BooleanClause.Occur.MUST)
                    .build();
                assertEquals("conjunction, k " + k, bruteForce(corpus, probes, k, g), hits(corpus, conjunction));
            }
            FingerprintColumns.Stats stats = columns.stats();
            assertTrue(stats.loads() > 0);
            assertTrue(stats.hits() > 0);
            assertEquals(stats.bytes(), accounting.held.get());
        }
        assertEquals("closed segments leave the cache", 0, columns.stats().entries());
        assertEquals("their bytes are released", 0, accounting.held.get());
    }

    /** Every segment's column scanned directly: the random-access scorer and the listed one agree with brute force. */
    public void testRandomAccessScorer() throws IOException {
        try (Corpus corpus = corpus(new BlockLayout(4, 3), 0.3)) {
            long[] probes = probes(corpus, 3);
            int k = randomIntBetween(0, 40);
            var weight = corpus.searcher.createWeight(
                new org.apache.lucene.search.MatchAllDocsQuery(),
                org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES,
                1f
            );
            for (LeafReaderContext leaf : corpus.reader.leaves()) {
                var values = leaf.reader().getNumericDocValues(FIELD);
                if (values == null) continue;
                FingerprintColumn column = FingerprintColumn.load(values, leaf.reader().maxDoc());
                var listed = ColumnScorer.supplier(weight, column, probes, k, 1f).get(Long.MAX_VALUE);
                var random = new ColumnScorer.RandomAccess(weight, column, probes, k, 1f, null);
                var it = random.iterator();
                for (int doc = listed.iterator().nextDoc(); doc != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; doc = listed
                    .iterator()
                    .nextDoc()) {
                    assertEquals(doc, it.nextDoc());
                    assertEquals(listed.score(), random.score(), 0f);
                }
                assertEquals(org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS, it.nextDoc());
            }
        }
    }

    public void testCacheEvictsOnCloseAndReturnsAccounting() throws IOException {
        CountingAccounting accounting = new CountingAccounting();
        FingerprintColumns columns = new FingerprintColumns(1L << 30, accounting);
        try (Corpus corpus = corpus(new BlockLayout(4, 16), 0)) {
            int segments = 0;
            for (LeafReaderContext leaf : corpus.reader.leaves()) {
                if (leaf.reader().getNumericDocValues(FIELD) == null) continue;
                assertNotNull(columns.get(leaf, FIELD));
                assertSame(columns.get(leaf, FIELD), columns.get(leaf, FIELD));
                segments++;
            }
            FingerprintColumns.Stats stats = columns.stats();
            assertEquals(segments, stats.entries());
            assertEquals(segments, stats.misses());
            assertEquals(segments, stats.loads());
            assertEquals(2L * segments, stats.hits());
            assertEquals(0, stats.evictions());
            assertTrue(stats.bytes() > 0);
            assertEquals(stats.bytes(), accounting.held.get());
        }
        FingerprintColumns.Stats stats = columns.stats();
        assertEquals(0, stats.entries());
        assertEquals(0, stats.bytes());
        assertEquals(0, accounting.held.get());
        assertTrue(stats.evictions() > 0);
    }

    public void testCacheIsBoundedLeastRecentlyUsedFirst() throws IOException {
        CountingAccounting accounting = new CountingAccounting();
        try (Corpus corpus = corpus(new BlockLayout(4, 16), 0)) {
            var leaves = corpus.reader.leaves().stream().filter(l -> {
                try {
                    return l.reader().getNumericDocValues(FIELD) != null;
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }).toList();
            assumeTrue("several segments", leaves.size() >= 3);
            long sum = 0;
            for (LeafReaderContext leaf : leaves) {
                sum += FingerprintColumn.bytes(leaf.reader().maxDoc(), leaf.reader().maxDoc());
            }
            // one byte short of all of them: the least recently used (the first) must go
            FingerprintColumns columns = new FingerprintColumns(sum - 1, accounting);
            for (LeafReaderContext leaf : leaves) {
                assertNotNull(columns.get(leaf, FIELD));
                FingerprintColumns.Stats stats = columns.stats();
                assertTrue(stats.bytes() <= columns.maxBytes());
                assertEquals(stats.bytes(), accounting.held.get());
            }
            FingerprintColumns.Stats stats = columns.stats();
            assertTrue("evicted: " + stats, stats.evictions() >= 1);
            // the most recent one is still there, the first one was evicted
            long loads = stats.loads();
            columns.get(leaves.get(leaves.size() - 1), FIELD);
            assertEquals(loads, columns.stats().loads());
            columns.get(leaves.get(0), FIELD);
            assertEquals(loads + 1, columns.stats().loads());
            // a smaller bound (the dynamic near_duplicate.scan_cache.size) evicts at once until the columns fit
            long before = columns.stats().bytes();
            long evictionsBefore = columns.stats().evictions();
            int evicted = columns.setMaxBytes(before - 1);
            assertTrue("evicted on shrink", evicted >= 1);
            assertEquals(evictionsBefore + evicted, columns.stats().evictions());
            assertTrue(columns.stats().bytes() <= before - 1);
            assertEquals(columns.stats().bytes(), accounting.held.get());
            // 0 drops every column and loads none; raised again, columns load
            columns.setMaxBytes(0);
            assertEquals(0, columns.stats().bytes());
            assertEquals(0, accounting.held.get());
            assertNull(columns.get(leaves.get(0), FIELD));
            columns.setMaxBytes(sum);
            assertNotNull(columns.get(leaves.get(0), FIELD));
            assertEquals(columns.stats().bytes(), accounting.held.get());
            expectThrows(IllegalArgumentException.class, () -> columns.setMaxBytes(-1));
            // a column larger than the whole cache is never loaded
            FingerprintColumns tiny = new FingerprintColumns(16, accounting);
            assertNull(tiny.get(leaves.get(0), FIELD));
            assertEquals(1, tiny.stats().fallbacks());
            assertEquals(0, tiny.stats().entries());
            columns.clear();
            assertEquals(0, columns.stats().bytes());
            assertEquals(0, accounting.held.get());
        }
    }

    /** A refused reservation (a tripped breaker) falls back to the other paths: same answers, nothing held. */
    public void testRefusedReservationFallsBack() throws IOException {
        BlockLayout layout = new BlockLayout(4, 16);
        CountingAccounting accounting = new CountingAccounting();
        accounting.refuse = true;
        FingerprintColumns columns = new FingerprintColumns(1L << 30, accounting);
        try (Corpus corpus = corpus(layout, 0.1)) {
            for (int k : new int[] { 3, 16, 30, 64 }) {
                long[] probes = probes(corpus, 2);
                SimHashQuery query = new SimHashQuery(FIELD, probes, k, layout, k > 16).withColumns(columns);
                assertEquals(bruteForce(corpus, probes, k, null), hits(corpus, query));
            }
            assertEquals(0, columns.stats().entries());
            assertTrue(columns.stats().fallbacks() > 0);
            assertEquals(0, accounting.held.get());
        }
    }

    /** The cost model: with a column, large k on a large segment scans it; small k keeps the keys. */
    public void testPathChoice() {
        BlockLayout layout = new BlockLayout(4, 16);
        SimHashQuery k15 = new SimHashQuery(FIELD, randomLong(), 15, layout, false);
        assertEquals(SegmentPath.COLUMN, k15.path(10_000_000, true));
        assertEquals(SegmentPath.KEYS, k15.path(10_000_000, false));
        SimHashQuery k3 = new SimHashQuery(FIELD, randomLong(), 3, layout, false);
        assertEquals(SegmentPath.KEYS, k3.path(10_000_000, true));
        SimHashQuery k40 = new SimHashQuery(FIELD, randomLong(), 40, layout, true);
        assertEquals(SegmentPath.COLUMN, k40.path(10_000_000, true));
        assertEquals(SegmentPath.DOC_VALUES, k40.path(10_000_000, false));
    }

    /** Doc values updated in place keep the core key: never cached, still exact. */
    public void testUpdatedDocValuesAreNotCached() throws IOException {
        Directory dir = newDirectory();
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig());
        for (int i = 0; i < 50; i++) {
            Document doc = new Document();
            doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
            doc.add(new NumericDocValuesField(FIELD, i));
            writer.addDocument(doc);
        }
        writer.commit();
        writer.updateNumericDocValue(new Term("id", "7"), FIELD, -1L);
        try (DirectoryReader reader = DirectoryReader.open(writer)) {
            FingerprintColumns columns = new FingerprintColumns(1L << 20, MemoryAccounting.NONE);
            for (LeafReaderContext leaf : reader.leaves()) {
                assertNull(columns.get(leaf, FIELD));
            }
            assertEquals(0, columns.stats().entries());
        }
        writer.close();
        dir.close();
    }
}
