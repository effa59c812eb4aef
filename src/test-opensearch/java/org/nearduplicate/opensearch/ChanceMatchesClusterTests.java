package org.nearduplicate.opensearch;

import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.http.HttpChannel;
import org.opensearch.http.HttpResponse;
import org.opensearch.plugins.Plugin;
import org.opensearch.rest.AbstractRestChannel;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.RestResponse;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;
import org.opensearch.test.rest.FakeRestRequest;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.node.NodeClient;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.chance.NullDistribution;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsResponse;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteResponse;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;
import org.nearduplicate.opensearch.rest.RestSimHashGroupsAction;
import org.nearduplicate.orchestration.groups.ChanceMatches;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * The groups responses' {@code chance_matches}: the expected chance pairs of the documents scanned from the shipped
 * null distribution, nulls for what was not measured, and the warning (field and HTTP {@code Warning} header) above
 * the threshold.
 */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 2, supportsDedicatedMasters = false)
public class ChanceMatchesClusterTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    private void index(String index, String algorithm, int docs) {
        assertAcked(
            prepareCreate(index).setSettings(Settings.builder().put("index.number_of_shards", randomIntBetween(1, 3)))
                .setMapping("fp", "type=simhash" + (algorithm == null ? "" : ",algorithm=" + algorithm))
        );
        BulkRequestBuilder bulk = client().prepareBulk();
        for (int i = 0; i < docs; i++)
            bulk.add(client().prepareIndex(index).setId("d" + i).setSource("fp", Fingerprints.toHex(randomLong())));
        assertFalse(bulk.get().hasFailures());
        refresh(index);
    }

    private static SimHashGroupsResponse groups(SimHashGroupsRequest request) {
        return client().execute(SimHashGroupsAction.INSTANCE, request).actionGet();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(org.opensearch.core.xcontent.ToXContentObject response) throws Exception {
        return XContentHelper.convertToMap(XContentHelper.toXContent(response, XContentType.JSON, false), false, XContentType.JSON).v2();
    }

    /** A small v4 index at the default: a bound or a small number, no warning; the figures are the table's. */
    public void testDefaultOfASmallIndex() throws Exception {
        index("small", null, 40);
        SimHashGroupsResponse r = groups(new SimHashGroupsRequest("small", "fp"));
        assertEquals(16, r.maxDistance());
        ChanceMatches c = r.chanceMatches();
        NullDistribution.Estimate expected = NullDistribution.builtin()
            .expectedFalsePairs(SimHashSettings.DEFAULT.algorithmId(), 16, SimHashSettings.DEFAULT.recommendedMinSimilarity(), 40);
        assertEquals(expected, c.pairs());
        assertNull(c.warning());
        @SuppressWarnings("unchecked")
        Map<String, Object> section = (Map<String, Object>) json(r).get("chance_matches");
        assertEquals(expected.value(), ((Number) section.get("expected_pairs")).doubleValue(), 1e-12);
        assertEquals(
            NullDistribution.builtin()
                .expectedFalseHitsPerQuery(
                    SimHashSettings.DEFAULT.algorithmId(),
                    16,
                    SimHashSettings.DEFAULT.recommendedMinSimilarity(),
                    40
                )
                .value(),
            ((Number) section.get("per_document")).doubleValue(),
            1e-12
        );
        assertEquals(false, section.get("upper_bound"));
        assertTrue(section.toString(), ((String) section.get("basis")).startsWith("simhash-v6 k=16 min_similarity=0.4, measured"));
        assertFalse(section.containsKey("warning"));
        // k = 6: no unrelated pair in the corpus, an upper bound
        @SuppressWarnings("unchecked")
        Map<String, Object> bound = (Map<String, Object>) json(groups(new SimHashGroupsRequest("small", "fp").maxDistance(6))).get(
            "chance_matches"
        );
        assertEquals(true, bound.get("upper_bound"));
        assertTrue(bound.toString(), ((String) bound.get("summary")).startsWith("< "));
    }

    /** Not measured: k beyond the table, another min_similarity: nulls and a basis that says so. */
    public void testUnknownIsNull() throws Exception {
        index("unknown", null, 10);
        for (SimHashGroupsRequest request : List.of(
            new SimHashGroupsRequest("unknown", "fp").maxDistance(30),
            new SimHashGroupsRequest("unknown", "fp").minSimilarity(0.6)
        )) {
            SimHashGroupsResponse r = groups(request);
            assertNull(r.chanceMatches().pairs());
            @SuppressWarnings("unchecked")
            Map<String, Object> section = (Map<String, Object>) json(r).get("chance_matches");
            assertTrue(section.containsKey("expected_pairs"));
            assertNull(section.get("expected_pairs"));
            assertNull(section.get("per_document"));
            assertTrue(section.toString(), ((String) section.get("basis")).startsWith("not measured"));
        }
    }

    /**
     * simhash-v3 at its default k = 15 over 300 documents: 6.5e-5 x 44,850 pairs = 2.9 expected chance pairs, above 1
     * and 0.1 % of the documents: the response warns, in its body and (through the REST handler) as a Warning header.
     */
    public void testWarningInBodyAndHeader() throws Exception {
        index("many", "simhash-v3", 300);
        SimHashGroupsResponse r = groups(new SimHashGroupsRequest("many", "fp"));
        assertEquals(15, r.maxDistance());
        ChanceMatches c = r.chanceMatches();
        assertEquals(2477.0 / 38_183_395 * 300 * 299 / 2, c.pairs().value(), 1e-9);
        assertNotNull(c.warning());
        assertTrue(c.warning(), c.warning().contains("2.91 pairs of unrelated documents among 300 documents"));
        assertTrue(c.warning(), c.warning().contains("simhash-v3 k=15 fingerprint alone"));
        assertEquals(c.warning(), json(r).entrySet().stream().filter(e -> e.getKey().equals("chance_matches")).map(e -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) e.getValue();
            return m.get("warning");
        }).findFirst().orElseThrow());
        // the write-back reports the same for the same run
        SimHashGroupsWriteResponse w = client().execute(SimHashGroupsWriteAction.INSTANCE, new SimHashGroupsWriteRequest("many", "fp"))
            .actionGet();
        assertEquals(c.pairs(), w.chanceMatches().pairs());
        assertNotNull(w.chanceMatches().warning());
        assertTrue(json(w).containsKey("chance_matches"));
        // through the REST handler: the warning is an HTTP Warning header of the response
        List<String> headers = restWarnings("many", "{\"field\": \"fp\"}");
        assertEquals(headers.toString(), 1, headers.size());
        assertTrue(headers.get(0), headers.get(0).contains("expected chance matches: 2.91 pairs"));
        // at k = 3 (rate 0, a bound) no warning
        assertEquals(List.of(), restWarnings("many", "{\"field\": \"fp\", \"max_distance\": 3}"));
    }

    /**
     * A query's explanation and its profile description carry the expected chance matches of one probe among the
     * shard's documents (a bare fingerprint on a simhash-v4 field: the fingerprint-alone rates of simhash-v3, which v4's
     * fingerprint is; on a field of the default, simhash-v6, whose fingerprint alone was not measured: "not measured").
     */
    public void testQueryExplainAndProfile() {
        assertAcked(
            prepareCreate("q").setSettings(Settings.builder().put("index.number_of_shards", 1))
                .setMapping("fp", "type=simhash,algorithm=simhash-v4")
        );
        assertAcked(prepareCreate("q5").setSettings(Settings.builder().put("index.number_of_shards", 1)).setMapping("fp", "type=simhash"));
        long probe = randomLong();
        BulkRequestBuilder bulk = client().prepareBulk();
        for (int i = 0; i < 20; i++) {
            bulk.add(client().prepareIndex("q").setId("d" + i).setSource("fp", Fingerprints.toHex(i == 0 ? probe : randomLong())));
            bulk.add(client().prepareIndex("q5").setId("d" + i).setSource("fp", Fingerprints.toHex(i == 0 ? probe : randomLong())));
        }
        assertFalse(bulk.get().hasFailures());
        refresh("q", "q5");
        SimHashQueryBuilder query = new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(15);
        SearchResponse r = client().prepareSearch("q").setQuery(query).setExplain(true).setProfile(true).get();
        assertTrue(r.getHits().getHits().length >= 1);
        String expected = "expected chance matches per probe among this shard's 20 documents: "
            + NullDistribution.builtin().estimate(SimHashSettings.DEFAULT_V4.algorithmId(), 15, Double.NaN, NullDistribution.ALL, 20).text()
            + " (simhash-v3 k=15 fingerprint alone, measured on the public corpus";
        String explanation = r.getHits().getHits()[0].getExplanation().toString();
        assertTrue(explanation, explanation.contains(expected));
        String profile = r.getProfileResults()
            .values()
            .iterator()
            .next()
            .getQueryProfileResults()
            .get(0)
            .getQueryResults()
            .get(0)
            .getLuceneDescription();
        assertTrue(profile, profile.contains(expected));
        // not measured: k = 30
        SearchResponse wide = client().prepareSearch("q")
            .setQuery(new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(30))
            .setExplain(true)
            .get();
        String unknown = wide.getHits().getHits()[0].getExplanation().toString();
        assertTrue(unknown, unknown.contains("among this shard's 20 documents: not measured"));
        // the default's fingerprint alone: not measured either
        SearchResponse v5 = client().prepareSearch("q5")
            .setQuery(new SimHashQueryBuilder("fp", SimHashProbe.fingerprint(probe)).maxDistance(15))
            .setExplain(true)
            .get();
        String alone = v5.getHits().getHits()[0].getExplanation().toString();
        assertTrue(alone, alone.contains("among this shard's 20 documents: not measured"));
    }

    /** The Warning headers of a {@code _near_duplicates} request run through the plugin's REST handler on one node. */
    private List<String> restWarnings(String index, String body) throws Exception {
        String node = randomFrom(internalCluster().getNodeNames());
        NodeClient client = internalCluster().getInstance(NodeClient.class, node);
        ThreadPool threadPool = internalCluster().getInstance(ThreadPool.class, node);
        RestRequest fake = new FakeRestRequest.Builder(xContentRegistry()).withMethod(RestRequest.Method.POST)
            .withPath("/" + index + "/_near_duplicates")
            .withContent(new BytesArray(body), XContentType.JSON)
            .build();
        // FakeRestRequest's channel never closes, and RestCancellableNodeClient tracks a channel until it does
        ClosingHttpChannel httpChannel = new ClosingHttpChannel();
        RestRequest request = new RestRequest(
            xContentRegistry(),
            new java.util.HashMap<>(Map.of("index", index)),
            "/" + index + "/_near_duplicates",
            Map.of("Content-Type", List.of("application/json")),
            fake.getHttpRequest(),
            httpChannel
        ) {
        };
        CountDownLatch sent = new CountDownLatch(1);
        AtomicReference<List<String>> warnings = new AtomicReference<>();
        AtomicReference<RestResponse> response = new AtomicReference<>();
        AbstractRestChannel channel = new AbstractRestChannel(request, true) {
            @Override
            public void sendResponse(RestResponse r) {
                // what DefaultRestChannel copies into the HTTP response: the sending thread's response headers
                warnings.set(threadPool.getThreadContext().getResponseHeaders().getOrDefault("Warning", List.of()));
                response.set(r);
                sent.countDown();
            }
        };
        BaseRestHandler handler = new RestSimHashGroupsAction();
        try (var ignored = threadPool.getThreadContext().stashContext()) {
            handler.handleRequest(request, channel, client);
        }
        assertTrue(sent.await(30, TimeUnit.SECONDS));
        httpChannel.close();
        assertEquals(200, response.get().status().getStatus());
        return warnings.get();
    }

    /** An HTTP channel that is never written to and tells its close listeners when closed. */
    private static final class ClosingHttpChannel implements HttpChannel {
        private final List<ActionListener<Void>> closeListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
        private volatile boolean open = true;

        @Override
        public void sendResponse(HttpResponse response, ActionListener<Void> listener) {
            listener.onResponse(null);
        }

        @Override
        public InetSocketAddress getLocalAddress() {
            return null;
        }

        @Override
        public InetSocketAddress getRemoteAddress() {
            return null;
        }

        @Override
        public void addCloseListener(ActionListener<Void> listener) {
            closeListeners.add(listener);
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
            for (ActionListener<Void> l : closeListeners)
                l.onResponse(null);
        }
    }
}
