package org.nearduplicate.core.features;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.apache.lucene.analysis.CharArraySet;

import org.junit.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHasher;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

public class SpotSignaturesTests extends RandomizedTest {

    @Test
    public void testEnglishSpots() {
        List<String> out = new ArrayList<>();
        SpotSignatures.extract(
            List.of("the", "quick", "brown", "fox", "is", "over", "a", "lazy", "dog", "the"),
            SpotSignatures.defaultAntecedents(),
            2,
            out::add
        );
        // "is" skips the stopword "a"; the trailing "the" has no chain
        assertEquals(List.of("the:quick:brown", "is:over:lazy", "a:lazy:dog"), out);
    }

    /**
     * On a random token list with a random chain length: one spot per antecedent that has {@code chain} non-antecedents
     * after it, in order, made of the antecedent and the next {@code chain} non-antecedents (antecedents in between are
     * skipped).
     */
    @Test
    public void testSpotsOfARandomTokenList() {
        CharArraySet antecedents = SpotSignatures.defaultAntecedents();
        String[] someAntecedents = { "the", "a", "is", "of", "and", "to", "in", "的", "我们", "在" };
        for (String a : someAntecedents)
            assertTrue(a, antecedents.contains(a));
        int chain = randomIntBetween(1, 5);
        double antecedentShare = 0.1 + 0.6 * randomDouble();
        List<String> tokens = new ArrayList<>();
        for (int i = randomIntBetween(0, 200); i > 0; i--) {
            if (randomDouble() < antecedentShare) {
                tokens.add(randomFrom(someAntecedents));
            } else {
                String word;
                do {
                    word = randomAsciiLettersOfLengthBetween(2, 8).toLowerCase(Locale.ROOT);
                } while (antecedents.contains(word));
                tokens.add(word);
            }
        }
        List<String> out = new ArrayList<>();
        SpotSignatures.extract(tokens, antecedents, chain, out::add);

        // expected, from the positions of the non-antecedents
        List<Integer> content = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (antecedents.contains(tokens.get(i)) == false) content.add(i);
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (antecedents.contains(tokens.get(i)) == false) continue;
            int first = 0;
            while (first < content.size() && content.get(first) < i)
                first++;
            if (content.size() - first < chain) continue; // incomplete chain: no spot
            StringBuilder spot = new StringBuilder(tokens.get(i));
            for (int c = first; c < first + chain; c++)
                spot.append(':').append(tokens.get(content.get(c)));
            expected.add(spot.toString());
        }
        assertEquals("chain " + chain + " tokens " + tokens, expected, out);
        for (String spot : out) {
            String[] parts = spot.split(":");
            assertEquals(spot, chain + 1, parts.length);
            assertTrue(spot, antecedents.contains(parts[0]));
            for (int p = 1; p < parts.length; p++)
                assertFalse(spot, antecedents.contains(parts[p]));
        }
    }

    @Test
    public void testChineseSpotsThroughTheSimHashPipeline() {
        SimHashSettings s = SimHashSettings.fromMap(new HashMap<>(Map.of("features", "spotsigs", "shingle_size", 1)));
        assertEquals(
            "simhash-v7:content_type=auto,extract=main,features=spotsigs,shingle_size=1,weighting=tf,idf=none,keys=pairs:3x8+2x4:w32",
            s.algorithmId()
        );
        assertEquals(s, SimHashSettings.fromAlgorithmId(s.algorithmId()));
        Map<String, Integer> f = new SimHasher(s).features("我们的系统在北京");
        // HanLP: 我们 / 的 / 系统 / 在 / 北京; antecedents 我们, 的, 在
        assertEquals(Map.of("我们:系统", 1, "的:系统", 1, "在:北京", 1), f);
    }

    @Test
    public void testExistingAlgorithmIdsAreUnchanged() {
        assertEquals(
            "simhash-v1:content_type=auto,extract=main,features=words,shingle_size=1,stopwords=true,weighting=tf,idf=none",
            SimHashSettings.DEFAULT_V1.algorithmId()
        );
        assertEquals(
            "simhash-v1:content_type=auto,extract=main,features=spotsigs,shingle_size=1,weighting=tf,idf=none",
            SimHashSettings.fromAlgorithmId(
                "simhash-v1:content_type=auto,extract=main,features=spotsigs,shingle_size=1,weighting=tf,idf=none"
            ).algorithmId()
        );
        assertTrue(SimHashSettings.fromAlgorithmId("simhash-v1:features=char_ngrams,ngram_size=3").algorithmId().contains("ngram_size=3"));
    }

    @Test
    public void testNoSpotsFailsLikeNoFeatures() {
        SimHasher h = new SimHasher(SimHashSettings.fromMap(new HashMap<>(Map.of("features", "spotsigs", "shingle_size", 3))));
        assertThrows(EngineInputException.class, () -> h.fingerprint("quick brown fox"));
        assertThrows(
            IllegalArgumentException.class,
            () -> SpotSignatures.extract(List.of("a"), SpotSignatures.defaultAntecedents(), 0, x -> {})
        );
    }
}
