package org.nearduplicate.lucene;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Signature;

/**
 * The verified match of {@code simhash-v4}: a document matches a probe within the distance whose signature agrees with
 * its own (a side without signature: the distance alone), exactly as a brute-force evaluation of the same rule, over
 * several segments, deletions, several probes, keys and scans.
 */
public class SimHashQueryVerificationTests extends PlatformTestCase {
    private static final String FIELD = "fp";
    private static final String SIGNATURES = FIELD + SketchFields.SIGNATURE_FIELD_SUFFIX;

    private record Doc(long fingerprint, byte[] signature) {
    }

    /** A signature that agrees with {@code base} on exactly {@code agreeing} slots. */
    private static byte[] variant(byte[] base, int agreeing) {
        byte[] v = base.clone();
        int changed = 0;
        for (int slot : shuffledSlots()) {
            if (changed == Signature.SLOTS - agreeing) break;
            v[slot] = (byte) (v[slot] + 1 + randomIntBetween(0, 254));
            changed++;
        }
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

    public void testVerifiedMatchEqualsBruteForce() throws IOException {
        for (int round = 0; round < 4; round++) {
            BlockLayout layout = new BlockLayout(4, 16);
            long[] centers = new long[randomIntBetween(3, 8)];
            byte[][] centerSignatures = new byte[centers.length][];
            for (int i = 0; i < centers.length; i++) {
                centers[i] = randomLong();
                centerSignatures[i] = Signature.of(randomLong(), randomLong(), randomLong());
            }
            Map<String, Doc> live = new HashMap<>();
            try (Directory dir = newDirectory()) {
                IndexWriterConfig config = new IndexWriterConfig();
                config.setMaxBufferedDocs(randomIntBetween(20, 100));
                IndexWriter writer = new IndexWriter(dir, config);
                int docs = randomIntBetween(200, 800);
                for (int i = 0; i < docs; i++) {
                    int c = randomIntBetween(0, centers.length - 1);
                    long fp = SimHashQueryTests.flipBits(centers[c], randomIntBetween(0, 20));
                    byte[] signature = rarely() ? null : variant(centerSignatures[c], randomIntBetween(0, Signature.SLOTS));
                    Document doc = new Document();
                    doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
                    for (var f : SketchFields.simHashFields(FIELD, layout, fp))
                        doc.add(f);
                    if (signature != null) doc.add(new BinaryDocValuesField(SIGNATURES, new BytesRef(signature)));
                    writer.addDocument(doc);
                    live.put(Integer.toString(i), new Doc(fp, signature));
                }
                for (int i = 0; i < docs / 20; i++) {
                    String id = Integer.toString(randomIntBetween(0, docs - 1));
                    writer.deleteDocuments(new Term("id", id));
                    live.remove(id);
                }
                try (DirectoryReader reader = DirectoryReader.open(writer)) {
                    writer.close();
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setQueryCache(null);
                    FingerprintColumns columns = new FingerprintColumns(1L << 30, MemoryAccounting.NONE);
                    for (int q = 0; q < 24; q++) {
                        int probes = randomIntBetween(1, 5);
                        long[] fps = new long[probes];
                        byte[][] sigs = new byte[probes][];
                        for (int p = 0; p < probes; p++) {
                            int c = randomIntBetween(0, centers.length - 1);
                            fps[p] = SimHashQueryTests.flipBits(centers[c], randomIntBetween(0, 6));
                            sigs[p] = rarely() ? null : variant(centerSignatures[c], randomIntBetween(4, Signature.SLOTS));
                        }
                        // the column path answers any k; keys and the doc-values scan up to the layout's 16
                        boolean onColumns = randomBoolean();
                        int k = onColumns ? randomIntBetween(0, 24) : randomIntBetween(0, 16);
                        double minSimilarity = randomFrom(0.0, 0.2, 0.35, 0.5, 0.9);
                        int minAgreeing = Signature.minAgreeing(minSimilarity);
                        Map<String, Integer> expected = new HashMap<>();
                        live.forEach((id, doc) -> {
                            int best = Integer.MAX_VALUE;
                            for (int p = 0; p < probes; p++) {
                                int d = Long.bitCount(doc.fingerprint ^ fps[p]);
                                boolean verified = sigs[p] == null
                                    || doc.signature == null
                                    || Signature.agreeingSlots(sigs[p], 0, doc.signature, 0) >= minAgreeing;
                                if (d <= k && verified) best = Math.min(best, d);
                            }
                            if (best <= k) expected.put(id, best);
                        });
                        boolean scan = onColumns ? k > 16 || randomBoolean() : randomBoolean();
                        SimHashQuery query = new SimHashQuery(
                            FIELD,
                            fps,
                            sigs,
                            new SimHashQuery.Verification(SIGNATURES, minSimilarity),
                            k,
                            layout,
                            scan
                        ).withScanByCost(randomBoolean());
                        if (onColumns) query = query.withColumns(columns);
                        TopDocs top = searcher.search(query, Math.max(1, reader.maxDoc()));
                        if (onColumns) {
                            // led by a selective clause: the column is read at that clause's documents (random access)
                            org.apache.lucene.search.BooleanQuery conjunction = new org.apache.lucene.search.BooleanQuery.Builder().add(
                                new org.apache.lucene.search.TermQuery(new Term("id", randomFrom(live.keySet()))),
                                org.apache.lucene.search.BooleanClause.Occur.FILTER
                            ).add(query, org.apache.lucene.search.BooleanClause.Occur.MUST).build();
                            for (ScoreDoc sd : searcher.search(conjunction, 10).scoreDocs) {
                                String id = searcher.storedFields().document(sd.doc).get("id");
                                assertTrue("conjunction hit " + id + " must be a verified match", expected.containsKey(id));
                            }
                        }
                        Map<String, Integer> actual = new HashMap<>();
                        for (ScoreDoc sd : top.scoreDocs) {
                            String id = searcher.storedFields().document(sd.doc).get("id");
                            actual.put(id, Math.round(1f / sd.score - 1));
                            Explanation explanation = searcher.explain(query, sd.doc);
                            assertTrue(explanation.toString(), explanation.isMatch());
                        }
                        assertEquals("k " + k + " t " + minSimilarity + " probes " + probes + (scan ? " scan" : ""), expected, actual);
                    }
                }
            }
        }
    }

    public void testExplainSaysWhyAVerifiedCandidateFails() throws IOException {
        BlockLayout layout = new BlockLayout(4, 16);
        byte[] a = Signature.of(1, 2, 3, 4), b = Signature.of(5, 6, 7, 8);
        try (Directory dir = newDirectory(); IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
            Document doc = new Document();
            for (var f : SketchFields.simHashFields(FIELD, layout, 42L))
                doc.add(f);
            doc.add(new BinaryDocValuesField(SIGNATURES, new BytesRef(b)));
            writer.addDocument(doc);
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                SimHashQuery query = new SimHashQuery(
                    FIELD,
                    new long[] { 43L },
                    new byte[][] { a },
                    new SimHashQuery.Verification(SIGNATURES, 0.35),
                    3,
                    layout,
                    false
                );
                assertEquals(0, searcher.count(query));
                Explanation e = searcher.explain(query, 0);
                assertFalse(e.isMatch());
                assertTrue(e.getDescription(), e.getDescription().contains("no probe within it has a signature similarity >= 0.35"));
                SimHashQuery same = new SimHashQuery(
                    FIELD,
                    new long[] { 43L },
                    new byte[][] { b },
                    new SimHashQuery.Verification(SIGNATURES, 0.35),
                    3,
                    layout,
                    false
                );
                assertEquals(1, searcher.count(same));
                assertTrue(
                    searcher.explain(same, 0).getDescription(),
                    searcher.explain(same, 0).getDescription().contains("verified: signature similarity 1.000")
                );
            }
        }
    }
}
