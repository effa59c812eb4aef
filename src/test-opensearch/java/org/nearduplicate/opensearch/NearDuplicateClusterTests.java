package org.nearduplicate.opensearch;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.MultiSearchResponse;
import org.opensearch.action.search.SearchRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.search.SearchHit;
import org.opensearch.search.aggregations.AggregationBuilders;
import org.opensearch.search.aggregations.bucket.histogram.DateHistogramInterval;
import org.opensearch.search.aggregations.bucket.histogram.Histogram;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SimHashQueryTests;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;
import org.nearduplicate.opensearch.search.fetch.SimHashDistanceFetchSubPhase;
import org.nearduplicate.opensearch.search.rescore.ProbeRescorer;
import org.nearduplicate.opensearch.search.rescore.RescoreScoreMode;
import org.nearduplicate.opensearch.search.rescore.SimHashRescorerBuilder;

import static org.hamcrest.Matchers.containsString;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/** The query, rescorer and distance field on a real multi-shard, replicated cluster, against brute force. */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 2, supportsDedicatedMasters = false)
public class NearDuplicateClusterTests extends OpenSearchIntegTestCase {
    private static final String INDEX = "pages";
    private static final String DISTANCE = SimHashDistanceFetchSubPhase.DISTANCE_FIELD;
    private static final long DAY = 86_400_000L;

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    /** id -> fingerprint of the indexed documents; id -> group. */
    private final Map<String, Long> corpus = new HashMap<>();
    private final Map<String, Long> timestamps = new HashMap<>();
    private long[] centers;

    private void createCorpus() throws IOException {
        XContentBuilder mapping = XContentFactory.jsonBuilder()
            .startObject()
            .startObject("properties")
            .startObject("fp")
            .field("type", "simhash")
            .field("blocks", 4)
            .field("max_distance", 3)
            .endObject()
            .startObject("ts")
            .field("type", "date")
            .endObject()
            .endObject()
            .endObject();
        assertAcked(
            prepareCreate(INDEX).setSettings(
                Settings.builder().put("index.number_of_shards", randomIntBetween(2, 4)).put("index.number_of_replicas", 1)
            ).setMapping(mapping)
        );
        centers = new long[randomIntBetween(4, 8)];
        for (int i = 0; i < centers.length; i++) {
            centers[i] = randomLong();
        }
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        int docs = randomIntBetween(200, 400);
        for (int i = 0; i < docs; i++) {
            String id = "d" + i;
            long fp = randomBoolean()
                ? randomLong()
                : SimHashQueryTests.flipBits(centers[randomIntBetween(0, centers.length - 1)], randomIntBetween(0, 8));
            long ts = 1_700_000_000_000L + randomIntBetween(0, 9) * DAY;
            Object value = switch (randomIntBetween(0, 2)) {
                case 0 -> Fingerprints.toHex(fp);
                case 1 -> fp; // JSON number (decimal strings of exactly 16 characters would read as hex)
                default -> Map.of("fingerprint", Fingerprints.toHex(fp), "algorithm", SimHashFieldMapper.DEFAULT_ALGORITHM);
            };
            bulk.add(client().prepareIndex(INDEX).setId(id).setSource("fp", value, "ts", ts));
            corpus.put(id, fp);
            timestamps.put(id, ts);
        }
        bulk.add(client().prepareIndex(INDEX).setId("no-fp").setSource("ts", 1_700_000_000_000L));
        assertFalse(bulk.get().buildFailureMessage(), bulk.get().hasFailures());
        ensureGreen(INDEX);
    }

    private long randomProbe() {
        return switch (randomIntBetween(0, 2)) {
            case 0 -> randomLong();
            case 1 -> centers[randomIntBetween(0, centers.length - 1)];
            default -> SimHashQueryTests.flipBits(centers[randomIntBetween(0, centers.length - 1)], randomIntBetween(0, 3));
        };
    }

    private Map<String, Integer> bruteForce(long probe, int k) {
        Map<String, Integer> expected = new HashMap<>();
        corpus.forEach((id, fp) -> {
            int d = Fingerprints.distance(fp, probe);
            if (d <= k) {
                expected.put(id, d);
            }
        });
        return expected;
    }

    private SearchRequestBuilder search(QueryBuilder query) {
        return client().prepareSearch(INDEX).setQuery(query).setSize(corpus.size() + 10).setTrackTotalHits(true);
    }

    /** Hit id -> reported distance; checks totals, closest-first order and score = 1 / (1 + distance). */
    private static Map<String, Integer> hits(SearchResponse response, boolean checkScores) {
        assertEquals(0, response.getFailedShards());
        Map<String, Integer> hits = new HashMap<>();
        int previous = -1;
        for (SearchHit hit : response.getHits().getHits()) {
            assertNotNull("hit " + hit.getId() + " lacks " + DISTANCE, hit.field(DISTANCE));
            int d = ((Number) hit.field(DISTANCE).getValue()).intValue();
            if (checkScores) {
                assertEquals(SimHashQuery.closeness(d), hit.getScore(), 1e-6f);
                assertTrue("closest first", d >= previous);
                previous = d;
            }
            assertNull(hits.put(hit.getId(), d));
        }
        assertEquals(response.getHits().getTotalHits().value(), hits.size());
        return hits;
    }

    public void testNearDuplicateSearch() throws Exception {
        createCorpus();
        for (int round = 0; round < 12; round++) {
            long probe = randomProbe();
            int k = randomIntBetween(0, 3);
            SimHashQueryBuilder query = new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(k);
            Map<String, Integer> expected = bruteForce(probe, k);
            assertEquals("probe " + Fingerprints.toHex(probe) + " k " + k, expected, hits(search(query).get(), true));

            // count (size 0, as _count does)
            SearchResponse count = client().prepareSearch(INDEX).setQuery(query).setSize(0).setTrackTotalHits(true).get();
            assertEquals(expected.size(), count.getHits().getTotalHits().value());

            // Discover-shaped _msearch: bool filter + date histogram + track_total_hits
            long from = 1_700_000_000_000L + randomIntBetween(0, 5) * DAY;
            SearchRequestBuilder discover = client().prepareSearch(INDEX)
                .setQuery(QueryBuilders.boolQuery().filter(query).filter(QueryBuilders.rangeQuery("ts").gte(from)))
                .addAggregation(AggregationBuilders.dateHistogram("per_day").field("ts").fixedInterval(DateHistogramInterval.DAY))
                .setTrackTotalHits(true)
                .setSize(corpus.size());
            MultiSearchResponse msearch = client().prepareMultiSearch().add(discover).get();
            SearchResponse filtered = msearch.getResponses()[0].getResponse();
            assertNotNull(msearch.getResponses()[0].getFailureMessage(), filtered);
            Map<String, Integer> expectedFiltered = new HashMap<>(expected);
            expectedFiltered.keySet().removeIf(id -> timestamps.get(id) < from);
            assertEquals(expectedFiltered, hits(filtered, false));
            Histogram histogram = filtered.getAggregations().get("per_day");
            long bucketSum = histogram.getBuckets().stream().mapToLong(Histogram.Bucket::getDocCount).sum();
            assertEquals(expectedFiltered.size(), bucketSum);

            // paginated: pages concatenate to the full, closest-first result
            if (expected.size() > 2) {
                SearchResponse page = search(query).setFrom(1).setSize(expected.size() - 1).get();
                assertEquals(expected.size(), page.getHits().getTotalHits().value());
                assertEquals(expected.size() - 1, page.getHits().getHits().length);
            }
        }
    }

    public void testLikeAllowScanRescorerAndUpdates() throws Exception {
        createCorpus();
        // like: the document's own fingerprint as probe
        String likeId = randomFrom(new ArrayList<>(corpus.keySet()));
        SimHashQueryBuilder like = new SimHashQueryBuilder("fp", SimHashProbe.like(INDEX, likeId, null)).maxDistance(3);
        Map<String, Integer> likeHits = hits(search(like).get(), true);
        assertEquals(bruteForce(corpus.get(likeId), 3), likeHits);
        assertEquals(Integer.valueOf(0), likeHits.get(likeId));

        // resolved on the coordinating node during rewrite: a plain 400
        Exception missing = expectThrows(
            Exception.class,
            () -> search(new SimHashQueryBuilder("fp", SimHashProbe.like(INDEX, "nope", null))).get()
        );
        assertThat(missing.toString() + missing.getCause(), containsString("[like] document [pages][nope] does not exist"));
        assertEquals(RestStatus.BAD_REQUEST, ExceptionsHelper.status(missing));

        // beyond the indexed max_distance: the node's column cache answers without allow_scan, as allow_scan does
        long probe = randomProbe();
        int k = randomIntBetween(4, 12);
        SimHashQueryBuilder beyond = new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(k);
        assertEquals(bruteForce(probe, k), hits(search(beyond).get(), true));
        assertEquals(bruteForce(probe, k), hits(search(beyond.allowScan(true)).get(), true));

        // rescorer, filter mode, window over everything: exactly the brute-force set, any distance
        int rk = randomIntBetween(0, 10);
        SimHashRescorerBuilder filter = new SimHashRescorerBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(rk)
            .scoreMode(RescoreScoreMode.FILTER);
        filter.windowSize(corpus.size() + 10);
        SearchResponse rescored = client().prepareSearch(INDEX)
            .setQuery(QueryBuilders.matchAllQuery())
            .setSize(corpus.size() + 10)
            .addRescorer(filter)
            .get();
        Map<String, Integer> rescoredHits = new HashMap<>();
        for (SearchHit hit : rescored.getHits().getHits()) {
            // no false hit: a shard where nothing passed left a placeholder, which the plugin's action filter removed
            assertNull(hit.getId() + " is not within " + rk, hit.field(ProbeRescorer.FILTERED_OUT_FIELD));
            assertNotNull(hit.getId() + " has no distance", hit.field(DISTANCE));
            rescoredHits.put(hit.getId(), ((Number) hit.field(DISTANCE).getValue()).intValue());
        }
        assertEquals(bruteForce(probe, rk), rescoredHits);

        // rescorer, closeness mode: near-duplicates first, in distance order
        SimHashRescorerBuilder closeness = new SimHashRescorerBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(rk)
            .queryWeight(0f);
        closeness.windowSize(corpus.size() + 10);
        SearchResponse closest = client().prepareSearch(INDEX)
            .setQuery(QueryBuilders.matchAllQuery())
            .setSize(corpus.size() + 10)
            .addRescorer(closeness)
            .get();
        Map<String, Integer> expectedClose = bruteForce(probe, rk);
        SearchHit[] top = closest.getHits().getHits();
        int previous = -1;
        for (int i = 0; i < expectedClose.size(); i++) {
            int d = expectedClose.get(top[i].getId());
            assertTrue(d >= previous);
            previous = d;
            assertEquals(SimHashQuery.closeness(d), top[i].getScore(), 1e-6f);
        }

        // deletes and updates between searches
        List<String> ids = new ArrayList<>(corpus.keySet());
        for (int i = 0; i < 20; i++) {
            String id = randomFrom(ids);
            if (corpus.containsKey(id) == false) {
                continue;
            }
            if (randomBoolean()) {
                client().prepareDelete(INDEX, id).get();
                corpus.remove(id);
            } else {
                long fp = SimHashQueryTests.flipBits(centers[0], randomIntBetween(0, 3));
                client().prepareIndex(INDEX).setId(id).setSource("fp", Fingerprints.toHex(fp), "ts", timestamps.get(id)).get();
                corpus.put(id, fp);
            }
        }
        refresh(INDEX);
        for (int round = 0; round < 5; round++) {
            long p = round == 0 ? centers[0] : randomProbe();
            int kk = randomIntBetween(0, 3);
            assertEquals(
                bruteForce(p, kk),
                hits(search(new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(p)).maxDistance(kk)).get(), true)
            );
        }

        // a document whose algorithm differs from the mapping is rejected
        Exception rejected = expectThrows(
            Exception.class,
            () -> client().prepareIndex(INDEX)
                .setId("bad")
                .setSource("fp", Map.of("fingerprint", "00000000000000ff", "algorithm", "other"))
                .get()
        );
        assertThat(rejected.toString() + rejected.getCause(), containsString("fingerprints made differently cannot be compared"));
    }
}
