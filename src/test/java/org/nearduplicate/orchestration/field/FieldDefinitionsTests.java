package org.nearduplicate.orchestration.field;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;

import static org.hamcrest.Matchers.containsString;

/** One reading of a mapping for every platform: field paths, types, algorithms and the mapped k. */
public class FieldDefinitionsTests extends PlatformTestCase {

    private static final String MAPPING = """
        {"properties": {
          "fp": {"type": "simhash", "algorithm": "simhash-v1", "max_distance": 16},
          "v3": {"type": "simhash", "algorithm": "simhash-v3", "max_distance": 3},
          "doc": {"properties": {"title": {"type": "text", "fields": {"fp": {"type": "simhash", "algorithm": "simhash-v3"}}}}},
          "same": {"type": "alias", "path": "fp"}
        },
        "_meta": {"owner": "tests"}}""";

    /** A JSON object as a map, as the platforms give a mapping's source. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(String json) throws IOException {
        try (JsonParser parser = new JsonFactory().createParser(json)) {
            parser.nextToken();
            return (Map<String, Object>) read(parser);
        }
    }

    private static Object read(JsonParser parser) throws IOException {
        switch (parser.currentToken()) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (parser.nextToken() != com.fasterxml.jackson.core.JsonToken.END_OBJECT) {
                    String key = parser.currentName();
                    parser.nextToken();
                    map.put(key, read(parser));
                }
                return map;
            }
            case VALUE_NUMBER_INT -> {
                return parser.getIntValue();
            }
            default -> {
                return parser.getText();
            }
        }
    }

    public void testFieldPathsTypesAndAlgorithms() throws IOException {
        Map<String, Object> root = map(MAPPING);
        assertEquals("simhash", FieldDefinitions.type(FieldDefinitions.definition(root, "fp")));
        assertEquals("object", FieldDefinitions.type(FieldDefinitions.definition(root, "doc")));
        assertEquals("simhash-v3", FieldDefinitions.algorithm(FieldDefinitions.definition(root, "doc.title.fp"), "simhash"));
        assertNull(FieldDefinitions.algorithm(FieldDefinitions.definition(root, "doc.title"), "simhash"));
        assertNull(FieldDefinitions.algorithm(FieldDefinitions.definition(root, "fp"), "minhash"));
        assertNull(FieldDefinitions.definition(root, "missing"));
        assertNull(FieldDefinitions.definition(root, "fp.fields"));
        assertNull(FieldDefinitions.type(FieldDefinitions.definition(root, "missing")));
        assertEquals("alias", FieldDefinitions.type(FieldDefinitions.definition(root, "same")));
        assertEquals("simhash", FieldDefinitions.type(FieldDefinitions.definitionThroughAlias(root, "same")));
        // a document path goes through objects only: a multi-field holds no value of its own
        assertEquals("text", FieldDefinitions.documentPathType(root, "doc.title"));
        assertEquals("object", FieldDefinitions.documentPathType(root, "doc"));
        assertNull(FieldDefinitions.documentPathType(root, "doc.title.fp"));
        assertEquals(Map.of("owner", "tests"), FieldDefinitions.meta(root));
        assertEquals(Map.of(), FieldDefinitions.meta(map("{\"properties\": {}}")));
    }

    public void testMappedMaxDistanceIsCappedByTheAlgorithmsRecommendedK() throws IOException {
        Map<String, Object> root = map(MAPPING);
        assertEquals(Integer.valueOf(12), FieldDefinitions.simHashMaxDistance(FieldDefinitions.definition(root, "fp")));
        assertEquals(Integer.valueOf(3), FieldDefinitions.simHashMaxDistance(FieldDefinitions.definition(root, "v3")));
        assertNull(FieldDefinitions.simHashMaxDistance(FieldDefinitions.definition(root, "doc.title")));
        assertNull(FieldDefinitions.simHashMaxDistance(FieldDefinitions.definition(root, "doc.title.fp")));
        assertNull(FieldDefinitions.simHashMaxDistance(null));
    }

    public void testSingleAlgorithm() throws IOException {
        Map<String, Object> root = map(MAPPING);
        Map<String, Object> v1 = FieldDefinitions.definition(root, "fp");
        Map<String, Object> v3 = FieldDefinitions.definition(root, "v3");
        assertEquals("simhash-v1", FieldDefinitions.singleAlgorithm(Arrays.asList(v1, null, v1), "simhash"));
        assertNull(FieldDefinitions.singleAlgorithm(List.of(v1, v3), "simhash"));
        assertNull("another type", FieldDefinitions.singleAlgorithm(List.of(v1, Map.of("type", "keyword")), "simhash"));
        assertNull(FieldDefinitions.singleAlgorithm(new ArrayList<>(), "simhash"));
    }

    public void testSimHashFieldOfOneIndex() throws IOException {
        Map<String, Object> fp = FieldDefinitions.definition(map(MAPPING), "fp");
        assertSame(fp, FieldDefinitions.simHashField("pages*", 1, "pages", fp, "fp"));
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> FieldDefinitions.simHashField("x", 0, null, null, "fp")
        );
        assertEquals("no index matches [x]", e.getMessage());
        e = expectThrows(IllegalArgumentException.class, () -> FieldDefinitions.simHashField("p*", 2, null, null, "fp"));
        assertEquals("[p*] matches 2 indices; name one index", e.getMessage());
        e = expectThrows(IllegalArgumentException.class, () -> FieldDefinitions.simHashField("p", 1, "pages", null, "fp"));
        assertEquals("index [pages] has no field [fp]", e.getMessage());
        Map<String, Object> text = new HashMap<>(Map.of("type", "text"));
        e = expectThrows(IllegalArgumentException.class, () -> FieldDefinitions.simHashField("p", 1, "pages", text, "t"));
        assertThat(e.getMessage(), containsString("field [t] of index [pages] is not a [simhash] field"));
    }

    public void testLongestRefresh() {
        assertEquals(30_000, FieldDefinitions.longestRefresh(List.of(1_000L, 30_000L), 1_000));
        assertEquals(1_000, FieldDefinitions.longestRefresh(List.of(), 1_000));
        assertEquals(-1, FieldDefinitions.longestRefresh(List.of(1_000L, -1L), 1_000));
    }
}
