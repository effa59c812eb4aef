package org.nearduplicate.opensearch.search.rescore;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;
import org.nearduplicate.opensearch.index.query.minhash.MinHashCloseness;
import org.nearduplicate.opensearch.index.query.simhash.SimHashCloseness;

/**
 * The rescoring both rescorers share, on a small Lucene index: docs 0..9 carry fingerprint {@code i} (distance
 * bitCount(i) to the probe 0) and a 16-value signature agreeing with the probe's in {@code 16 - i} values.
 */
public class ProbeRescorerTests extends PlatformTestCase {
    private static final int DOCS = 10;
    private static final int[] PROBE_SIGNATURE = new int[16];

    private static int[] signature(int mismatches) {
        int[] signature = PROBE_SIGNATURE.clone();
        for (int i = 0; i < mismatches; i++)
            signature[i] = 1000 + i;
        return signature;
    }

    private interface Check {
        void run(IndexSearcher searcher, TopDocs all) throws IOException;
    }

    private void withIndex(Check check) throws IOException {
        try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
            for (int i = 0; i < DOCS; i++) {
                Document doc = new Document();
                doc.add(new StringField("id", Integer.toString(i), Field.Store.NO));
                doc.add(new NumericDocValuesField("fp", i));
                for (IndexableField f : SketchFields.minHashFields("mh", new Lsh(4, 4), signature(i)))
                    doc.add(f);
                writer.addDocument(doc);
                if (i == 4) writer.commit(); // two segments: values are read per leaf
            }
            writer.commit();
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                // the query's order: by doc id, descending scores
                ScoreDoc[] hits = new ScoreDoc[DOCS];
                for (int i = 0; i < DOCS; i++)
                    hits[i] = new ScoreDoc(i, DOCS - i, 0);
                check.run(searcher, new TopDocs(searcher.search(new MatchAllDocsQuery(), 1).totalHits, hits));
            }
        }
    }

    private static Set<Integer> docs(TopDocs topDocs) {
        Set<Integer> docs = new HashSet<>();
        for (ScoreDoc d : topDocs.scoreDocs)
            docs.add(d.doc);
        return docs;
    }

    public void testFilterChecksEveryHitNotOnlyTheWindow() throws IOException {
        withIndex((searcher, all) -> {
            // distance <= 1 from 0: fingerprints 0, 1, 2, 4, 8; window 2 covers only docs 0 and 1
            ProbeRescorer.Context ctx = new ProbeRescorer.Context(2, new SimHashCloseness("fp", 0L, 1), RescoreScoreMode.FILTER, 1f, 1f);
            TopDocs out = ProbeRescorer.INSTANCE.rescore(all, searcher, ctx);
            assertEquals(Set.of(0, 1, 2, 4, 8), docs(out));
            assertEquals(all.totalHits, out.totalHits);
            assertEquals(DOCS, out.scoreDocs[0].score, 0f); // kept hits keep score and order
            assertTrue(ctx.isRescored(9));
        });
    }

    public void testFilterThatKeepsNothingLeavesOnePlaceholderWithScoreZero() throws IOException {
        withIndex((searcher, all) -> {
            ProbeRescorer.Context ctx = new ProbeRescorer.Context(10, new SimHashCloseness("fp", -1L, 3), RescoreScoreMode.FILTER, 1f, 1f);
            TopDocs out = ProbeRescorer.INSTANCE.rescore(all, searcher, ctx);
            assertEquals(1, out.scoreDocs.length);
            assertEquals(0, out.scoreDocs[0].doc);
            assertEquals(0f, out.scoreDocs[0].score, 0f);
            // the fetch phase recognises it by the same test
            assertTrue(Float.isNaN(ctx.leaf(searcher.getIndexReader().leaves().get(0)).closeness(0)));
        });
    }

    public void testClosenessRescoresTheWindowOnly() throws IOException {
        withIndex((searcher, all) -> {
            ProbeRescorer.Context ctx = new ProbeRescorer.Context(3, new SimHashCloseness("fp", 0L, 1), RescoreScoreMode.CLOSENESS, 0f, 1f);
            TopDocs out = ProbeRescorer.INSTANCE.rescore(all, searcher, ctx);
            assertEquals(DOCS, out.scoreDocs.length);
            assertEquals(0, out.scoreDocs[0].doc);
            assertEquals(1f, out.scoreDocs[0].score, 0f);
            assertEquals(1, out.scoreDocs[1].doc);
            assertEquals(SimHashQuery.closeness(1), out.scoreDocs[1].score, 0f);
            assertEquals(2, out.scoreDocs[2].doc); // fingerprint 2, distance 1 too
            assertEquals(SimHashQuery.closeness(1), out.scoreDocs[2].score, 0f);
            // doc 4 (distance 1) is outside the window of 3: query_weight 0 leaves it 0, as every hit after the window
            for (ScoreDoc d : out.scoreDocs) {
                if (d.doc >= 3) assertEquals(0f, d.score, 0f);
            }
        });
    }

    public void testMinHashFilterAndCloseness() throws IOException {
        withIndex((searcher, all) -> {
            // min_similarity 0.75 with 16 values: at most 4 mismatches, docs 0..4
            ProbeRescorer.Context filter = new ProbeRescorer.Context(
                1,
                new MinHashCloseness("mh", PROBE_SIGNATURE, 0.75),
                RescoreScoreMode.FILTER,
                1f,
                1f
            );
            assertEquals(Set.of(0, 1, 2, 3, 4), docs(ProbeRescorer.INSTANCE.rescore(all, searcher, filter)));

            ProbeRescorer.Context closeness = new ProbeRescorer.Context(
                DOCS,
                new MinHashCloseness("mh", PROBE_SIGNATURE, 0.75),
                RescoreScoreMode.CLOSENESS,
                0f,
                2f
            );
            TopDocs out = ProbeRescorer.INSTANCE.rescore(all, searcher, closeness);
            assertEquals(0, out.scoreDocs[0].doc);
            assertEquals(2f, out.scoreDocs[0].score, 0f);
            assertEquals(3, out.scoreDocs[3].doc);
            assertEquals(2f * 13 / 16, out.scoreDocs[3].score, 1e-6f);
            assertEquals(0f, out.scoreDocs[5].score, 0f);

            ProbeRescorer.Context none = new ProbeRescorer.Context(
                DOCS,
                new MinHashCloseness("mh", signature(16), 0.9),
                RescoreScoreMode.FILTER,
                1f,
                1f
            );
            TopDocs placeholder = ProbeRescorer.INSTANCE.rescore(all, searcher, none);
            assertEquals(1, placeholder.scoreDocs.length);
            assertEquals(0f, placeholder.scoreDocs[0].score, 0f);
        });
    }

    public void testEmptyTopDocsStayEmpty() throws IOException {
        withIndex((searcher, all) -> {
            TopDocs empty = new TopDocs(all.totalHits, new ScoreDoc[0]);
            ProbeRescorer.Context ctx = new ProbeRescorer.Context(10, new SimHashCloseness("fp", 0L, 3), RescoreScoreMode.FILTER, 1f, 1f);
            assertSame(empty, ProbeRescorer.INSTANCE.rescore(empty, searcher, ctx));
        });
    }

    /** Explanations of both rescorers in both modes, inside and outside the window, within the bound and not. */
    public void testExplain() throws IOException {
        withIndex((searcher, all) -> {
            Explanation source = Explanation.match(2f, "source");
            ProbeRescorer.Context closeness = new ProbeRescorer.Context(
                3,
                new SimHashCloseness("fp", 0L, 1),
                RescoreScoreMode.CLOSENESS,
                1f,
                2f
            );
            closeness.setRescoredDocs(Set.of(0, 1, 2));
            Explanation added = ProbeRescorer.INSTANCE.explain(1, searcher, closeness, source);
            assertEquals(2f + 2f * SimHashQuery.closeness(1), added.getValue().floatValue(), 1e-6f);
            assertEquals("sum of:", added.getDescription());
            assertEquals(
                "product of: 1 / (1 + distance), hamming distance 1 <= 1 to probe 0000000000000000",
                added.getDetails()[1].getDescription()
            );
            Explanation notAdded = ProbeRescorer.INSTANCE.explain(2 + 1, searcher, closeness, source); // outside the window
            assertEquals("product of: (outside the near_duplicate rescore window)", notAdded.getDescription());
            closeness.setRescoredDocs(Set.of(0, 1, 2, 3));
            Explanation far = ProbeRescorer.INSTANCE.explain(3, searcher, closeness, source); // fingerprint 3: distance 2
            assertEquals("near_duplicate closeness not added: hamming distance 2 > 1 to probe 0000000000000000", far.getDescription());
            assertEquals(2f, far.getValue().floatValue(), 0f);

            ProbeRescorer.Context filter = new ProbeRescorer.Context(
                10,
                new SimHashCloseness("fp", 0L, 1),
                RescoreScoreMode.FILTER,
                1f,
                1f
            );
            filter.setRescoredDocs(Set.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
            assertTrue(ProbeRescorer.INSTANCE.explain(8, searcher, filter, source).isMatch()); // second segment
            Explanation dropped = ProbeRescorer.INSTANCE.explain(7, searcher, filter, source);
            assertFalse(dropped.isMatch());
            assertEquals(
                "near_duplicate rescore filter dropped the hit: hamming distance 3 > 1 to probe 0000000000000000",
                dropped.getDescription()
            );
            ProbeRescorer.Context noField = new ProbeRescorer.Context(
                10,
                new SimHashCloseness("nofield", 0L, 1),
                RescoreScoreMode.FILTER,
                1f,
                1f
            );
            noField.setRescoredDocs(Set.of(0));
            Explanation missing = ProbeRescorer.INSTANCE.explain(0, searcher, noField, source);
            assertEquals("near_duplicate rescore filter dropped the hit: no fingerprint in field [nofield]", missing.getDescription());

            ProbeRescorer.Context minhash = new ProbeRescorer.Context(
                DOCS,
                new MinHashCloseness("mh", PROBE_SIGNATURE, 0.75),
                RescoreScoreMode.CLOSENESS,
                0f,
                1f
            );
            minhash.setRescoredDocs(Set.of(3, 5));
            Explanation similar = ProbeRescorer.INSTANCE.explain(3, searcher, minhash, source);
            assertEquals(13f / 16, similar.getValue().floatValue(), 1e-6f);
            assertEquals(
                "product of: similarity, 13 of 16 values agree, estimated jaccard 0.8125 >= 0.75",
                similar.getDetails()[1].getDescription()
            );
            assertEquals(
                "minhash_similar similarity not added: 11 of 16 values agree, estimated jaccard 0.6875 < 0.75",
                ProbeRescorer.INSTANCE.explain(5, searcher, minhash, source).getDescription()
            );
            assertEquals("nothing matched", ProbeRescorer.INSTANCE.explain(5, searcher, minhash, null).getDescription());
        });
    }
}
