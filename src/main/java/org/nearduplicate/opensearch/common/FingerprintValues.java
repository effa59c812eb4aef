package org.nearduplicate.opensearch.common;

import org.apache.lucene.util.BytesRef;
import org.nearduplicate.core.sketch.Fingerprints;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.math.BigInteger;

/**
 * The one parser of 64-bit fingerprints as they arrive in OpenSearch: JSON tokens of queries, rescorers and mappings,
 * and values of {@code _source}, doc values or ingest documents. Strings are hex or decimal ({@link Fingerprints#parse});
 * numbers must be integers (unsigned 64-bit values above {@code Long.MAX_VALUE} arrive as big integers).
 */
public final class FingerprintValues {
    private FingerprintValues() {}

    /**
     * Reads a fingerprint from a query or source value: strings, {@link BytesRef}s holding such strings, and integral
     * numbers.
     *
     * @throws IllegalArgumentException for anything else or an invalid fingerprint
     */
    public static long parse(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("fingerprint must not be null");
        }
        if (value instanceof BytesRef bytes) {
            return Fingerprints.parse(bytes.utf8ToString());
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big) {
            return Fingerprints.fromBigInteger(big, big.toString());
        }
        if (value instanceof Number n) {
            throw new IllegalArgumentException("invalid fingerprint [" + n + "]: a numeric fingerprint must be an integer");
        }
        if (value instanceof String s) {
            return Fingerprints.parse(s);
        }
        throw new IllegalArgumentException(
            "invalid fingerprint: expected a string or an integer, got [" + value.getClass().getSimpleName() + "]"
        );
    }

    /**
     * Reads a fingerprint at the parser's current (value) token.
     *
     * @throws IllegalArgumentException for another token or an invalid fingerprint
     */
    public static long parseToken(XContentParser parser) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_STRING) {
            return Fingerprints.parse(parser.text());
        }
        if (token == XContentParser.Token.VALUE_NUMBER) {
            switch (parser.numberType()) {
                case INT:
                case LONG:
                    return parser.longValue();
                case BIG_INTEGER:
                    BigInteger big = (BigInteger) parser.numberValue();
                    return Fingerprints.fromBigInteger(big, big.toString());
                default:
                    throw new IllegalArgumentException(
                        "invalid fingerprint [" + parser.text() + "]: a numeric fingerprint must be an integer"
                    );
            }
        }
        throw new IllegalArgumentException("invalid fingerprint: expected a string or an integer, got [" + token + "]");
    }
}
