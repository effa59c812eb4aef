package org.nearduplicate.opensearch;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.common.action.ActionFuture;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.indices.breaker.CircuitBreakerService;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.search.SearchHit;
import org.opensearch.tasks.TaskInfo;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsResponse;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteResponse;
import org.nearduplicate.opensearch.action.groups.TransportSimHashGroupsWriteAction;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.groups.GroupsPage;
import org.nearduplicate.orchestration.groups.RequestsPerSecond;

import static org.hamcrest.Matchers.containsString;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * What a multi-tenant operator needs of the groups APIs: a filtered alias shows only its documents (read and written),
 * a cancel stops a throttled write at once, the mapping records how a write-back ended, and no path leaves bytes in the
 * breaker.
 */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 2, supportsDedicatedMasters = false)
public class SimHashGroupsSafetyClusterTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    /** Tenants x and y, each with copies of its own and copies of the other's pages. */
    private void tenants(String index) {
        assertAcked(
            prepareCreate(index).setSettings(Settings.builder().put("index.number_of_shards", randomIntBetween(1, 3)))
                .setMapping("fp", "type=simhash", "tenant", "type=keyword")
        );
        BulkRequestBuilder bulk = client().prepareBulk();
        for (int i = 0; i < 30; i++) {
            long fp = 0x0F0F_0000_0000_0000L + ((long) (i % 10) << 20);
            bulk.add(
                client().prepareIndex(index)
                    .setId((i % 2 == 0 ? "x" : "y") + i)
                    .setSource("fp", Fingerprints.toHex(fp), "tenant", i % 2 == 0 ? "x" : "y")
            );
        }
        assertFalse(bulk.get().hasFailures());
        refresh(index);
        assertAcked(client().admin().indices().prepareAliases().addAlias(index, index + "_x", QueryBuilders.termQuery("tenant", "x")));
        assertAcked(
            client().admin().indices().prepareAliases().addAlias(index, index + "_none", QueryBuilders.termQuery("tenant", "nobody"))
        );
    }

    private static Set<String> ids(SimHashGroupsResponse r) {
        Set<String> ids = new HashSet<>();
        for (GroupsPage.Group g : r.groups())
            for (GroupMembers.Member m : g.members())
                ids.add(m.id());
        return ids;
    }

    public void testGroupsThroughAFilteredAliasSeeOnlyItsDocuments() {
        tenants("grp");
        SimHashGroupsResponse all = client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest("grp", "fp").maxDistance(0))
            .actionGet();
        assertEquals(30, all.docsScanned());
        SimHashGroupsResponse x = client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest("grp_x", "fp").maxDistance(0))
            .actionGet();
        assertEquals(15, x.docsScanned());
        assertFalse(ids(x).isEmpty());
        for (String id : ids(x))
            assertTrue(id, id.startsWith("x"));
        SimHashGroupsResponse none = client().execute(
            SimHashGroupsAction.INSTANCE,
            new SimHashGroupsRequest("grp_none", "fp").maxDistance(0)
        ).actionGet();
        assertEquals(0, none.docsScanned());
        assertEquals(0, none.groupCount());
    }

    public void testWriteThroughAFilteredAliasWritesOnlyItsDocuments() {
        tenants("wrt");
        SimHashGroupsWriteResponse hidden = client().execute(
            SimHashGroupsWriteAction.INSTANCE,
            new SimHashGroupsWriteRequest("wrt_none", "fp").maxDistance(0)
        ).actionGet();
        assertEquals(0, hidden.written());
        SimHashGroupsWriteResponse x = client().execute(
            SimHashGroupsWriteAction.INSTANCE,
            new SimHashGroupsWriteRequest("wrt_x", "fp").maxDistance(0)
        ).actionGet();
        assertEquals(15, x.written());
        refresh("wrt");
        SearchResponse written = client().prepareSearch("wrt").setQuery(QueryBuilders.existsQuery("duplicate_group")).setSize(100).get();
        assertEquals(15, written.getHits().getTotalHits().value());
        for (SearchHit hit : written.getHits())
            assertEquals("x", hit.getSourceAsMap().get("tenant"));
        // the whole index, then tenant x's alias at k = 64 is a no-op for x and must not clear y's fields
        client().execute(SimHashGroupsWriteAction.INSTANCE, new SimHashGroupsWriteRequest("wrt", "fp").maxDistance(0)).actionGet();
        SimHashGroupsWriteResponse again = client().execute(
            SimHashGroupsWriteAction.INSTANCE,
            new SimHashGroupsWriteRequest("wrt_none", "fp").maxDistance(0)
        ).actionGet();
        assertEquals(0, again.cleared());
        refresh("wrt");
        assertEquals(
            30,
            client().prepareSearch("wrt").setQuery(QueryBuilders.existsQuery("duplicate_group")).get().getHits().getTotalHits().value()
        );
    }

    /** The write-back's marker in the mapping's {@code _meta} (an empty map when there is none). */
    @SuppressWarnings("unchecked")
    private Map<String, Object> marker(String index) {
        Map<String, Object> mapping = client().admin().indices().prepareGetMappings(index).get().getMappings().get(index).sourceAsMap();
        Map<String, Object> meta = (Map<String, Object>) mapping.getOrDefault("_meta", Map.of());
        return (Map<String, Object>) meta.getOrDefault(TransportSimHashGroupsWriteAction.MARKER, Map.of());
    }

    public void testTheMappingRecordsHowAWriteEnded() throws Exception {
        assertAcked(
            prepareCreate("marked").setMapping(
                Map.of("_meta", Map.of("owner", "crawler"), "properties", Map.of("fp", Map.of("type", "simhash")))
            )
        );
        client().prepareIndex("marked").setId("a").setSource("fp", "00000000000000ff").get();
        client().prepareIndex("marked").setId("b").setSource("fp", "00000000000000ff").get();
        refresh("marked");
        client().execute(SimHashGroupsWriteAction.INSTANCE, new SimHashGroupsWriteRequest("marked", "fp").maxDistance(0)).actionGet();
        assertBusy(() -> assertEquals("completed", marker("marked").get("status")));
        assertEquals(2, ((Number) marker("marked").get("written")).intValue());
        Map<String, Object> mapping = client().admin()
            .indices()
            .prepareGetMappings("marked")
            .get()
            .getMappings()
            .get("marked")
            .sourceAsMap();
        assertEquals("crawler", ((Map<?, ?>) mapping.get("_meta")).get("owner")); // the user's own _meta stays
    }

    /** The slowest throttle waits 100 s per document; a cancel ends the task at once, and the marker says so. */
    public void testCancelStopsAThrottleWaitAtOnce() throws Exception {
        assertAcked(prepareCreate("slowest").setMapping("fp", "type=simhash"));
        BulkRequestBuilder bulk = client().prepareBulk();
        for (int i = 0; i < 6; i++)
            bulk.add(client().prepareIndex("slowest").setId("s" + i).setSource("fp", "00000000000000ff"));
        assertFalse(bulk.get().hasFailures());
        refresh("slowest");
        ActionFuture<SimHashGroupsWriteResponse> future = client().execute(
            SimHashGroupsWriteAction.INSTANCE,
            new SimHashGroupsWriteRequest("slowest", "fp").maxDistance(0)
                .batchSize(1)
                .requestsPerSecond(SimHashGroupsWriteRequest.MIN_REQUESTS_PER_SECOND)
        );
        TaskInfo[] running = new TaskInfo[1];
        assertBusy(() -> {
            List<TaskInfo> tasks = client().admin().cluster().prepareListTasks().setActions(SimHashGroupsWriteAction.NAME).get().getTasks();
            assertEquals(1, tasks.size());
            running[0] = tasks.get(0);
            assertEquals("running", marker("slowest").get("status"));
        });
        assertBusy(
            () -> assertEquals(
                1L,
                client().prepareSearch("slowest")
                    .setQuery(QueryBuilders.existsQuery("duplicate_group"))
                    .get()
                    .getHits()
                    .getTotalHits()
                    .value()
            ),
            30,
            TimeUnit.SECONDS
        );
        client().admin().cluster().prepareCancelTasks().setTaskId(running[0].getTaskId()).get();
        // well before the next document is due (100 s)
        ExecutionException e = expectThrows(ExecutionException.class, () -> future.get(20, TimeUnit.SECONDS));
        assertNotNull(e.toString(), ExceptionsHelper.unwrap(e, TaskCancelledException.class));
        assertBusy(() -> assertEquals("cancelled", marker("slowest").get("status")));
    }

    public void testRequestsPerSecondIsBounded() {
        for (Object slow : new Object[] { 1e-30, 0.001, 0, -2, Double.NaN, "Infinity", "1e-30" }) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> RequestsPerSecond.parse(slow));
            assertThat(e.getMessage(), containsString("at least 0.01"));
        }
        assertEquals(0.01f, RequestsPerSecond.parse(0.01), 0f);
        assertEquals(-1f, RequestsPerSecond.parse("unlimited"), 0f);
        Exception e = expectThrows(
            Exception.class,
            () -> client().execute(SimHashGroupsWriteAction.INSTANCE, new SimHashGroupsWriteRequest("any", "fp").requestsPerSecond(1e-30f))
                .actionGet()
        );
        assertThat(e.getMessage(), containsString("at least 0.01"));
    }

    public void testPatternsAndUnmappedFieldsFailAtOnce() {
        assertAcked(prepareCreate("plain").setMapping("fp", "type=simhash", "title", "type=text"));
        for (String pattern : new String[] { "_all", "pla*", "plain,other" }) {
            Exception e = expectThrows(
                Exception.class,
                () -> client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest(pattern, "fp")).actionGet()
            );
            assertThat(e.getMessage(), containsString("_all, wildcards and lists are not supported"));
            assertEquals(RestStatus.BAD_REQUEST, ExceptionsHelper.status(e));
        }
        Exception unmapped = expectThrows(
            Exception.class,
            () -> client().execute(SimHashGroupsWriteAction.INSTANCE, new SimHashGroupsWriteRequest("plain", "nope")).actionGet()
        );
        assertThat(unmapped.getMessage(), containsString("field [nope] is not mapped in index [plain]"));
        Exception wrongType = expectThrows(
            Exception.class,
            () -> client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest("plain", "title")).actionGet()
        );
        assertThat(wrongType.getMessage(), containsString("is of type [text], expected [simhash]"));
        // nothing was written: no marker, no group fields mapped
        Map<String, Object> mapping = client().admin().indices().prepareGetMappings("plain").get().getMappings().get("plain").sourceAsMap();
        assertNull(mapping.get("_meta"));
    }

    private long breakerUsed() {
        long used = 0;
        for (CircuitBreakerService service : internalCluster().getInstances(CircuitBreakerService.class)) {
            used += service.getBreaker(SketchingService.BREAKER_NAME).getUsed();
        }
        return used;
    }

    /** Random runs, some tripping the breaker in some phase, some cancelled: none leaves a byte reserved. */
    public void testNoPathLeavesBytesBehind() throws Exception {
        assertAcked(
            prepareCreate("leak").setSettings(Settings.builder().put("index.number_of_shards", randomIntBetween(1, 3)))
                .setMapping("fp", "type=simhash")
        );
        BulkRequestBuilder bulk = client().prepareBulk();
        int docs = randomIntBetween(200, 2000);
        for (int i = 0; i < docs; i++) {
            long fp = i % 3 == 0 ? 0x7777L << (i % 40) : randomLong();
            bulk.add(
                client().prepareIndex("leak")
                    .setId("doc-" + i + "-" + randomAlphaOfLength(randomIntBetween(1, 30)))
                    .setSource("fp", Fingerprints.toHex(fp))
            );
        }
        assertFalse(bulk.get().hasFailures());
        refresh("leak");
        int tripped = 0;
        for (int run = 0; run < 12; run++) {
            setBreakerLimit(randomFrom(1L << 10, 8L << 10, 32L << 10, 128L << 10, 1L << 20, Long.MAX_VALUE / 4));
            int k = randomFrom(0, 1, 3, 8, 12);
            boolean groups = randomBoolean();
            logger.info("run {}: {} at k={} with limit {}", run, groups ? "groups" : "write", k, breakerLimit());
            try {
                if (groups) {
                    client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest("leak", "fp").maxDistance(k)).actionGet();
                } else {
                    ActionFuture<SimHashGroupsWriteResponse> write = client().execute(
                        SimHashGroupsWriteAction.INSTANCE,
                        new SimHashGroupsWriteRequest("leak", "fp").maxDistance(k).batchSize(randomIntBetween(1, 200))
                    );
                    if (randomBoolean()) {
                        client().admin().cluster().prepareCancelTasks().setActions(SimHashGroupsWriteAction.NAME).get();
                    }
                    write.actionGet(TimeValue.timeValueSeconds(60));
                }
            } catch (Exception e) {
                if (ExceptionsHelper.unwrap(e, CircuitBreakingException.class) != null) {
                    tripped++;
                } else if (ExceptionsHelper.unwrap(e, TaskCancelledException.class) == null) {
                    throw e;
                }
            }
            assertBusy(() -> assertEquals(0, breakerUsed()));
        }
        setBreakerLimit(1L << 10);
        expectThrows(
            Exception.class,
            () -> client().execute(SimHashGroupsAction.INSTANCE, new SimHashGroupsRequest("leak", "fp").maxDistance(3)).actionGet()
        );
        assertBusy(() -> assertEquals(0, breakerUsed()));
        logger.info("{} of the random runs tripped the breaker", tripped);
        setBreakerLimit(original);
    }

    /**
     * The singleton pass reserves its pages too: documents with long ids and no near-duplicates (pages hold more bytes
     * per document than the grouping), written under limits from tiny to large. Every run answers 200 or the
     * breaker's 429, some of them from the singleton pass, and none leaves a byte reserved.
     */
    public void testSingletonPagesTripTheBreakerAndGiveEverythingBack() throws Exception {
        assertAcked(
            prepareCreate("singles-breaker").setSettings(Settings.builder().put("index.number_of_shards", randomIntBetween(1, 2)))
                .setMapping("fp", "type=simhash")
        );
        BulkRequestBuilder bulk = client().prepareBulk();
        int docs = randomIntBetween(1500, 2500);
        for (int i = 0; i < docs; i++) {
            bulk.add(
                client().prepareIndex("singles-breaker")
                    .setId("singleton-" + i + "-" + randomAlphaOfLength(120))
                    .setSource("fp", Fingerprints.toHex(randomLong()))
            );
        }
        assertFalse(bulk.get().hasFailures());
        refresh("singles-breaker");
        int trippedInSingletons = 0;
        boolean succeeded = false;
        for (long limit = 4L << 10; succeeded == false; limit = limit * 5 / 4) {
            setBreakerLimit(limit);
            try {
                SimHashGroupsWriteResponse r = client().execute(
                    SimHashGroupsWriteAction.INSTANCE,
                    new SimHashGroupsWriteRequest("singles-breaker", "fp").maxDistance(0)
                ).actionGet(TimeValue.timeValueSeconds(60));
                succeeded = true;
                assertEquals(0, r.failureCount());
            } catch (Exception e) {
                CircuitBreakingException breaking = (CircuitBreakingException) ExceptionsHelper.unwrap(e, CircuitBreakingException.class);
                assertNotNull("a 429 or a success, not " + e, breaking);
                assertEquals(RestStatus.TOO_MANY_REQUESTS, ExceptionsHelper.status(e));
                if (breaking.getMessage().contains("singletons")) trippedInSingletons++;
            }
            assertBusy(() -> assertEquals(0, breakerUsed()));
        }
        logger.info("{} runs tripped in the singleton pass", trippedInSingletons);
        assertTrue("some limit must trip in the singleton pass", trippedInSingletons > 0);
        setBreakerLimit(original);
        refresh("singles-breaker");
        // the run that succeeded (and the partial ones before it) left every document its own group
        SimHashGroupsWriteResponse rerun = client().execute(
            SimHashGroupsWriteAction.INSTANCE,
            new SimHashGroupsWriteRequest("singles-breaker", "fp").maxDistance(0)
        ).actionGet();
        assertEquals(0, rerun.singletons());
    }

    private long original = -1;

    private long breakerLimit() {
        return internalCluster().getInstance(CircuitBreakerService.class).getBreaker(SketchingService.BREAKER_NAME).getLimit();
    }

    /** The limit is a static node setting; the test moves the breaker's own limit between runs. */
    private void setBreakerLimit(long bytes) {
        for (CircuitBreakerService service : internalCluster().getInstances(CircuitBreakerService.class)) {
            CircuitBreaker breaker = service.getBreaker(SketchingService.BREAKER_NAME);
            if (original < 0) original = breaker.getLimit();
            breaker.setLimitAndOverhead(bytes, breaker.getOverhead());
        }
    }
}
