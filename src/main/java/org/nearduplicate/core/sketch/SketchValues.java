package org.nearduplicate.core.sketch;

import java.math.BigInteger;
import java.util.Map;

/**
 * The value contract of sketches in documents and requests, whatever platform reads the JSON: a fingerprint is a string
 * (hex or decimal, {@link Fingerprints#parse}) or an integral number (unsigned 64-bit values above
 * {@code Long.MAX_VALUE} arrive as big integers), and the ingest processors store the object
 * {@code {"fingerprint": ..., "algorithm": ...}} (SimHash from v4 with {@code signature}, from v7 also {@code keys};
 * MinHash: its signature key instead). An adapter hands over the Java
 * values its JSON reader made (strings, boxed numbers, maps) and keeps only its own types (parser tokens, byte refs).
 */
public final class SketchValues {
    /** The key of the fingerprint in the {@code simhash} processor's object. */
    public static final String FINGERPRINT = "fingerprint";
    /** The key of the verification signature in the {@code simhash} processor's object (from {@code simhash-v4}). */
    public static final String SIGNATURE = "signature";
    /**
     * The key of the candidate keys in the {@code simhash} processor's object (from {@code simhash-v7}): base64 of
     * every key's hash by key number ({@code core.keys.StoredKeys}, which also parses it back).
     */
    public static final String KEYS = "keys";
    /** The key of the algorithm id in every processor's object. */
    public static final String ALGORITHM = "algorithm";

    private SketchValues() {}

    /**
     * A value as stored in a document: the processor object's sketch value and algorithm, or a bare value whose
     * algorithm is unknown (null). {@code value} is null when the object lacks its value key: the caller's error.
     */
    public record Stored(Object value, String algorithm) {
        /**
         * Unpacks {@code value}: a map is the processor's object ({@code valueKey}, e.g. {@link #FINGERPRINT}, and
         * {@code algorithmKey}); anything else is the bare value.
         */
        public static Stored of(Object value, String valueKey, String algorithmKey) {
            if (value instanceof Map<?, ?> map) {
                Object algorithm = map.get(algorithmKey);
                return new Stored(map.get(valueKey), algorithm == null ? null : algorithm.toString());
            }
            return new Stored(value, null);
        }
    }

    /**
     * Reads a fingerprint from a query or source value: strings and integral numbers.
     *
     * @throws IllegalArgumentException for anything else or an invalid fingerprint
     */
    public static long fingerprint(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("fingerprint must not be null");
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
}
