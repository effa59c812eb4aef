package org.nearduplicate.core.features;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHasher;
import org.junit.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.assertThrows;

public class SpotSignaturesTests {

    @Test
    public void testEnglishSpots() {
        List<String> out = new ArrayList<>();
        SpotSignatures.extract(List.of("the", "quick", "brown", "fox", "is", "over", "a", "lazy", "dog", "the"),
            SpotSignatures.defaultAntecedents(), 2, out::add);
        // "is" skips the stopword "a"; the trailing "the" has no chain
        assertEquals(List.of("the:quick:brown", "is:over:lazy", "a:lazy:dog"), out);
    }

    @Test
    public void testChineseSpotsThroughTheSimHashPipeline() {
        SimHashSettings s = SimHashSettings.fromMap(new HashMap<>(Map.of("features", "spotsigs", "shingle_size", 1)));
        assertEquals("simhash-v1:content_type=auto,extract=main,features=spotsigs,shingle_size=1,weighting=tf,idf=none", s.algorithmId());
        assertEquals(s, SimHashSettings.fromAlgorithmId(s.algorithmId()));
        Map<String, Integer> f = new SimHasher(s).features("我们的系统在北京");
        // HanLP: 我们 / 的 / 系统 / 在 / 北京; antecedents 我们, 的, 在
        assertEquals(Map.of("我们:系统", 1, "的:系统", 1, "在:北京", 1), f);
    }

    @Test
    public void testExistingAlgorithmIdsAreUnchanged() {
        assertEquals("simhash-v1:content_type=auto,extract=main,features=words,shingle_size=1,stopwords=true,weighting=tf,idf=none",
            SimHashSettings.DEFAULT.algorithmId());
        assertTrue(SimHashSettings.fromAlgorithmId("simhash-v1:features=char_ngrams,ngram_size=3").algorithmId().contains("ngram_size=3"));
    }

    @Test
    public void testNoSpotsFailsLikeNoFeatures() {
        SimHasher h = new SimHasher(SimHashSettings.fromMap(new HashMap<>(Map.of("features", "spotsigs", "shingle_size", 3))));
        assertThrows(EngineInputException.class, () -> h.fingerprint("quick brown fox"));
        assertThrows(IllegalArgumentException.class, () -> SpotSignatures.extract(List.of("a"), SpotSignatures.defaultAntecedents(), 0, x -> {}));
    }
}
