package org.nearduplicate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.json.JsonpDeserializer;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.search.Hit;

/** The JSON the typed query sends, its wrapper form, its checks and the distance read back from a hit. */
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
    void toQueryWrapsTheClauseForTheTypedApi() {
        NearDuplicateQuery nearDuplicate = NearDuplicateQuery.of(q -> q.field("simhash").text("café 東京").maxDistance(8));
        Query query = nearDuplicate.toQuery();
        assertTrue(query.isWrapper());
        String decoded = new String(Base64.getDecoder().decode(query.wrapper().query()), StandardCharsets.UTF_8);
        assertEquals(nearDuplicate.toJsonString(), decoded);
        // and it serializes inside a bool filter as the node expects a wrapper clause
        Query bool = Query.of(b -> b.bool(f -> f.filter(query)));
        assertEquals("{\"bool\":{\"filter\":[{\"wrapper\":{\"query\":\"" + query.wrapper().query() + "\"}}]}}",
            bool.toJsonString());
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
