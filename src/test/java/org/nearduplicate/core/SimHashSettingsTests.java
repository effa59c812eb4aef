package org.nearduplicate.core;

import org.nearduplicate.core.features.IdfTable;
import org.junit.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.nearduplicate.core.keys.BlockLayoutTests.assertThrows;

public class SimHashSettingsTests {

    @Test
    public void testDefaultAlgorithmIdIsPinned() {
        // changing the default changes every stored fingerprint's meaning: it must be deliberate
        assertEquals(
            "simhash-v1:content_type=auto,extract=main,features=words,shingle_size=1,stopwords=true,weighting=tf,idf=none",
            SimHashSettings.DEFAULT.algorithmId()
        );
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
            for (String kv : spec.split(",")) options.put(kv.split("=")[0], kv.split("=")[1]);
            SimHashSettings s = SimHashSettings.fromMap(options);
            assertTrue("all options consumed: " + options, options.isEmpty());
            assertEquals(s, SimHashSettings.fromAlgorithmId(s.algorithmId()));
            assertEquals(s, SimHashSettings.fromMap(new HashMap<>(s.toMap())));
            assertNotEquals(SimHashSettings.DEFAULT.algorithmId(), s.algorithmId());
        }
        assertEquals(SimHashSettings.DEFAULT, SimHashSettings.fromAlgorithmId(SimHashSettings.DEFAULT.algorithmId()));
    }

    @Test
    public void testEveryOutputAffectingOptionChangesTheId() {
        String base = SimHashSettings.DEFAULT.algorithmId();
        for (Map.Entry<String, Object> change : Map.<String, Object>of(
            "content_type", "html", "extract", false, "features", "char_ngrams", "shingle_size", 2, "stopwords", false,
            "weighting", "binary"
        ).entrySet()) {
            Map<String, Object> options = new HashMap<>(Map.of(change.getKey(), change.getValue()));
            assertNotEquals(change.getKey(), base, SimHashSettings.fromMap(options).algorithmId());
        }
        // limits only reject input, they do not change fingerprints
        Map<String, Object> limits = new HashMap<>(Map.of("max_input_chars", 10, "max_features", "5"));
        SimHashSettings limited = SimHashSettings.fromMap(limits);
        assertEquals(base, limited.algorithmId());
        assertEquals(10, limited.maxInputChars());
        assertEquals(5, limited.maxFeatures());
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
        assertThrows("malformed parameter [words]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:words"));
        assertThrows("unexpected parameter [max_features]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:max_features=3"));
        assertThrows("unexpected parameter [weighting]", () -> SimHashSettings.fromAlgorithmId("simhash-v1:weighting=tf,weighting=tf"));
    }

    private static SimHashSettings fromMap(String key, Object value) {
        return SimHashSettings.fromMap(new HashMap<>(Map.of(key, value)));
    }
}
