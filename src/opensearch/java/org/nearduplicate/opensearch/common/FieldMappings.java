package org.nearduplicate.opensearch.common;

import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsResponse;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.common.regex.Regex;
import org.opensearch.index.IndexSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.nearduplicate.orchestration.field.FieldDefinitions;
import org.nearduplicate.orchestration.field.SimHashField;

/**
 * The one reader of field mappings, whether the mapping comes from the cluster state (an index's
 * {@link MappingMetadata}) or from a get-field-mappings call made as the caller (so that it is authorized), and of the
 * indices a name resolves to. How a mapping reads is {@link FieldDefinitions}; this class only fetches the maps.
 */
public final class FieldMappings {
    /** The {@code simhash} field type's name. */
    public static final String SIMHASH = SimHashField.TYPE;
    /** The platform's default {@code index.refresh_interval}. */
    public static final long DEFAULT_REFRESH_MILLIS = IndexSettings.DEFAULT_REFRESH_INTERVAL.millis();

    private FieldMappings() {}

    /** The definition of a dotted field path, through objects' {@code properties} and multi-fields' {@code fields}; or null. */
    public static Map<String, Object> definition(Map<String, Object> root, String path) {
        return FieldDefinitions.definition(root, path);
    }

    /** The mapping of {@code index} as a map (empty when it has none). */
    private static Map<String, Object> source(IndexMetadata index) {
        MappingMetadata mapping = index.mapping();
        return mapping == null ? Map.of() : mapping.sourceAsMap();
    }

    /** The definition of {@code path} in {@code index}'s mapping, or null. */
    public static Map<String, Object> definition(IndexMetadata index, String path) {
        return FieldDefinitions.definition(source(index), path);
    }

    /** As {@link #definition(IndexMetadata, String)}, and the target's definition for a field {@code alias}. */
    public static Map<String, Object> definitionThroughAlias(IndexMetadata index, String path) {
        return FieldDefinitions.definitionThroughAlias(source(index), path);
    }

    /** See {@link FieldDefinitions#type}. */
    public static String type(Map<String, ?> definition) {
        return FieldDefinitions.type(definition);
    }

    /** See {@link FieldDefinitions#algorithm}. */
    public static String algorithm(Map<String, ?> definition, String fieldType) {
        return FieldDefinitions.algorithm(definition, fieldType);
    }

    /** See {@link FieldDefinitions#simHashMaxDistance}. */
    public static Integer simHashMaxDistance(Map<String, ?> definition) {
        return FieldDefinitions.simHashMaxDistance(definition);
    }

    /** See {@link FieldDefinitions#documentPathType}. */
    public static String documentPathType(IndexMetadata index, String path) {
        return FieldDefinitions.documentPathType(source(index), path);
    }

    /** The mapping's {@code _meta} (empty when it has none): a mapping update replaces it as a whole. */
    public static Map<String, Object> meta(IndexMetadata index) {
        return FieldDefinitions.meta(source(index));
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
        List<Map<String, Object>> definitions = new ArrayList<>();
        for (String index : response.mappings().keySet()) {
            definitions.add(definition(response, index, field));
        }
        return FieldDefinitions.singleAlgorithm(definitions, fieldType);
    }

    /**
     * The {@code simhash} definition of {@code field} in the one index a get-field-mappings call answered for, or a 400
     * naming what is missing.
     */
    public static Map<String, Object> simHashField(GetFieldMappingsResponse response, String index, String field) {
        int indices = response.mappings().size();
        String concreteIndex = indices == 1 ? response.mappings().keySet().iterator().next() : null;
        Map<String, Object> definition = concreteIndex == null ? null : definition(response, concreteIndex, field);
        return FieldDefinitions.simHashField(index, indices, concreteIndex, definition, field);
    }

    /**
     * The {@code simhash} definition of {@code field} in the one index of {@code indices} ({@code index} resolved in the
     * cluster state), or a 400 naming what is missing: for actions authorized on the index themselves, which then need
     * no mapping privilege of their own.
     */
    public static Map<String, Object> simHashField(List<IndexMetadata> indices, String index, String field) {
        String concreteIndex = indices.size() == 1 ? indices.get(0).getIndex().getName() : null;
        Map<String, Object> definition = concreteIndex == null ? null : definition(indices.get(0), field);
        return FieldDefinitions.simHashField(index, indices.size(), concreteIndex, definition, field);
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
            if (abstraction != null) result.addAll(Platform.indices(state, abstraction));
        }
        return result;
    }

    /** The index a write to {@code name} (an index, alias or data stream) goes to, or null when it names none. */
    public static IndexMetadata writeIndex(ClusterState state, String name) {
        if (state == null || name == null) return null;
        IndexAbstraction abstraction = state.metadata().getIndicesLookup().get(name);
        if (abstraction == null || abstraction.getIndices().isEmpty()) return null;
        return Platform.writeIndex(state, abstraction);
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
        List<Long> intervals = new ArrayList<>();
        for (IndexMetadata metadata : indices) {
            intervals.add(IndexSettings.INDEX_REFRESH_INTERVAL_SETTING.get(metadata.getSettings()).millis());
        }
        return FieldDefinitions.longestRefresh(intervals, DEFAULT_REFRESH_MILLIS);
    }
}
