package org.nearduplicate.core.keys;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.tools.quality.Corpus;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

/**
 * On the small evaluation corpus ({@code eval.dir}/mini: real pages and texts, English and Chinese; skipped with a
 * message when absent): simhash-v7's fingerprint and signature are v6's, and its stored keys are those of the minima
 * recomputed from the text. The build copies the corpus to the test class path (the OpenSearch test framework's
 * security policy forbids opening files outside the project); the public corpus (41 MB) is checked the same way, all of
 * it, by {@code KeysIngestBench} (bench/results/RESULTS-keys-ingest.md).
 */
public class Version7CorpusTests extends RandomizedTest {
    @Test
    public void testVersion7IsVersion6PlusKeysOnTheCorpus() throws Exception {
        Path mini = Path.of(System.getProperty("eval.dir", "../shared/eval"), "mini");
        InputStream docsIn = getClass().getResourceAsStream("/eval-mini/docs.jsonl.gz");
        InputStream pairsIn = getClass().getResourceAsStream("/eval-mini/pairs.tsv.gz");
        if (docsIn == null || pairsIn == null) System.err.println("SKIPPED: no evaluation corpus at " + mini.toAbsolutePath());
        assumeTrue("no evaluation corpus at " + mini.toAbsolutePath(), docsIn != null && pairsIn != null);
        SimHasher v6 = new SimHasher(SimHashSettings.DEFAULT_V6);
        SimHasher v7 = new SimHasher(SimHashSettings.DEFAULT_V7);
        List<Corpus.Doc> docs = List.copyOf(new TreeMap<>(Corpus.loadGzipped(docsIn, pairsIn).docs()).values());
        int checked = 0, refused = 0;
        for (int i = 0; i < docs.size(); i++) {
            String content = docs.get(i).content();
            SimHash six;
            try {
                six = v6.sketch(content);
            } catch (EngineInputException e) {
                org.junit.Assert.assertThrows(EngineInputException.class, () -> v7.sketch(content)); // the same input errors
                refused++;
                continue;
            }
            SimHash seven = v7.sketch(content);
            String id = docs.get(i).id();
            assertEquals(id, six.fingerprint(), seven.fingerprint());
            assertArrayEquals(id, six.signature(), seven.signature());
            byte[] packed = StoredKeys.parse(CandidateKeys.V7, StoredKeys.of(SimHashSettings.DEFAULT_V7, seven));
            assertArrayEquals(id, CandidateKeys.V7.keys(FullMinima.of(v7, content)), CandidateKeys.V7.keysOfPacked(packed));
            checked++;
        }
        System.err.println("mini corpus: " + checked + " documents checked, " + refused + " refused alike, of " + docs.size());
        assertTrue("the corpus has documents", checked > 100);
    }
}
