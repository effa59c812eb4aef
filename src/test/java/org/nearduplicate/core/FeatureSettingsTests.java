package org.nearduplicate.core;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

/** The one feature-pipeline settings type: every method's id embeds its id body, and its options read the same in each. */
public class FeatureSettingsTests extends RandomizedTest {

    @Test
    public void testIdBodiesArePinned() {
        assertEquals("content_type=auto,extract=main,features=words,shingle_size=2,stopwords=true", FeatureSettings.DEFAULT.idBody());
        assertEquals("content_type=auto,extract=main", FeatureSettings.DEFAULT.extractionIdBody());
        FeatureSettings.Builder b = new FeatureSettings.Builder(FeatureSettings.DEFAULT);
        b.features = FeatureSettings.Features.CHAR_NGRAMS;
        b.contentType = ContentType.HTML;
        b.extractMain = false;
        assertEquals("content_type=html,extract=none,features=char_ngrams,ngram_size=3", b.build().idBody());
        b.features = FeatureSettings.Features.SPOTSIGS;
        assertEquals("content_type=html,extract=none,features=spotsigs,shingle_size=2", b.build().idBody());
    }

    @Test
    public void testEveryMethodsIdIsItsNameThePipelinesVersionAndBody() {
        FeatureSettings features = FeatureSettings.fromMap(
            new HashMap<>(Map.of("version", 2, "features", "char_ngrams", "ngram_size", 4)),
            FeatureSettings.DEFAULT
        );
        assertEquals(
            "simhash-v2:" + features.idBody() + ",weighting=tf,idf=none",
            new SimHashSettings(features, SimHashSettings.Weighting.TF, "none").algorithmId()
        );
        assertEquals("minhash-v2:" + features.idBody() + ",hashes=64", new MinHashSettings(features, 64).algorithmId());
        ImatchSettings imatch = new ImatchSettings(features, "web-en-zh-v1", 2.0, 8.0);
        assertEquals("imatch-v2:" + features.extractionIdBody() + ",idf=web-en-zh-v1,min_idf=2.0,max_idf=8.0", imatch.algorithmId());
        // I-Match's terms are single words without stopwords, whatever pipeline it is given
        assertEquals(FeatureSettings.Features.WORDS, imatch.featureSettings().features());
        assertEquals(1, imatch.featureSettings().shingleSize());
        assertEquals(false, imatch.featureSettings().stopwords());
    }

    @Test
    public void testRandomSettingsRoundTripThroughTheMap() {
        for (int i = 0; i < 100; i++) {
            FeatureSettings.Builder b = new FeatureSettings.Builder(FeatureSettings.DEFAULT);
            b.version = randomIntBetween(1, FeatureSettings.LATEST_VERSION);
            b.contentType = randomFrom(ContentType.values());
            b.extractMain = randomBoolean();
            b.features = randomFrom(FeatureSettings.Features.values());
            b.ngramSize = randomIntBetween(1, FeatureSettings.MAX_NGRAM_SIZE);
            b.shingleSize = randomIntBetween(1, FeatureSettings.MAX_SHINGLE_SIZE);
            b.stopwords = randomBoolean();
            b.maxInputChars = randomIntBetween(1, Integer.MAX_VALUE);
            b.maxFeatures = randomIntBetween(1, Integer.MAX_VALUE);
            FeatureSettings s = b.build();
            Map<String, Object> options = new HashMap<>(s.toMap());
            options.put("weighting", "tf");
            assertEquals(s, FeatureSettings.fromMap(options, FeatureSettings.DEFAULT));
            assertEquals("a method's own options stay for it", Map.of("weighting", "tf"), options);
        }
    }

    @Test
    public void testReadTakesOnlyTheNamedOptionsInOrder() {
        Map<String, Object> options = new HashMap<>(Map.of("extract", "x", "content_type", "pdf", "stopwords", false));
        FeatureSettings.Builder b = new FeatureSettings.Builder(FeatureSettings.DEFAULT);
        // the first named bad option is the one reported
        assertEquals(
            "[content_type] must be one of [text, html, auto], got [pdf]",
            assertThrows(IllegalArgumentException.class, () -> b.read(options, FeatureSettings.OPTIONS)).getMessage()
        );
        Map<String, Object> limits = new HashMap<>(Map.of("max_features", 7, "stopwords", false));
        assertEquals(7, b.read(limits, FeatureSettings.LIMITS).build().maxFeatures());
        assertEquals(Map.of("stopwords", false), limits);
        assertThrows(IllegalArgumentException.class, () -> b.read(new HashMap<>(Map.of("hashes", 1)), List.of("hashes")));
    }

    @Test
    public void testVersionIsReadWithSimHashsNames() {
        assertEquals(Integer.valueOf(2), FeatureSettings.readVersion(new HashMap<>(Map.of("version", "simhash-v2"))));
        assertEquals(null, FeatureSettings.readVersion(new HashMap<>()));
        assertEquals(
            "[version] must be an integer from 1 to 6 (simhash-v1 .. simhash-v6), got [9]",
            assertThrows(IllegalArgumentException.class, () -> FeatureSettings.readVersion(new HashMap<>(Map.of("version", 9))))
                .getMessage()
        );
    }
}
