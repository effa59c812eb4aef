package org.nearduplicate.elasticsearch.common;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.elasticsearch.cluster.ClusterName;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.metadata.AliasMetadata;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.Metadata;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.IndexVersion;
import org.elasticsearch.test.ESTestCase;

/**
 * The mapping reader on Elasticsearch, whose index abstractions name indices rather than hold their metadata: the
 * indices a name resolves to, the write index of an alias, and the mappings and settings read from them.
 */
public class FieldMappingsTests extends ESTestCase {
    private static final String MAPPING = """
        {"properties": {"fp": {"type": "simhash", "algorithm": "simhash-v3", "max_distance": 3}, "title": {"type": "text"}}}""";

    /** {@code write}: whether it is the write index of alias {@code pages} (null: not in the alias). */
    private static IndexMetadata index(String name, String refresh, Boolean write) {
        Settings.Builder settings = indexSettings(IndexVersion.current(), 1, 0);
        if (refresh != null) settings.put("index.refresh_interval", refresh);
        IndexMetadata.Builder index = IndexMetadata.builder(name).settings(settings).putMapping(MAPPING);
        if (write != null) index.putAlias(AliasMetadata.builder("pages").writeIndex(write));
        return index.build();
    }

    private static ClusterState state() {
        Metadata.Builder metadata = Metadata.builder()
            .put(index("pages-1", "30s", false), false)
            .put(index("pages-2", null, true), false)
            .put(index("other", "-1", null), false);
        return ClusterState.builder(ClusterName.DEFAULT).metadata(metadata).build();
    }

    private static List<String> names(List<IndexMetadata> indices) {
        return indices.stream().map(m -> m.getIndex().getName()).sorted().toList();
    }

    public void testResolveAndWriteIndex() {
        ClusterState state = state();
        assertEquals(List.of("pages-1", "pages-2"), names(FieldMappings.resolve(state, "pages")));
        assertEquals(List.of("pages-1", "pages-2"), names(FieldMappings.resolve(state, "pages-*")));
        assertEquals(List.of("other", "pages-1"), names(FieldMappings.resolve(state, "pages-1, other,-x,")));
        assertEquals(List.of(), FieldMappings.resolve(state, "missing"));
        assertEquals(List.of(), FieldMappings.resolve(null, "pages"));
        assertEquals("pages-2", FieldMappings.writeIndex(state, "pages").getIndex().getName());
        assertEquals("other", FieldMappings.writeIndex(state, "other").getIndex().getName());
        assertNull(FieldMappings.writeIndex(state, "missing"));
    }

    public void testMappingsAndSettingsOfResolvedIndices() {
        ClusterState state = state();
        List<IndexMetadata> pages = FieldMappings.resolve(state, "pages");
        assertEquals(Set.of("simhash-v3"), FieldMappings.algorithms(pages, "fp", "simhash"));
        assertEquals(30_000, FieldMappings.refreshMillis(pages));
        assertEquals(-1, FieldMappings.refreshMillis(FieldMappings.resolve(state, "pages-1,other")));
        assertEquals(FieldMappings.DEFAULT_REFRESH_MILLIS, FieldMappings.refreshMillis(List.of()));
        assertFalse(FieldMappings.allClosed(pages));
        assertEquals("text", FieldMappings.documentPathType(pages.get(0), "title"));
        assertEquals(Integer.valueOf(3), FieldMappings.simHashMaxDistance(FieldMappings.definition(pages.get(0), "fp")));

        Map<String, Object> fp = FieldMappings.simHashField(FieldMappings.resolve(state, "pages-1"), "pages-1", "fp");
        assertEquals("simhash", fp.get("type"));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> FieldMappings.simHashField(pages, "pages", "fp"));
        assertEquals("[pages] matches 2 indices; name one index", e.getMessage());
        e = expectThrows(
            IllegalArgumentException.class,
            () -> FieldMappings.simHashField(FieldMappings.resolve(state, "other"), "other", "title")
        );
        assertEquals("field [title] of index [other] is not a [simhash] field", e.getMessage());
    }
}
