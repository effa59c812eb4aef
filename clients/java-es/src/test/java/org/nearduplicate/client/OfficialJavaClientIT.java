package org.nearduplicate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.aggregations.DateHistogramBucket;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.JsonData;
import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
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
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.message.BasicHeader;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README's flows through elasticsearch-java against a real Elasticsearch node with the plugin: pipeline and
 * index (typed, the simhash processor and field as the client's custom variants), bulk indexing of the demo pages
 * through the pipeline, near_duplicate by fingerprint, text and like (typed, with {@link NearDuplicateQuery}), inside
 * a bool filter with a date histogram (what Kibana Discover sends), the rescorer (typed, a custom rescore variant),
 * _simhash and _near_duplicates (through the client's low-level RestClient). Every answer is checked against Hamming
 * distances computed here from the fingerprints the pipeline stored; the expectations are clients/java's
 * (OfficialJavaClientIT against OpenSearch): the plugin answers the same on both platforms.
 *
 * -Dtests.rest.cluster=host:port selects the node; -Dtests.rest.user and -Dtests.rest.password (both optional) a user
 * of a node with security on.
 */
class OfficialJavaClientIT {
    private static final String INDEX = "clients-java-pages";
    private static final String PIPELINE = "clients-java-fingerprint";
    private static final int K = 8;
    private static final Instant FIRST_DAY = Instant.parse("2026-11-01T00:00:00Z");

    private static RestClient restClient;
    private static ElasticsearchClient client;
    private static JsonpMapper mapper;
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
        RestClientBuilder builder = RestClient.builder(new HttpHost(hostPort[0], Integer.parseInt(hostPort[1]), "http"));
        String user = System.getProperty("tests.rest.user", "");
        if (user.isEmpty() == false) {
            String credentials = user + ":" + System.getProperty("tests.rest.password", "");
            builder.setDefaultHeaders(new Header[] {
                new BasicHeader("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8))) });
        }
        restClient = builder.build();
        mapper = new JacksonJsonpMapper();
        client = new ElasticsearchClient(new RestClientTransport(restClient, mapper));
        demoDir = Path.of(System.getProperty("demo.pages", "../../demo"));

        client.indices().delete(d -> d.index(INDEX).ignoreUnavailable(true));
        // the plugin's processor and field type are custom variants of the typed API
        client.ingest().putPipeline(p -> p.id(PIPELINE)
            .processors(pr -> pr._custom("simhash", Map.of("field", "content", "target_field", "simhash"))));
        client.indices().create(c -> c.index(INDEX)
            .settings(s -> s.numberOfShards("1").numberOfReplicas("0").defaultPipeline(PIPELINE))
            .mappings(m -> m.properties("content", p -> p.text(t -> t))
                // Property is tagged by its "type" member: a custom variant writes its body as is, so the body carries it
                .properties("simhash", p -> p._custom("simhash", Map.of("type", "simhash")))
                .properties("group", p -> p.keyword(k -> k))
                .properties("variant", p -> p.keyword(k -> k))
                .properties("ts", p -> p.date(d -> d))));

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
            JsonObject simhash = hit.source().toJson(mapper).asJsonObject().getJsonObject("simhash");
            fingerprintOf.put(hit.id(), Long.parseUnsignedLong(simhash.getString("fingerprint"), 16));
            storedAlgorithm = simhash.getString("algorithm");
        }
        assertEquals(articleOf.keySet(), fingerprintOf.keySet(), "every demo page has a stored fingerprint");
    }

    @AfterAll
    static void cleanUp() throws IOException {
        if (client != null) {
            client.indices().delete(d -> d.index(INDEX).ignoreUnavailable(true));
            client.ingest().deletePipeline(d -> d.id(PIPELINE));
            client._transport().close();
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

    /** The same query read from its JSON with withJson (how a query kept as JSON goes into the typed API). */
    @Test
    void byFingerprintFromJson() throws IOException {
        long probe = fingerprintOf.get("harbor-bridge-original");
        String json = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint(probe).maxDistance(K)).toJsonString();
        SearchResponse<JsonData> response = client.search(s -> s.index(INDEX).size(100)
            .query(q -> q.withJson(new StringReader(json))), JsonData.class);
        assertEquals(within(probe, K), distancesOf(response));
        assertClosestFirst(response);
    }

    /** What Kibana Discover sends: the query in a bool filter beside a time range, a date histogram, exact totals. */
    @Test
    void insideABoolFilterWithAnAggregation() throws IOException {
        long probe = fingerprintOf.get("library-hours-edited");
        Instant from = FIRST_DAY.plus(1, ChronoUnit.DAYS);
        Instant to = FIRST_DAY.plus(3, ChronoUnit.DAYS);
        Query nearDuplicate = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint(probe).maxDistance(K).queryName("dup")).toQuery();
        Query timeRange = Query.of(q -> q.range(r -> r.date(d -> d.field("ts").gte(from.toString()).lte(to.toString())
            .format("strict_date_optional_time"))));
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

    /** elasticsearch-java's Rescore is an open union: the near_duplicate rescorer goes through the typed API. */
    @Test
    void rescorerKeepsOnlyTheNearDuplicatesOfTheWindow() throws IOException {
        long probe = fingerprintOf.get("harbor-bridge-original");
        Query match = Query.of(q -> q.match(m -> m.field("content").query("the harbor bridge")));
        SearchResponse<JsonData> matched = client.search(s -> s.index(INDEX).size(100).query(match), JsonData.class);
        Set<String> matchedIds = matched.hits().hits().stream().map(Hit::id).collect(Collectors.toSet());

        NearDuplicateQuery probeQuery = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint(probe).maxDistance(K));
        SearchResponse<JsonData> rescored = client.search(s -> s.index(INDEX).size(100).query(match)
            .rescore(probeQuery.toRescore(r -> r.windowSize(100).scoreMode("filter"))), JsonData.class);

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

    /** A plugin endpoint through the client's low-level RestClient (no typed API for it); fails on anything but 200. */
    private static JsonObject call(String method, String endpoint, String json) throws IOException {
        Request request = new Request(method, endpoint);
        if (json != null) {
            request.setJsonEntity(json);
        }
        org.elasticsearch.client.Response response;
        try {
            response = restClient.performRequest(request);
        } catch (ResponseException e) {
            response = e.getResponse();
        }
        String body = response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
        int status = response.getStatusLine().getStatusCode();
        assertEquals(200, status, () -> method + " " + endpoint + ": " + body + " (HTTP " + status + ")");
        return body.isEmpty() ? JsonValue.EMPTY_JSON_OBJECT : Json.createReader(new StringReader(body)).readObject();
    }
}
