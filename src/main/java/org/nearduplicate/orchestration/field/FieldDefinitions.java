package org.nearduplicate.orchestration.field;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.core.MaxDistance;

/**
 * How a mapping reads, whatever the platform it comes from: a mapping as a map (the {@code _doc} level, with
 * {@code properties}) and a field's definition in it. Where a dotted field path is defined (objects'
 * {@code properties} and multi-fields' {@code fields}), its type and algorithm, and the {@code max_distance} a
 * {@code simhash} field promises. The adapters only fetch the maps.
 */
public final class FieldDefinitions {
    private FieldDefinitions() {}

    /** The definition of a dotted field path, through objects' {@code properties} and multi-fields' {@code fields}; or null. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> definition(Map<String, Object> root, String path) {
        Map<String, Object> node = root;
        for (String part : path.split("\\.", -1)) {
            Object child = null;
            if (node.get("properties") instanceof Map<?, ?> properties) child = properties.get(part);
            if (child == null && node != root && node.get("fields") instanceof Map<?, ?> fields) child = fields.get(part);
            if (child instanceof Map == false) return null;
            node = (Map<String, Object>) child;
        }
        return node == root ? null : node;
    }

    /** As {@link #definition(Map, String)}, and the target's definition for a field {@code alias}. */
    public static Map<String, Object> definitionThroughAlias(Map<String, Object> root, String path) {
        Map<String, Object> node = definition(root, path);
        if (node != null && "alias".equals(node.get("type")) && node.get("path") instanceof String target) node = definition(root, target);
        return node;
    }

    /** The type of a definition ({@code object} when it names none: an object field), or null for no definition. */
    public static String type(Map<String, ?> definition) {
        return definition == null ? null : String.valueOf(definition.containsKey("type") ? definition.get("type") : "object");
    }

    /** The {@code algorithm} of a definition of type {@code fieldType}, or null when it is of another type or names none. */
    public static String algorithm(Map<String, ?> definition, String fieldType) {
        if (definition == null || fieldType.equals(definition.get("type")) == false || definition.get("algorithm") == null) return null;
        return definition.get("algorithm").toString();
    }

    /**
     * The {@code max_distance} a {@code simhash} definition maps, capped by the recommended k of its algorithm
     * ({@link MaxDistance#recommended}), so that a field of {@code simhash-v1} keeps its default; null when it is no
     * {@code simhash} field or maps none.
     */
    public static Integer simHashMaxDistance(Map<String, ?> definition) {
        if (definition != null
            && SimHashField.TYPE.equals(definition.get("type"))
            && definition.get(SimHashField.MAX_DISTANCE) instanceof Number k) {
            Object algorithm = definition.get("algorithm");
            return Math.min(k.intValue(), MaxDistance.recommended(algorithm == null ? null : algorithm.toString()));
        }
        return null;
    }

    /**
     * The mapped type at a dotted document path, through objects' {@code properties} only (a multi-field holds no value
     * of its own): {@code object} for objects, null when it is not mapped.
     */
    @SuppressWarnings("unchecked")
    public static String documentPathType(Map<String, Object> root, String path) {
        Object properties = root.get("properties");
        String[] parts = path.split("\\.");
        Map<String, Object> node = null;
        for (String part : parts) {
            if (properties instanceof Map == false) return null;
            Object child = ((Map<String, Object>) properties).get(part);
            if (child instanceof Map == false) return null;
            node = (Map<String, Object>) child;
            properties = node.get("properties");
        }
        if (node == null) return null;
        Object type = node.get("type");
        return type == null ? "object" : type.toString();
    }

    /** The mapping's {@code _meta} (empty when it has none): a mapping update replaces it as a whole. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> meta(Map<String, Object> root) {
        return root.get("_meta") instanceof Map<?, ?> meta ? (Map<String, Object>) meta : Map.of();
    }

    /**
     * The one algorithm of a field among its definitions per index, or null if several or if one maps it with another
     * type than {@code fieldType} (indices whose definition is null, which do not map it, are left out).
     */
    public static String singleAlgorithm(Iterable<Map<String, Object>> definitions, String fieldType) {
        Set<String> algorithms = new HashSet<>();
        for (Map<String, Object> definition : definitions) {
            if (definition == null) {
                continue; // not mapped there: that index matches nothing or reports it
            }
            String algorithm = algorithm(definition, fieldType);
            if (algorithm == null) return null;
            algorithms.add(algorithm);
        }
        return algorithms.size() == 1 ? algorithms.iterator().next() : null;
    }

    /**
     * The {@code simhash} definition of {@code field} in the one index {@code index} names, or a 400 naming what is
     * missing. {@code indices}: how many indices it names; {@code concreteIndex} and {@code definition}: the first one's
     * name and definition of the field (null when it maps none), read only when there is one.
     */
    public static Map<String, Object> simHashField(
        String index,
        int indices,
        String concreteIndex,
        Map<String, Object> definition,
        String field
    ) {
        if (indices == 0) {
            throw new IllegalArgumentException("no index matches [" + index + "]");
        }
        if (indices > 1) {
            throw new IllegalArgumentException("[" + index + "] matches " + indices + " indices; name one index");
        }
        if (definition == null) {
            throw new IllegalArgumentException("index [" + concreteIndex + "] has no field [" + field + "]");
        }
        if (SimHashField.TYPE.equals(definition.get("type")) == false) {
            throw new IllegalArgumentException("field [" + field + "] of index [" + concreteIndex + "] is not a [simhash] field");
        }
        return definition;
    }

    /**
     * The longest of the {@code index.refresh_interval}s of some indices, in milliseconds; -1 when one of them has
     * refresh disabled (negative); {@code defaultMillis} when there are none.
     */
    public static long longestRefresh(Iterable<Long> intervalMillis, long defaultMillis) {
        long longest = -2;
        for (long interval : intervalMillis) {
            if (interval < 0) return -1;
            longest = Math.max(longest, interval);
        }
        return longest == -2 ? defaultMillis : longest;
    }
}
