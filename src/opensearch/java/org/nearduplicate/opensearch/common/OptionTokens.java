package org.nearduplicate.opensearch.common;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.core.options.MinSimilarity;

/**
 * Reads the number and boolean options of the plugin's queries and rescorers ({@code boost}, {@code min_similarity},
 * {@code allow_scan}, weights) with the token checked first, so that a value of the wrong type is a 400 that names the
 * option. Calling {@code parser.floatValue()} on a {@code false} lets the JSON library's own exception escape, and
 * that one differs between platforms and versions (which Jackson is bundled and where it is relocated decides between
 * {@code JsonParseException} and {@code InputCoercionException}), so the answer would depend on the node.
 */
public final class OptionTokens {

    private OptionTokens() {}

    /** A number, or a string holding one (the platform's usual coercion). */
    public static float floatValue(XContentParser parser, String owner, String option) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NUMBER || token == XContentParser.Token.VALUE_STRING) {
            try {
                return parser.floatValue();
            } catch (IllegalArgumentException e) {
                throw wrongType(parser, owner, option, "a number", e);
            }
        }
        throw wrongType(parser, owner, option, "a number", null);
    }

    /** A number, or a string holding one (the platform's usual coercion). */
    public static double doubleValue(XContentParser parser, String owner, String option) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NUMBER || token == XContentParser.Token.VALUE_STRING) {
            try {
                return parser.doubleValue();
            } catch (IllegalArgumentException e) {
                throw wrongType(parser, owner, option, "a number", e);
            }
        }
        throw wrongType(parser, owner, option, "a number", null);
    }

    /** {@code min_similarity}: a number (or a string of one) between 0 and 1 ({@link MinSimilarity}). */
    public static double minSimilarity(XContentParser parser, String owner) throws IOException {
        return MinSimilarity.check(doubleValue(parser, owner, MinSimilarity.NAME), owner);
    }

    /** {@code true} or {@code false}, as a boolean or a string. */
    public static boolean booleanValue(XContentParser parser, String owner, String option) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_BOOLEAN || token == XContentParser.Token.VALUE_STRING) {
            try {
                return parser.booleanValue();
            } catch (IllegalArgumentException e) {
                throw wrongType(parser, owner, option, "true or false", e);
            }
        }
        throw wrongType(parser, owner, option, "true or false", null);
    }

    private static ParsingException wrongType(XContentParser parser, String owner, String option, String expected, Exception cause)
        throws IOException {
        return new ParsingException(
            parser.getTokenLocation(),
            "["
                + owner
                + "] ["
                + option
                + "] must be "
                + expected
                + ", got ["
                + (parser.currentToken() == XContentParser.Token.VALUE_NULL ? "null" : parser.text())
                + "]",
            cause
        );
    }
}
