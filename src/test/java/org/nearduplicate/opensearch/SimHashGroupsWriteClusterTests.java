package org.nearduplicate.opensearch;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.admin.indices.mapping.get.GetMappingsResponse;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.action.ActionFuture;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.search.SearchHit;
import org.opensearch.search.collapse.CollapseBuilder;
import org.opensearch.tasks.TaskInfo;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsResponse;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsTask;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteResponse;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/** {@code _near_duplicates/_write} leaves in every document exactly what the groups API answers, and keeps it true on re-runs. */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 2, supportsDedicatedMasters = false)
public class SimHashGroupsWriteClusterTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    private Map<String, Long> index(String index, int docs) {
        Map<String, Long> corpus = SimHashGroupsClusterTests.randomCorpus(docs, 5);
        assertAcked(
            prepareCreate(index).setSettings(Settings.builder().put("index.number_of_shards", randomIntBetween(1, 3)))
                .setMapping("fp", "type=simhash")
        );
        BulkRequestBuilder bulk = client().prepareBulk();
        for (Map.Entry<String, Long> e : corpus.entrySet()) {
            bulk.add(
                client().prepareIndex(index)
                    .setId(e.getKey())
                    .setRouting(SimHashGroupsClusterTests.routing(e.getKey()))
                    .setSource("fp", Fingerprints.toHex(e.getValue()))
            );
        }
        assertFalse(bulk.get().hasFailures());
        refresh(index);
        ensureGreen(index);
        return corpus;
    }

    private SimHashGroupsWriteResponse write(SimHashGroupsWriteRequest request) {
        return client().execute(SimHashGroupsWriteAction.INSTANCE, request).actionGet();
    }

    /** Every document's written fields against the groups API: members carry (representative, distance), others nothing. */
    private void assertWritten(String index, int k, String groupField, String distanceField) {
        refresh(index);
        SimHashGroupsResponse groups = client().execute(
            SimHashGroupsAction.INSTANCE,
            new SimHashGroupsRequest(index, "fp").maxDistance(k).size(10_000).maxMembers(10_000)
        ).actionGet();
        Map<String, Object[]> expected = new HashMap<>();
        for (SimHashGroupsResponse.Group g : groups.groups()) {
            for (GroupMembers.Member m : g.members())
                expected.put(m.id(), new Object[] { g.representative(), m.distance() });
        }
        SearchResponse all = client().prepareSearch(index).setSize(10_000).setQuery(QueryBuilders.matchAllQuery()).get();
        int members = 0;
        for (SearchHit hit : all.getHits().getHits()) {
            Map<String, Object> source = hit.getSourceAsMap();
            Object group = path(source, groupField), distance = path(source, distanceField);
            Object[] want = expected.get(hit.getId());
            if (want == null) {
                assertNull(hit.getId() + " is in no group", group);
                assertNull(hit.getId() + " is in no group", distance);
            } else {
                members++;
                assertEquals(hit.getId(), want[0], group);
                assertEquals(hit.getId(), want[1], distance);
            }
        }
        assertEquals(expected.size(), members);
    }

    @SuppressWarnings("unchecked")
    private static Object path(Map<String, Object> source, String path) {
        Object node = source;
        for (String part : path.split("\\.")) {
            if (node instanceof Map == false) return null;
            node = ((Map<String, Object>) node).get(part);
        }
        return node;
    }

    /**
     * Verified groups are written, and a re-run with a stricter min_similarity clears a document that shares a member's
     * fingerprint but not its signature (the stale pass compares units, not fingerprints alone).
     */
    public void testVerifiedWriteClearsADocumentSharingAFingerprintButNotASignature() {
        byte[] x = SimHashGroupsClusterTests.randomSignature(), y = x.clone();
        for (int i = 0; i < y.length; i++)
            y[i] ^= 0x3C;
        assertAcked(
            prepareCreate("wsigned").setSettings(Settings.builder().put("index.number_of_shards", 2)).setMapping("fp", "type=simhash")
        );
        Map<String, Object[]> docs = Map.of("a", new Object[] { 0L, x }, "b", new Object[] { 0L, y }, "c", new Object[] { 1L, x });
        BulkRequestBuilder bulk = client().prepareBulk();
        for (Map.Entry<String, Object[]> e : docs.entrySet()) {
            Map<String, Object> value = Map.of(
                "fingerprint",
                Fingerprints.toHex((Long) e.getValue()[0]),
                "signature",
                org.nearduplicate.core.sketch.Signature.toHex((byte[]) e.getValue()[1])
            );
            bulk.add(client().prepareIndex("wsigned").setId(e.getKey()).setSource(Map.of("fp", value)));
        }
        assertFalse(bulk.get().hasFailures());
        refresh("wsigned");
        SimHashGroupsWriteResponse loose = write(new SimHashGroupsWriteRequest("wsigned", "fp").maxDistance(2).minSimilarity(0.0));
        assertEquals(0.0, loose.minSimilarity(), 0);
        assertEquals(3, loose.docsInGroups());
        refresh("wsigned"); // the stale pass reads the group field's doc values: the first run's writes must be visible
        SimHashGroupsWriteResponse strict = write(new SimHashGroupsWriteRequest("wsigned", "fp").maxDistance(2));
        assertEquals(org.nearduplicate.core.SimHashSettings.RECOMMENDED_MIN_SIMILARITY, strict.minSimilarity(), 0);
        assertEquals(2, strict.docsInGroups());
        assertEquals(1, strict.cleared());
        refresh("wsigned");
        Map<String, Object> b = client().prepareGet("wsigned", "b").get().getSourceAsMap();
        assertNull(b.get(SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD));
        assertNull(b.get(SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD));
        for (String id : List.of("a", "c")) {
            Map<String, Object> source = client().prepareGet("wsigned", id).get().getSourceAsMap();
            assertEquals(id, "a", source.get(SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD));
        }
        assertEquals(1, client().prepareGet("wsigned", "c").get().getSourceAsMap().get(SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD));
    }

    public void testWriteRewriteAndClear() {
        Map<String, Long> corpus = index("pages", randomIntBetween(150, 400));
        int k = randomIntBetween(2, 8);
        String groupField = randomBoolean() ? SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD : "dedup.group";
        String distanceField = randomBoolean() ? SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD : "dedup.distance";
        SimHashGroupsWriteRequest request = new SimHashGroupsWriteRequest("pages", "fp").maxDistance(k)
            .groupField(groupField)
            .distanceField(distanceField)
            .batchSize(randomIntBetween(1, 50));
        SimHashGroupsWriteResponse first = write(request);
        assertEquals(first.docsInGroups(), first.written());
        assertEquals(0, first.failureCount());
        assertThat(first.groups(), greaterThan(0L));
        assertWritten("pages", k, groupField, distanceField);
        // the fields were mapped for collapse and aggregations
        GetMappingsResponse mappings = client().admin().indices().prepareGetMappings("pages").get();
        assertThat(mappings.getMappings().get("pages").source().string(), containsString("keyword"));

        // nothing changed: every update is a no-op
        SimHashGroupsWriteResponse again = write(request);
        assertEquals(0, again.written());
        assertEquals(first.docsInGroups(), again.noops());
        assertEquals(0, again.cleared());

        // collapse on the written field: one hit per group, plus every document in no group
        refresh("pages");
        SearchResponse collapsed = client().prepareSearch("pages")
            .setQuery(QueryBuilders.existsQuery(groupField))
            .setCollapse(new CollapseBuilder(groupField))
            .setSize(10_000)
            .get();
        assertEquals(first.groups(), collapsed.getHits().getHits().length);

        // new documents and deletions: a copy joins a group, a pair loses a member and dissolves
        String anyId = corpus.keySet().iterator().next();
        client().prepareIndex("pages")
            .setId("new-copy")
            .setSource("fp", Fingerprints.toHex(corpus.get(anyId)))
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        SimHashGroupsResponse before = client().execute(
            SimHashGroupsAction.INSTANCE,
            new SimHashGroupsRequest("pages", "fp").maxDistance(k).size(10_000)
        ).actionGet();
        for (SimHashGroupsResponse.Group g : before.groups()) {
            if (g.size() == 2 && g.members().stream().noneMatch(m -> m.id().equals("new-copy"))) {
                String gone = g.members().get(1).id();
                client().prepareDelete("pages", gone)
                    .setRouting(SimHashGroupsClusterTests.routing(gone))
                    .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                    .get();
                break;
            }
        }
        SimHashGroupsWriteResponse third = write(request);
        assertEquals(0, third.failureCount());
        assertWritten("pages", k, groupField, distanceField);

        // a smaller k: groups split or vanish; the documents that left every group are cleared
        SimHashGroupsWriteResponse smaller = write(
            new SimHashGroupsWriteRequest("pages", "fp").maxDistance(0).groupField(groupField).distanceField(distanceField)
        );
        assertWritten("pages", 0, groupField, distanceField);
        assertThat(smaller.cleared() + smaller.written(), greaterThan(0L));
    }

    public void testThrottled() {
        index("slow", 120);
        SimHashGroupsWriteResponse r = write(new SimHashGroupsWriteRequest("slow", "fp").maxDistance(6).batchSize(5).requestsPerSecond(20));
        if (r.docsInGroups() > 10) {
            assertThat(r.throttledMillis(), greaterThan(0L));
        }
        assertWritten("slow", 6, SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD, SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD);
    }

    /** A throttled write shows its progress in _tasks and stops when cancelled; what it wrote stays, a re-run completes it. */
    public void testProgressAndCancellation() throws Exception {
        assertAcked(prepareCreate("cancel").setMapping("fp", "type=simhash"));
        BulkRequestBuilder bulk = client().prepareBulk();
        for (int i = 0; i < 40; i++)
            bulk.add(client().prepareIndex("cancel").setId("c" + i).setSource("fp", Fingerprints.toHex(0xF0F0L + (i % 20) * (1L << 40))));
        assertFalse(bulk.get().hasFailures());
        refresh("cancel");
        // 20 groups of 2 copies, one document per second
        ActionFuture<SimHashGroupsWriteResponse> future = client().execute(
            SimHashGroupsWriteAction.INSTANCE,
            new SimHashGroupsWriteRequest("cancel", "fp").maxDistance(0).batchSize(1).requestsPerSecond(1)
        );
        TaskInfo[] running = new TaskInfo[1];
        assertBusy(() -> {
            List<TaskInfo> tasks = client().admin()
                .cluster()
                .prepareListTasks()
                .setActions(SimHashGroupsWriteAction.NAME)
                .setDetailed(true)
                .get()
                .getTasks();
            assertEquals(1, tasks.size());
            SimHashGroupsTask.Status status = (SimHashGroupsTask.Status) tasks.get(0).getStatus();
            assertEquals("writing groups", status.phase());
            assertEquals(40, status.toWrite());
            assertThat(status.written(), greaterThan(0L));
            running[0] = tasks.get(0);
        });
        assertTrue(running[0].isCancellable());
        client().admin().cluster().prepareCancelTasks().setTaskId(running[0].getTaskId()).get();
        ExecutionException e = expectThrows(ExecutionException.class, future::get);
        assertNotNull(e.toString(), ExceptionsHelper.unwrap(e, TaskCancelledException.class));
        SimHashGroupsWriteResponse rerun = write(new SimHashGroupsWriteRequest("cancel", "fp").maxDistance(0));
        assertThat(rerun.noops(), greaterThan(0L));
        assertEquals(40, rerun.noops() + rerun.written());
        assertWritten("cancel", 0, SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD, SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD);
    }

    public void testRefusesFieldsOfTheWrongType() {
        assertAcked(prepareCreate("typed").setMapping("fp", "type=simhash", "duplicate_group", "type=text"));
        client().prepareIndex("typed")
            .setId("1")
            .setSource("fp", "0000000000000001")
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        Exception e = expectThrows(Exception.class, () -> write(new SimHashGroupsWriteRequest("typed", "fp")));
        assertThat(ExceptionsHelper.unwrapCause(e).getMessage(), containsString("must be a [keyword] field"));
        assertEquals(RestStatus.BAD_REQUEST, ExceptionsHelper.status(e));
        Exception same = expectThrows(
            Exception.class,
            () -> write(new SimHashGroupsWriteRequest("typed", "fp").groupField("g").distanceField("g"))
        );
        assertThat(same.getMessage(), containsString("two different"));
    }

    public void testDocumentsWithoutFingerprintAreLeftAlone() {
        assertAcked(
            prepareCreate("mixed").setSettings(Settings.builder().put("index.number_of_shards", 2)).setMapping("fp", "type=simhash")
        );
        client().prepareIndex("mixed").setId("a").setSource("fp", "00000000000000ff").get();
        client().prepareIndex("mixed").setId("b").setSource("fp", "00000000000000fe").get();
        client().prepareIndex("mixed").setId("c").setSource("title", "no fingerprint").get();
        refresh("mixed");
        SimHashGroupsWriteResponse r = write(new SimHashGroupsWriteRequest("mixed", "fp").maxDistance(1));
        assertEquals(2, r.written());
        refresh("mixed");
        Map<String, Object> c = client().prepareGet("mixed", "c").get().getSourceAsMap();
        assertEquals(Set.of("title"), c.keySet());
        assertEquals("a", client().prepareGet("mixed", "b").get().getSourceAsMap().get("duplicate_group"));
    }
}
