package org.nearduplicate.opensearch.ingest;

import org.opensearch.OpenSearchParseException;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.RandomDocumentPicks;
import org.opensearch.test.OpenSearchTestCase;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;

/** A method plugged into {@link SketchProcessor} gets the common options without code of its own. */
public class SketchProcessorTests extends OpenSearchTestCase {

    /** A toy method: the length of the text, with an option of its own. */
    private static final SketchMethod LENGTH = new SketchMethod() {
        @Override
        public String type() {
            return "length";
        }

        @Override
        public String defaultTargetField() {
            return "length";
        }

        @Override
        public String what() {
            return "a length";
        }

        @Override
        public Sketcher sketcher(Map<String, Object> options) {
            Object scale = options.remove("scale");
            if (scale != null && scale instanceof Integer == false) {
                throw new IllegalArgumentException("[scale] must be an integer");
            }
            int factor = scale == null ? 1 : (Integer) scale;
            return new Sketcher(20, content -> Map.of("chars", content.length() * factor));
        }
    };

    private static SketchProcessor create(Map<String, Object> config) {
        return new SketchProcessor.Factory(LENGTH).create(Map.of(), "t", null, new HashMap<>(config));
    }

    private static IngestDocument document(Map<String, Object> source) {
        return RandomDocumentPicks.randomIngestDocument(random(), new HashMap<>(source));
    }

    public void testCommonOptionsForAnyMethod() {
        SketchProcessor p = create(Map.of("fields", List.of("a", "b"), "scale", 2));
        assertEquals("length", p.getType());
        IngestDocument doc = document(Map.of("a", "abc", "b", "de"));
        p.execute(doc);
        assertEquals(Map.of("chars", 14), doc.getFieldValue("length", Map.class)); // "abc\n\nde" times 2

        IngestDocument target = document(Map.of("a", "abc"));
        create(Map.of("field", "a", "target_field", "x.y")).execute(target);
        assertEquals(Integer.valueOf(3), target.getFieldValue("x.y.chars", Integer.class));

        IngestDocument none = document(Map.of("other", "abc"));
        create(Map.of("field", "a", "ignore_missing", true)).execute(none);
        assertFalse(none.hasField("length"));

        SketchProcessor capped = create(Map.of("field", "a"));
        Exception tooLong = expectThrows(Exception.class, () -> capped.execute(document(Map.of("a", "x".repeat(21)))));
        assertThat(tooLong.getMessage(), containsString("21 chars"));
    }

    public void testOptionsErrorsAndUnknownOptions() {
        OpenSearchParseException e = expectThrows(OpenSearchParseException.class, () -> create(Map.of("field", "a", "scale", "big")));
        assertThat(e.getMessage(), containsString("[scale] must be an integer"));
        assertEquals(e.getMessage(), e.getMessage().indexOf("[scale]"), e.getMessage().lastIndexOf("[scale]"));
        e = expectThrows(OpenSearchParseException.class, () -> create(Map.of("field", "a", "fields", List.of("b"))));
        assertThat(e.getMessage(), containsString("[fields]"));

        Map<String, Object> config = new HashMap<>(Map.of("field", "a", "scale", 3, "no_such_option", 1));
        new SketchProcessor.Factory(LENGTH).create(Map.of(), "t", null, config);
        assertEquals("left for the pipeline to report as unknown", Map.of("no_such_option", 1), config);
    }
}
