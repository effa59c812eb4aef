package org.nearduplicate.opensearch.common;

import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsResponse;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.common.regex.Regex;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.index.IndexSettings;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.nearduplicate.core.MaxDistance;

/**
 * The one reader of field mappings, one method per question, whether the mapping comes from the cluster state (an
 * index's {@link MappingMetadata}) or from a get-field-mappings call made as the caller (so that it is authorized):
 * where a dotted field path is defined (objects' {@code properties} and multi-fields' {@code fields}), its type and
 * algorithm, the {@code max_distance} a {@code simhash} field promises, and an index's {@code refresh_interval}. The
 * transport calls differ per caller; how a mapping reads lives here once.
 */
public final class FieldMappings {
    /**
     * The {@code simhash} field type's name ({@code SimHashFieldMapper.CONTENT_TYPE}: named here because this package
     * is below the mapper's, which uses it).
     */
    public static final String SIMHASH = "simhash";
    /** OpenSearch's default {@code index.refresh_interval}. */
    public static final long DEFAULT_REFRESH_MILLIS = IndexSettings.DEFAULT_REFRESH_INTERVAL.millis();

    private FieldMappings() {}

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

    /** The mapping of {@code index} as a map (empty when it has none). */
    private static Map<String, Object> source(IndexMetadata index) {
        MappingMetadata mapping = index.mapping();
        return mapping == null ? Map.of() : mapping.sourceAsMap();
    }

    /** The definition of {@code path} in {@code index}'s mapping, or null. */
    public static Map<String, Object> definition(IndexMetadata index, String path) {
        return definition(source(index), path);
    }

    /** As {@link #definition(IndexMetadata, String)}, and the target's definition for a field {@code alias}. */
    public static Map<String, Object> definitionThroughAlias(IndexMetadata index, String path) {
        Map<String, Object> root = source(index);
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
        if (definition != null && SIMHASH.equals(definition.get("type")) && definition.get("max_distance") instanceof Number k) {
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
    public static String documentPathType(IndexMetadata index, String path) {
        Object properties = source(index).get("properties");
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
    public static Map<String, Object> meta(IndexMetadata index) {
        return source(index).get("_meta") instanceof Map<?, ?> meta ? (Map<String, Object>) meta : Map.of();
    }

    /** The definition of {@code field} in {@code index} as a get-field-mappings call answered it, or null when not mapped there. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> definition(GetFieldMappingsResponse response, String index, String field) {
        GetFieldMappingsResponse.FieldMappingMetadata metadata = response.fieldMappings(index, field);
        if (metadata == null || metadata.sourceAsMap().isEmpty()) return null;
        Object mapping = metadata.sourceAsMap().values().iterator().next();
        return mapping instanceof Map ? (Map<String, Object>) mapping : Map.of();
    }

    /**
     * The one algorithm of {@code field} among the indices a get-field-mappings call answered for, or null if several or
     * if one maps it with another type (indices that do not map it are left out).
     */
    public static String singleAlgorithm(GetFieldMappingsResponse response, String field, String fieldType) {
        Set<String> algorithms = new HashSet<>();
        for (String index : response.mappings().keySet()) {
            Map<String, Object> definition = definition(response, index, field);
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
     * The {@code simhash} definition of {@code field} in the one index a get-field-mappings call answered for, or a 400
     * naming what is missing.
     */
    public static Map<String, Object> simHashField(GetFieldMappingsResponse response, String index, String field) {
        if (response.mappings().isEmpty()) {
            throw new IllegalArgumentException("no index matches [" + index + "]");
        }
        if (response.mappings().size() > 1) {
            throw new IllegalArgumentException("[" + index + "] matches " + response.mappings().size() + " indices; name one index");
        }
        String concreteIndex = response.mappings().keySet().iterator().next();
        Map<String, Object> definition = definition(response, concreteIndex, field);
        if (definition == null) {
            throw new IllegalArgumentException("index [" + concreteIndex + "] has no field [" + field + "]");
        }
        if (SIMHASH.equals(definition.get("type")) == false) {
            throw new IllegalArgumentException("field [" + field + "] of index [" + concreteIndex + "] is not a [simhash] field");
        }
        return definition;
    }

    /** The indices {@code name} names: an index, alias or data stream, a wildcard pattern, or a comma-separated list of them. */
    public static List<IndexMetadata> resolve(ClusterState state, String name) {
        List<IndexMetadata> result = new ArrayList<>();
        if (state == null || name == null) return result;
        for (String part : name.split(",")) {
            String expression = part.trim();
            if (expression.isEmpty() || expression.startsWith("-")) continue;
            if (Regex.isSimpleMatchPattern(expression)) {
                for (IndexMetadata metadata : state.metadata().indices().values()) {
                    if (Regex.simpleMatch(expression, metadata.getIndex().getName())) result.add(metadata);
                }
                continue;
            }
            IndexAbstraction abstraction = state.metadata().getIndicesLookup().get(expression);
            if (abstraction != null) result.addAll(abstraction.getIndices());
        }
        return result;
    }

    /** The index a write to {@code name} (an index, alias or data stream) goes to, or null when it names none. */
    public static IndexMetadata writeIndex(ClusterState state, String name) {
        if (state == null || name == null) return null;
        IndexAbstraction abstraction = state.metadata().getIndicesLookup().get(name);
        if (abstraction == null || abstraction.getIndices().isEmpty()) return null;
        return abstraction.getWriteIndex() != null ? abstraction.getWriteIndex() : abstraction.getIndices().get(0);
    }

    /** The algorithms {@code field} is mapped with as {@code fieldType} in {@code indices}; empty when none maps it. */
    public static Set<String> algorithms(List<IndexMetadata> indices, String field, String fieldType) {
        Set<String> algorithms = new TreeSet<>();
        for (IndexMetadata metadata : indices) {
            String algorithm = algorithm(definition(metadata, field), fieldType);
            if (algorithm != null) algorithms.add(algorithm);
        }
        return algorithms;
    }

    /** True when {@code indices} is not empty and all of them are closed. */
    public static boolean allClosed(List<IndexMetadata> indices) {
        return indices.isEmpty() == false && indices.stream().allMatch(m -> m.getState() == IndexMetadata.State.CLOSE);
    }

    /**
     * The longest {@code index.refresh_interval} of {@code indices}, in milliseconds; -1 when one of them has refresh
     * disabled; the default (1s) when there are none.
     */
    public static long refreshMillis(List<IndexMetadata> indices) {
        long longest = -2;
        for (IndexMetadata metadata : indices) {
            TimeValue interval = IndexSettings.INDEX_REFRESH_INTERVAL_SETTING.get(metadata.getSettings());
            if (interval.millis() < 0) return -1;
            longest = Math.max(longest, interval.millis());
        }
        return longest == -2 ? DEFAULT_REFRESH_MILLIS : longest;
    }
}
