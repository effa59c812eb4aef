package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.common.MaxDistance;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.MappingMetadata;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The {@code max_distance} a target index maps for a {@code simhash} field, read from the cluster state, so that a
 * {@code near_duplicate_check} without its own {@code max_distance} uses the field's, as the query does; capped by
 * the recommended k of the field's algorithm ({@link MaxDistance#recommended}), so that a field of
 * {@code simhash-v1} keeps its default. Where the index or the field does not exist yet, the default a new
 * {@code simhash} field gets.
 */
@FunctionalInterface
public interface MappedMaxDistance {

    int of(String index, String field);

    /** Always the default of a new field (tests, or no cluster state). */
    MappedMaxDistance DEFAULT = (index, field) -> SimHashFieldMapper.DEFAULT_MAX_DISTANCE;

    /**
     * Reads the mapping from the cluster state; the parsed value is cached per index, mapping version and field, so a
     * document costs a map lookup, not a mapping parse.
     */
    static MappedMaxDistance fromClusterState(Supplier<ClusterState> state) {
        Map<String, Integer> cache = new ConcurrentHashMap<>();
        return (index, field) -> {
            Integer mapped = read(state.get(), index, field, cache);
            return mapped != null ? mapped : SimHashFieldMapper.DEFAULT_MAX_DISTANCE;
        };
    }

    private static Integer read(ClusterState state, String name, String field, Map<String, Integer> cache) {
        if (state == null || name == null) return null;
        IndexAbstraction abstraction = state.metadata().getIndicesLookup().get(name);
        if (abstraction == null || abstraction.getIndices().isEmpty()) return null;
        IndexMetadata index = abstraction.getWriteIndex() != null ? abstraction.getWriteIndex() : abstraction.getIndices().get(0);
        String key = index.getIndexUUID() + "/" + index.getMappingVersion() + "/" + field;
        Integer cached = cache.get(key);
        if (cached != null) return cached < 0 ? null : cached;
        Integer value = parse(index, field);
        if (cache.size() > 1_000) cache.clear(); // old mapping versions and deleted indices
        cache.put(key, value == null ? -1 : value);
        return value;
    }

    private static Integer parse(IndexMetadata index, String field) {
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
            Object algorithm = definition.get("algorithm");
            return Math.min(k.intValue(), MaxDistance.recommended(algorithm == null ? null : algorithm.toString()));
        }
        return null;
    }
}
