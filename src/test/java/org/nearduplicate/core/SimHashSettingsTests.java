package org.nearduplicate.core;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.features.IdfTable;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.nearduplicate.core.EngineAsserts.assertThrows;

public class SimHashSettingsTests extends RandomizedTest {

    @Test
    public void testDefaultAlgorithmIdIsPinned() {
        // fixed on purpose: changing the default changes every stored fingerprint's meaning, so it must be deliberate
        assertEquals(
            "simhash-v7:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=true,weighting=tf,idf=none,"
                + "keys=pairs:3x8+2x4:w32",
            SimHashSettings.DEFAULT.algorithmId()
        );
        // version 5's defaults, as pinned in mappings made by 0.7.0
        assertEquals(
            "simhash-v5:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=true,weighting=tf,idf=none",
            SimHashSettings.DEFAULT_V5.algorithmId()
        );
        // version 2's defaults, as pinned in mappings made by 0.3.0 and 0.4.0
        assertEquals(
            "simhash-v2:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=true,weighting=tf,idf=none",
            SimHashSettings.DEFAULT_V2.algorithmId()
        );
        assertEquals(SimHashSettings.DEFAULT_V2, SimHashSettings.fromAlgorithmId("simhash-v2"));
        // version 1's defaults, as pinned in mappings made by 0.1.0 and 0.2.0
        assertEquals(
            "simhash-v1:content_type=auto,extract=main,features=words,shingle_size=1,stopwords=true,weighting=tf,idf=none",
            SimHashSettings.DEFAULT_V1.algorithmId()
        );
        assertEquals(SimHashSettings.DEFAULT_V1, SimHashSettings.fromAlgorithmId("simhash-v1"));
        assertEquals(SimHashSettings.DEFAULT_V1, SimHashSettings.fromMap(new HashMap<>(Map.of("version", 1))));
        assertEquals(SimHashSettings.DEFAULT_V1, SimHashSettings.fromMap(new HashMap<>(Map.of("version", "simhash-v1"))));
        assertEquals(SimHashSettings.DEFAULT_V2, SimHashSettings.fromMap(new HashMap<>(Map.of("version", "2"))));
        assertEquals(SimHashSettings.DEFAULT_V3, SimHashSettings.fromMap(new HashMap<>(Map.of("version", 3))));
        assertEquals(SimHashSettings.DEFAULT_V4, SimHashSettings.fromMap(new HashMap<>(Map.of("version", 4))));
        assertEquals(SimHashSettings.DEFAULT_V5, SimHashSettings.fromMap(new HashMap<>(Map.of("version", 5))));
        assertEquals(SimHashSettings.DEFAULT_V6, SimHashSettings.fromMap(new HashMap<>(Map.of("version", 6))));
        assertEquals(SimHashSettings.DEFAULT, SimHashSettings.fromMap(new HashMap<>(Map.of("version", 7))));
        assertEquals(16, SimHashSettings.DEFAULT_V4.recommendedMaxDistance());
        assertTrue(SimHashSettings.DEFAULT_V4.hasSignature());
        assertEquals(16, SimHashSettings.DEFAULT.recommendedMaxDistance());
        assertEquals(15, SimHashSettings.DEFAULT_V3.recommendedMaxDistance());
        assertTrue(SimHashSettings.DEFAULT.hasSignature());
        assertFalse(SimHashSettings.DEFAULT_V3.hasSignature());
        assertEquals(12, SimHashSettings.DEFAULT_V1.recommendedMaxDistance());
        assertEquals(15, SimHashSettings.DEFAULT_V2.recommendedMaxDistance());
        assertEquals(16, SimHashSettings.DEFAULT.recommendedMaxDistance());
    }

    /**
     * The default min_similarity is the algorithm's, as max_distance is: v4 fields keep the 0.35 they were measured
     * with (12 of 32 slots) and so do v5 fields (0.7.0 shipped that), v6 verifies with 0.40 (13 slots), versions without
     * signatures have none.
     */
    @Test
    public void testRecommendedMinSimilarityIsPerVersion() {
        for (int version = 1; version <= 3; version++) {
            assertTrue(Double.isNaN(SimHashSettings.defaults(version).recommendedMinSimilarity()));
        }
        assertEquals(0.35, SimHashSettings.defaults(4).recommendedMinSimilarity(), 0);
        assertEquals("0.7.0's indices keep answering as they did", 0.35, SimHashSettings.defaults(5).recommendedMinSimilarity(), 0);
        assertEquals(0.40, SimHashSettings.defaults(6).recommendedMinSimilarity(), 0);
        assertEquals(12, org.nearduplicate.core.sketch.Signature.minAgreeing(SimHashSettings.V4_MIN_SIMILARITY));
        assertEquals(13, org.nearduplicate.core.sketch.Signature.minAgreeing(SimHashSettings.V6_MIN_SIMILARITY));
        assertEquals(0.40, SimHashSettings.recommendedMinSimilarity(SimHashSettings.DEFAULT.algorithmId()), 0);
        assertEquals(0.35, SimHashSettings.recommendedMinSimilarity("simhash-v4"), 0);
        assertTrue(Double.isNaN(SimHashSettings.recommendedMinSimilarity("simhash-v3")));
        assertTrue(Double.isNaN(SimHashSettings.recommendedMinSimilarity("minhash-v1")));
        assertTrue(Double.isNaN(SimHashSettings.recommendedMinSimilarity("not an id")));
        assertTrue(Double.isNaN(SimHashSettings.recommendedMinSimilarity(null)));
    }

    @Test
    public void testAlgorithmIdRoundTrips() {
        for (String spec : List.of(
            "content_type=html,extract=none",
            "features=char_ngrams,ngram_size=4",
            "shingle_size=3,stopwords=false",
            "weighting=tf_idf",
            "weighting=tf_idf,idf=custom-table",
            "weighting=log_tf,content_type=text"
        )) {
            Map<String, Object> options = new HashMap<>();
            for (String kv : spec.split(","))
                options.put(kv.split("=")[0], kv.split("=")[1]);
            SimHashSettings s = SimHashSettings.fromMap(options);
            assertTrue("all options consumed: " + options, options.isEmpty());
            assertEquals(s, SimHashSettings.fromAlgorithmId(s.algorithmId()));
            assertEquals(s, SimHashSettings.fromMap(new HashMap<>(s.toMap())));
            assertNotEquals(SimHashSettings.DEFAULT.algorithmId(), s.algorithmId());
        }
        assertEquals(SimHashSettings.DEFAULT, SimHashSettings.fromAlgorithmId(SimHashSettings.DEFAULT.algorithmId()));
    }

    /** Random combinations of the output-affecting options (as strings or typed values) round-trip through the id. */
    @Test
    public void testRandomSettingsRoundTrip() {
        for (int i = 0; i < 200; i++) {
            Map<String, Object> options = new HashMap<>();
            if (randomBoolean()) options.put("content_type", randomFrom(new String[] { "text", "html", "auto" }));
            if (randomBoolean()) options.put("extract", randomFrom(new Object[] { "main", "none", true, false }));
            String features = randomFrom(new String[] { "words", "char_ngrams", "spotsigs" });
            if (randomBoolean() || features.equals("words") == false) options.put("features", features);
            // only the options the id keeps for these features: the others would come back as their defaults
            if (features.equals("char_ngrams")) {
                if (randomBoolean()) options.put("ngram_size", intOption(randomIntBetween(1, SimHashSettings.MAX_NGRAM_SIZE)));
            } else if (randomBoolean()) {
                options.put("shingle_size", intOption(randomIntBetween(1, SimHashSettings.MAX_SHINGLE_SIZE)));
            }
            if (features.equals("words") && randomBoolean()) options.put(
                "stopwords",
                randomBoolean() ? randomBoolean() : randomFrom(new String[] { "true", "false" })
            );
            if (randomBoolean()) {
                String weighting = randomFrom(new String[] { "tf", "log_tf", "binary", "tf_idf" });
                options.put("weighting", weighting);
                if (weighting.equals("tf_idf") && randomBoolean()) options.put(
                    "idf",
                    randomFrom(new String[] { SimHashSettings.BUILTIN_IDF, "custom-table" })
                );
            }
            Map<String, Object> consumed = new HashMap<>(options);
            SimHashSettings s = SimHashSettings.fromMap(consumed);
            assertTrue("all options consumed: " + consumed, consumed.isEmpty());
            assertEquals(options.toString(), s, SimHashSettings.fromAlgorithmId(s.algorithmId()));
            assertEquals(options.toString(), s.algorithmId(), SimHashSettings.fromAlgorithmId(s.algorithmId()).algorithmId());
            assertEquals(options.toString(), s, SimHashSettings.fromMap(new HashMap<>(s.toMap())));
        }
    }

    private static Object intOption(int value) {
        return randomBoolean() ? value : String.valueOf(value);
    }

    @Test
    public void testEveryOutputAffectingOptionChangesTheId() {
        String base = SimHashSettings.DEFAULT.algorithmId();
        for (Map.Entry<String, Object> change : Map.<String, Object>of(
            "content_type",
            "html",
            "extract",
            false,
            "features",
            "char_ngrams",
            "shingle_size",
            3,
            "stopwords",
            false,
            "weighting",
            "binary",
            "version",
            1
        ).entrySet()) {
            Map<String, Object> options = new HashMap<>(Map.of(change.getKey(), change.getValue()));
            assertNotEquals(change.getKey(), base, SimHashSettings.fromMap(options).algorithmId());
        }
        // limits only reject input, they do not change fingerprints
        int maxInputChars = randomIntBetween(1, Integer.MAX_VALUE), maxFeatures = randomIntBetween(1, Integer.MAX_VALUE);
        Map<String, Object> limits = new HashMap<>(Map.of("max_input_chars", maxInputChars, "max_features", String.valueOf(maxFeatures)));
        SimHashSettings limited = SimHashSettings.fromMap(limits);
        assertEquals(base, limited.algorithmId());
        assertEquals(maxInputChars, limited.maxInputChars());
        assertEquals(maxFeatures, limited.maxFeatures());
    }

    @Test
    public void testFromMapConsumesOnlyItsOwnKeys() {
        Map<String, Object> options = new HashMap<>(Map.of("field", "body", "weighting", "binary", "extract", "none"));
        SimHashSettings s = SimHashSettings.fromMap(options);
        assertEquals(Map.of("field", "body"), options);
        assertEquals(SimHashSettings.Weighting.BINARY, s.weighting());
        assertEquals(false, s.extractMain());
        assertEquals(IdfTable.BUILTIN, SimHashSettings.fromMap(new HashMap<>(Map.of("weighting", "tf_idf"))).idf());
    }

    @Test
    public void testBadOptionsNameTheOption() {
        assertThrows("[content_type] must be one of [text, html, auto], got [pdf]", () -> fromMap("content_type", "pdf"));
        assertThrows("[extract] must be [main] or [none]", () -> fromMap("extract", "some"));
        assertThrows("[features] must be one of [words, char_ngrams, spotsigs]", () -> fromMap("features", "bytes"));
        assertThrows("[ngram_size] must be between 1 and 8", () -> fromMap("ngram_size", 0));
        assertThrows("[shingle_size] must be an integer", () -> fromMap("shingle_size", "two"));
        assertThrows("[stopwords] must be true or false", () -> fromMap("stopwords", "yes"));
        assertThrows("[weighting] must be one of [tf, log_tf, binary, tf_idf]", () -> fromMap("weighting", "bm25"));
        assertThrows("[idf] is only used with [weighting] tf_idf", () -> fromMap("idf", "web-en-zh-v1"));
        assertThrows("[max_input_chars] must be between 1", () -> fromMap("max_input_chars", -1));
        assertThrows("[max_features] must be an integer", () -> fromMap("max_features", 1.5));
        assertThrows("[content_type] must be a string", () -> fromMap("content_type", 3));
    }

    @Test
    public void testBadAlgorithmIds() {
        assertThrows("unknown algorithm version [simhash-v9]", () -> SimHashSettings.fromAlgorithmId("simhash-v9:features=words"));
        assertThrows("unknown algorithm version [minhash]", () -> SimHashSettings.fromAlgorithmId("minhash"));
        // a bare version means the defaults of that version (a mapping pins them in canonical form)
        assertEquals(SimHashSettings.DEFAULT.algorithmId(), SimHashSettings.fromAlgorithmId(SimHashSettings.VERSION).algorithmId());
        assertThrows("unknown parameters [colour]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:colour=red"));
        assertThrows(
            "this build supports [simhash-v1, simhash-v2, simhash-v3, simhash-v4, simhash-v5, simhash-v6, simhash-v7]",
            () -> SimHashSettings.fromAlgorithmId("simhash-v8")
        );
        assertThrows("unexpected parameter [version]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:version=2"));
        assertThrows("[version] must be an integer from 1 to 7", () -> SimHashSettings.fromMap(new HashMap<>(Map.of("version", 8))));
        assertThrows("malformed parameter [words]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:words"));
        assertThrows("unexpected parameter [max_features]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:max_features=3"));
        assertThrows("unexpected parameter [weighting]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:weighting=tf,weighting=tf"));
    }

    private static SimHashSettings fromMap(String key, Object value) {
        return SimHashSettings.fromMap(new HashMap<>(Map.of(key, value)));
    }

    /**
     * Version 7: version 6's options, pipeline, fingerprint and signature plus the candidate keys, whose layout the id
     * names. The default since 0.9.0.
     */
    @Test
    public void testVersion7IsVersion6WithKeys() {
        String v7 = "simhash-v7:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=true,weighting=tf,idf=none"
            + ",keys=pairs:3x8+2x4:w32";
        assertEquals(v7, SimHashSettings.DEFAULT_V7.algorithmId());
        assertEquals(SimHashSettings.DEFAULT_V7, SimHashSettings.fromAlgorithmId("simhash-v7"));
        assertEquals(SimHashSettings.DEFAULT_V7, SimHashSettings.fromAlgorithmId(v7));
        assertEquals(SimHashSettings.DEFAULT_V7, SimHashSettings.defaults(7));
        assertEquals(SimHashSettings.DEFAULT_V7, SimHashSettings.fromMap(new HashMap<>(Map.of("version", "simhash-v7"))));
        assertEquals(SimHashSettings.DEFAULT_V7, SimHashSettings.fromMap(new HashMap<>(Map.of("version", 7, "keys", "pairs:3x8+2x4:w32"))));
        // the default: processors and fields without a version make 7
        assertEquals(SimHashSettings.DEFAULT_V7, SimHashSettings.fromMap(new HashMap<>()));
        assertEquals(7, SimHashSettings.DEFAULT.version());
        assertEquals("simhash-v7", SimHashSettings.VERSION);
        assertEquals(SimHashSettings.DEFAULT_V6, SimHashSettings.defaults(6));
        assertEquals(7, SimHashSettings.LATEST_VERSION);

        SimHashSettings s = SimHashSettings.DEFAULT_V7;
        assertEquals(7, s.version());
        assertEquals("version 6's pipeline", 6, s.featureSettings().version());
        assertTrue(s.featureSettings().dictionarySegmentation());
        assertTrue(s.hasSignature());
        assertTrue(s.hasCandidateKeys());
        assertFalse(SimHashSettings.DEFAULT_V6.hasCandidateKeys());
        assertEquals(SimHashSettings.V7_KEYS, s.candidateKeys());
        assertEquals(null, SimHashSettings.DEFAULT_V6.candidateKeys());
        assertEquals(16, s.recommendedMaxDistance());
        assertEquals(SimHashSettings.V6_MIN_SIMILARITY, s.recommendedMinSimilarity(), 0);
        assertEquals(s, SimHashSettings.fromMap(new HashMap<>(s.toMap())));
        assertEquals(s, new SimHashSettings.Builder(s).build());
        assertEquals(SimHashSettings.DEFAULT, SimHashSettings.fromMap(new HashMap<>(SimHashSettings.DEFAULT.toMap())));
        assertFalse("no keys option below version 7", SimHashSettings.DEFAULT_V6.toMap().containsKey("keys"));

        // options apply as to version 6; the sketch part is version 6's with the same options
        SimHashSettings trigrams = SimHashSettings.fromMap(new HashMap<>(Map.of("version", 7, "shingle_size", 3)));
        assertEquals(7, trigrams.version());
        assertTrue(trigrams.algorithmId().contains("shingle_size=3"));
        assertEquals(SimHashSettings.fromMap(new HashMap<>(Map.of("version", 6, "shingle_size", 3))), trigrams.sketchSettings());
        assertEquals(SimHashSettings.DEFAULT_V6, s.sketchSettings());
        assertEquals(SimHashSettings.DEFAULT_V5, SimHashSettings.DEFAULT_V5.sketchSettings());

        // comparable fingerprints and signatures: v7 and v6 of the same options, nothing else
        assertTrue(SimHashSettings.sameSketch(v7, SimHashSettings.DEFAULT_V6.algorithmId()));
        assertTrue(SimHashSettings.sameSketch("simhash-v7", "simhash-v6"));
        assertTrue(SimHashSettings.sameSketch(v7, v7));
        assertFalse(SimHashSettings.sameSketch(v7, SimHashSettings.DEFAULT_V5.algorithmId()));
        assertFalse(SimHashSettings.sameSketch(trigrams.algorithmId(), SimHashSettings.DEFAULT_V6.algorithmId()));
        assertFalse(SimHashSettings.sameSketch(v7, "external-x"));
        assertFalse(SimHashSettings.sameSketch(v7, null));
    }

    @Test
    public void testBadKeysOption() {
        assertThrows(
            "[keys] needs [version] 7, got version 6",
            () -> SimHashSettings.fromMap(new HashMap<>(Map.of("version", 6, "keys", "pairs:3x8+2x4:w32")))
        );
        assertThrows(
            "[keys] must be [pairs:3x8+2x4:w32] (simhash-v7's layout), got [bands:2x16:w32]",
            () -> SimHashSettings.fromMap(new HashMap<>(Map.of("version", 7, "keys", "bands:2x16:w32")))
        );
        assertThrows("[keys] must be [pairs:3x8+2x4:w32]", () -> SimHashSettings.fromAlgorithmId("simhash-v7:keys=pairs:3x8+2x4:w64"));
        assertThrows("[keys] needs [version] 7", () -> SimHashSettings.fromAlgorithmId("simhash-v6:keys=pairs:3x8+2x4:w32"));
        assertThrows("[keys] must be a string", () -> SimHashSettings.fromMap(new HashMap<>(Map.of("version", 7, "keys", 28))));
        assertThrows("runs the feature pipeline of version 6, got 5", () -> {
            SimHashSettings.Builder b = new SimHashSettings.Builder(SimHashSettings.DEFAULT_V5);
            new SimHashSettings(b.build().featureSettings(), SimHashSettings.Weighting.TF, "none", 7);
        });
        // MinHash and I-Match have no version 7: theirs is the pipeline's
        assertThrows("[version] must be an integer from 1 to 6", () -> MinHashSettings.fromMap(new HashMap<>(Map.of("version", 7))));
    }
}
