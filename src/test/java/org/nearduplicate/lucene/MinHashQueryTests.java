package org.nearduplicate.lucene;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.search.QueryUtils;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.sketch.MinHasher;

/** MinHashQuery against brute force on random signatures with planted near neighbours, over several segments. */
public class MinHashQueryTests extends PlatformTestCase {
    private static final String FIELD = "mh";

    public void testExactAgainstBruteForce() throws Exception {
        int m = randomFrom(32, 64, 128);
        int rows = randomIntBetween(1, 4);
        Lsh lsh = new Lsh(randomIntBetween(1, m / rows), rows);
        try (Directory dir = newDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig();
            config.setMaxBufferedDocs(randomIntBetween(20, 60));
            config.setMergePolicy(newLogMergePolicy());
            Map<String, int[]> live = new HashMap<>();
            int[][] centers = new int[randomIntBetween(3, 8)][];
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (int c = 0; c < centers.length; c++) {
                    centers[c] = new int[m];
                    for (int i = 0; i < m; i++)
                        centers[c][i] = randomInt();
                }
                int n = randomIntBetween(150, 400);
                for (int d = 0; d < n; d++) {
                    int[] sig = centers[randomInt(centers.length - 1)].clone();
                    int changes = randomIntBetween(0, m); // from identical to unrelated
                    for (int k = 0; k < changes; k++)
                        sig[randomInt(m - 1)] = randomInt(3) == 0 ? randomInt(2) : randomInt();
                    Document doc = new Document();
                    String id = "d" + d;
                    doc.add(new StringField("id", id, Field.Store.YES));
                    for (IndexableField f : SketchFields.minHashFields(FIELD, lsh, sig))
                        doc.add(f);
                    writer.addDocument(doc);
                    live.put(id, sig);
                }
                writer.addDocument(new Document()); // a document without a signature
                for (int d = 0; d < n / 10; d++) {
                    String id = "d" + randomInt(n - 1);
                    writer.deleteDocuments(new Term("id", id));
                    live.remove(id);
                }
                // QueryUtils' skip checks advance fresh scorers, which do not see deletions: expunge them
                writer.forceMergeDeletes();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = newSearcher(reader);
                for (int probeIndex = 0; probeIndex < 20; probeIndex++) {
                    int[] probe = centers[randomInt(centers.length - 1)].clone();
                    for (int k = randomInt(m / 4); k > 0; k--)
                        probe[randomInt(m - 1)] = randomInt();
                    double t = randomFrom(0.0, 0.25, 0.5, 0.75, 0.9, 1.0, lsh.exactFrom(m), randomDouble());
                    for (boolean scan : new boolean[] { true, false }) {
                        MinHashQuery q = new MinHashQuery(FIELD, probe, t, lsh, scan);
                        Set<String> expected = new HashSet<>();
                        for (Map.Entry<String, int[]> e : live.entrySet()) {
                            boolean reaches = MinHasher.matches(probe, e.getValue()) >= m - Lsh.maxMismatches(t, m);
                            // key mode finds exactly the documents that share a band and reach t
                            if (reaches && (scan || lsh.shareBand(probe, e.getValue()))) expected.add(e.getKey());
                        }
                        if (q.isExact()) {
                            // then sharing a band adds no condition: the same set as a brute-force scan
                            for (Map.Entry<String, int[]> e : live.entrySet()) {
                                if (MinHasher.matches(probe, e.getValue()) >= m - Lsh.maxMismatches(t, m)) assertTrue(
                                    expected.contains(e.getKey())
                                );
                            }
                        }
                        TopDocs top = searcher.search(q, Math.max(1, live.size() + 1));
                        Set<String> actual = new HashSet<>();
                        for (ScoreDoc sd : top.scoreDocs) {
                            String id = searcher.storedFields().document(sd.doc).get("id");
                            actual.add(id);
                            assertEquals(MinHasher.similarity(probe, live.get(id)), sd.score, 1e-6);
                        }
                        assertEquals("t=" + t + " scan=" + scan + " " + lsh, expected, actual);
                        assertEquals(expected.size(), searcher.count(q));
                        if (probeIndex == 0) QueryUtils.check(random(), q, searcher);
                    }
                }
            }
        }
    }

    public void testEqualsAndValidation() {
        Lsh lsh = new Lsh(8, 2);
        int[] sig = new int[16];
        assertEquals(new MinHashQuery(FIELD, sig, 0.5, lsh, false), new MinHashQuery(FIELD, sig.clone(), 0.5, lsh, false));
        assertNotEquals(new MinHashQuery(FIELD, sig, 0.5, lsh, false), new MinHashQuery(FIELD, sig, 0.5, lsh, true));
        expectThrows(IllegalArgumentException.class, () -> new MinHashQuery(FIELD, sig, 1.1, lsh, false));
        expectThrows(IllegalArgumentException.class, () -> new MinHashQuery(FIELD, new int[8], 0.5, lsh, false));
    }
}
