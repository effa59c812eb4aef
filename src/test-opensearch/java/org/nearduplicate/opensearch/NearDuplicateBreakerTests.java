package org.nearduplicate.opensearch;

import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.core.indices.breaker.CircuitBreakerService;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.Collection;
import java.util.List;

import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.hamcrest.Matchers.containsString;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * The {@code near_duplicate} circuit breaker trips: with a small limit, a large page fails with 429 instead of
 * being fingerprinted, its reservation is released, and small pages still go through.
 */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 1, numClientNodes = 0, supportsDedicatedMasters = false)
public class NearDuplicateBreakerTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        // about 2,700 HTML chars at 24 bytes per char
        return Settings.builder().put(super.nodeSettings(nodeOrdinal)).put("near_duplicate.breaker.limit", "64kb").build();
    }

    public void testLargePageTripsTheBreakerAndSmallPagesPass() {
        assertAcked(
            client().admin()
                .cluster()
                .preparePutPipeline("fp", new BytesArray("{\"processors\": [{\"simhash\": {\"field\": \"content\"}}]}"), XContentType.JSON)
                .get()
        );
        assertAcked(prepareCreate("pages").setMapping("simhash", "type=simhash"));
        StringBuilder large = new StringBuilder("<html><body><main>");
        while (large.length() < 20_000) {
            large.append("<p>The old harbor bridge reopened to traffic after two years of repairs.</p>");
        }
        large.append("</main></body></html>");
        String small = "<html><body><p>The old harbor bridge reopened to traffic after two years of repairs.</p></body></html>";

        BulkResponse response = client().prepareBulk()
            .add(client().prepareIndex("pages").setId("large").setSource("content", large.toString()).setPipeline("fp"))
            .add(client().prepareIndex("pages").setId("small").setSource("content", small).setPipeline("fp"))
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        BulkItemResponse largeItem = response.getItems()[0];
        assertTrue("the large page must fail", largeItem.isFailed());
        assertEquals(RestStatus.TOO_MANY_REQUESTS, largeItem.getFailure().getStatus());
        assertThat(largeItem.getFailureMessage(), containsString("[near_duplicate] Data too large"));
        assertFalse(response.getItems()[1].getFailureMessage(), response.getItems()[1].isFailed());

        long tripped = 0;
        for (CircuitBreakerService service : internalCluster().getInstances(CircuitBreakerService.class)) {
            CircuitBreaker breaker = service.getBreaker(SketchingService.BREAKER_NAME);
            assertEquals("every reservation is released", 0, breaker.getUsed());
            tripped += breaker.getTrippedCount();
        }
        assertTrue("the breaker counted its trip", tripped >= 1);
        assertEquals(1, client().prepareSearch("pages").setSize(0).get().getHits().getTotalHits().value());
    }
}
