package org.nearduplicate.orchestration.groups;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.orchestration.field.SimHashField;

/** The checks of a groups request that run at once, before any task work, on what the index's mapping says. */
public final class GroupsChecks {
    private GroupsChecks() {}

    /**
     * Refuses a field that {@code index} does not map as {@code simhash} ({@code type} is null when unmapped), and a
     * {@code min_similarity} given for a field whose {@code algorithm} has no verification signatures; the shards check
     * again with their own mappings.
     */
    public static void field(String index, String field, String type, String algorithm, Double minSimilarity) {
        if (type == null) {
            throw new IllegalArgumentException("field [" + field + "] is not mapped in index [" + index + "]");
        }
        if (type.equals(SimHashField.TYPE) == false) {
            throw new IllegalArgumentException("field [" + field + "] is of type [" + type + "], expected [" + SimHashField.TYPE + "]");
        }
        if (minSimilarity != null && algorithm != null && hasSignatures(algorithm) == false) {
            throw noSignatures(field, algorithm);
        }
    }

    /** The 400 of a {@code min_similarity} given for a field whose algorithm has no verification signatures. */
    static IllegalArgumentException noSignatures(String field, String algorithm) {
        return new IllegalArgumentException(
            "[min_similarity] is given, but field ["
                + field
                + "]'s algorithm ["
                + algorithm
                + "] has no verification signatures (simhash-v4 and later have them)"
        );
    }

    /** Whether fingerprints made by {@code algorithm} carry verification signatures. */
    private static boolean hasSignatures(String algorithm) {
        if (algorithm.startsWith(SimHashSettings.NAME + "-v") == false) return false;
        try {
            return SimHashSettings.fromAlgorithmId(algorithm).hasSignature();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
