package org.nearduplicate.opensearch.ingest;

import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.opensearch.common.FieldMappings;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.orchestration.check.TargetIndices;

/**
 * The {@code max_distance} a target index maps for a {@code simhash} field, read from the cluster state, so that a
 * {@code near_duplicate_check} without its own {@code max_distance} uses the field's, as the query does; capped by
 * the recommended k of the field's algorithm ({@link MaxDistance#recommended}), so that a field of
 * {@code simhash-v1} keeps its default. Where the index or the field does not exist yet, the default a new
 * {@code simhash} field gets.
 *
 * <p>It also tells the check what else the cluster state knows of its target ({@link TargetIndices}). How the cluster
 * state's mappings and settings read is {@link FieldMappings}'.
 */
@FunctionalInterface
public interface MappedMaxDistance extends TargetIndices {

    /** Always the default of a new field (tests, or no cluster state). */
    MappedMaxDistance DEFAULT = (index, field) -> SimHashFieldMapper.DEFAULT_MAX_DISTANCE;

    /**
     * Reads the mapping from the cluster state; the parsed value is cached per index, mapping version and field, so a
     * document costs a map lookup, not a mapping parse.
     */
    static MappedMaxDistance fromClusterState(Supplier<ClusterState> state) {
        Map<String, Integer> cache = new ConcurrentHashMap<>();
        // what the check asks per document of its target, read once per cluster state version (a mapping parse per
        // document would sit on the ingest hot path)
        Map<String, Target> targets = new ConcurrentHashMap<>();
        return new MappedMaxDistance() {
            @Override
            public int of(String index, String field) {
                Integer mapped = read(state.get(), index, field, cache);
                return mapped != null ? mapped : SimHashFieldMapper.DEFAULT_MAX_DISTANCE;
            }

            private Target target(String index, String field) {
                ClusterState current = state.get();
                long version = current == null ? -1 : current.version();
                String key = index + "\u0000" + field;
                Target cached = targets.get(key);
                if (cached != null && cached.stateVersion == version) return cached;
                List<IndexMetadata> indices = FieldMappings.resolve(current, index);
                Target fresh = new Target(
                    version,
                    field == null ? Set.of() : FieldMappings.algorithms(indices, field, SimHashFieldMapper.CONTENT_TYPE),
                    FieldMappings.allClosed(indices),
                    FieldMappings.refreshMillis(indices)
                );
                if (targets.size() > 1_000) targets.clear(); // targets named by many pipelines
                targets.put(key, fresh);
                return fresh;
            }

            @Override
            public String documentIndex(String name) {
                if (TargetIndices.unknownIndex(name)) return null;
                IndexMetadata write = FieldMappings.writeIndex(state.get(), name);
                return write == null ? name : write.getIndex().getName();
            }

            @Override
            public Set<String> algorithms(String index, String field) {
                return target(index, field).algorithms;
            }

            @Override
            public boolean closed(String index) {
                return target(index, null).closed;
            }

            @Override
            public long refreshMillis(String index) {
                return target(index, null).refreshMillis;
            }
        };
    }

    /** A target index as one cluster state version describes it. */
    record Target(long stateVersion, Set<String> algorithms, boolean closed, long refreshMillis) {
    }

    private static Integer read(ClusterState state, String name, String field, Map<String, Integer> cache) {
        IndexMetadata index = FieldMappings.writeIndex(state, name);
        if (index == null) return null;
        String key = index.getIndexUUID() + "/" + index.getMappingVersion() + "/" + field;
        Integer cached = cache.get(key);
        if (cached != null) return cached < 0 ? null : cached;
        Integer value = FieldMappings.simHashMaxDistance(FieldMappings.definition(index, field));
        if (cache.size() > 1_000) cache.clear(); // old mapping versions and deleted indices
        cache.put(key, value == null ? -1 : value);
        return value;
    }
}
