package org.nearduplicate.opensearch.common;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.core.MaxDistance;

/**
 * {@code max_distance} as it arrives in the platform's JSON: the parse field of the query and the rescorer, and the
 * token reading that hands the value to the rules in {@link MaxDistance} (the range, the string form, the defaults),
 * so that those rules stay free of platform types.
 */
public final class MaxDistanceParsing {
    public static final ParseField FIELD = new ParseField(MaxDistance.NAME);

    private MaxDistanceParsing() {}

    /**
     * Reads the value at the parser's current token: an integer or an integer string, 0..64. Any other token, null
     * included (an explicit {@code null} is not "absent" in a query), is the same 400 naming the value, e.g.
     * {@code [max_distance] must be an integer between 0 and 64, got [null]}; an object or an array is not read.
     */
    public static int parse(XContentParser parser, String owner) throws IOException {
        XContentParser.Token token = parser.currentToken();
        Object value;
        if (token == XContentParser.Token.VALUE_NUMBER
            && (parser.numberType() == XContentParser.NumberType.INT || parser.numberType() == XContentParser.NumberType.LONG)) {
            value = parser.longValue();
        } else if (token == XContentParser.Token.VALUE_STRING) {
            value = parser.text();
        } else if (token == XContentParser.Token.VALUE_NULL) {
            value = "null";
        } else if (token == XContentParser.Token.START_OBJECT) {
            value = "an object";
        } else if (token == XContentParser.Token.START_ARRAY) {
            value = "an array";
        } else {
            value = parser.text();
        }
        try {
            return MaxDistance.parse(value, owner);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage(), e);
        }
    }
}
