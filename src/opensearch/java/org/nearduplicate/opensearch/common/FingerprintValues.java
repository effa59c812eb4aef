package org.nearduplicate.opensearch.common;

import org.apache.lucene.util.BytesRef;

import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.orchestration.field.SimHashField;

/**
 * Fingerprints as they arrive on the platform: JSON tokens of queries, rescorers and mappings, and values of
 * {@code _source}, doc values or ingest documents. The contract itself (strings hex or decimal, integral numbers) is
 * {@link SketchValues#fingerprint}, read by {@link SimHashField#fingerprint}; this adapter only hands the parser over.
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
        return SimHashField.fingerprint(value);
    }

    /**
     * Reads a fingerprint at the parser's current (value) token.
     *
     * @throws IllegalArgumentException for another token or an invalid fingerprint
     */
    public static long parseToken(XContentParser parser) throws IOException {
        return SimHashField.fingerprint(new XContentValueReader(parser));
    }
}
