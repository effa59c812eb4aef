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
