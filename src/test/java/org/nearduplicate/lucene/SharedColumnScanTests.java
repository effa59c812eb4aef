package org.nearduplicate.lucene;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NumericDocValues;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.keys.BlockLayout;

/** Concurrent scans of one column sharing their passes: each search's answer is exactly its own scan's. */
public class SharedColumnScanTests extends PlatformTestCase {

    /** A column of at least {@link SharedColumnScan#MIN_SLOTS} slots: dense, dense with documents missing, or sparse. */
    private FingerprintColumn column(long[] centers) throws IOException {
        int layout = randomIntBetween(0, 2);
        int slots = SharedColumnScan.MIN_SLOTS + randomIntBetween(0, 3 * ColumnScan.BLOCK);
        int maxDoc = layout == 0 ? slots : layout == 1 ? slots + slots / 20 : slots * 3;
        long[] values = new long[maxDoc];
        boolean[] has = new boolean[maxDoc];
        int count = 0;
        for (int doc = 0; doc < maxDoc; doc++) {
            has[doc] = layout == 0 || (layout == 1 ? randomInt(20) != 0 : randomBoolean());
            if (has[doc] == false) continue;
            count++;
            values[doc] = randomInt(3) == 0
                ? SimHashQueryTests.flipBits(centers[randomInt(centers.length - 1)], randomIntBetween(0, 12))
                : randomLong();
        }
        NumericDocValues docValues = ColumnScanTests.sparseValues(values, has);
        FingerprintColumn column = FingerprintColumn.load(docValues, maxDoc);
        assertEquals(count, column.count());
        assertTrue(SharedColumnScan.worthSharing(column, 3, 16));
        return column;
    }

    private long[] probes(long[] centers) {
        long[] probes = new long[randomIntBetween(1, 3)];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = randomBoolean()
                ? SimHashQueryTests.flipBits(centers[randomInt(centers.length - 1)], randomIntBetween(0, 6))
                : randomLong();
        }
        return probes;
    }

    private static long[] centers() {
        long[] centers = new long[8];
        for (int i = 0; i < centers.length; i++)
            centers[i] = randomLong();
        return centers;
    }

    private static void assertSameMatches(String message, ColumnScan.Matches expected, ColumnScan.Matches actual) {
        assertNotNull(message, actual);
        assertEquals(message + ": size", expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(message + ": doc " + i, expected.doc(i), actual.doc(i));
            assertEquals(message + ": distance " + i, expected.distance(i), actual.distance(i));
        }
    }

    /**
     * Two searches interleaved claim by claim on one thread: the second joins mid-pass, wraps around, both get their
     * own scan's answer, and the blocks after the join were each claimed once for both.
     */
    public void testSearchJoiningMidPassSharesTheRest() throws IOException {
        long[] centers = centers();
        FingerprintColumn column = column(centers);
        SharedColumnScan pass = column.shared();
        int blocks = (column.slots() + SharedColumnScan.CLAIM_SLOTS - 1) / SharedColumnScan.CLAIM_SLOTS;
        long[] probesA = probes(centers);
        long[] probesB = probes(centers);
        int kA = randomIntBetween(0, 20);
        int kB = randomIntBetween(0, 20);
        ColumnScan.Buffer scratch = new ColumnScan.Buffer();

        SharedColumnScan.Search a = pass.join(probesA, kA);
        int before = randomIntBetween(0, blocks - 1);
        for (int i = 0; i < before; i++) {
            assertTrue(pass.claimNext(a, scratch));
        }
        SharedColumnScan.Search b = pass.join(probesB, kB);
        boolean aClaiming = true;
        boolean bClaiming = true;
        while (aClaiming || bClaiming) {
            if (aClaiming && (bClaiming == false || randomBoolean())) {
                aClaiming = pass.claimNext(a, scratch);
            } else {
                bClaiming = pass.claimNext(b, scratch);
            }
        }
        SharedColumnScan.Result resultA = pass.finish(a, scratch);
        SharedColumnScan.Result resultB = pass.finish(b, scratch);
        assertSameMatches("a", ColumnScan.scan(column, probesA, kA), resultA.matches());
        assertSameMatches("b", ColumnScan.scan(column, probesB, kB), resultB.matches());
        assertTrue(resultA.shared());
        assertTrue(resultB.shared());
        assertEquals("every block read once for both after the join", before + blocks, pass.claims());

        // a search alone afterwards starts wherever the pass stands, wraps around, and is not shared
        long[] probesC = probes(centers);
        SharedColumnScan.Result alone = pass.scan(probesC, 7);
        assertSameMatches("c", ColumnScan.scan(column, probesC, 7), alone.matches());
        assertFalse(alone.shared());
        assertEquals(before + 2L * blocks, pass.claims());
    }

    /**
     * A block another thread started and never finished (descheduled, or failed) is scanned again by the search's own
     * thread, which does not wait; the late scan's hits are ignored.
     */
    public void testBlockLeftInFlightIsScannedAgainByItsOwner() throws IOException {
        long[] centers = centers();
        FingerprintColumn column = column(centers);
        SharedColumnScan pass = column.shared();
        int blocks = (column.slots() + SharedColumnScan.CLAIM_SLOTS - 1) / SharedColumnScan.CLAIM_SLOTS;
        long[] probes = { centers[0], centers[1] };
        int k = randomIntBetween(5, 20);
        ColumnScan.Buffer scratch = new ColumnScan.Buffer();
        SharedColumnScan.Search search = pass.join(probes, k);
        int stuck = randomIntBetween(0, blocks - 1);
        for (int i = 0; i < blocks; i++) {
            SharedColumnScan.Claim claim = pass.claim(search);
            assertNotNull(claim);
            if (i != stuck) pass.scan(claim, scratch); // the stuck claim's thread never gets to scan it
        }
        assertNull(pass.claim(search));
        assertEquals(stuck, search.nextIncomplete(0));
        ColumnScan.Matches expected = ColumnScan.scan(column, probes, k);
        assertSameMatches("rescanned", expected, pass.finish(search, scratch).matches());
        ColumnScan.Buffer late = new ColumnScan.Buffer();
        late.add((long) column.maxDoc() << 7);
        search.complete(stuck, late);
        assertSameMatches("the late scan is ignored", expected, search.matches());
    }

    /** A search expected to match too many documents by chance alone is not shared (it would overflow and scan twice). */
    public void testSearchesLikelyToOverflowAreNotShared() throws IOException {
        FingerprintColumn column = column(centers());
        assertTrue(SharedColumnScan.worthSharing(column, 1, 16));
        assertFalse("k 64 matches every document", SharedColumnScan.worthSharing(column, 1, 64));
        assertFalse("k 32 matches half", SharedColumnScan.worthSharing(column, 1, 32));
        // at 131,072+ documents, k 22 expects ~1,100 chance matches per probe: fine for one probe, not for 100
        assertTrue(SharedColumnScan.worthSharing(column, 1, 22));
        assertFalse(SharedColumnScan.worthSharing(column, 100, 22));
    }

    /** Searches racing on many threads, every round: each answer equals its scan alone; too many matches give null. */
    public void testConcurrentSearchesGetTheirOwnAnswers() throws Exception {
        long[] centers = centers();
        FingerprintColumn column = column(centers);
        int threads = randomIntBetween(2, 6);
        int rounds = randomIntBetween(3, 8);
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = randomLong();
                futures.add(executor.submit(() -> {
                    java.util.Random random = new java.util.Random(seed);
                    for (int round = 0; round < rounds; round++) {
                        long[] probes = new long[1 + random.nextInt(3)];
                        for (int i = 0; i < probes.length; i++) {
                            probes[i] = random.nextBoolean()
                                ? SimHashQueryTests.flipBits(centers[random.nextInt(centers.length)], random.nextInt(7))
                                : random.nextLong();
                        }
                        int k = random.nextInt(10) == 0 ? 64 : random.nextInt(25);
                        start.await(30, TimeUnit.SECONDS);
                        SharedColumnScan.Result result = column.shared().scan(probes, k);
                        ColumnScan.Matches expected = ColumnScan.scan(column, probes, k);
                        if (expected.size() > SharedColumnScan.MAX_HITS) {
                            assertNull("more than MAX_HITS matches: scanned alone", result.matches());
                        } else {
                            assertSameMatches("k " + k, expected, result.matches());
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdown();
            assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /**
     * Through the query: led by itself, a segment large enough is answered from the shared pass (its claims move),
     * exactly; led by a selective clause, it is not (random access); beyond MAX_HITS it falls back to the lazy scan.
     */
    public void testQueryUsesTheSharedPassWhenItLeads() throws IOException {
        BlockLayout layout = new BlockLayout(4, 16);
        int docs = SharedColumnScan.MIN_SLOTS + randomIntBetween(0, 1000);
        long[] fingerprints = new long[docs];
        long center = randomLong();
        try (Directory dir = newDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(64);
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (int i = 0; i < docs; i++) {
                    fingerprints[i] = i % 100 == 0 ? SimHashQueryTests.flipBits(center, randomIntBetween(0, 10)) : randomLong();
                    Document doc = new Document();
                    if (i % 1000 == 0) doc.add(new StringField("tag", "x", Field.Store.NO));
                    for (var f : SketchFields.simHashFields("fp", layout, fingerprints[i])) {
                        doc.add(f);
                    }
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                searcher.setQueryCache(null);
                FingerprintColumns columns = new FingerprintColumns(1L << 30, MemoryAccounting.NONE);
                for (int k : new int[] { 10, 18, 64 }) {
                    long[] probes = { center };
                    Query query = new SimHashQuery("fp", probes, k, layout, true).withColumns(columns);
                    Map<Integer, Integer> expected = new HashMap<>();
                    for (int doc = 0; doc < docs; doc++) {
                        int d = Long.bitCount(fingerprints[doc] ^ center);
                        if (d <= k) expected.put(doc, d);
                    }
                    TopDocs top = searcher.search(query, docs);
                    Map<Integer, Integer> actual = new HashMap<>();
                    for (ScoreDoc sd : top.scoreDocs) {
                        assertNull(actual.put(sd.doc, Math.round(1f / sd.score - 1)));
                    }
                    assertEquals("k " + k, expected, actual);
                }
                FingerprintColumn column = columns.get(reader.leaves().get(0), "fp");
                int blocks = (column.slots() + SharedColumnScan.CLAIM_SLOTS - 1) / SharedColumnScan.CLAIM_SLOTS;
                assertEquals(
                    "k 10 and 18 went through the shared pass, k 64 (every document) scanned alone",
                    2L * blocks,
                    column.shared().claims()
                );
                assertEquals("alone: no pass was shared", 0, columns.stats().sharedPasses());

                // the node setting off: each search scans alone, lazily, with the same answer
                columns.setSharePasses(false);
                TopDocs alone = searcher.search(new SimHashQuery("fp", new long[] { center }, 12, layout, true).withColumns(columns), docs);
                int expectedAlone = 0;
                for (long fp : fingerprints) {
                    if (Long.bitCount(fp ^ center) <= 12) expectedAlone++;
                }
                assertEquals(expectedAlone, alone.scoreDocs.length);
                assertEquals(2L * blocks, column.shared().claims());
                columns.setSharePasses(true);

                // a filter proposing few documents leads: the column is read at those documents, no pass
                Query filtered = new BooleanQuery.Builder().add(
                    new SimHashQuery("fp", new long[] { center }, 12, layout, true).withColumns(columns),
                    BooleanClause.Occur.MUST
                ).add(new TermQuery(new Term("tag", "x")), BooleanClause.Occur.FILTER).build();
                int expectedFiltered = 0;
                for (int doc = 0; doc < docs; doc += 1000) {
                    if (Long.bitCount(fingerprints[doc] ^ center) <= 12) expectedFiltered++;
                }
                assertEquals(expectedFiltered, searcher.search(filtered, docs).scoreDocs.length);
                assertEquals(2L * blocks, column.shared().claims());
            }
        }
    }
}
