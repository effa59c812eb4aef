package org.nearduplicate.opensearch.common;

import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;

import org.nearduplicate.core.MaxDistance;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

/** One range (0..64), one format (integer or integer string) and one default rule for every caller of max_distance. */
public class MaxDistanceTests extends OpenSearchTestCase {

    private static XContentParser valueParser(String json) throws IOException {
        XContentParser parser = JsonXContent.jsonXContent.createParser(
            NamedXContentRegistry.EMPTY,
            DeprecationHandler.THROW_UNSUPPORTED_OPERATION,
            "{\"max_distance\": " + json + "}"
        );
        parser.nextToken();
        parser.nextToken();
        parser.nextToken();
        return parser;
    }

    public void testAcceptsIntegersAndIntegerStringsInRange() throws IOException {
        int k = randomIntBetween(0, 64);
        assertEquals(k, MaxDistanceParsing.parse(valueParser(Integer.toString(k)), "q"));
        assertEquals(k, MaxDistanceParsing.parse(valueParser("\"" + k + "\""), "q"));
        assertEquals(Integer.valueOf(k), MaxDistance.parse((Object) k, "q"));
        assertEquals(Integer.valueOf(k), MaxDistance.parse((Object) (" " + k + " "), "q"));
        assertEquals(Integer.valueOf(k), MaxDistance.parse((Object) (long) k, "q"));
        assertEquals(k, MaxDistance.check(k, "q"));
        assertNull(MaxDistance.parse((Object) null, "q"));
        assertNull(MaxDistance.checkOptional(null, "q"));
    }

    public void testRejectsEverythingElseNamingTheOptionAndOwner() throws IOException {
        int outside = randomBoolean() ? randomIntBetween(-1000, -1) : randomIntBetween(65, 1000);
        ParsingException range = expectThrows(
            ParsingException.class,
            () -> MaxDistanceParsing.parse(valueParser(Integer.toString(outside)), "q")
        );
        assertThat(range.getMessage(), containsString("[q] [max_distance] must be between 0 and 64, got " + outside));
        for (String json : new String[] { "1.5", "\"x\"", "true", "99999999999" }) {
            ParsingException e = expectThrows(ParsingException.class, () -> MaxDistanceParsing.parse(valueParser(json), "near_duplicate"));
            assertThat(json, e.getMessage(), containsString("[near_duplicate] [max_distance] must be an integer between 0 and 64"));
        }
        for (Object value : new Object[] { 1.5, "x", true, 1L << 40 }) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> MaxDistance.parse(value, null));
            assertThat(e.getMessage(), startsWith("[max_distance] must be an integer between 0 and 64"));
        }
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> MaxDistance.check(outside, "near_duplicate"));
        assertEquals("[near_duplicate] [max_distance] must be between 0 and 64, got " + outside, e.getMessage());
    }

    /** Issue 23: an explicit null was reported as "an object or array value"; a JSON null, object or array names the option. */
    public void testNullObjectAndArrayValuesNameTheOption() throws IOException {
        for (String[] jsonAndShown : new String[][] { { "null", "[null]" }, { "{\"k\": 3}", "[an object]" }, { "[3]", "[an array]" } }) {
            XContentParser parser = valueParser(jsonAndShown[0]);
            ParsingException e = expectThrows(ParsingException.class, () -> MaxDistanceParsing.parse(parser, "near_duplicate"));
            assertEquals("[near_duplicate] [max_distance] must be an integer between 0 and 64, got " + jsonAndShown[1], e.getMessage());
        }
    }

    /** Only ASCII digits: {@code Long.parseLong} alone reads fullwidth and Arabic-Indic digits too. */
    public void testOnlyAsciiDigitStrings() throws IOException {
        for (String digits : new String[] { "\uff11\uff15", "\u0661\u0665" }) { // fullwidth 15, Arabic-Indic 15
            ParsingException e = expectThrows(
                ParsingException.class,
                () -> MaxDistanceParsing.parse(valueParser("\"" + digits + "\""), "q")
            );
            assertThat(e.getMessage(), containsString("[q] [max_distance] must be an integer between 0 and 64, got [" + digits + "]"));
            expectThrows(IllegalArgumentException.class, () -> MaxDistance.parse((Object) digits, null));
        }
        assertEquals(Integer.valueOf(15), MaxDistance.parse((Object) "+15", null));
        assertEquals(15, MaxDistanceParsing.parse(valueParser("\" 15 \""), "q"));
    }

    public void testAbsentMeansTheRecommendedDistanceCappedByTheField() {
        int field = randomIntBetween(0, 16);
        int requested = randomIntBetween(0, 64);
        assertEquals(Math.min(MaxDistance.RECOMMENDED, field), MaxDistance.orField(null, field));
        assertEquals(3, MaxDistance.orField(null, 3)); // an index made by 0.1.0 keeps its default
        assertEquals(MaxDistance.RECOMMENDED, MaxDistance.orField(null, 16));
        assertEquals(requested, MaxDistance.orField(requested, field));
    }
}
