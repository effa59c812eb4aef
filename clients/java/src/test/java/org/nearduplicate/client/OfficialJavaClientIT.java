package org.nearduplicate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hc.core5.http.HttpHost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch._types.aggregations.DateHistogramBucket;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.core.search.Hit;
import org.opensearch.client.opensearch.generic.Bodies;
import org.opensearch.client.opensearch.generic.Body;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.opensearch.generic.Response;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5Transport;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;

/**
 * The README's flows through opensearch-java against a real node with the plugin: pipeline and index, bulk
 * indexing of the demo pages through the pipeline, near_duplicate by fingerprint, text and like (typed, with
 * {@link NearDuplicateQuery}), inside a bool filter with a date histogram (what Dashboards Discover sends), the
 * rescorer, _simhash and _near_duplicates (through the client's generic API). Every answer is checked against
 * Hamming distances computed here from the fingerprints the pipeline stored.
 */
class OfficialJavaClientIT {
    private static final String INDEX = "clients-java-pages";
    private static final String PIPELINE = "clients-java-fingerprint";
    private static final int K = 8;
    private static final Instant FIRST_DAY = Instant.parse("2026-11-01T00:00:00Z");

    private static ApacheHttpClient5Transport transport;
    private static OpenSearchClient client;
    private static Path demoDir;
    /** demo page id → its article (pages.json "group") */
    private static final Map<String, String> articleOf = new TreeMap<>();
    /** demo page id → its timestamp */
    private static final Map<String, Instant> timestampOf = new TreeMap<>();
    /** demo page id → the fingerprint the simhash processor stored in _source */
    private static final Map<String, Long> fingerprintOf = new TreeMap<>();
    private static String storedAlgorithm;

    @BeforeAll
    static void indexTheDemoPagesThroughThePipeline() throws IOException {
        String[] hostPort = System.getProperty("tests.rest.cluster", "127.0.0.1:9200").split(",")[0].split(":");
        transport = ApacheHttpClient5TransportBuilder.builder(new HttpHost("http", hostPort[0], Integer.parseInt(hostPort[1]))).build();
        client = new OpenSearchClient(transport);
        demoDir = Path.of(System.getProperty("demo.pages", "../../demo"));

        call("DELETE", "/" + INDEX + "?ignore_unavailable=true", null);
        call("PUT", "/_ingest/pipeline/" + PIPELINE,
            "{\"processors\": [{\"simhash\": {\"field\": \"content\", \"target_field\": \"simhash\"}}]}");
        call("PUT", "/" + INDEX, "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0, \"default_pipeline\": \"" + PIPELINE + "\"},"
            + " \"mappings\": {\"properties\": {\"content\": {\"type\": \"text\"}, \"simhash\": {\"type\": \"simhash\"},"
            + " \"group\": {\"type\": \"keyword\"}, \"variant\": {\"type\": \"keyword\"}, \"ts\": {\"type\": \"date\"}}}}");

        JsonArray pages;
        try (InputStream in = Files.newInputStream(demoDir.resolve("pages.json"))) {
            pages = Json.createReader(in).readArray();
        }
        List<BulkOperation> operations = new ArrayList<>();
        for (int i = 0; i < pages.size(); i++) {
            JsonObject page = pages.getJsonObject(i);
            String id = page.getString("id");
            articleOf.put(id, page.getString("group"));
            // three days of pages, so the date histogram has buckets to check
            timestampOf.put(id, FIRST_DAY.plus(i % 3, ChronoUnit.DAYS));
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("content", Files.readString(demoDir.resolve("pages").resolve(page.getString("file"))));
            document.put("group", page.getString("group"));
            document.put("variant", page.getString("variant"));
            document.put("ts", timestampOf.get(id).toString());
            operations.add(BulkOperation.of(o -> o.index(x -> x.id(id).document(document))));
        }
        BulkResponse bulk = client.bulk(b -> b.index(INDEX).refresh(Refresh.True).operations(operations));
        assertFalse(bulk.errors(), () -> "bulk errors: " + bulk.items().stream().filter(item -> item.error() != null)
            .map(item -> item.id() + ": " + item.error().reason()).collect(Collectors.joining("; ")));

        SearchResponse<JsonData> stored = client.search(s -> s.index(INDEX).size(1000).source(src -> src.filter(f -> f.includes("simhash"))),
            JsonData.class);
        for (Hit<JsonData> hit : stored.hits().hits()) {
            JsonObject simhash = hit.source().toJson().asJsonObject().getJsonObject("simhash");
            fingerprintOf.put(hit.id(), Long.parseUnsignedLong(simhash.getString("fingerprint"), 16));
            storedAlgorithm = simhash.getString("algorithm");
        }
        assertEquals(articleOf.keySet(), fingerprintOf.keySet(), "every demo page has a stored fingerprint");
    }

    @AfterAll
    static void cleanUp() throws IOException {
        if (client != null) {
            call("DELETE", "/" + INDEX + "?ignore_unavailable=true", null);
            call("DELETE", "/_ingest/pipeline/" + PIPELINE, null);
            transport.close();
        }
    }

    @Test
    void byFingerprint() throws IOException {
        long probe = fingerprintOf.get("harbor-bridge-original");
        NearDuplicateQuery query = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint(probe).maxDistance(K));
        SearchResponse<JsonData> response = client.search(s -> s.index(INDEX).size(100).query(query.toQuery()), JsonData.class);

        Map<String, Integer> expected = within(probe, K);
        assertEquals(expected, distancesOf(response), "hits and their distances");
        assertEquals(expected.size(), response.hits().total().value());
        assertClosestFirst(response);
        // the real answer: the four versions of the harbor-bridge article, and nothing else
        assertEquals(Set.of("harbor-bridge-original", "harbor-bridge-repost", "harbor-bridge-text", "harbor-bridge-edited"),
            expected.keySet());
        assertEquals(0, expected.get("harbor-bridge-original"));
    }

    @Test
    void byText() throws IOException {
        String text = Files.readString(demoDir.resolve("pages/harbor-bridge-text.txt"));
        NearDuplicateQuery query = NearDuplicateQuery.of(q -> q.field("simhash").text(text).maxDistance(K));
        SearchResponse<JsonData> response = client.search(s -> s.index(INDEX).size(100).query(query.toQuery()), JsonData.class);

        // the node fingerprints the probe text with the field's algorithm: the indexed copy of that text is at 0
        Map<String, Integer> expected = within(fingerprintOf.get("harbor-bridge-text"), K);
        assertEquals(expected, distancesOf(response));
        assertEquals(0, distancesOf(response).get("harbor-bridge-text"));
        assertEquals(Set.of("harbor-bridge"), articlesOf(expected.keySet()));
        assertClosestFirst(response);
    }

    @Test
    void byLike() throws IOException {
        NearDuplicateQuery query = NearDuplicateQuery.of(q -> q.field("simhash").like(INDEX, "sourdough-edited").maxDistance(K));
        SearchResponse<JsonData> response = client.search(s -> s.index(INDEX).size(100).query(query.toQuery()), JsonData.class);

        Map<String, Integer> expected = within(fingerprintOf.get("sourdough-edited"), K);
        assertEquals(expected, distancesOf(response));
        assertEquals(Set.of("sourdough"), articlesOf(expected.keySet()));
        assertTrue(expected.size() > 1, "the edited page has near-duplicates: " + expected);
        assertClosestFirst(response);
        // the same query through _count
        assertEquals(expected.size(), client.count(c -> c.index(INDEX).query(query.toQuery())).count());
    }

    /** What Dashboards Discover sends: the query in a bool filter beside a time range, a date histogram, exact totals. */
    @Test
    void insideABoolFilterWithAnAggregation() throws IOException {
        long probe = fingerprintOf.get("library-hours-edited");
        Instant from = FIRST_DAY.plus(1, ChronoUnit.DAYS);
        Instant to = FIRST_DAY.plus(3, ChronoUnit.DAYS);
        Query nearDuplicate = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint(probe).maxDistance(K).queryName("dup")).toQuery();
        Query timeRange = Query.of(q -> q.range(r -> r.field("ts").gte(JsonData.of(from.toString())).lte(JsonData.of(to.toString()))
            .format("strict_date_optional_time")));
        SearchResponse<JsonData> response = client.search(s -> s.index(INDEX)
            .size(500)
            .trackTotalHits(t -> t.enabled(true))
            .sort(o -> o.field(f -> f.field("ts").order(SortOrder.Desc)))
            .query(q -> q.bool(b -> b.must(m -> m.matchAll(a -> a)).filter(nearDuplicate, timeRange)))
            .aggregations("2", a -> a.dateHistogram(h -> h.field("ts").fixedInterval(i -> i.time("1d")).timeZone("UTC").minDocCount(1))),
            JsonData.class);

        Set<String> expected = new TreeSet<>();
        Map<String, Long> expectedPerDay = new TreeMap<>();
        for (String id : within(probe, K).keySet()) {
            Instant ts = timestampOf.get(id);
            if (ts.isBefore(from) == false && ts.isAfter(to) == false) {
                expected.add(id);
                expectedPerDay.merge(ts.toString(), 1L, Long::sum);
            }
        }
        assertFalse(expected.isEmpty(), "the probe has near-duplicates in the time range");
        assertEquals(expected, response.hits().hits().stream().map(Hit::id).collect(Collectors.toCollection(TreeSet::new)));
        assertEquals(expected.size(), response.hits().total().value());
        for (Hit<JsonData> hit : response.hits().hits()) {
            assertTrue(hit.matchedQueries().contains("dup"), hit.id() + " matched " + hit.matchedQueries());
        }
        Map<String, Long> perDay = new TreeMap<>();
        for (DateHistogramBucket bucket : response.aggregations().get("2").dateHistogram().buckets().array()) {
            perDay.put(Instant.ofEpochMilli(bucket.key()).toString(), bucket.docCount());
        }
        assertEquals(expectedPerDay, perDay);
    }

    /** The rescorer has no typed form in opensearch-java: the generic client sends it, the typed deserializer reads the answer. */
    @Test
    void rescorerKeepsOnlyTheNearDuplicatesOfTheWindow() throws IOException {
        long probe = fingerprintOf.get("harbor-bridge-original");
        SearchResponse<JsonData> matched = client.search(s -> s.index(INDEX).size(100)
            .query(q -> q.match(m -> m.field("content").query(FieldValue.of("the harbor bridge")))), JsonData.class);
        Set<String> matchedIds = matched.hits().hits().stream().map(Hit::id).collect(Collectors.toSet());

        String body = "{\"size\": 100, \"query\": {\"match\": {\"content\": \"the harbor bridge\"}},"
            + " \"rescore\": {\"window_size\": 100, \"near_duplicate\": {\"field\": \"simhash\", \"fingerprint\": \""
            + String.format("%016x", probe) + "\", \"max_distance\": " + K + ", \"score_mode\": \"filter\"}}}";
        SearchResponse<JsonData> rescored;
        try (Response response = client.generic().execute(Requests.builder().method("POST").endpoint("/" + INDEX + "/_search").json(body).build())) {
            assertEquals(200, response.getStatus(), () -> bodyOf(response));
            rescored = Bodies.json(response.getBody().get(), SearchResponse.createSearchResponseDeserializer(JsonData._DESERIALIZER),
                client._transport().jsonpMapper());
        }

        Map<String, Integer> expected = new TreeMap<>(within(probe, K));
        expected.keySet().retainAll(matchedIds);
        assertEquals(Set.of("harbor-bridge"), articlesOf(expected.keySet()));
        assertTrue(matchedIds.size() > expected.size(), "the match query alone finds other pages too: " + matchedIds);
        assertEquals(expected, distancesOf(rescored));
    }

    @Test
    void simhashApiExplainsTwoVersions() throws IOException {
        String html = Files.readString(demoDir.resolve("pages/harbor-bridge-original.html"));
        String text = Files.readString(demoDir.resolve("pages/harbor-bridge-text.txt"));
        JsonObject body = Json.createObjectBuilder()
            .add("field", "simhash")
            .add("html", html)
            .add("compare", Json.createObjectBuilder().add("text", text))
            .add("top_features", 5)
            .build();
        JsonObject answer = call("POST", "/" + INDEX + "/_simhash", body.toString());

        assertEquals(storedAlgorithm, answer.getString("algorithm"));
        long first = Long.parseUnsignedLong(answer.getJsonObject("first").getString("fingerprint"), 16);
        long second = Long.parseUnsignedLong(answer.getJsonObject("second").getString("fingerprint"), 16);
        assertEquals((long) fingerprintOf.get("harbor-bridge-original"), first, "same fingerprint as the pipeline's");
        assertEquals((long) fingerprintOf.get("harbor-bridge-text"), second);
        assertEquals(Long.bitCount(first ^ second), answer.getInt("distance"));
        assertEquals("html", answer.getJsonObject("first").getString("content_type"));
        assertEquals(5, answer.getJsonObject("first").getJsonArray("features").size());
    }

    @Test
    void nearDuplicateGroupsAreTheConnectedComponents() throws IOException {
        int k = 3; // the largest k _near_duplicates serves on the default layout (pairs must share a whole block)
        JsonObject answer = call("POST", "/" + INDEX + "/_near_duplicates",
            "{\"field\": \"simhash\", \"max_distance\": " + k + ", \"size\": 100}");

        List<List<String>> expectedGroups = connectedComponents(k);
        List<List<String>> groups = new ArrayList<>();
        for (JsonValue value : answer.getJsonArray("groups")) {
            JsonObject group = value.asJsonObject();
            String representative = group.getString("representative");
            List<String> members = new ArrayList<>();
            for (JsonValue m : group.getJsonArray("members")) {
                JsonObject member = m.asJsonObject();
                members.add(member.getString("_id"));
                int distance = Long.bitCount(fingerprintOf.get(member.getString("_id")) ^ fingerprintOf.get(representative));
                assertEquals(distance, member.getInt("distance"), "distance of " + member.getString("_id") + " to " + representative);
            }
            assertEquals(representative, members.get(0));
            assertEquals(members.size(), group.getInt("size"));
            groups.add(members);
        }
        assertEquals(expectedGroups, groups);
        for (List<String> group : groups) {
            assertEquals(1, articlesOf(group).size(), "one article per group: " + group);
        }
        JsonObject counts = answer.getJsonObject("counts");
        assertEquals(fingerprintOf.size(), counts.getInt("docs_scanned"));
        assertEquals(expectedGroups.size(), counts.getInt("groups"));
        assertEquals(expectedGroups.stream().mapToInt(List::size).sum(), counts.getInt("docs_in_groups"));
    }

    /** Groups of two or more pages linked by distances within k, ordered as the API orders them. */
    private static List<List<String>> connectedComponents(int k) {
        Map<String, String> parent = new HashMap<>();
        fingerprintOf.keySet().forEach(id -> parent.put(id, id));
        List<String> ids = new ArrayList<>(fingerprintOf.keySet());
        for (int i = 0; i < ids.size(); i++) {
            for (int j = i + 1; j < ids.size(); j++) {
                if (Long.bitCount(fingerprintOf.get(ids.get(i)) ^ fingerprintOf.get(ids.get(j))) <= k) {
                    parent.put(root(parent, ids.get(i)), root(parent, ids.get(j)));
                }
            }
        }
        Map<String, List<String>> byRoot = new HashMap<>();
        for (String id : ids) {
            byRoot.computeIfAbsent(root(parent, id), r -> new ArrayList<>()).add(id);
        }
        List<List<String>> groups = new ArrayList<>();
        for (List<String> members : byRoot.values()) {
            if (members.size() < 2) {
                continue;
            }
            String representative = members.stream().min(Comparator.naturalOrder()).get();
            long fingerprint = fingerprintOf.get(representative);
            members.sort(Comparator.<String>comparingInt(id -> Long.bitCount(fingerprintOf.get(id) ^ fingerprint))
                .thenComparing(Comparator.naturalOrder()));
            groups.add(members);
        }
        groups.sort(Comparator.comparing(group -> group.get(0)));
        return groups;
    }

    private static String root(Map<String, String> parent, String id) {
        while (parent.get(id).equals(id) == false) {
            id = parent.get(id);
        }
        return id;
    }

    /** Every indexed page within k of a fingerprint, with its distance. */
    private static Map<String, Integer> within(long probe, int k) {
        Map<String, Integer> result = new TreeMap<>();
        fingerprintOf.forEach((id, fingerprint) -> {
            int distance = Long.bitCount(fingerprint ^ probe);
            if (distance <= k) {
                result.put(id, distance);
            }
        });
        return result;
    }

    private static Map<String, Integer> distancesOf(SearchResponse<JsonData> response) {
        Map<String, Integer> result = new TreeMap<>();
        for (Hit<JsonData> hit : response.hits().hits()) {
            OptionalInt distance = NearDuplicateQuery.distance(hit);
            assertTrue(distance.isPresent(), hit.id() + " carries its distance");
            result.put(hit.id(), distance.getAsInt());
        }
        return result;
    }

    private static void assertClosestFirst(SearchResponse<JsonData> response) {
        int previous = -1;
        for (Hit<JsonData> hit : response.hits().hits()) {
            int distance = NearDuplicateQuery.distance(hit).getAsInt();
            assertTrue(distance >= previous, "hits come closest first: " + distancesOf(response));
            assertEquals(1.0 / (1 + distance), hit.score(), 1e-6, "score of " + hit.id());
            previous = distance;
        }
    }

    private static Set<String> articlesOf(java.util.Collection<String> ids) {
        return ids.stream().map(articleOf::get).collect(Collectors.toCollection(TreeSet::new));
    }

    /** A plugin endpoint (or a setup call) through opensearch-java's generic client; fails on anything but 200. */
    private static JsonObject call(String method, String endpoint, String json) throws IOException {
        Requests.JsonBodyBuilder request = Requests.builder().method(method).endpoint(endpoint);
        if (json != null) {
            request.json(json);
        }
        try (Response response = client.generic().execute(request.build())) {
            assertEquals(200, response.getStatus(), () -> method + " " + endpoint + ": " + bodyOf(response));
            return response.getBody().map(b -> Json.createReader(b.body()).readObject()).orElse(JsonValue.EMPTY_JSON_OBJECT);
        }
    }

    private static String bodyOf(Response response) {
        return response.getBody().map(Body::bodyAsString).orElse("") + " (HTTP " + response.getStatus() + ")";
    }
}
