package org.nearduplicate.opensearch.common;

import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;

import static org.hamcrest.Matchers.containsString;

/** A value of the wrong type is the same 400 naming the option on every OpenSearch version, whatever its JSON library. */
public class OptionTokensTests extends OpenSearchTestCase {

    private static XContentParser valueParser(String json) throws IOException {
        XContentParser parser = JsonXContent.jsonXContent.createParser(
            NamedXContentRegistry.EMPTY,
            DeprecationHandler.THROW_UNSUPPORTED_OPERATION,
            "{\"option\": " + json + "}"
        );
        parser.nextToken();
        parser.nextToken();
        parser.nextToken();
        return parser;
    }

    public void testNumbersAndNumericStrings() throws IOException {
        float value = randomFloat() * 100;
        assertEquals(value, OptionTokens.floatValue(valueParser(Float.toString(value)), "q", "boost"), 0f);
        assertEquals(value, OptionTokens.floatValue(valueParser("\"" + value + "\""), "q", "boost"), 0f);
        assertEquals(0.25, OptionTokens.doubleValue(valueParser("0.25"), "q", "min_similarity"), 0d);
        assertEquals(3.0, OptionTokens.doubleValue(valueParser("3"), "q", "min_similarity"), 0d);
    }

    public void testBooleansAndBooleanStrings() throws IOException {
        assertTrue(OptionTokens.booleanValue(valueParser("true"), "q", "allow_scan"));
        assertFalse(OptionTokens.booleanValue(valueParser("false"), "q", "allow_scan"));
        assertTrue(OptionTokens.booleanValue(valueParser("\"true\""), "q", "allow_scan"));
    }

    public void testWrongTypesNameTheOption() throws IOException {
        for (String json : new String[] { "false", "true", "\"abc\"", "null" }) {
            ParsingException e = expectThrows(ParsingException.class, () -> OptionTokens.floatValue(valueParser(json), "q", "boost"));
            assertThat(e.getMessage(), containsString("[q] [boost] must be a number"));
            e = expectThrows(ParsingException.class, () -> OptionTokens.doubleValue(valueParser(json), "q", "min_similarity"));
            assertThat(e.getMessage(), containsString("[q] [min_similarity] must be a number"));
        }
        for (String json : new String[] { "1", "0.5", "\"yes\"", "null" }) {
            ParsingException e = expectThrows(
                ParsingException.class,
                () -> OptionTokens.booleanValue(valueParser(json), "q", "allow_scan")
            );
            assertThat(e.getMessage(), containsString("[q] [allow_scan] must be true or false"));
        }
    }
}
