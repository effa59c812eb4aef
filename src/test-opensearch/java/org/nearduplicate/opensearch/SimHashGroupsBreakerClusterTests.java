package org.nearduplicate.opensearch;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.indices.breaker.CircuitBreakerService;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.Collection;
import java.util.List;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsResponse;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.hamcrest.Matchers.containsString;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * A groups run larger than the {@code near_duplicate} breaker's budget fails with 429 before it allocates, leaves the
 * node serving and gives every byte back; a run within the budget answers.
 */
@ClusterScope(scope = Scope.TEST, numDataNodes = 1, supportsDedicatedMasters = false)
public class SimHashGroupsBreakerClusterTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        // 5,000 documents need about 40 KB of fingerprints per pass and ~130 KB to group; 100 documents far less
        return Settings.builder().put(super.nodeSettings(nodeOrdinal)).put(SketchingService.BREAKER_LIMIT_SETTING.getKey(), "64kb").build();
    }

    private void index(String name, int docs) {
        assertAcked(prepareCreate(name).setSettings(Settings.builder().put("index.number_of_shards", 2)).setMapping("fp", "type=simhash"));
        BulkRequestBuilder bulk = client().prepareBulk();
        for (int i = 0; i < docs; i++) {
            long fp = i % 10 == 1 ? 0x5555L : randomLong();
            bulk.add(client().prepareIndex(name).setId("d" + i).setSource("fp", Fingerprints.toHex(fp)));
        }
        assertFalse(bulk.get().hasFailures());
        refresh(name);
    }

    private long breakerUsed() {
        long used = 0;
        for (CircuitBreakerService service : internalCluster().getInstances(CircuitBreakerService.class)) {
            used += service.getBreaker(SketchingService.BREAKER_NAME).getUsed();
        }
        return used;
    }

    public void testTooLargeIs429AndReleasesEverything() throws Exception {
        index("large", 5000);
        index("small", 100);
        Exception e = expectThrows(
            Exception.class,
            () -> client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest("large", "fp").maxDistance(3)).actionGet()
        );
        CircuitBreakingException tripped = (CircuitBreakingException) ExceptionsHelper.unwrap(e, CircuitBreakingException.class);
        assertNotNull(e.toString(), tripped);
        assertEquals(RestStatus.TOO_MANY_REQUESTS, ExceptionsHelper.status(e));
        assertThat(tripped.getMessage(), containsString("near_duplicate groups"));
        assertBusy(() -> assertEquals(0, breakerUsed()));
        // the node still answers, within its budget
        SimHashGroupsResponse small = client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest("small", "fp").maxDistance(3))
            .actionGet();
        assertEquals(100, small.docsScanned());
        assertEquals(1, small.groupCount());
        assertEquals(10, small.docsInGroups());
        assertBusy(() -> assertEquals(0, breakerUsed()));
    }
}
