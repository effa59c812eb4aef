package org.nearduplicate.opensearch;

import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.search.SearchHit;
import org.opensearch.test.InternalTestCluster;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.lucene.SimHashQueryTests;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;
import org.nearduplicate.opensearch.search.fetch.SimHashDistanceFetchSubPhase;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * Exactness under distribution: on 1, 2 and 3 nodes, indices with 1, 3 and 5 shards (with a replica when there is
 * a second node) answer {@code near_duplicate} exactly like a brute-force Hamming check, also after deletes and
 * updates; restarting a node, and stopping a node that holds primaries while replicas exist, changes neither the
 * stored fingerprints nor any result.
 */
@ClusterScope(scope = Scope.TEST, numDataNodes = 0, supportsDedicatedMasters = false, numClientNodes = 0)
public class NearDuplicateDistributionTests extends OpenSearchIntegTestCase {
    private static final int[] SHARDS = { 1, 3, 5 };

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    /** index -> (id -> fingerprint). */
    private final Map<String, Map<String, Long>> corpora = new HashMap<>();
    private long[] centers;

    public void testOneNode() throws Exception {
        run(1);
    }

    public void testTwoNodes() throws Exception {
        run(2);
    }

    public void testThreeNodes() throws Exception {
        run(3);
    }

    private void run(int nodes) throws Exception {
        internalCluster().startNodes(nodes);
        centers = new long[5];
        for (int i = 0; i < centers.length; i++)
            centers[i] = randomLong();
        int replicas = nodes > 1 ? 1 : 0;
        for (int shards : SHARDS) {
            String index = "pages-" + shards;
            assertAcked(
                prepareCreate(index).setSettings(
                    Settings.builder().put("index.number_of_shards", shards).put("index.number_of_replicas", replicas)
                )
                    .setMapping(
                        "fp",
                        promised.computeIfAbsent(index, i -> randomBoolean() ? 16 : 3) == 16
                            ? "type=simhash" // the default: any k up to 16 by multi-probe
                            : "type=simhash,blocks=4,max_distance=3,check_bits=16"
                    ) // the 0.1.0 default
            );
            Map<String, Long> corpus = new HashMap<>();
            corpora.put(index, corpus);
            index(index, corpus, 0, randomIntBetween(150, 300));
        }
        ensureGreen();
        checkAll();

        // deletes and updates between searches
        for (String index : corpora.keySet()) {
            Map<String, Long> corpus = corpora.get(index);
            BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
            List<String> ids = new ArrayList<>(corpus.keySet());
            for (int i = 0; i < ids.size() / 5; i++) {
                String id = randomFrom(ids);
                if (corpus.containsKey(id) == false) continue;
                if (randomBoolean()) {
                    bulk.add(client().prepareDelete(index, id));
                    corpus.remove(id);
                } else {
                    long fp = randomFingerprint();
                    bulk.add(client().prepareIndex(index).setId(id).setSource("fp", Fingerprints.toHex(fp)));
                    corpus.put(id, fp);
                }
            }
            BulkResponse response = bulk.get();
            assertFalse(response.buildFailureMessage(), response.hasFailures());
            index(index, corpus, 10_000, randomIntBetween(10, 40));
        }
        checkAll();

        Map<String, Map<String, Long>> before = storedFingerprints();
        Map<String, String> resultsBefore = results();
        internalCluster().restartRandomDataNode();
        ensureGreen();
        assertEquals(before, storedFingerprints());
        assertEquals(resultsBefore, results());

        if (nodes > 1) {
            // stop a node that holds at least one primary; its replicas elsewhere are promoted
            ClusterState state = client().admin().cluster().prepareState().get().getState();
            String victimId = null;
            for (ShardRouting shard : state.routingTable().allShards()) {
                if (shard.primary() && shard.started()) {
                    victimId = shard.currentNodeId();
                    break;
                }
            }
            assertNotNull(victimId);
            String victim = state.nodes().get(victimId).getName();
            internalCluster().stopRandomNode(InternalTestCluster.nameFilter(victim));
            ensureYellow();
            assertEquals(before, storedFingerprints());
            assertEquals(resultsBefore, results());
            checkAll();
        }
    }

    private long randomFingerprint() {
        return randomBoolean()
            ? randomLong()
            : SimHashQueryTests.flipBits(centers[randomIntBetween(0, centers.length - 1)], randomIntBetween(0, 18));
    }

    private void index(String index, Map<String, Long> corpus, int firstId, int count) {
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < count; i++) {
            String id = "d" + (firstId + i);
            long fp = randomFingerprint();
            bulk.add(
                client().prepareIndex(index).setId(id).setSource("fp", randomBoolean() ? (Object) Fingerprints.toHex(fp) : (Object) fp)
            );
            corpus.put(id, fp);
        }
        BulkResponse response = bulk.get();
        assertFalse(response.buildFailureMessage(), response.hasFailures());
    }

    private List<long[]> probes;
    /** Per index, the max_distance its mapping promises. */
    private final Map<String, Integer> promised = new HashMap<>();

    /** The same probes for every check, so that results before and after a restart are comparable. */
    private List<long[]> probes() {
        if (probes != null) return probes;
        probes = new ArrayList<>();
        for (long center : centers) {
            probes.add(new long[] { center, 3 });
            probes.add(new long[] { SimHashQueryTests.flipBits(center, 2), 2 });
            probes.add(new long[] { center, randomIntBetween(4, 16) }); // multi-probe, or a scan on the 0.1.0 layout
            probes.add(new long[] { SimHashQueryTests.flipBits(center, randomIntBetween(0, 16)), randomIntBetween(0, 16) });
            probes.add(new long[] { center, 17 }); // beyond every layout: scan
        }
        probes.add(new long[] { 0x5555_5555_5555_5555L, 3 });
        return probes;
    }

    private TreeMap<String, Integer> search(String index, long probe, int k) {
        SimHashQueryBuilder query = new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(k)
            .allowScan(k > promised.get(index));
        SearchResponse response = client().prepareSearch(index).setQuery(query).setSize(10_000).setTrackTotalHits(true).get();
        assertEquals(0, response.getFailedShards());
        TreeMap<String, Integer> hits = new TreeMap<>();
        for (SearchHit hit : response.getHits().getHits()) {
            hits.put(hit.getId(), ((Number) hit.field(SimHashDistanceFetchSubPhase.DISTANCE_FIELD).getValue()).intValue());
        }
        assertEquals(hits.size(), response.getHits().getTotalHits().value());
        return hits;
    }

    private void checkAll() {
        for (Map.Entry<String, Map<String, Long>> e : corpora.entrySet()) {
            for (long[] probe : probes()) {
                TreeMap<String, Integer> expected = new TreeMap<>();
                e.getValue().forEach((id, fp) -> {
                    int d = Fingerprints.distance(fp, probe[0]);
                    if (d <= probe[1]) expected.put(id, d);
                });
                assertEquals(
                    e.getKey() + " probe " + Fingerprints.toHex(probe[0]) + " k " + probe[1],
                    expected,
                    search(e.getKey(), probe[0], (int) probe[1])
                );
            }
        }
    }

    private Map<String, String> results() {
        Map<String, String> results = new TreeMap<>();
        for (String index : corpora.keySet()) {
            for (long[] probe : probes()) {
                results.put(
                    index + "/" + Fingerprints.toHex(probe[0]) + "/" + probe[1],
                    search(index, probe[0], (int) probe[1]).toString()
                );
            }
        }
        return results;
    }

    private Map<String, Map<String, Long>> storedFingerprints() {
        Map<String, Map<String, Long>> stored = new TreeMap<>();
        for (String index : corpora.keySet()) {
            SearchResponse response = client().prepareSearch(index)
                .setQuery(QueryBuilders.matchAllQuery())
                .setSize(10_000)
                .addDocValueField("fp")
                .get();
            Map<String, Long> fps = new TreeMap<>();
            for (SearchHit hit : response.getHits().getHits()) {
                fps.put(hit.getId(), Fingerprints.parse((String) hit.field("fp").getValue()));
            }
            assertEquals(new TreeMap<>(corpora.get(index)), fps);
            stored.put(index, fps);
        }
        return stored;
    }
}
