package org.nearduplicate.core.sketch;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.ImatchSettings;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;

public class ImatchHasherTests extends RandomizedTest {
    private static final ImatchHasher DEFAULT = new ImatchHasher(ImatchSettings.DEFAULT);
    static final String TEXT = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs.";

    /** Fixed on purpose: a published SHA-1 test vector and the pinned algorithm id. */
    @Test
    public void testKnownAnswers() {
        // FIPS 180 test vector
        assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", ImatchHasher.sha1("abc"));
        // the normalized text of TEXT is its words, lower case, single spaces
        assertEquals(
            ImatchHasher.sha1("the quick brown fox jumps over the lazy dog pack my box with five dozen liquor jugs"),
            ImatchHasher.textKey(TEXT)
        );
        assertEquals(
            "imatch-v6:content_type=auto,extract=main,idf=web-en-zh-v1,min_idf=2.0,max_idf=8.0",
            ImatchSettings.DEFAULT.algorithmId()
        );
        assertEquals(
            2,
            ImatchSettings.fromAlgorithmId("imatch-v2:content_type=auto,extract=main,idf=web-en-zh-v1,min_idf=2.0,max_idf=8.0").version()
        );
        // version 1 (0.1.0, 0.2.0) stays readable and selectable
        ImatchSettings v1 = ImatchSettings.fromAlgorithmId(
            "imatch-v1:content_type=auto,extract=main,idf=web-en-zh-v1,min_idf=2.0,max_idf=8.0"
        );
        assertEquals(1, v1.version());
        assertEquals(1, v1.termSettings().version());
        assertEquals(v1, ImatchSettings.fromMap(new HashMap<>(Map.of("version", 1))));
    }

    /** The I-Match key is the SHA-1 of the sorted distinct words inside the IDF band. */
    @Test
    public void testIMatchKeyIsTheHashOfTheSortedBandTerms() {
        ImatchSettings all = new ImatchSettings(ImatchSettings.DEFAULT.contentType(), true, "web-en-zh-v1", 0, 1000, 1000);
        ImatchHasher.Keys k = new ImatchHasher(all).keys("beta alpha beta gamma");
        assertEquals(ImatchHasher.sha1("alpha\nbeta\ngamma"), k.imatch());
        assertEquals(3, k.terms());
        // the same for random words, repeated and shuffled: only the set of words counts
        TreeSet<String> distinct = new TreeSet<>();
        for (int i = randomIntBetween(1, 20); i > 0; i--)
            distinct.add(randomAsciiLettersOfLengthBetween(3, 9).toLowerCase(java.util.Locale.ROOT));
        List<String> words = new ArrayList<>();
        for (String w : distinct) {
            for (int copies = randomIntBetween(1, 3); copies > 0; copies--)
                words.add(w);
        }
        Collections.shuffle(words, getRandom());
        ImatchHasher.Keys shuffled = new ImatchHasher(all).keys(String.join(" ", words));
        assertEquals(words.toString(), ImatchHasher.sha1(String.join("\n", distinct)), shuffled.imatch());
        assertEquals(words.toString(), distinct.size(), shuffled.terms());
        // "the" is frequent (low idf): out of the default band, so adding one changes nothing
        assertEquals(DEFAULT.keys(TEXT).imatch(), DEFAULT.keys(TEXT + " The the.").imatch());
        assertNotEquals(DEFAULT.keys(TEXT).text(), DEFAULT.keys(TEXT + " The the.").text());
    }

    @Test
    public void testCosmeticVariantsShareBothKeys() {
        ImatchHasher.Keys plain = DEFAULT.keys(TEXT);
        // two short paragraphs are too little for main-content extraction to keep both: compare full texts here
        ImatchHasher full = new ImatchHasher(ImatchSettings.fromMap(new HashMap<>(Map.of("extract", "none"))));
        ImatchHasher.Keys html = full.keys(
            "<html><body><p>The quick brown fox jumps over the lazy dog.</p>\n<p>Pack my box with five dozen liquor jugs.</p></body></html>"
        );
        ImatchHasher.Keys cosmetic = DEFAULT.keys(
            "THE  quick brown fox — jumps over the “lazy” dog…\nPack my box with five dozen liquor jugs!"
        );
        assertEquals(full.keys(TEXT), html);
        assertEquals(plain.text(), cosmetic.text());
        assertNotEquals(plain.imatch(), DEFAULT.keys(TEXT.replace("liquor", "whisky")).imatch());
    }

    @Test
    public void testBadInputAndSettings() {
        assertThrows(EngineInputException.class, () -> DEFAULT.keys(null));
        assertThrows(EngineInputException.class, () -> DEFAULT.keys(" "));
        assertThrows(IllegalArgumentException.class, () -> ImatchSettings.fromMap(new HashMap<>(Map.of("min_idf", 5, "max_idf", 2))));
        assertThrows(IllegalArgumentException.class, () -> ImatchSettings.fromMap(new HashMap<>(Map.of("min_idf", "low"))));
        assertThrows(IllegalArgumentException.class, () -> ImatchSettings.fromMap(new HashMap<>(Map.of("idf", "none"))));
        assertThrows(
            IllegalArgumentException.class,
            () -> new ImatchHasher(ImatchSettings.fromMap(new HashMap<>(Map.of("idf", "nosuchtable"))))
        );
        assertThrows(IllegalArgumentException.class, () -> ImatchSettings.fromAlgorithmId("imatch-v7:idf=x"));
        Map<String, Object> options = new HashMap<>(Map.of("min_idf", 1.5, "extract", "none", "shingle_size", 2));
        ImatchSettings s = ImatchSettings.fromMap(options);
        assertEquals(Map.of("shingle_size", 2), options);
        assertEquals(s, ImatchSettings.fromAlgorithmId(s.algorithmId()));
    }
}
