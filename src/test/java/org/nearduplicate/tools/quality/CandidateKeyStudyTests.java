package org.nearduplicate.tools.quality;

import org.junit.Test;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.sketch.SimHasher;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

/** The candidate-key study's measurements: on random planted pairs and on the small labelled corpus. */
public class CandidateKeyStudyTests {

    @Test
    public void testRandomPlantedPairs() {
        CandidateKeyRandom data = new CandidateKeyRandom(20_000, 3_000, 1);
        CandidateKeyRandom.Row[] pairs = data.evaluate(CandidateKeys.forMinAgreeing(13, 64), CandidateKeys.forMinAgreeing(13, 32));
        CandidateKeyRandom.Row[] bands = data.evaluate(CandidateKeys.bands(2, 64), CandidateKeys.bands(2, 32));
        assertTrue("some verified pairs: " + pairs[0].verified(), pairs[0].verified() > 500);
        // every verified pair with 13 or more agreeing full values shares a pair-group key
        assertEquals(pairs[0].verified() - pairs[0].verifiedBelow(), pairs[0].found() - pairs[0].foundBelow());
        assertTrue(bands[0].found() <= pairs[0].found());
        // 64-bit keys: no chance candidates; 32-bit: about keys * C(n, 2) / 2^32 = 1.3 pairs
        assertEquals(0, pairs[0].chancePairs());
        assertTrue("chance pairs " + pairs[1].chancePairs(), pairs[1].chancePairs() < 12);
        for (int d = 0; d < 100; d++)
            assertEquals(data.value(d, 5), data.minima(d)[5]);
    }

    @Test
    public void testMiniCorpus() throws Exception {
        Path mini = Path.of(System.getProperty("eval.dir", "../shared/eval"), "mini");
        InputStream docs = getClass().getResourceAsStream("/eval-mini/docs.jsonl.gz");
        InputStream pairs = getClass().getResourceAsStream("/eval-mini/pairs.tsv.gz");
        if (docs == null || pairs == null) System.err.println("SKIPPED: no evaluation corpus at " + mini.toAbsolutePath());
        assumeTrue("no evaluation corpus at " + mini.toAbsolutePath(), docs != null && pairs != null);
        Corpus corpus = Corpus.loadGzipped(docs, pairs);
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        Map<String, String> groups = corpus.groups();
        List<String> ids = new ArrayList<>(corpus.docs().keySet());
        CandidateKeyStudy.Doc[] sketched = ids.stream()
            .map(id -> CandidateKeyStudy.sketch(hasher, corpus.docs().get(id), groups.get(id)))
            .toArray(CandidateKeyStudy.Doc[]::new);
        CandidateKeyStudy.Verified verified = CandidateKeyStudy.verify(sketched);
        Set<Long> set = verified.asSet();
        assertTrue("verified pairs: " + set.size(), set.size() > 10);
        CandidateKeyStudy.Row row = CandidateKeyStudy.evaluate(sketched, CandidateKeys.forMinAgreeing(13, 64), verified, set);
        assertEquals(row.verified() - row.verifiedBelow(), row.found() - row.foundBelow());
        assertEquals(0, row.hashOnly());
        assertTrue("recall " + row.recall(), row.recall() > 0.99);
    }
}
