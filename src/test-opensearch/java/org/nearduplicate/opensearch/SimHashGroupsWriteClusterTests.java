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
import org.nearduplicate.orchestration.groups.GroupsPage;

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

    /**
     * Every document's written fields against the groups API: members carry (representative, distance), every other
     * document with a fingerprint its own {@code _id} and 0, documents without a fingerprint nothing.
     */
    private void assertWritten(String index, int k, String groupField, String distanceField) {
        refresh(index);
        SimHashGroupsResponse groups = client().execute(
            SimHashGroupsAction.INSTANCE,
            new SimHashGroupsRequest(index, "fp").maxDistance(k).size(10_000).maxMembers(10_000)
        ).actionGet();
        Map<String, Object[]> expected = new HashMap<>();
        for (GroupsPage.Group g : groups.groups()) {
            for (GroupMembers.Member m : g.members())
                expected.put(m.id(), new Object[] { g.representative(), m.distance() });
        }
        SearchResponse all = client().prepareSearch(index).setSize(10_000).setQuery(QueryBuilders.matchAllQuery()).get();
        int members = 0;
        for (SearchHit hit : all.getHits().getHits()) {
            Map<String, Object> source = hit.getSourceAsMap();
            Object group = path(source, groupField), distance = path(source, distanceField);
            Object[] want = expected.get(hit.getId());
            if (source.containsKey("fp") == false) {
                assertNull(hit.getId() + " has no fingerprint", group);
                assertNull(hit.getId() + " has no fingerprint", distance);
            } else if (want == null) {
                assertEquals(hit.getId() + " is in no group: its own", hit.getId(), group);
                assertEquals(hit.getId() + " is in no group: distance 0", 0, distance);
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
     * Verified groups are written, and a re-run with a stricter min_similarity gives a document that shares a member's
     * fingerprint but not its signature its own group (the singleton pass compares units, not fingerprints alone).
     */
    public void testVerifiedWriteSeparatesADocumentSharingAFingerprintButNotASignature() {
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
        assertEquals(org.nearduplicate.core.SimHashSettings.DEFAULT.recommendedMinSimilarity(), strict.minSimilarity(), 0);
        assertEquals(2, strict.docsInGroups());
        assertEquals(0, strict.cleared());
        assertEquals(1, strict.singletons());
        refresh("wsigned");
        Map<String, Object> b = client().prepareGet("wsigned", "b").get().getSourceAsMap();
        assertEquals("b", b.get(SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD));
        assertEquals(0, b.get(SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD));
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
        assertEquals(corpus.size() - first.docsInGroups(), first.singletons());
        assertEquals(0, first.failureCount());
        assertThat(first.groups(), greaterThan(0L));
        assertWritten("pages", k, groupField, distanceField);
        // the fields were mapped for collapse and aggregations
        GetMappingsResponse mappings = client().admin().indices().prepareGetMappings("pages").get();
        assertThat(mappings.getMappings().get("pages").source().string(), containsString("keyword"));

        // nothing changed: every member's update is a no-op, and no singleton is written again (not even sent)
        refresh("pages");
        SimHashGroupsWriteResponse again = write(request);
        assertEquals(0, again.written());
        assertEquals(first.docsInGroups(), again.noops());
        assertEquals(0, again.cleared());
        assertEquals(0, again.singletons());
        assertEquals("members already right are not even sent (their shards read their group fields)", 0, again.batches());

        // a member whose group was changed by hand is written again, and only it
        String member = null;
        for (String id : corpus.keySet()) {
            Map<String, Object> source = client().prepareGet("pages", id)
                .setRouting(SimHashGroupsClusterTests.routing(id))
                .get()
                .getSourceAsMap();
            if (id.equals(groupValue(source, groupField)) == false) {
                member = id;
                break;
            }
        }
        assertNotNull("some document is in another's group", member);
        Map<String, Object> bogus = new java.util.HashMap<>();
        putDotted(bogus, groupField, "bogus");
        client().prepareUpdate("pages", member)
            .setRouting(SimHashGroupsClusterTests.routing(member))
            .setDoc(bogus)
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        SimHashGroupsWriteResponse mended = write(request);
        assertEquals(1, mended.written());
        assertEquals(first.docsInGroups() - 1, mended.noops());
        assertEquals(1, mended.batches());
        assertWritten("pages", k, groupField, distanceField);

        // collapse on the written field: one hit per group plus one per document in no group, as the brute force says
        assertCollapse("pages", corpus, k, groupField);

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
        for (GroupsPage.Group g : before.groups()) {
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
        assertThat(smaller.singletons() + smaller.written(), greaterThan(0L));
        assertEquals(0, smaller.cleared()); // every document has a fingerprint: none loses its group
    }

    /** {@code collapse} on the group field: one hit per brute-force group, plus one per document in none. */
    private void assertCollapse(String index, Map<String, Long> corpus, int k, String groupField) {
        refresh(index);
        Map<String, Set<String>> groups = SimHashGroupsClusterTests.bruteForceRepresentatives(corpus, k);
        int inGroups = 0;
        for (Set<String> g : groups.values())
            inGroups += g.size();
        SearchResponse collapsed = client().prepareSearch(index)
            .setQuery(QueryBuilders.matchAllQuery())
            .setCollapse(new CollapseBuilder(groupField))
            .setSize(10_000)
            .get();
        assertEquals(groups.size() + corpus.size() - inGroups, collapsed.getHits().getHits().length);
        Set<Object> seen = new java.util.HashSet<>();
        for (SearchHit hit : collapsed.getHits().getHits()) {
            Object group = hit.field(groupField).getValue();
            assertTrue("one hit per group value: " + group, seen.add(group));
            Set<String> members = groups.get(String.valueOf(group));
            if (members == null) {
                assertEquals("a singleton collapses to itself", hit.getId(), group);
            } else {
                assertTrue(hit.getId() + " is a member of " + group, members.contains(hit.getId()));
            }
        }
        assertTrue(seen.containsAll(groups.keySet()));
    }

    /**
     * Every document gets a group value: after a run, collapse gives one hit per group plus one per singleton (brute
     * force); a re-run writes no singleton again; a document that leaves its group on a re-run gets its own id.
     */
    public void testEverySingletonGetsItsOwnGroup() {
        Map<String, Long> corpus = index("singles", randomIntBetween(200, 500));
        int k = randomIntBetween(1, 6);
        SimHashGroupsWriteRequest request = new SimHashGroupsWriteRequest("singles", "fp").maxDistance(k)
            .batchSize(randomIntBetween(1, 100));
        SimHashGroupsWriteResponse first = write(request);
        assertEquals(0, first.failureCount());
        assertEquals(first.docsInGroups(), first.written());
        assertEquals(corpus.size() - first.docsInGroups(), first.singletons());
        assertWritten("singles", k, SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD, SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD);
        assertCollapse("singles", corpus, k, SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD);

        // a re-run: nothing is written, no singleton is even sent (skipped on the shards, not a no-op update)
        SimHashGroupsWriteResponse again = write(request);
        assertEquals(0, again.written());
        assertEquals(0, again.singletons());
        assertEquals(first.docsInGroups(), again.noops());

        // a member leaves its group: its fingerprint changes to one far from everything; it gets its own id
        Map<String, Set<String>> groups = SimHashGroupsClusterTests.bruteForceRepresentatives(corpus, k);
        Set<String> group = groups.values().stream().filter(g -> g.size() == 2).findFirst().orElse(groups.values().iterator().next());
        String leaver = group.stream().skip(1).findFirst().orElseThrow();
        long far = corpus.get(leaver);
        do {
            far = randomLong();
        } while (isNear(corpus, leaver, far, k));
        corpus.put(leaver, far);
        client().prepareIndex("singles")
            .setId(leaver)
            .setRouting(SimHashGroupsClusterTests.routing(leaver))
            .setSource("fp", Fingerprints.toHex(far))
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        SimHashGroupsWriteResponse third = write(request);
        assertEquals(0, third.failureCount());
        assertThat(third.singletons(), greaterThan(0L)); // the leaver, and its old partner when the pair dissolved
        assertEquals(0, third.cleared());
        refresh("singles");
        Map<String, Object> source = client().prepareGet("singles", leaver)
            .setRouting(SimHashGroupsClusterTests.routing(leaver))
            .get()
            .getSourceAsMap();
        assertEquals(leaver, source.get(SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD));
        assertEquals(0, source.get(SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD));
        assertWritten("singles", k, SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD, SimHashGroupsWriteRequest.DEFAULT_DISTANCE_FIELD);
        assertCollapse("singles", corpus, k, SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD);
    }

    private static boolean isNear(Map<String, Long> corpus, String except, long fp, int k) {
        for (Map.Entry<String, Long> e : corpus.entrySet()) {
            if (e.getKey().equals(except) == false && Fingerprints.distance(e.getValue(), fp) <= k) return true;
        }
        return false;
    }

    /**
     * Pages of the singleton pass follow {@code _seq_no}: more documents than a page holds (10,000), with gaps in the
     * sequence numbers (documents indexed again), so that windows grow and a window finds more than its page has room
     * for; every document still gets its own group, and a re-run sends none again.
     */
    public void testSingletonPagesCoverEveryDocument() {
        assertAcked(
            prepareCreate("paged").setSettings(Settings.builder().put("index.number_of_shards", 1)).setMapping("fp", "type=simhash")
        );
        int docs = randomIntBetween(14_000, 16_000);
        java.util.List<Integer> order = new java.util.ArrayList<>();
        for (int i = 0; i < docs; i++)
            order.add(i);
        java.util.Collections.shuffle(order, random());
        java.util.List<Integer> again = order.subList(0, docs * 7 / 10); // indexed twice: their first seq_no is a gap
        for (java.util.List<Integer> round : List.of(order, again)) {
            for (int from = 0; from < round.size(); from += 5_000) {
                BulkRequestBuilder bulk = client().prepareBulk();
                for (int i : round.subList(from, Math.min(round.size(), from + 5_000)))
                    bulk.add(client().prepareIndex("paged").setId("p" + i).setSource("fp", Fingerprints.toHex(randomLong())));
                assertFalse(bulk.get().hasFailures());
                if (randomBoolean()) refresh("paged"); // several segments
            }
        }
        refresh("paged");
        SimHashGroupsWriteResponse r = write(new SimHashGroupsWriteRequest("paged", "fp").maxDistance(0));
        assertEquals(0, r.failureCount());
        assertEquals(docs - r.docsInGroups(), r.singletons());
        refresh("paged");
        SearchResponse withoutGroup = client().prepareSearch("paged")
            .setQuery(QueryBuilders.boolQuery().mustNot(QueryBuilders.existsQuery(SimHashGroupsWriteRequest.DEFAULT_GROUP_FIELD)))
            .setSize(0)
            .setTrackTotalHits(true)
            .get();
        assertEquals(0, withoutGroup.getHits().getTotalHits().value());
        SimHashGroupsWriteResponse rerun = write(new SimHashGroupsWriteRequest("paged", "fp").maxDistance(0));
        assertEquals(0, rerun.singletons());
        assertEquals(0, rerun.written());
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

    /** The value at a dotted path of a source map. */
    private static Object groupValue(Map<String, Object> source, String path) {
        Object at = source;
        for (String part : path.split("\\.")) {
            if (at instanceof Map<?, ?> == false) return null;
            at = ((Map<?, ?>) at).get(part);
        }
        return at;
    }

    @SuppressWarnings("unchecked")
    private static void putDotted(Map<String, Object> doc, String path, Object value) {
        String[] parts = path.split("\\.");
        Map<String, Object> at = doc;
        for (int i = 0; i < parts.length - 1; i++) {
            at = (Map<String, Object>) at.computeIfAbsent(parts[i], p -> new java.util.HashMap<String, Object>());
        }
        at.put(parts[parts.length - 1], value);
    }
}
