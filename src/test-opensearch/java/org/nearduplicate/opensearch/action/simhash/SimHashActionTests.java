package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.core.common.Strings;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.MediaTypeRegistry;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.nearduplicate.opensearch.NearDuplicatePlugin;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.hamcrest.Matchers.containsString;

/**
 * {@code _simhash} runs as transport actions that roles can name (issue 23): a cluster action without an index, an
 * index read action on the index with one; their requests and responses cross the transport unchanged, and the
 * response prints the JSON the REST API always printed.
 */
public class SimHashActionTests extends OpenSearchTestCase {
    private static final String TEXT = "The old harbor bridge reopened to traffic on Monday morning after two years of repairs.";
    private static final String HTML = "<html><body><nav>Home | News</nav><article><p>The old harbor bridge reopened on Monday.</p>"
        + "<p>Engineers replaced the rusted deck.</p></article></body></html>";

    private final SketchingService sketching = new SketchingService(Settings.EMPTY);

    public void testActionNames() {
        assertEquals("cluster:monitor/near_duplicate/simhash", SimHashAction.NAME);
        assertEquals(SimHashAction.NAME, SimHashAction.INSTANCE.name());
        assertEquals("indices:data/read/near_duplicate/simhash", IndexSimHashAction.NAME);
        assertEquals(IndexSimHashAction.NAME, IndexSimHashAction.INSTANCE.name());
        Set<String> registered = new NearDuplicatePlugin(Settings.EMPTY).getActions()
            .stream()
            .map(handler -> handler.getAction().name())
            .collect(Collectors.toSet());
        assertTrue(registered.toString(), registered.containsAll(Set.of(SimHashAction.NAME, IndexSimHashAction.NAME)));

        // without an index: no index is read, so the request names none (a security plugin checks a cluster permission)
        SimHashRequest noIndex = SimHashRequest.parse(Map.of("text", TEXT), null, sketching);
        assertFalse(noIndex instanceof IndicesRequest);
        // with an index: the request names exactly that index, which the index privileges are checked on
        SimHashRequest withIndex = SimHashRequest.parse(Map.of("text", TEXT, "field", "fp"), "pages", sketching);
        IndexSimHashRequest indices = (IndexSimHashRequest) withIndex;
        assertArrayEquals(new String[] { "pages" }, indices.indices());
        assertEquals(IndicesOptions.strictExpandOpen(), indices.indicesOptions());
        assertEquals("fp", indices.field());
    }

    public void testRequestRoundTrip() throws IOException {
        for (int i = 0; i < 20; i++) {
            Map<String, Object> body = new HashMap<>();
            body.put(randomBoolean() ? "text" : "html", randomBoolean() ? TEXT : HTML);
            if (randomBoolean()) body.put("compare", Map.of(randomBoolean() ? "text" : "html", randomAlphaOfLength(30)));
            if (randomBoolean()) body.put("top_features", randomIntBetween(0, 10_000));
            if (randomBoolean()) body.put("include_text", randomBoolean());
            boolean index = randomBoolean();
            if (index) {
                body.put("field", randomAlphaOfLength(4));
            } else {
                if (randomBoolean()) body.put("settings", Map.of("weighting", "tf", "max_input_chars", randomIntBetween(10, 1000)));
                if (randomBoolean()) body.put("blocks", randomIntBetween(4, 8));
                if (randomBoolean()) body.put("max_distance", randomIntBetween(0, 3));
            }
            SimHashRequest request = SimHashRequest.parse(body, index ? randomAlphaOfLength(6) : null, sketching);
            assertNull(request.validate());
            SimHashRequest copy = index ? new IndexSimHashRequest(streamOf(request)) : new SimHashRequest(streamOf(request));
            assertEquals(request, copy);
            assertEquals(request.hashCode(), copy.hashCode());
            assertEquals(index, copy instanceof IndexSimHashRequest);
            if (index == false) {
                assertEquals(request.simHashSettings(sketching), copy.simHashSettings(sketching));
                assertEquals(request.layout() == null ? null : request.layout().id(), copy.layout() == null ? null : copy.layout().id());
            }
        }
    }

    public void testResponseRoundTripAndJson() throws IOException {
        SimHashRequest request = SimHashRequest.parse(
            Map.of("html", HTML, "compare", Map.of("text", TEXT), "blocks", 4, "max_distance", 3, "top_features", 5, "include_text", true),
            null,
            sketching
        );
        SimHashResponse response = analyze(request);
        SimHashResponse copy = new SimHashResponse(streamOf(response));
        assertEquals(response, copy);
        String json = Strings.toString(MediaTypeRegistry.JSON, copy);
        assertEquals(Strings.toString(MediaTypeRegistry.JSON, response), json);
        Map<String, Object> map = XContentHelper.convertToMap(MediaTypeRegistry.JSON.xContent(), json, true);
        assertEquals(
            List.of("algorithm", "layout", "distance", "similarity", "match", "shared_keys", "first", "second", "differing_top_features"),
            List.copyOf(map.keySet())
        );
        assertEquals(Map.of("bits", 64, "blocks", 4, "max_distance", 3, "keys_per_fingerprint", 4), map.get("layout"));
        @SuppressWarnings("unchecked")
        Map<String, Object> first = (Map<String, Object>) map.get("first");
        assertEquals(
            List.of(
                "fingerprint",
                "fingerprint_unsigned",
                "fingerprint_signed",
                "signature",
                "content_type",
                "feature_count",
                "main_text",
                "features",
                "keys"
            ),
            List.copyOf(first.keySet())
        );
        assertEquals("html", first.get("content_type"));
        assertThat((String) first.get("main_text"), containsString("harbor bridge"));

        // one input, no layout, no text: the fields of the one analysis at the top level, no keys
        SimHashResponse single = analyze(SimHashRequest.parse(Map.of("text", TEXT), null, sketching));
        SimHashResponse singleCopy = new SimHashResponse(streamOf(single));
        assertEquals(single, singleCopy);
        Map<String, Object> singleMap = XContentHelper.convertToMap(
            MediaTypeRegistry.JSON.xContent(),
            Strings.toString(MediaTypeRegistry.JSON, singleCopy),
            true
        );
        assertEquals(
            List.of(
                "algorithm",
                "fingerprint",
                "fingerprint_unsigned",
                "fingerprint_signed",
                "signature",
                "content_type",
                "feature_count",
                "features"
            ),
            List.copyOf(singleMap.keySet())
        );
        assertEquals(sketching.simHashSettings(new HashMap<>()).algorithmId(), singleMap.get("algorithm"));
    }

    public void testRequestErrorsAreTheRestApis() {
        IllegalArgumentException both = expectThrows(
            IllegalArgumentException.class,
            () -> SimHashRequest.parse(Map.of("text", "a", "html", "<p>b</p>"), null, sketching)
        );
        assertEquals("[text] or [html] is required, exactly one of them", both.getMessage());
        IllegalArgumentException unknown = expectThrows(
            IllegalArgumentException.class,
            () -> SimHashRequest.parse(Map.of("text", "a", "colour", "red"), null, sketching)
        );
        assertThat(unknown.getMessage(), containsString("[_simhash] unknown parameter [colour]"));
        IllegalArgumentException settingsWithIndex = expectThrows(
            IllegalArgumentException.class,
            () -> SimHashRequest.parse(Map.of("text", "a", "field", "fp", "blocks", 4), "pages", sketching)
        );
        assertThat(settingsWithIndex.getMessage(), containsString("come from the mapping when an index is given"));
        IllegalArgumentException fieldWithoutIndex = expectThrows(
            IllegalArgumentException.class,
            () -> SimHashRequest.parse(Map.of("text", "a", "field", "fp"), null, sketching)
        );
        assertEquals("[field] needs an index: use /{index}/_simhash", fieldWithoutIndex.getMessage());
        IllegalArgumentException aboveNode = expectThrows(
            IllegalArgumentException.class,
            () -> SimHashRequest.parse(Map.of("text", "a", "settings", Map.of("max_input_chars", 2_000_000_000)), null, sketching)
        );
        assertThat(aboveNode.getMessage(), containsString("near_duplicate.max_input_chars"));
        // a request built in Java is validated too
        assertNotNull(new IndexSimHashRequest("", "", null, null, 20, false).validate());
    }

    /** What the transport action computes, without its thread pool. */
    private SimHashResponse analyze(SimHashRequest request) {
        return TransportSimHashAction.compute(sketching, request, request.simHashSettings(sketching), request.layout());
    }

    private static StreamInput streamOf(Writeable writeable) throws IOException {
        BytesStreamOutput out = new BytesStreamOutput();
        writeable.writeTo(out);
        return out.bytes().streamInput();
    }
}
