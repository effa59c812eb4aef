package org.nearduplicate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.elasticsearch.core.search.Rescore;
import co.elastic.clients.json.JsonData;
import co.elastic.clients.json.JsonpDeserializer;
import co.elastic.clients.json.JsonpUtils;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import java.io.StringReader;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The JSON the typed query sends, its custom-variant form, the rescorer, its checks and the distance read back from a hit. */
class NearDuplicateQueryTest {
    private static final JacksonJsonpMapper MAPPER = new JacksonJsonpMapper();

    @Test
    void fingerprintProbeWithEveryOption() {
        NearDuplicateQuery query = NearDuplicateQuery.of(q -> q.field("simhash")
            .fingerprint("8f3a0c11d2e4b607")
            .algorithm("simhash-v1:content_type=auto")
            .maxDistance(20)
            .allowScan(true)
            .ignoreUnmapped(true)
            .boost(2)
            .queryName("dup"));
        assertEquals("{\"near_duplicate\":{\"field\":\"simhash\",\"fingerprint\":\"8f3a0c11d2e4b607\","
            + "\"algorithm\":\"simhash-v1:content_type=auto\",\"max_distance\":20,\"allow_scan\":true,"
            + "\"ignore_unmapped\":true,\"boost\":2.0,\"_name\":\"dup\"}}", query.toJsonString());
    }

    @Test
    void longFingerprintIsSentAsSixteenHexDigits() {
        assertEquals("{\"near_duplicate\":{\"field\":\"fp\",\"fingerprint\":\"000000000000002a\"}}",
            NearDuplicateQuery.of(q -> q.field("fp").fingerprint(42L)).toJsonString());
        assertEquals("{\"near_duplicate\":{\"field\":\"fp\",\"fingerprint\":\"ffffffffffffffff\"}}",
            NearDuplicateQuery.of(q -> q.field("fp").fingerprint(-1L)).toJsonString());
    }

    @Test
    void likeTextAndHtmlProbes() {
        assertEquals("{\"near_duplicate\":{\"field\":\"simhash\",\"like\":{\"_index\":\"pages\",\"_id\":\"42\",\"routing\":\"r1\"},"
            + "\"max_distance\":3}}",
            NearDuplicateQuery.of(q -> q.field("simhash").like("pages", "42", "r1").maxDistance(3)).toJsonString());
        assertEquals("{\"near_duplicate\":{\"field\":\"simhash\",\"text\":\"a \\\"quoted\\\" line\\n\"}}",
            NearDuplicateQuery.of(q -> q.field("simhash").text("a \"quoted\" line\n")).toJsonString());
        assertEquals("{\"near_duplicate\":{\"field\":\"simhash\",\"html\":\"<p>héllo</p>\"}}",
            NearDuplicateQuery.of(q -> q.field("simhash").html("<p>héllo</p>")).toJsonString());
    }

    @Test
    void toQueryIsTheCustomVariantOfTheTypedApi() {
        NearDuplicateQuery nearDuplicate = NearDuplicateQuery.of(q -> q.field("simhash").text("café 東京").maxDistance(8).queryName("dup"));
        Query query = nearDuplicate.toQuery();
        assertTrue(query._isCustom());
        assertEquals("near_duplicate", query._customKind());
        // the client writes the clause exactly as the node reads it ...
        assertEquals(nearDuplicate.toJsonString(), JsonpUtils.toJsonString(query, MAPPER));
        // ... also inside a bool filter
        Query bool = Query.of(b -> b.bool(f -> f.filter(query)));
        assertEquals("{\"bool\":{\"filter\":[" + nearDuplicate.toJsonString() + "]}}", JsonpUtils.toJsonString(bool, MAPPER));
        // and the same JSON read back with withJson is the same custom variant
        Query parsed = Query.of(q -> q.withJson(new StringReader(nearDuplicate.toJsonString())));
        assertTrue(parsed._isCustom());
        assertEquals("near_duplicate", parsed._customKind());
        assertEquals(nearDuplicate.toJsonString(), JsonpUtils.toJsonString(parsed, MAPPER));
    }

    @Test
    void toRescoreWritesTheRescorerWithItsOwnOptions() {
        NearDuplicateQuery nearDuplicate = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint(42L).maxDistance(8)
            .queryName("not for the rescorer").boost(3));
        Rescore rescore = nearDuplicate.toRescore(r -> r.windowSize(100).scoreMode("filter").queryWeight(0.5f).rescoreWeight(2));
        assertTrue(rescore._isCustom());
        assertEquals("{\"window_size\":100,\"near_duplicate\":{\"field\":\"simhash\",\"fingerprint\":\"000000000000002a\","
            + "\"max_distance\":8,\"score_mode\":\"filter\",\"query_weight\":0.5,\"rescore_weight\":2.0}}",
            JsonpUtils.toJsonString(rescore, MAPPER));
        // no window: the node's default
        assertEquals("{\"near_duplicate\":{\"field\":\"simhash\",\"like\":{\"_index\":\"pages\",\"_id\":\"7\"}}}",
            JsonpUtils.toJsonString(NearDuplicateQuery.of(q -> q.field("simhash").like("pages", "7")).toRescore(r -> r), MAPPER));
        // in a search request
        SearchRequest request = SearchRequest.of(s -> s.index("pages").query(q -> q.matchAll(m -> m)).rescore(rescore));
        assertTrue(JsonpUtils.toJsonString(request, MAPPER).contains("\"rescore\":[{\"window_size\":100,\"near_duplicate\":{"),
            JsonpUtils.toJsonString(request, MAPPER));
    }

    @Test
    void needsAFieldAndExactlyOneProbe() {
        assertThrows(NullPointerException.class, () -> NearDuplicateQuery.of(q -> q.text("x")));
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> NearDuplicateQuery.of(q -> q.field("simhash")));
        assertTrue(none.getMessage().contains("exactly one of fingerprint, like, text or html; got 0"), none.getMessage());
        IllegalStateException two = assertThrows(IllegalStateException.class,
            () -> NearDuplicateQuery.of(q -> q.field("simhash").text("x").like("pages", "1")));
        assertTrue(two.getMessage().contains("got 2"), two.getMessage());
        assertThrows(IllegalStateException.class, () -> NearDuplicateQuery.of(q -> q.field("simhash").text("x").algorithm("simhash-v1")));
    }

    @Test
    void distanceIsReadFromTheHitFields() {
        Hit<JsonData> near = hit("{\"_index\":\"pages\",\"_id\":\"1\",\"_score\":0.25,\"fields\":{\"_near_duplicate_distance\":[3]}}");
        assertEquals(OptionalInt.of(3), NearDuplicateQuery.distance(near));
        Hit<JsonData> other = hit("{\"_index\":\"pages\",\"_id\":\"2\",\"_score\":1.0}");
        assertEquals(OptionalInt.empty(), NearDuplicateQuery.distance(other));
    }

    private static Hit<JsonData> hit(String json) {
        JsonpDeserializer<Hit<JsonData>> deserializer = Hit.createHitDeserializer(JsonData._DESERIALIZER);
        return deserializer.deserialize(MAPPER.jsonProvider().createParser(new StringReader(json)), MAPPER);
    }
}
