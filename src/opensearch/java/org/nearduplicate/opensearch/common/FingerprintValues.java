package org.nearduplicate.opensearch.common;

import org.apache.lucene.util.BytesRef;

import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.math.BigInteger;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.SketchValues;

/**
 * Fingerprints as they arrive in OpenSearch: JSON tokens of queries, rescorers and mappings, and values of
 * {@code _source}, doc values or ingest documents. The contract itself (strings hex or decimal, integral numbers) is
 * {@link SketchValues#fingerprint}; this adapter only reads OpenSearch's tokens and {@link BytesRef}s into it.
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
        if (value instanceof BytesRef bytes) {
            return Fingerprints.parse(bytes.utf8ToString());
        }
        return SketchValues.fingerprint(value);
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
