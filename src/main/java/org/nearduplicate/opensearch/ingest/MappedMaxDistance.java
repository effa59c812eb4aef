package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.MappingMetadata;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code max_distance} a target index maps for a {@code simhash} field, read from the cluster state, so that a
 * {@code near_duplicate_check} without its own {@code max_distance} uses the field's, as the query does. Where the
 * index or the field does not exist yet, the default a new {@code simhash} field gets.
 */
@FunctionalInterface
public interface MappedMaxDistance {

    int of(String index, String field);

    /** Always the default of a new field (tests, or no cluster state). */
    MappedMaxDistance DEFAULT = (index, field) -> SimHashFieldMapper.DEFAULT_MAX_DISTANCE;

    static MappedMaxDistance fromClusterState(Supplier<ClusterState> state) {
        return (index, field) -> {
            Integer mapped = read(state.get(), index, field);
            return mapped != null ? mapped : SimHashFieldMapper.DEFAULT_MAX_DISTANCE;
        };
    }

    private static Integer read(ClusterState state, String name, String field) {
        if (state == null || name == null) return null;
        IndexAbstraction abstraction = state.metadata().getIndicesLookup().get(name);
        if (abstraction == null || abstraction.getIndices().isEmpty()) return null;
        IndexMetadata index = abstraction.getWriteIndex() != null ? abstraction.getWriteIndex() : abstraction.getIndices().get(0);
        MappingMetadata mapping = index.mapping();
        if (mapping == null) return null;
        Object node = mapping.sourceAsMap();
        for (String part : field.split("\\.")) {
            if (node instanceof Map<?, ?> map && map.get("properties") instanceof Map<?, ?> properties) {
                node = properties.get(part);
            } else {
                return null;
            }
        }
        if (node instanceof Map<?, ?> definition
            && SimHashFieldMapper.CONTENT_TYPE.equals(definition.get("type"))
            && definition.get("max_distance") instanceof Number k) {
            return k.intValue();
        }
        return null;
    }
}
