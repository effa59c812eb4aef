package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.core.options.MaxDistance;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.common.regex.Regex;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.index.IndexSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The {@code max_distance} a target index maps for a {@code simhash} field, read from the cluster state, so that a
 * {@code near_duplicate_check} without its own {@code max_distance} uses the field's, as the query does; capped by
 * the recommended k of the field's algorithm ({@link MaxDistance#recommended}), so that a field of
 * {@code simhash-v1} keeps its default. Where the index or the field does not exist yet, the default a new
 * {@code simhash} field gets.
 *
 * <p>It also tells the check what else the cluster state knows of its target: the algorithms its field is mapped with
 * ({@link #algorithms}), whether it is closed ({@link #closed}) and its {@code index.refresh_interval}
 * ({@link #refreshMillis}).
 */
@FunctionalInterface
public interface MappedMaxDistance {

    /** OpenSearch's default {@code index.refresh_interval}. */
    long DEFAULT_REFRESH_MILLIS = IndexSettings.DEFAULT_REFRESH_INTERVAL.millis();

    int of(String index, String field);

    /**
     * The algorithms {@code field} is mapped with in the indices {@code index} names (an index, alias, pattern or
     * comma-separated list); empty when none maps it (or unknown).
     */
    default Set<String> algorithms(String index, String field) {
        return Set.of();
    }

    /** True when {@code index} names closed indices only (a closed target cannot be searched). */
    default boolean closed(String index) {
        return false;
    }

    /**
     * The longest {@code index.refresh_interval} of the indices {@code index} names, in milliseconds; -1 when one of them
     * has refresh disabled; the default (1s) when unknown.
     */
    default long refreshMillis(String index) {
        return DEFAULT_REFRESH_MILLIS;
    }

    /** Always the default of a new field (tests, or no cluster state). */
    MappedMaxDistance DEFAULT = (index, field) -> SimHashFieldMapper.DEFAULT_MAX_DISTANCE;

    /**
     * Reads the mapping from the cluster state; the parsed value is cached per index, mapping version and field, so a
     * document costs a map lookup, not a mapping parse.
     */
    static MappedMaxDistance fromClusterState(Supplier<ClusterState> state) {
        Map<String, Integer> cache = new ConcurrentHashMap<>();
        return new MappedMaxDistance() {
            @Override
            public int of(String index, String field) {
                Integer mapped = read(state.get(), index, field, cache);
                return mapped != null ? mapped : SimHashFieldMapper.DEFAULT_MAX_DISTANCE;
            }

            @Override
            public Set<String> algorithms(String index, String field) {
                Set<String> algorithms = new TreeSet<>();
                for (IndexMetadata metadata : resolve(state.get(), index)) {
                    if (metadata.mapping() != null
                        && field(metadata.mapping(), field) instanceof Map<?, ?> definition
                        && SimHashFieldMapper.CONTENT_TYPE.equals(definition.get("type"))
                        && definition.get("algorithm") != null) {
                        algorithms.add(definition.get("algorithm").toString());
                    }
                }
                return algorithms;
            }

            @Override
            public boolean closed(String index) {
                List<IndexMetadata> indices = resolve(state.get(), index);
                return indices.isEmpty() == false && indices.stream().allMatch(m -> m.getState() == IndexMetadata.State.CLOSE);
            }

            @Override
            public long refreshMillis(String index) {
                long longest = -2;
                for (IndexMetadata metadata : resolve(state.get(), index)) {
                    TimeValue interval = IndexSettings.INDEX_REFRESH_INTERVAL_SETTING.get(metadata.getSettings());
                    if (interval.millis() < 0) return -1;
                    longest = Math.max(longest, interval.millis());
                }
                return longest == -2 ? DEFAULT_REFRESH_MILLIS : longest;
            }
        };
    }

    /** The indices {@code name} names: an index, alias or data stream, a wildcard pattern, or a comma-separated list of them. */
    private static List<IndexMetadata> resolve(ClusterState state, String name) {
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

    /** The mapping definition of {@code field} (a dotted path through {@code properties}), or null. */
    private static Object field(MappingMetadata mapping, String field) {
        Object node = mapping.sourceAsMap();
        for (String part : field.split("\\.")) {
            if (node instanceof Map<?, ?> map && map.get("properties") instanceof Map<?, ?> properties) {
                node = properties.get(part);
            } else {
                return null;
            }
        }
        return node;
    }

    private static Integer parse(IndexMetadata index, String field) {
        MappingMetadata mapping = index.mapping();
        if (mapping == null) return null;
        Object node = field(mapping, field);
        if (node instanceof Map<?, ?> definition
            && SimHashFieldMapper.CONTENT_TYPE.equals(definition.get("type"))
            && definition.get("max_distance") instanceof Number k) {
            Object algorithm = definition.get("algorithm");
            return Math.min(k.intValue(), MaxDistance.recommended(algorithm == null ? null : algorithm.toString()));
        }
        return null;
    }
}
