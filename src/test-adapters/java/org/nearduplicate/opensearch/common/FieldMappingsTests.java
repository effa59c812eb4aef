package org.nearduplicate.opensearch.common;

import org.opensearch.cluster.ClusterName;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.AliasMetadata;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.Metadata;
import org.opensearch.common.settings.Settings;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;

/** One reading of a mapping for every caller: field paths, types, algorithms, the mapped k and refresh_interval. */
public class FieldMappingsTests extends PlatformTestCase {

    private static IndexMetadata index(String mapping, Settings settings) throws IOException {
        return IndexMetadata.builder("pages").settings(oneShardIndexSettings().put(settings)).putMapping(mapping).build();
    }

    private static final String MAPPING = """
        {"properties": {
          "fp": {"type": "simhash", "algorithm": "simhash-v1", "max_distance": 16},
          "v3": {"type": "simhash", "algorithm": "simhash-v3", "max_distance": 3},
          "doc": {"properties": {"title": {"type": "text", "fields": {"fp": {"type": "simhash", "algorithm": "simhash-v3"}}}}},
          "same": {"type": "alias", "path": "fp"}
        },
        "_meta": {"owner": "tests"}}""";

    public void testTheSimHashTypeIsTheMappersName() {
        assertEquals(SimHashFieldMapper.CONTENT_TYPE, FieldMappings.SIMHASH);
    }

    public void testFieldPathsTypesAndAlgorithms() throws IOException {
        IndexMetadata index = index(MAPPING, Settings.EMPTY);
        assertEquals("simhash", FieldMappings.type(FieldMappings.definition(index, "fp")));
        assertEquals("object", FieldMappings.type(FieldMappings.definition(index, "doc")));
        assertEquals("simhash-v3", FieldMappings.algorithm(FieldMappings.definition(index, "doc.title.fp"), "simhash"));
        assertNull(FieldMappings.algorithm(FieldMappings.definition(index, "doc.title"), "simhash"));
        assertNull(FieldMappings.definition(index, "missing"));
        assertNull(FieldMappings.type(FieldMappings.definition(index, "missing")));
        assertEquals("alias", FieldMappings.type(FieldMappings.definition(index, "same")));
        assertEquals("simhash", FieldMappings.type(FieldMappings.definitionThroughAlias(index, "same")));
        // a document path goes through objects only: a multi-field holds no value of its own
        assertEquals("text", FieldMappings.documentPathType(index, "doc.title"));
        assertNull(FieldMappings.documentPathType(index, "doc.title.fp"));
        assertEquals(Map.of("owner", "tests"), FieldMappings.meta(index));
        assertEquals(Map.of(), FieldMappings.meta(index("{\"properties\": {}}", Settings.EMPTY)));
    }

    public void testMappedMaxDistanceIsCappedByTheAlgorithmsRecommendedK() throws IOException {
        IndexMetadata index = index(MAPPING, Settings.EMPTY);
        assertEquals(Integer.valueOf(12), FieldMappings.simHashMaxDistance(FieldMappings.definition(index, "fp")));
        assertEquals(Integer.valueOf(3), FieldMappings.simHashMaxDistance(FieldMappings.definition(index, "v3")));
        assertNull(FieldMappings.simHashMaxDistance(FieldMappings.definition(index, "doc.title")));
        assertNull(FieldMappings.simHashMaxDistance(null));
    }

    public void testRefreshIntervalAndAlgorithmsOfSeveralIndices() throws IOException {
        IndexMetadata slow = index(MAPPING, Settings.builder().put("index.refresh_interval", "30s").build());
        IndexMetadata fast = index(MAPPING, Settings.EMPTY);
        assertEquals(30_000, FieldMappings.refreshMillis(List.of(fast, slow)));
        assertEquals(FieldMappings.DEFAULT_REFRESH_MILLIS, FieldMappings.refreshMillis(List.of()));
        IndexMetadata never = index(MAPPING, Settings.builder().put("index.refresh_interval", "-1").build());
        assertEquals(-1, FieldMappings.refreshMillis(List.of(fast, never)));
        assertEquals(Set.of("simhash-v1"), FieldMappings.algorithms(List.of(slow, fast), "fp", "simhash"));
        assertFalse(FieldMappings.allClosed(List.of()));
        assertFalse(FieldMappings.allClosed(List.of(fast)));
    }

    /** The indices a name resolves to and the write index of an alias, from the cluster state. */
    public void testResolveAndWriteIndex() throws IOException {
        Settings slow = Settings.builder().put("index.refresh_interval", "30s").build();
        IndexMetadata one = IndexMetadata.builder(index(MAPPING, slow)).index("pages-1").putAlias(AliasMetadata.builder("pages")).build();
        IndexMetadata two = IndexMetadata.builder(index(MAPPING, Settings.EMPTY))
            .index("pages-2")
            .putAlias(AliasMetadata.builder("pages").writeIndex(true))
            .build();
        IndexMetadata other = IndexMetadata.builder(index(MAPPING, Settings.EMPTY)).index("other").build();
        ClusterState state = ClusterState.builder(ClusterName.DEFAULT)
            .metadata(Metadata.builder().put(one, false).put(two, false).put(other, false))
            .build();
        assertEquals(Set.of(one, two), Set.copyOf(FieldMappings.resolve(state, "pages")));
        assertEquals(Set.of(one, two), Set.copyOf(FieldMappings.resolve(state, "pages-*")));
        assertEquals(Set.of(one, other), Set.copyOf(FieldMappings.resolve(state, "pages-1, other,-x,")));
        assertEquals(List.of(), FieldMappings.resolve(state, "missing"));
        assertEquals(two, FieldMappings.writeIndex(state, "pages"));
        assertEquals(other, FieldMappings.writeIndex(state, "other"));
        assertNull(FieldMappings.writeIndex(state, "missing"));
        assertEquals(30_000, FieldMappings.refreshMillis(FieldMappings.resolve(state, "pages")));
        assertEquals("simhash", FieldMappings.simHashField(List.of(one), "pages-1", "fp").get("type"));
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> FieldMappings.simHashField(FieldMappings.resolve(state, "pages"), "pages", "fp")
        );
        assertEquals("[pages] matches 2 indices; name one index", e.getMessage());
        e = expectThrows(
            IllegalArgumentException.class,
            () -> FieldMappings.simHashField(FieldMappings.resolve(state, "other"), "other", "doc.title")
        );
        assertEquals("field [doc.title] of index [other] is not a [simhash] field", e.getMessage());
        assertEquals(List.of(), FieldMappings.resolve(null, "pages"));
    }
}
