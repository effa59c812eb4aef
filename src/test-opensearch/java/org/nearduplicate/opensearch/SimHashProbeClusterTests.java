package org.nearduplicate.opensearch;

import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginsService;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;
import org.opensearch.transport.client.Client;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.opensearch.index.query.minhash.MinHashProbe;
import org.nearduplicate.opensearch.index.query.minhash.MinHashQueryBuilder;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;
import org.nearduplicate.opensearch.search.rescore.SimHashRescorerBuilder;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * A text probe is fingerprinted once per search, on the coordinating node, with the target field's algorithm: the
 * shards receive the fingerprint. Where the searched indices map the field with several algorithms, each shard
 * fingerprints it with its own (as before), and the answers stay right.
 */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 2, supportsDedicatedMasters = false)
public class SimHashProbeClusterTests extends OpenSearchIntegTestCase {
    private static final String PAGE = "The old harbor bridge reopened to traffic on Monday after two years of repairs, the city said.";
    private static final String OTHER = "Quarterly results beat expectations as cloud revenue grew faster than analysts had predicted.";

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    private long probesFingerprinted() {
        long total = 0;
        for (PluginsService plugins : internalCluster().getInstances(PluginsService.class)) {
            for (NearDuplicatePlugin plugin : plugins.filterPlugins(NearDuplicatePlugin.class)) {
                total += plugin.sketching().probesFingerprinted();
            }
        }
        return total;
    }

    private SketchingService engineOf(String node) {
        return internalCluster().getInstance(PluginsService.class, node).filterPlugins(NearDuplicatePlugin.class).get(0).sketching();
    }

    private void createIndex(String name, String algorithm, int shards) {
        assertAcked(
            prepareCreate(name).setSettings(Settings.builder().put("index.number_of_shards", shards).put("index.number_of_replicas", 0))
                .setMapping(
                    java.util.Map.of("properties", java.util.Map.of("fp", java.util.Map.of("type", "simhash", "algorithm", algorithm)))
                )
        );
        ensureGreen(name);
        SketchingService sketching = new SketchingService();
        client().prepareIndex(name)
            .setId("page")
            .setSource("fp", fingerprintOf(sketching, algorithm, PAGE))
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        client().prepareIndex(name)
            .setId("other")
            .setSource("fp", fingerprintOf(sketching, algorithm, OTHER))
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
    }

    private static String fingerprintOf(SketchingService sketching, String algorithm, String text) {
        return org.nearduplicate.core.sketch.Fingerprints.toHex(
            sketching.simHashProbe(algorithm, text, SketchingService.ProbeContent.TEXT).fingerprint()
        );
    }

    private static Set<String> ids(SearchResponse response) {
        assertEquals(0, response.getFailedShards());
        Set<String> ids = new HashSet<>();
        for (SearchHit hit : response.getHits().getHits()) {
            ids.add(hit.getIndex() + "/" + hit.getId());
        }
        return ids;
    }

    public void testTextProbeIsFingerprintedOncePerSearch() {
        String words = SimHashFieldMapperAlgorithms.defaultAlgorithm();
        String shingles = SimHashFieldMapperAlgorithms.withShingles();
        int shards = randomIntBetween(3, 6);
        createIndex("once-a", words, shards);
        createIndex("once-b", words, randomIntBetween(2, 4));
        createIndex("mixed", shingles, 2);

        String node = randomFrom(internalCluster().getNodeNames());
        Client client = internalCluster().client(node);
        SketchingService sketching = engineOf(node);

        long before = probesFingerprinted();
        SearchResponse response = client.prepareSearch("once-*")
            .setQuery(new SimHashQueryBuilder("fp", SimHashProbe.text(PAGE)).maxDistance(0).sketching(sketching))
            .get();
        assertEquals(Set.of("once-a/page", "once-b/page"), ids(response));
        assertEquals("one fingerprint for all shards of both indices", 1, probesFingerprinted() - before);

        before = probesFingerprinted();
        response = client.prepareSearch("once-a")
            .setQuery(QueryBuilders.matchAllQuery())
            .addRescorer(new SimHashRescorerBuilder("fp", SimHashProbe.text(PAGE)).sketching(sketching))
            .get();
        assertEquals(2, response.getHits().getHits().length);
        assertEquals("the rescorer's probe too", "page", response.getHits().getAt(0).getId());
        assertEquals(1, probesFingerprinted() - before);

        // minhash_similar: the text probe is signed once too
        assertAcked(
            prepareCreate("signed").setSettings(Settings.builder().put("index.number_of_shards", shards).put("index.number_of_replicas", 0))
                .setMapping("mh", "type=minhash")
        );
        ensureGreen("signed");
        client().admin()
            .cluster()
            .preparePutPipeline(
                "sign",
                new org.opensearch.core.common.bytes.BytesArray(
                    "{\"processors\": [{\"minhash\": {\"field\": \"content\", \"target_field\": \"mh\"}}]}"
                ),
                org.opensearch.common.xcontent.XContentType.JSON
            )
            .get();
        client().prepareIndex("signed")
            .setId("page")
            .setSource("content", PAGE)
            .setPipeline("sign")
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        client().prepareIndex("signed")
            .setId("other")
            .setSource("content", OTHER)
            .setPipeline("sign")
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        before = probesFingerprinted();
        response = client.prepareSearch("signed")
            .setQuery(new MinHashQueryBuilder("mh", MinHashProbe.text(PAGE)).minSimilarity(0.99).sketching(sketching))
            .get();
        assertEquals(Set.of("signed/page"), ids(response));
        assertEquals("one signature for all shards", 1, probesFingerprinted() - before);

        // two algorithms among the searched indices: each shard fingerprints with its own mapping, as before
        before = probesFingerprinted();
        response = client.prepareSearch("once-a", "mixed")
            .setQuery(new SimHashQueryBuilder("fp", SimHashProbe.text(PAGE)).maxDistance(0).sketching(sketching))
            .get();
        assertEquals(Set.of("once-a/page", "mixed/page"), ids(response));
        long perShard = probesFingerprinted() - before;
        assertTrue("at least once per shard of both indices: " + perShard, perShard >= shards + 2);
    }

    /**
     * The {@code minhash_similar} rescorer, parsed from JSON by the node (so with the engine the plugin registers it
     * with), signs a text probe once on the coordinating node, as the query does, instead of once per shard.
     */
    public void testMinHashRescorerSignsTextProbeOncePerSearch() throws Exception {
        int shards = randomIntBetween(3, 6);
        Settings settings = Settings.builder().put("index.number_of_shards", shards).put("index.number_of_replicas", 0).build();
        assertAcked(prepareCreate("rescored").setSettings(settings).setMapping("mh", "type=minhash"));
        ensureGreen("rescored");
        String pipeline = "{\"processors\": [{\"minhash\": {\"field\": \"content\", \"target_field\": \"mh\"}}]}";
        client().admin()
            .cluster()
            .preparePutPipeline("sign-rescored", new org.opensearch.core.common.bytes.BytesArray(pipeline), XContentType.JSON)
            .get();
        client().prepareIndex("rescored").setId("page").setSource("content", PAGE).setPipeline("sign-rescored").get();
        client().prepareIndex("rescored").setId("other").setSource("content", OTHER).setPipeline("sign-rescored").get();
        refresh("rescored");

        String node = randomFrom(internalCluster().getNodeNames());
        String json = "{\"query\": {\"match_all\": {}}, \"rescore\": {\"window_size\": 10, \"minhash_similar\": "
            + "{\"field\": \"mh\", \"text\": \""
            + PAGE
            + "\"}}}";
        SearchSourceBuilder source;
        try (
            XContentParser parser = JsonXContent.jsonXContent.createParser(
                internalCluster().getInstance(NamedXContentRegistry.class, node),
                DeprecationHandler.THROW_UNSUPPORTED_OPERATION,
                json
            )
        ) {
            source = SearchSourceBuilder.fromXContent(parser);
        }
        long before = probesFingerprinted();
        SearchResponse response = internalCluster().client(node).prepareSearch("rescored").setSource(source).get();
        assertEquals(Set.of("rescored/page", "rescored/other"), ids(response));
        assertEquals("the rescorer's probe", "page", response.getHits().getAt(0).getId());
        assertEquals("one signature for all " + shards + " shards", 1, probesFingerprinted() - before);
    }

    /** Two algorithm ids a mapping can name. */
    private static final class SimHashFieldMapperAlgorithms {
        static String defaultAlgorithm() {
            return SimHashSettings.DEFAULT.algorithmId();
        }

        static String withShingles() { // another algorithm than the default (trigrams)
            HashMap<String, Object> options = new HashMap<>();
            options.put(SimHashSettings.SHINGLE_SIZE, 3);
            String id = new SketchingService().simHashSettings(options).algorithmId();
            assertNotEquals(defaultAlgorithm(), id);
            return id;
        }
    }
}
