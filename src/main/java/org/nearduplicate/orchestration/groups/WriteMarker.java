package org.nearduplicate.orchestration.groups;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The write-back's record in the index mapping's {@code _meta} ({@link #KEY}): {@code running} from its start, then
 * {@code completed}, {@code completed_with_failures}, {@code failed} or {@code cancelled}, with what ran, by which
 * task, since when and how it ended; and the mappings the write-back adds for its fields.
 *
 * @param task        the run's task, {@code node:id}
 * @param startMillis when the task started
 */
public record WriteMarker(String task, String field, Integer maxDistance, Double minSimilarity, String groupField, String distanceField,
    long startMillis) {

    /** The key of the write-back's marker in the index mapping's {@code _meta}. */
    public static final String KEY = "near_duplicate_write";
    private static final Set<String> INTEGER_TYPES = Set.of("integer", "long", "short", "byte");

    /** The marker's value at {@code status}, with the run's {@code outcome}. */
    public Map<String, Object> value(String status, Map<String, Object> outcome) {
        Map<String, Object> marker = new LinkedHashMap<>();
        marker.put("status", status);
        marker.put("task", task);
        marker.put("field", field);
        if (maxDistance != null) marker.put("max_distance", maxDistance);
        if (minSimilarity != null) marker.put("min_similarity", minSimilarity);
        marker.put("group_field", groupField);
        marker.put("distance_field", distanceField);
        marker.put("started", Instant.ofEpochMilli(startMillis).toString());
        if (status.equals("running") == false) marker.put("ended", Instant.now().toString());
        marker.putAll(outcome);
        return marker;
    }

    /** The index's {@code _meta} with {@code marker} set (a mapping update replaces {@code _meta} as a whole). */
    public static Map<String, Object> withMarker(Map<String, Object> meta, Map<String, Object> marker) {
        Map<String, Object> updated = new LinkedHashMap<>(meta);
        updated.put(KEY, marker);
        return updated;
    }

    /** The status of a write that ended. */
    public static String status(WriteBack.Done done) {
        return done.failureCount() == 0 ? "completed" : "completed_with_failures";
    }

    /** The outcome of a write that ended. */
    public static Map<String, Object> outcome(Grouping.Result result, WriteCounts counts, WriteBack.Done done) {
        Map<String, Object> outcome = new LinkedHashMap<>();
        outcome.put("groups", result.groups().size());
        outcome.put("written", counts.written.get());
        outcome.put("singletons", counts.singletons.get());
        outcome.put("cleared", counts.cleared.get());
        outcome.put("failures", done.failureCount());
        return outcome;
    }

    /** The outcome of a write that failed: documents written until then keep their values; a re-run completes them. */
    public static Map<String, Object> outcome(WriteCounts counts, Exception e) {
        Map<String, Object> outcome = new LinkedHashMap<>();
        outcome.put("written", counts.written.get());
        outcome.put("singletons", counts.singletons.get());
        outcome.put("reason", String.valueOf(e.getMessage()));
        return outcome;
    }

    /**
     * The properties to add for the group fields that are not mapped yet ({@code groupType}, {@code distanceType}:
     * their mapped types, or null); refuses fields mapped with a type that {@code collapse} or a numeric aggregation
     * could not use.
     */
    public static Map<String, Object> missingMappings(String groupField, String groupType, String distanceField, String distanceType) {
        Map<String, Object> missing = new LinkedHashMap<>();
        if (groupType == null) {
            putPath(missing, groupField, Map.of("type", "keyword"), true);
        } else if (groupType.equals("keyword") == false) {
            throw new IllegalArgumentException(
                "[group_field] ["
                    + groupField
                    + "] is mapped as ["
                    + groupType
                    + "]; it must be a [keyword] field for collapse and terms aggregations"
            );
        }
        if (distanceType == null) {
            putPath(missing, distanceField, Map.of("type", "integer"), true);
        } else if (INTEGER_TYPES.contains(distanceType) == false) {
            throw new IllegalArgumentException(
                "[distance_field] [" + distanceField + "] is mapped as [" + distanceType + "]; it must be an integer field"
            );
        }
        return missing;
    }

    /** Puts {@code value} at a dotted path, as objects ({@code properties} objects for a mapping). */
    @SuppressWarnings("unchecked")
    public static void putPath(Map<String, Object> root, String path, Object value, boolean mapping) {
        String[] parts = path.split("\\.");
        Map<String, Object> node = root;
        for (int i = 0; i < parts.length - 1; i++) {
            Map<String, Object> child = (Map<String, Object>) node.computeIfAbsent(parts[i], x -> new LinkedHashMap<String, Object>());
            node = mapping ? (Map<String, Object>) child.computeIfAbsent("properties", x -> new LinkedHashMap<String, Object>()) : child;
        }
        node.put(parts[parts.length - 1], value);
    }
}
