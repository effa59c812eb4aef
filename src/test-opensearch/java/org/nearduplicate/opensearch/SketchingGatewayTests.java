package org.nearduplicate.opensearch;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.search.SearchRequestBuilder;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.core.indices.breaker.CircuitBreakerService;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginsService;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.opensearch.action.simhash.IndexSimHashAction;
import org.nearduplicate.opensearch.action.simhash.IndexSimHashRequest;
import org.nearduplicate.opensearch.action.simhash.SimHashAction;
import org.nearduplicate.opensearch.action.simhash.SimHashRequest;
import org.nearduplicate.opensearch.action.simhash.SimHashResponse;
import org.nearduplicate.opensearch.index.query.minhash.MinHashProbe;
import org.nearduplicate.opensearch.index.query.minhash.MinHashQueryBuilder;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;
import org.nearduplicate.opensearch.search.rescore.SimHashRescorerBuilder;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.hamcrest.Matchers.containsString;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * Every way into fingerprinting on a node goes through its {@link SketchingService}: the {@code simhash},
 * {@code minhash} and {@code imatch} processors and the text probes of the {@code near_duplicate} query, its rescorer
 * and {@code minhash_similar} (signed on the coordinating node or on the shards) all refuse an input over {@code near_duplicate.max_input_chars} with the same error, and
 * all trip the {@code near_duplicate} breaker on an input it cannot afford (releasing it after; a 429 where the
 * coordinating node fingerprints, a shard failure where the shards do); so do the {@code _simhash} transport actions
 * (and LimitsIT on the real node).
 */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 1, numClientNodes = 0, supportsDedicatedMasters = false)
public class SketchingGatewayTests extends OpenSearchIntegTestCase {
    private static final int MAX_INPUT_CHARS = 6_000;
    private static final String SHORT = "The old harbor bridge reopened to traffic on Monday after two years of repairs.";

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        // 64 kb: a 4,000-char HTML page (24 bytes per char estimated) does not fit, a short text does
        return Settings.builder()
            .put(super.nodeSettings(nodeOrdinal))
            .put("near_duplicate.max_input_chars", MAX_INPUT_CHARS)
            .put("near_duplicate.breaker.limit", "64kb")
            .build();
    }

    private static String html(int chars) {
        StringBuilder page = new StringBuilder("<html><body><main>");
        while (page.length() < chars - 30) {
            page.append("<p>The old harbor bridge reopened to traffic.</p>");
        }
        return page.append("</main></body></html>").toString();
    }

    private SketchingService sketching() {
        return internalCluster().getInstance(PluginsService.class).filterPlugins(NearDuplicatePlugin.class).get(0).sketching();
    }

    private void assertBreakerReleased() {
        for (CircuitBreakerService service : internalCluster().getInstances(CircuitBreakerService.class)) {
            assertEquals("every reservation is released", 0, service.getBreaker(SketchingService.BREAKER_NAME).getUsed());
        }
    }

    public void testEveryProcessorGoesThroughTheEngine() {
        for (String processor : List.of("simhash", "minhash", "imatch")) {
            String pipeline = "gateway-" + processor;
            assertAcked(
                client().admin()
                    .cluster()
                    .preparePutPipeline(
                        pipeline,
                        new BytesArray("{\"processors\": [{\"" + processor + "\": {\"field\": \"content\", \"target_field\": \"out\"}}]}"),
                        XContentType.JSON
                    )
                    .get()
            );
            BulkResponse response = client().prepareBulk()
                .add(
                    client().prepareIndex("gateway-" + processor)
                        .setId("too-long")
                        .setSource("content", html(MAX_INPUT_CHARS + 500))
                        .setPipeline(pipeline)
                )
                .add(
                    client().prepareIndex("gateway-" + processor)
                        .setId("too-costly")
                        .setSource("content", html(4_000))
                        .setPipeline(pipeline)
                )
                .add(client().prepareIndex("gateway-" + processor).setId("short").setSource("content", SHORT).setPipeline(pipeline))
                .get();
            BulkItemResponse tooLong = response.getItems()[0];
            assertTrue(processor, tooLong.isFailed());
            assertThat(processor, tooLong.getFailureMessage(), containsString("[max_input_chars] = " + MAX_INPUT_CHARS));
            BulkItemResponse tooCostly = response.getItems()[1];
            assertTrue(processor, tooCostly.isFailed());
            assertEquals(processor, RestStatus.TOO_MANY_REQUESTS, tooCostly.getFailure().getStatus());
            assertFalse(processor + ": " + response.getItems()[2].getFailureMessage(), response.getItems()[2].isFailed());
            assertBreakerReleased();
        }
    }

    /**
     * {@code _simhash} runs as transport actions (issue 23): without an index {@code cluster:monitor/near_duplicate/simhash},
     * with one {@code indices:data/read/near_duplicate/simhash}, which reads the field's mapping; both go through the
     * engine and obey the node limit and the breaker.
     */
    public void testSimHashActionsGoThroughTheEngine() {
        assertAcked(prepareCreate("simhash-api").setMapping("fp", "type=simhash,algorithm=simhash-v2", "title", "type=text"));
        SimHashRequest textOnly = SimHashRequest.parse(Map.of("text", SHORT), null, sketching());
        SimHashResponse plain = client().execute(SimHashAction.INSTANCE, textOnly).actionGet();
        assertEquals(16, Fingerprints.toHex(plain.first().fingerprint()).length());
        assertNull(plain.layout());
        SimHashResponse mapped = client().execute(
            IndexSimHashAction.INSTANCE,
            (IndexSimHashRequest) SimHashRequest.parse(Map.of("text", SHORT, "field", "fp"), "simhash-api", sketching())
        ).actionGet();
        assertTrue(mapped.algorithm(), mapped.algorithm().startsWith("simhash-v2:"));
        assertEquals(new SimHashResponse.Layout(4, 16, 4), mapped.layout());
        assertEquals(4, mapped.first().keys().size());

        Exception notSimhash = expectThrows(
            Exception.class,
            () -> client().execute(
                IndexSimHashAction.INSTANCE,
                (IndexSimHashRequest) SimHashRequest.parse(Map.of("text", SHORT, "field", "title"), "simhash-api", sketching())
            ).actionGet()
        );
        assertEquals(RestStatus.BAD_REQUEST, ExceptionsHelper.status(notSimhash));
        assertThat(ExceptionsHelper.unwrapCause(notSimhash).getMessage(), containsString("is not a [simhash] field"));
        SimHashRequest longPage = SimHashRequest.parse(Map.of("html", html(MAX_INPUT_CHARS + 500)), null, sketching());
        Exception tooLong = expectThrows(Exception.class, () -> client().execute(SimHashAction.INSTANCE, longPage).actionGet());
        assertEquals(RestStatus.BAD_REQUEST, ExceptionsHelper.status(tooLong));
        assertThat(ExceptionsHelper.unwrapCause(tooLong).getMessage(), containsString("[max_input_chars] = " + MAX_INPUT_CHARS));
        Exception tooCostly = expectThrows(
            Exception.class,
            () -> client().execute(SimHashAction.INSTANCE, SimHashRequest.parse(Map.of("html", html(4_000)), null, sketching())).actionGet()
        );
        assertEquals(RestStatus.TOO_MANY_REQUESTS, ExceptionsHelper.status(tooCostly));
        assertBreakerReleased();
    }

    @SuppressWarnings("deprecation") // ExceptionsHelper.detailedMessage: the nested shard failures are part of the message
    public void testEveryTextProbeGoesThroughTheEngine() {
        assertAcked(prepareCreate("probes").setMapping("fp", "type=simhash", "mh", "type=minhash"));
        client().prepareIndex("probes").setId("1").setSource("title", "x").get();
        refresh("probes");
        SketchingService sketching = sketching();
        Map<String, Function<String, SearchRequestBuilder>> probes = Map.of(
            "near_duplicate query",
            page -> client().prepareSearch("probes").setQuery(new SimHashQueryBuilder("fp", SimHashProbe.html(page)).sketching(sketching)),
            "near_duplicate query, parsed without the engine (fingerprinted by the shards)",
            page -> client().prepareSearch("probes").setQuery(new SimHashQueryBuilder("fp", SimHashProbe.html(page))),
            "near_duplicate rescorer",
            page -> client().prepareSearch("probes")
                .setQuery(QueryBuilders.matchAllQuery())
                .addRescorer(new SimHashRescorerBuilder("fp", SimHashProbe.html(page)).sketching(sketching)),
            "minhash_similar query",
            page -> client().prepareSearch("probes").setQuery(new MinHashQueryBuilder("mh", MinHashProbe.html(page)).sketching(sketching)),
            "minhash_similar query, parsed without the engine (signed by the shards)",
            page -> client().prepareSearch("probes").setQuery(new MinHashQueryBuilder("mh", MinHashProbe.html(page)))
        );
        Set<String> coordinated = Set.of("near_duplicate query", "near_duplicate rescorer", "minhash_similar query");
        long before = sketching.probesFingerprinted();
        probes.forEach((name, search) -> {
            Exception tooLong = expectThrows(Exception.class, () -> search.apply(html(MAX_INPUT_CHARS + 500)).get());
            assertEquals(name, RestStatus.BAD_REQUEST, ExceptionsHelper.status(tooLong));
            assertThat(name, ExceptionsHelper.detailedMessage(tooLong), containsString("[max_input_chars] = " + MAX_INPUT_CHARS));
            Exception tooCostly = expectThrows(Exception.class, () -> search.apply(html(4_000)).get());
            assertThat(name, ExceptionsHelper.detailedMessage(tooCostly), containsString("[near_duplicate] Data too large"));
            if (coordinated.contains(name)) {
                // fingerprinted once by the coordinating node: the trip is the request's 429, not a shard failure
                assertEquals(name, RestStatus.TOO_MANY_REQUESTS, ExceptionsHelper.status(tooCostly));
            }
            assertEquals(name, 0, search.apply(SHORT).get().getFailedShards());
            assertBreakerReleased();
        });
        assertTrue("the probes were fingerprinted by the node's engine", sketching.probesFingerprinted() - before >= 3 * probes.size());
        CircuitBreaker breaker = internalCluster().getInstance(CircuitBreakerService.class).getBreaker(SketchingService.BREAKER_NAME);
        assertTrue(breaker.getTrippedCount() >= probes.size());
    }
}
