package org.nearduplicate.opensearch.index.query.simhash;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.opensearch.index.query.ProbeQueryBuilder;
import org.nearduplicate.opensearch.index.query.minhash.MinHashQueryBuilder;

import static org.hamcrest.Matchers.containsString;

/** Parsing, rendering and the Java API of the {@code near_duplicate} and {@code minhash_similar} queries. */
public class SimHashQueryParseTests extends PlatformTestCase {
    private ProbeQueryBuilder<?, ?, ?> parseQuery(String json) throws IOException {
        try (XContentParser parser = jsonParser(json)) {
            parser.nextToken();
            parser.nextToken();
            String name = parser.currentName();
            parser.nextToken();
            return name.equals("near_duplicate") ? SimHashQueryBuilder.fromXContent(parser) : MinHashQueryBuilder.fromXContent(parser);
        }
    }

    public void testRoundTrips() throws IOException {
        String[] jsons = {
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"0x00000000000000ff\", \"max_distance\": 2, \"allow_scan\": true, \"boost\": 2.0, \"_name\": \"dupes\"}}",
            "{\"near_duplicate\": {\"field\": \"fp\", \"text\": \"hello world\", \"min_similarity\": 0.5}}",
            "{\"near_duplicate\": {\"field\": \"fp\", \"text\": \"hello world\", \"exact\": true}}",
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"signature\": \""
                + "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20\", \"keys\": \""
                + KEYS
                + "\"}}",
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprints\": [\"00000000000000ff\", \"00000000000000fe\"], "
                + "\"keys\": [\""
                + KEYS
                + "\", null], \"exact\": false}}",
            "{\"near_duplicate\": {\"field\": \"fp\", \"like\": {\"_index\": \"p\", \"_id\": \"1\", \"routing\": \"r\"}, \"ignore_unmapped\": true}}",
            "{\"near_duplicate\": {\"field\": \"fp\", \"like\": {\"_index\": \"p\", \"_id\": \"1\"}, \"include_like\": false}}",
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"excluded_like\": {\"_index\": \"p\", \"_id\": \"1\"}}}",
            "{\"minhash_similar\": {\"field\": \"mh\", \"like\": {\"_index\": \"p\", \"_id\": \"1\"}, \"include_like\": false}}",
            "{\"minhash_similar\": {\"field\": \"mh\", \"text\": \"a b c\"}}",
            "{\"minhash_similar\": {\"field\": \"mh\", \"html\": \"<p>a b c</p>\", \"min_similarity\": 0.3}}" };
        for (String json : jsons) {
            ProbeQueryBuilder<?, ?, ?> q = parseQuery(json);
            String rendered = json(q);
            ProbeQueryBuilder<?, ?, ?> again = parseQuery(rendered);
            assertEquals(q, again);
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                q.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    Object read = q instanceof SimHashQueryBuilder ? new SimHashQueryBuilder(in) : new MinHashQueryBuilder(in);
                    assertEquals(q, read);
                }
            }
        }
    }

    public void testParseFullQuery() throws IOException {
        String json = "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"0x00000000000000ff\", \"max_distance\": 2, "
            + "\"allow_scan\": false, \"boost\": 2.0, \"_name\": \"dupes\"}}";
        SimHashQueryBuilder parsed = (SimHashQueryBuilder) parseQuery(json);
        assertEquals("fp", parsed.fieldName());
        assertEquals(Long.valueOf(255), parsed.probe().fingerprint());
        assertEquals(Integer.valueOf(2), parsed.maxDistance());
        assertEquals(2.0f, parsed.boost(), 0f);
        assertEquals("dupes", parsed.queryName());
        // canonical output: hex fingerprint
        assertThat(json(parsed), containsString("\"fingerprint\":\"00000000000000ff\""));
    }

    /** 112 bytes of packed key hashes, base64: the form simhash-v7's processor stores and a probe carries. */
    private static final String KEYS = java.util.Base64.getEncoder().encodeToString(new byte[112]);

    /**
     * {@code exact} (default false) and a probe's candidate {@code keys} (simhash-v7): parsed, rendered (exact only when
     * true), on the wire, and in equals; keys are a base64 string with a fingerprint, an array with fingerprints.
     */
    public void testExactAndKeys() throws IOException {
        SimHashQueryBuilder plain = (SimHashQueryBuilder) parseQuery("{\"near_duplicate\": {\"field\": \"fp\", \"text\": \"a b\"}}");
        assertFalse(plain.exact());
        assertThat(json(plain), org.hamcrest.Matchers.not(containsString("exact")));
        SimHashQueryBuilder exact = (SimHashQueryBuilder) parseQuery(
            "{\"near_duplicate\": {\"field\": \"fp\", \"text\": \"a b\", \"exact\": \"true\"}}"
        );
        assertTrue(exact.exact());
        assertThat(json(exact), containsString("\"exact\":true"));
        assertNotEquals(plain, exact);
        assertNotEquals(plain.hashCode(), exact.hashCode());
        assertEquals(exact, new SimHashQueryBuilder("fp", SimHashProbe.text("a b")).exact(true));
        assertEquals(
            new SimHashQueryOptions(3, true, 0.5, true),
            new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(1)).options(new SimHashQueryOptions(null, false, 0.5, true))
                .maxDistance(3)
                .allowScan(true)
                .options()
        );
        assertParseError("{\"near_duplicate\": {\"field\": \"fp\", \"text\": \"a b\", \"exact\": \"yes\"}}", "exact");

        SimHashQueryBuilder keyed = (SimHashQueryBuilder) parseQuery(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"keys\": \"" + KEYS + "\"}}"
        );
        assertArrayEquals(new byte[112], keyed.probe().keys());
        assertThat(json(keyed), containsString("\"keys\":\"" + KEYS + "\""));
        assertNotEquals(keyed, parseQuery("{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\"}}"));
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"keys\": \"%%%\"}}",
            "invalid [keys] [%%%]: not base64"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"keys\": 7}}",
            "[keys]: candidate keys are a base64 string"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"keys\": [\"" + KEYS + "\"]}}",
            "[keys] as an array must give one entry (or null) per entry of [fingerprints]"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprints\": [\"00000000000000ff\"], \"keys\": \"" + KEYS + "\"}}",
            "[keys] as one string goes with one [fingerprint]"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprints\": [\"00000000000000ff\"], \"keys\": [\"" + KEYS + "\", null]}}",
            "[keys] as an array must give one entry (or null) per entry of [fingerprints]"
        );
        assertParseError("{\"near_duplicate\": {\"field\": \"fp\", \"text\": \"a\", \"keys\": \"" + KEYS + "\"}}", "[keys] goes with");
    }

    /** Setting one option through the Java API keeps the others, min_similarity included. */
    public void testOptionSettersKeepTheOtherOptions() {
        SimHashQueryBuilder builder = new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(1)).options(
            new SimHashQueryOptions(null, false, 0.5)
        );
        builder.maxDistance(4).allowScan(true);
        assertEquals(new SimHashQueryOptions(4, true, 0.5), builder.options());
        IllegalArgumentException range = expectThrows(IllegalArgumentException.class, () -> new SimHashQueryOptions(null, false, 1.5));
        assertEquals("[near_duplicate] [min_similarity] must be between 0 and 1, got 1.5", range.getMessage());
    }

    public void testNumericAndDecimalFingerprints() throws IOException {
        SimHashQueryBuilder number = (SimHashQueryBuilder) parseQuery(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": 18446744073709551615}}"
        );
        assertEquals(Long.valueOf(-1L), number.probe().fingerprint());
        SimHashQueryBuilder negative = (SimHashQueryBuilder) parseQuery("{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": -5}}");
        assertEquals(Long.valueOf(-5L), negative.probe().fingerprint());
        SimHashQueryBuilder decimalString = (SimHashQueryBuilder) parseQuery(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"12345\"}}"
        );
        assertEquals(Long.valueOf(12345L), decimalString.probe().fingerprint());
    }

    public void testParseErrors() {
        assertParseError("{\"near_duplicate\": {\"fingerprint\": \"00000000000000ff\"}}", "[near_duplicate] requires [field]");
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\"}}",
            "exactly one of [fingerprint], [fingerprints], [like], [text] or [html] is required, got none"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"text\": \"hello\"}}",
            "exactly one of [fingerprint], [fingerprints], [like], [text] or [html] is required, got 2"
        );
        assertParseError("{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"xyz\"}}", "invalid fingerprint [xyz]");
        // only ASCII hex digits: fullwidth and Arabic-Indic digits are not hex digits (issue 23)
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"\uff18\uff14eac0c067c7944a\"}}",
            "[\uff18] is not a hex digit"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprints\": [\"84eac0c067c7944a\", \"\u0668\u0664eac0c067c7944a\"]}}",
            "[\u0668] is not a hex digit"
        );
        assertParseError("{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"\"}}", "fingerprint must not be empty");
        assertParseError("{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": 1.5}}", "must be an integer");
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"max_distance\": 65}}",
            "[max_distance] must be between 0 and 64, got 65"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"max_distance\": 2.5}}",
            "[max_distance] must be an integer"
        );
        // an explicit null names max_distance's values, not "an object or array value" (issue 23)
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"max_distance\": null}}",
            "[near_duplicate] [max_distance] must be an integer between 0 and 64, got [null]"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"max_distance\": {\"k\": 3}}}",
            "[near_duplicate] [max_distance] must be an integer between 0 and 64, got [an object]"
        );
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"color\": \"red\"}}",
            "[near_duplicate] query does not support [color]"
        );
        assertParseError("{\"near_duplicate\": {\"field\": \"fp\", \"like\": {\"_index\": \"pages\"}}}", "[like] requires [_id]");
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"like\": {\"_index\": \"pages\", \"_id\": \"1\"}, \"algorithm\": \"x\"}}",
            "[algorithm] describes a [fingerprint] probe"
        );
    }

    private void assertParseError(String json, String message) {
        ParsingException e = expectThrows(ParsingException.class, () -> parseQuery(json));
        assertThat(e.getMessage() + (e.getCause() == null ? "" : " / " + e.getCause().getMessage()), containsString(message));
    }

}
