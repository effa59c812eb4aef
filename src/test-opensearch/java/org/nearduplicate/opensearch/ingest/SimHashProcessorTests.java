package org.nearduplicate.opensearch.ingest;

import org.opensearch.OpenSearchParseException;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.RandomDocumentPicks;
import org.opensearch.test.OpenSearchTestCase;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.FullMinima;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

public class SimHashProcessorTests extends OpenSearchTestCase {
    private static final String ARTICLE = "The old harbor bridge reopened to traffic on Monday morning after two years of repairs "
        + "that cost the city far more than planned. Engineers replaced the rusted steel deck and rebuilt both ramps.";

    private final SketchProcessor.Factory factory = new SketchProcessor.Factory(new SimHashMethod(new SketchingService()));

    private SketchProcessor create(Map<String, Object> config) {
        return factory.create(Map.of(), randomAlphaOfLength(5), null, new HashMap<>(config));
    }

    private static IngestDocument document(Map<String, Object> source) {
        return RandomDocumentPicks.randomIngestDocument(random(), new HashMap<>(source));
    }

    public void testWritesFingerprintAndAlgorithm() {
        SketchProcessor processor = create(Map.of("field", "content"));
        IngestDocument doc = document(Map.of("content", ARTICLE));
        processor.execute(doc);
        Map<?, ?> result = doc.getFieldValue("simhash", Map.class);
        long expected = new SimHasher(SimHashSettings.DEFAULT).fingerprint(ARTICLE);
        assertThat(result.get("fingerprint"), equalTo(Fingerprints.toHex(expected)));
        assertThat(result.get("algorithm"), equalTo(SimHashSettings.DEFAULT.algorithmId()));
    }

    /** simhash-v7 (the default) writes v6's fingerprint and signature plus the candidate keys of the same signing; v6 writes no keys. */
    public void testVersion7WritesKeys() {
        IngestDocument doc = document(Map.of("content", ARTICLE));
        create(Map.of("field", "content", "version", 7)).execute(doc);
        create(Map.of("field", "content", "target_field", "v6", "version", 6)).execute(doc);
        Map<?, ?> v7 = doc.getFieldValue("simhash", Map.class);
        Map<?, ?> v6 = doc.getFieldValue("v6", Map.class);
        assertEquals(List.of("fingerprint", "signature", "keys", "algorithm"), List.copyOf(v7.keySet()));
        assertEquals(List.of("fingerprint", "signature", "algorithm"), List.copyOf(v6.keySet()));
        assertEquals(v6.get("fingerprint"), v7.get("fingerprint"));
        assertEquals(v6.get("signature"), v7.get("signature"));
        assertEquals(SimHashSettings.DEFAULT_V7.algorithmId(), v7.get("algorithm"));
        byte[] packed = StoredKeys.parse(CandidateKeys.V7, v7.get("keys"));
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT_V7);
        assertArrayEquals(CandidateKeys.V7.keys(FullMinima.of(hasher, ARTICLE)), CandidateKeys.V7.keysOfPacked(packed));
        OpenSearchParseException e = expectThrows(
            OpenSearchParseException.class,
            () -> create(Map.of("field", "content", "version", 6, "keys", SimHashSettings.V7_KEYS))
        );
        assertThat(e.getMessage(), containsString("[keys] needs [version] 7"));
    }

    public void testTargetFieldAndFieldsConcatenatedInOrder() {
        SketchProcessor processor = create(Map.of("fields", List.of("title", "body"), "target_field", "meta.fp"));
        IngestDocument doc = document(Map.of("title", "Harbor bridge reopens", "body", ARTICLE));
        processor.execute(doc);
        long expected = new SimHasher(SimHashSettings.DEFAULT).fingerprint("Harbor bridge reopens\n\n" + ARTICLE);
        assertThat(doc.getFieldValue("meta.fp.fingerprint", String.class), equalTo(Fingerprints.toHex(expected)));
    }

    public void testEngineOptionsChangeTheAlgorithm() {
        SketchProcessor processor = create(Map.of("field", "content", "weighting", "tf", "content_type", "text"));
        IngestDocument doc = document(Map.of("content", ARTICLE));
        processor.execute(doc);
        String algorithm = doc.getFieldValue("simhash.algorithm", String.class);
        assertNotEquals(SimHashSettings.DEFAULT.algorithmId(), algorithm);
        assertThat(algorithm, containsString("weighting=tf"));
        assertEquals(SimHashSettings.fromAlgorithmId(algorithm).algorithmId(), algorithm);
    }

    public void testMissingField() {
        SketchProcessor processor = create(Map.of("field", "content"));
        IngestDocument doc = document(Map.of("other", "x"));
        Exception e = expectThrows(IllegalArgumentException.class, () -> processor.execute(doc));
        assertThat(e.getMessage(), containsString("content"));
    }

    public void testIgnoreMissing() {
        SketchProcessor processor = create(Map.of("field", "content", "ignore_missing", true));
        IngestDocument doc = document(Map.of("other", "x"));
        processor.execute(doc);
        assertFalse(doc.hasField("simhash"));
    }

    public void testWrongTypesFailTheDocument() {
        SketchProcessor processor = create(Map.of("field", "content"));
        for (Object value : List.of(42, true, Map.of("a", "b"), List.of("text", 3))) {
            IngestDocument doc = document(Map.of("content", value));
            Exception e = expectThrows(IllegalArgumentException.class, () -> processor.execute(doc));
            assertThat(e.getMessage(), containsString("field [content]"));
        }
    }

    public void testListOfStringsIsJoinedLikeFields() {
        SketchProcessor processor = create(Map.of("field", "content"));
        IngestDocument doc = document(Map.of("content", List.of("Harbor bridge reopens", ARTICLE)));
        processor.execute(doc);
        long expected = new SimHasher(SimHashSettings.DEFAULT).fingerprint("Harbor bridge reopens\n\n" + ARTICLE);
        assertThat(doc.getFieldValue("simhash.fingerprint", String.class), equalTo(Fingerprints.toHex(expected)));
    }

    public void testEmptyTextFails() {
        SketchProcessor processor = create(Map.of("field", "content"));
        IngestDocument doc = document(Map.of("content", "   "));
        expectThrows(IllegalArgumentException.class, () -> processor.execute(doc));
    }

    public void testBadConfigurationNamesTheOption() {
        OpenSearchParseException e = expectThrows(OpenSearchParseException.class, () -> create(Map.of()));
        assertThat(e.getMessage(), containsString("[field]"));
        e = expectThrows(OpenSearchParseException.class, () -> create(Map.of("field", "a", "fields", List.of("b"))));
        assertThat(e.getMessage(), containsString("[fields]"));
        e = expectThrows(OpenSearchParseException.class, () -> create(Map.of("fields", List.of())));
        assertThat(e.getMessage(), containsString("[fields]"));
        e = expectThrows(OpenSearchParseException.class, () -> create(Map.of("field", "a", "weighting", "loud")));
        assertThat(e.getMessage(), containsString("[weighting]"));
        e = expectThrows(OpenSearchParseException.class, () -> create(Map.of("field", "a", "shingle_size", 99)));
        assertThat(e.getMessage(), containsString("[shingle_size]"));
    }

    public void testUnknownOptionsAreLeftForThePipelineToReject() {
        Map<String, Object> config = new HashMap<>(Map.of("field", "a", "no_such_option", 1, "weighting", "tf"));
        factory.create(Map.of(), "tag", null, config);
        assertEquals(Map.of("no_such_option", 1), config);
    }

    public void testBadOptionIsNamedOnce() {
        for (String type : new String[] { "weighting", "features" }) {
            Map<String, Object> config = new java.util.HashMap<>(Map.of("field", "content", type, "nonsense"));
            Exception e = expectThrows(Exception.class, () -> factory.create(Map.of(), "t", null, config));
            String message = e.getMessage();
            assertThat(message, containsString("[" + type + "] must be one of"));
            assertEquals(message, message.indexOf("[" + type + "]"), message.lastIndexOf("[" + type + "]"));
        }
    }
}
