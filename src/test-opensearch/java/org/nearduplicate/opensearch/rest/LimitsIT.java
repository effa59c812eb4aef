package org.nearduplicate.opensearch.rest;

import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.StringEntity;

import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.client.ResponseException;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.test.rest.OpenSearchRestTestCase;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The size rows of the bad-input matrix against the real node: 10 MB of text and of HTML through a pipeline, and
 * text probes and {@code _simhash} inputs over the node's {@code near_duplicate.max_input_chars} (default 2,000,000).
 */
public class LimitsIT extends OpenSearchRestTestCase {

    private static String prose(int chars) {
        StringBuilder sb = new StringBuilder(chars + 16);
        String[] words = { "harbor", "bridge", "reopened", "traffic", "monday", "repairs", "engineers", "steel", "deck", "ramps" };
        int i = 0;
        while (sb.length() < chars)
            sb.append(words[(i * 7 + i / 3) % words.length]).append(++i % 50 == 0 ? ".\n\n" : " ");
        sb.setLength(chars);
        return sb.toString();
    }

    private static StringEntity json(XContentBuilder builder) {
        return new StringEntity(builder.toString(), ContentType.APPLICATION_JSON);
    }

    private static String error(ResponseException e) throws IOException {
        assertEquals(400, e.getResponse().getStatusLine().getStatusCode());
        return entityAsMap(e.getResponse()).toString();
    }

    public void testTenMegabytesOfTextAndHtmlAreReportedPerItem() throws IOException {
        Request pipeline = new Request("PUT", "/_ingest/pipeline/limits");
        pipeline.setJsonEntity("{\"processors\": [{\"simhash\": {\"field\": \"content\", \"target_field\": \"fp\"}}]}");
        client().performRequest(pipeline);
        Request create = new Request("PUT", "/limits");
        create.setJsonEntity("{\"mappings\": {\"dynamic\": false, \"properties\": {\"fp\": {\"type\": \"simhash\"}}}}");
        client().performRequest(create);

        String text = prose(10 * 1024 * 1024);
        String html = "<html><body><article><p>" + text.replace("\n\n", "</p><p>") + "</p></article></body></html>";
        StringBuilder bulk = new StringBuilder();
        bulk.append("{\"index\": {\"_index\": \"limits\", \"_id\": \"text\"}}\n");
        bulk.append(XContentFactory.jsonBuilder().startObject().field("content", text).endObject().toString()).append('\n');
        bulk.append("{\"index\": {\"_index\": \"limits\", \"_id\": \"html\"}}\n");
        bulk.append(XContentFactory.jsonBuilder().startObject().field("content", html).endObject().toString()).append('\n');
        bulk.append("{\"index\": {\"_index\": \"limits\", \"_id\": \"small\"}}\n");
        bulk.append("{\"content\": \"The old harbor bridge reopened to traffic\"}\n");
        Request request = new Request("POST", "/_bulk?pipeline=limits&refresh=true");
        request.setEntity(new StringEntity(bulk.toString(), ContentType.create("application/x-ndjson")));
        long start = System.nanoTime();
        Map<String, Object> response = entityAsMap(client().performRequest(request));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(true, response.get("errors"));
        @SuppressWarnings("unchecked")
        List<Map<String, Map<String, Object>>> items = (List<Map<String, Map<String, Object>>>) response.get("items");
        for (int i = 0; i < 2; i++) {
            Map<String, Object> item = items.get(i).get("index");
            assertEquals(item.toString(), 400, item.get("status"));
            assertTrue(item.toString(), item.get("error").toString().contains("more than [max_input_chars] = 2000000"));
        }
        assertEquals(201, items.get(2).get("index").get("status"));
        // rejected before any work: the whole 20 MB bulk is answered quickly
        assertTrue("took " + millis + " ms", millis < 60_000);
    }

    public void testTextProbesAndSimhashObeyTheNodeLimit() throws IOException {
        Request create = new Request("PUT", "/probes");
        create.setJsonEntity("{\"mappings\": {\"properties\": {\"fp\": {\"type\": \"simhash\"}}}}");
        client().performRequest(create);
        String tooLong = prose(2_000_001);
        Request search = new Request("POST", "/probes/_search");
        search.setEntity(
            json(
                XContentFactory.jsonBuilder()
                    .startObject()
                    .startObject("query")
                    .startObject("near_duplicate")
                    .field("field", "fp")
                    .field("text", tooLong)
                    .endObject()
                    .endObject()
                    .endObject()
            )
        );
        ResponseException e = expectThrows(ResponseException.class, () -> client().performRequest(search));
        assertTrue(error(e), error(e).contains("more than [max_input_chars] = 2000000"));

        Request simhash = new Request("POST", "/_simhash");
        simhash.setEntity(json(XContentFactory.jsonBuilder().startObject().field("html", "<p>" + tooLong + "</p>").endObject()));
        e = expectThrows(ResponseException.class, () -> client().performRequest(simhash));
        assertTrue(error(e), error(e).contains("more than [max_input_chars] = 2000000"));

        // just under the limit works, and the breaker is released afterwards
        Request ok = new Request("POST", "/_simhash");
        ok.setEntity(
            json(XContentFactory.jsonBuilder().startObject().field("text", prose(1_999_000)).field("top_features", 0).endObject())
        );
        Response response = client().performRequest(ok);
        assertEquals(200, response.getStatusLine().getStatusCode());
        Map<String, Object> breakers = entityAsMap(client().performRequest(new Request("GET", "/_nodes/stats/breaker")));
        @SuppressWarnings("unchecked")
        Map<String, Object> nodes = (Map<String, Object>) breakers.get("nodes");
        for (Object node : nodes.values()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> breaker = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) node).get("breakers")).get(
                "near_duplicate"
            );
            assertNotNull("the near_duplicate breaker is registered: " + node, breaker);
            assertEquals(breaker.toString(), 0, ((Number) breaker.get("estimated_size_in_bytes")).longValue());
        }
    }
}
