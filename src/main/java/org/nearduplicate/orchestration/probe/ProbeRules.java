package org.nearduplicate.orchestration.probe;

import org.nearduplicate.core.AlgorithmIds;
import org.nearduplicate.core.sketch.SketchValues;

/**
 * What a probe of a query or rescorer becomes, whatever the platform: exactly one of a given sketch value (a
 * fingerprint, a signature), a {@code like} document, a {@code text} or an {@code html}; a given value's
 * {@code algorithm} must be the target field's; a {@code like} document's stored value is the value itself or the
 * ingest processor's object with it. The adapters' probes hold the values and their wire formats, and call these rules.
 */
public final class ProbeRules {
    private ProbeRules() {}

    /**
     * Requires exactly one probe among the {@code givenValues} sketch values (named by {@code valueKeys}, e.g.
     * {@code fingerprint}) and the {@code like}, {@code text} and {@code html} probes.
     *
     * @throws IllegalArgumentException otherwise
     */
    public static void requireOne(int givenValues, String[] valueKeys, boolean like, boolean text, boolean html) {
        int probes = givenValues + (like ? 1 : 0) + (text ? 1 : 0) + (html ? 1 : 0);
        if (probes != 1) {
            StringBuilder keys = new StringBuilder();
            for (String key : valueKeys)
                keys.append('[').append(key).append("], ");
            throw new IllegalArgumentException(
                "exactly one of " + keys + "[like], [text] or [html] is required, got " + (probes == 0 ? "none" : probes)
            );
        }
    }

    /**
     * Requires an {@code algorithm} only next to a sketch value (named by {@code valueKey}).
     *
     * @throws IllegalArgumentException otherwise
     */
    public static void requireAlgorithmWithValue(boolean algorithm, int givenValues, String valueKey) {
        if (algorithm && givenValues == 0) {
            throw new IllegalArgumentException(
                "[algorithm] describes a [" + valueKey + "] probe and cannot be combined with [like], [text] or [html]"
            );
        }
    }

    /**
     * @param algorithm the algorithm the probe names (null: none, assumed to be the field's)
     * @param subject   e.g. {@code the probe fingerprint was}
     * @param plural    e.g. {@code fingerprints}
     * @throws IllegalArgumentException if the probe names an algorithm whose values do not compare with the field's
     *                                  ({@link AlgorithmIds#comparable})
     */
    public static void requireFieldAlgorithm(String algorithm, String field, String fieldAlgorithm, String subject, String plural) {
        if (algorithm != null && AlgorithmIds.comparable(algorithm, fieldAlgorithm) == false) {
            throw new IllegalArgumentException(
                subject
                    + " made with algorithm ["
                    + algorithm
                    + "] but field ["
                    + field
                    + "] is mapped with algorithm ["
                    + fieldAlgorithm
                    + "]; "
                    + plural
                    + " made differently cannot be compared"
            );
        }
    }

    /** A {@code like} document's stored value: the sketch value itself, or the processor's object with it and its algorithm. */
    public record StoredValue(Object value, String algorithm) {
        /**
         * @param what     names the document in errors, e.g. {@code [like] document [pages][42]}
         * @param valueKey the object's key of the sketch value, e.g. {@code fingerprint}
         * @throws IllegalArgumentException if the object has no such key
         */
        public static StoredValue of(String what, String field, Object value, String valueKey, String algorithmKey) {
            SketchValues.Stored stored = SketchValues.Stored.of(value, valueKey, algorithmKey);
            if (stored.value() == null) {
                throw new IllegalArgumentException(what + " has no [" + valueKey + "] in field [" + field + "]");
            }
            return new StoredValue(stored.value(), stored.algorithm());
        }
    }

    /** The error of a {@code like} document whose field holds no valid value. */
    public static IllegalArgumentException invalidStoredValue(String what, String field, IllegalArgumentException e) {
        return new IllegalArgumentException(what + " has an invalid value in field [" + field + "]: " + e.getMessage(), e);
    }
}
