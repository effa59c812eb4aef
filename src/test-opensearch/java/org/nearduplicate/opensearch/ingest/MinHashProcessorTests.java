package org.nearduplicate.opensearch.ingest;

import org.opensearch.OpenSearchParseException;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.RandomDocumentPicks;
import org.opensearch.test.OpenSearchTestCase;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.ImatchSettings;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.ImatchHasher;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** The {@code minhash} and {@code imatch} processors. */
public class MinHashProcessorTests extends OpenSearchTestCase {
    private static final String ARTICLE = "The old harbor bridge reopened to traffic on Monday morning after two years of repairs "
        + "that cost the city far more than planned. Engineers replaced the rusted steel deck and rebuilt both ramps.";

    private static final SketchProcessor.Factory MINHASH = new SketchProcessor.Factory(new MinHashMethod(new SketchingService()));
    private static final SketchProcessor.Factory IMATCH = new SketchProcessor.Factory(new ImatchMethod(new SketchingService()));

    private static IngestDocument document(Map<String, Object> source) {
        return RandomDocumentPicks.randomIngestDocument(random(), new HashMap<>(source));
    }

    public void testMinHashProcessor() {
        SketchProcessor p = MINHASH.create(Map.of(), "t", null, new HashMap<>(Map.of("field", "content", "hashes", 64)));
        IngestDocument doc = document(Map.of("content", ARTICLE));
        p.execute(doc);
        Map<?, ?> result = doc.getFieldValue("minhash", Map.class);
        MinHashSettings s = MinHashSettings.fromMap(new HashMap<>(Map.of("hashes", 64)));
        assertThat(result.get("signature"), equalTo(MinHashSignatures.toBase64(new MinHasher(s).signature(ARTICLE))));
        assertThat(result.get("algorithm"), equalTo(s.algorithmId()));

        // several fields, ignore_missing, bad values
        SketchProcessor multi = MINHASH.create(
            Map.of(),
            "t",
            null,
            new HashMap<>(Map.of("fields", List.of("title", "body"), "ignore_missing", true, "target_field", "sig"))
        );
        IngestDocument none = document(Map.of("other", 1));
        multi.execute(none);
        assertFalse(none.hasField("sig"));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> p.execute(document(Map.of("content", 42))));
        assertThat(e.getMessage(), containsString("is of type [number]"));
        expectThrows(IllegalArgumentException.class, () -> p.execute(document(Map.of("content", "  "))));
    }

    public void testMinHashProcessorConfigErrors() {
        OpenSearchParseException e = expectThrows(
            OpenSearchParseException.class,
            () -> MINHASH.create(Map.of(), "t", null, new HashMap<>(Map.of("field", "c", "hashes", 0)))
        );
        assertThat(e.getMessage(), containsString("[hashes] must be between 1 and 1024"));
        Map<String, Object> config = new HashMap<>(Map.of("field", "c", "weighting", "tf"));
        MINHASH.create(Map.of(), "t", null, config);
        assertEquals(Map.of("weighting", "tf"), config); // left for the pipeline to report as unknown
        expectThrows(OpenSearchParseException.class, () -> MINHASH.create(Map.of(), "t", null, new HashMap<>()));
    }

    public void testIMatchProcessor() {
        SketchProcessor p = IMATCH.create(Map.of(), "t", null, new HashMap<>(Map.of("field", "content")));
        IngestDocument doc = document(Map.of("content", ARTICLE));
        p.execute(doc);
        Map<?, ?> result = doc.getFieldValue("imatch", Map.class);
        ImatchHasher.Keys keys = new ImatchHasher(ImatchSettings.DEFAULT).keys(ARTICLE);
        assertThat(result.get("imatch"), equalTo(keys.imatch()));
        assertThat(result.get("text"), equalTo(keys.text()));
        assertThat(result.get("algorithm"), equalTo(ImatchSettings.DEFAULT.algorithmId()));
        OpenSearchParseException e = expectThrows(
            OpenSearchParseException.class,
            () -> IMATCH.create(Map.of(), "t", null, new HashMap<>(Map.of("field", "c", "min_idf", 9, "max_idf", 1)))
        );
        assertThat(e.getMessage(), containsString("min_idf"));
    }
}
