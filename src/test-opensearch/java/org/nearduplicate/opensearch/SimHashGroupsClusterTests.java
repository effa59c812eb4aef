package org.nearduplicate.opensearch;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.admin.cluster.node.tasks.list.ListTasksResponse;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.action.ActionFuture;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.plugins.Plugin;
import org.opensearch.tasks.TaskInfo;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.RepresentativesBruteForce;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.lucene.SimHashQueryTests;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsResponse;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsTask;
import org.nearduplicate.orchestration.groups.GroupsPage;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/** {@code _near_duplicates} on several shards equals a brute-force grouping of random corpora with planted clusters. */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 2, supportsDedicatedMasters = false)
public class SimHashGroupsClusterTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    /** id -> fingerprint of a random corpus: random documents and clusters of copies of a few centers. */
    static Map<String, Long> randomCorpus(int docs, int maxFlips) {
        Map<String, Long> corpus = new TreeMap<>();
        long[] centers = new long[randomIntBetween(3, 12)];
        for (int i = 0; i < centers.length; i++)
            centers[i] = randomLong();
        for (int i = 0; i < docs; i++) {
            long fp = randomBoolean()
                ? randomLong()
                : SimHashQueryTests.flipBits(centers[randomIntBetween(0, centers.length - 1)], randomIntBetween(0, maxFlips));
            corpus.put("d" + i, fp);
        }
        return corpus;
    }

    /** Brute force: all pairs, union-find; groups as sets of ids, and the number of pairs within k. */
    static Set<Set<String>> bruteForce(Map<String, Long> corpus, int k, long[] pairCount) {
        List<String> ids = new ArrayList<>(corpus.keySet());
        int[] parent = new int[ids.size()];
        for (int i = 0; i < parent.length; i++)
            parent[i] = i;
        for (int i = 0; i < ids.size(); i++) {
            for (int j = i + 1; j < ids.size(); j++) {
                if (Fingerprints.distance(corpus.get(ids.get(i)), corpus.get(ids.get(j))) <= k) {
                    pairCount[0]++;
                    int a = find(parent, i), b = find(parent, j);
                    parent[a] = b;
                }
            }
        }
        Map<Integer, Set<String>> groups = new HashMap<>();
        for (int i = 0; i < ids.size(); i++)
            groups.computeIfAbsent(find(parent, i), x -> new TreeSet<>()).add(ids.get(i));
        Set<Set<String>> result = new HashSet<>();
        for (Set<String> g : groups.values())
            if (g.size() > 1) result.add(g);
        return result;
    }

    /** Brute force of the representative rule over bare fingerprints ({@link RepresentativesBruteForce}). */
    static Map<String, Set<String>> bruteForceRepresentatives(Map<String, Long> corpus, int k) {
        return RepresentativesBruteForce.groups(new TreeSet<>(corpus.keySet()), new RepresentativesBruteForce.Relation() {
            public boolean matches(String a, String b) {
                return distance(a, b) <= k;
            }

            public int agreeing(String a, String b) {
                return -1;
            }

            public int distance(String a, String b) {
                return Fingerprints.distance(corpus.get(a), corpus.get(b));
            }
        });
    }

    public void testRepresentativeGroupsEqualBruteForce() {
        for (int round = 0; round < 2; round++) {
            String index = "reps" + round;
            int k = randomIntBetween(0, 20);
            Map<String, Long> corpus = randomCorpus(randomIntBetween(200, 600), k + 3);
            indexCorpus(index, corpus, randomIntBetween(1, 4), randomIntBetween(4, 7), randomIntBetween(1, 3));
            Map<String, Set<String>> expected = bruteForceRepresentatives(corpus, k);
            SimHashGroupsRequest request = new SimHashGroupsRequest(index, "fp").maxDistance(k).size(10_000).maxMembers(10_000);
            assertEquals(GroupMembers.Mode.REPRESENTATIVE, request.mode());
            SimHashGroupsResponse response = groups(request);
            Map<String, Set<String>> actual = new HashMap<>();
            for (GroupsPage.Group g : response.groups()) {
                long rep = corpus.get(g.representative());
                Set<String> members = new TreeSet<>();
                long pairs = 0;
                for (GroupMembers.Member m : g.members()) {
                    members.add(m.id());
                    assertEquals(Fingerprints.distance(rep, m.fingerprint()), m.distance());
                    assertThat(m.distance(), org.hamcrest.Matchers.lessThanOrEqualTo(k));
                    for (GroupMembers.Member o : g.members()) {
                        if (m.id().compareTo(o.id()) < 0 && Fingerprints.distance(m.fingerprint(), o.fingerprint()) <= k) pairs++;
                    }
                }
                assertTrue(members.contains(g.representative()));
                assertEquals(pairs, g.verifiedPairs());
                actual.put(g.representative(), members);
            }
            assertEquals("k " + k, expected, actual);
            assertEquals(expected.size(), response.groupCount());
            long[] pairs = new long[1];
            bruteForce(corpus, k, pairs);
            assertEquals("the run's count is of every pair, whatever the mode", pairs[0], response.verifiedPairs());
        }
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }

    void indexCorpus(String index, Map<String, Long> corpus, int shards, int blocks, int kMax) {
        assertAcked(
            prepareCreate(index).setSettings(
                Settings.builder().put("index.number_of_shards", shards).put("index.number_of_replicas", randomIntBetween(0, 1))
            ).setMapping("fp", "type=simhash,blocks=" + blocks + ",max_distance=" + kMax)
        );
        // several bulks, so that shards have several segments
        List<String> ids = new ArrayList<>(corpus.keySet());
        int batch = Math.max(150, ids.size() / 8);
        for (int from = 0; from < ids.size(); from += batch) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (String id : ids.subList(from, Math.min(ids.size(), from + batch))) {
                bulk.add(
                    client().prepareIndex(index).setId(id).setRouting(routing(id)).setSource("fp", Fingerprints.toHex(corpus.get(id)))
                );
            }
            BulkResponse r = bulk.get();
            assertFalse(r.buildFailureMessage(), r.hasFailures());
            refresh(index);
        }
        client().prepareIndex(index).setId("no-fp").setSource("other", 1).get();
        ensureGreen(index);
    }

    /** Every seventh document has a custom routing, which the groups must report (a write-back needs it). */
    static String routing(String id) {
        return id.hashCode() % 7 == 0 ? "r-" + id : null;
    }

    private SimHashGroupsResponse groups(SimHashGroupsRequest request) {
        return client().execute(SimHashGroupsAction.INSTANCE, request).actionGet();
    }

    public void testGroupsEqualBruteForce() {
        for (int round = 0; round < 3; round++) {
            String index = "corpus" + round;
            int blocks = randomIntBetween(4, 7);
            int kMax = randomIntBetween(1, 3);
            // any k, whatever the layout: the groups are computed from the doc values, not from the field's keys
            int k = randomIntBetween(0, 20);
            Map<String, Long> corpus = randomCorpus(randomIntBetween(200, 600), k + 3);
            int shards = round == 0 ? 1 : randomIntBetween(2, 4);
            indexCorpus(index, corpus, shards, blocks, kMax);
            // deleted documents are not scanned
            List<String> deleted = randomSubsetOf(randomIntBetween(0, 10), corpus.keySet());
            for (String id : deleted) {
                client().prepareDelete(index, id).setRouting(routing(id)).setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE).get();
                corpus.remove(id);
            }
            long[] pairs = new long[1];
            Set<Set<String>> expected = bruteForce(corpus, k, pairs);

            SimHashGroupsRequest request = new SimHashGroupsRequest(index, "fp").maxDistance(k)
                .size(10_000)
                .mode(GroupMembers.Mode.COMPONENTS);
            SimHashGroupsResponse response = groups(request);
            Set<Set<String>> actual = new HashSet<>();
            String previous = "";
            for (GroupsPage.Group g : response.groups()) {
                Set<String> members = new TreeSet<>();
                long rep = corpus.get(g.representative());
                for (GroupMembers.Member m : g.members()) {
                    members.add(m.id());
                    assertEquals((long) corpus.get(m.id()), m.fingerprint());
                    assertEquals(Fingerprints.distance(rep, m.fingerprint()), m.distance());
                    assertEquals(routing(m.id()), m.routing());
                }
                assertEquals(((TreeSet<String>) members).first(), g.representative());
                assertTrue("sorted by representative", g.representative().compareTo(previous) > 0);
                previous = g.representative();
                assertEquals(g.size(), members.size());
                actual.add(members);
            }
            assertEquals("shards " + shards + " layout " + blocks + "/" + kMax + " k " + k, expected, actual);
            assertEquals(corpus.size(), response.docsScanned());
            assertEquals(pairs[0], response.verifiedPairs());
            assertThat(response.candidatePairs(), greaterThanOrEqualTo(response.verifiedPairs()));
            assertEquals(expected.size(), response.groupCount());
            assertEquals(expected.stream().mapToInt(Set::size).sum(), response.docsInGroups());
            long groupPairs = response.groups().stream().mapToLong(GroupsPage.Group::verifiedPairs).sum();
            assertEquals(pairs[0], groupPairs);

            // paging: pages of 2 groups concatenate to the full list
            if (expected.size() > 2) {
                List<String> paged = new ArrayList<>();
                String after = null;
                do {
                    SimHashGroupsResponse page = groups(
                        new SimHashGroupsRequest(index, "fp").maxDistance(k).size(2).after(after).mode(GroupMembers.Mode.COMPONENTS)
                    );
                    assertTrue(page.groups().size() <= 2);
                    page.groups().forEach(g -> paged.add(g.representative()));
                    after = page.nextAfter();
                } while (after != null);
                assertEquals(response.groups().stream().map(GroupsPage.Group::representative).toList(), paged);
            }
        }
    }

    public void testErrors() {
        assertAcked(prepareCreate("errors").setMapping("fp", "type=simhash,blocks=4,max_distance=2", "title", "type=text"));
        client().prepareIndex("errors")
            .setId("1")
            .setSource("fp", "0000000000000001")
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        client().prepareIndex("errors")
            .setId("2")
            .setSource("fp", "00000000000000ff")
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        // beyond the mapping's max_distance: answered all the same (the keys are not used)
        SimHashGroupsResponse far = groups(new SimHashGroupsRequest("errors", "fp").maxDistance(7));
        assertEquals(1, far.groupCount());
        assertEquals(7, far.maxDistance());
        assertEquals(0, groups(new SimHashGroupsRequest("errors", "fp").maxDistance(6)).groupCount());
        // the default: the recommended k of the field's algorithm
        SimHashGroupsResponse defaults = groups(new SimHashGroupsRequest("errors", "fp"));
        assertEquals(16, defaults.maxDistance()); // simhash-v4's
        assertEquals(SimHashSettings.DEFAULT.recommendedMinSimilarity(), defaults.minSimilarity(), 0); // its signatures' default
        Exception wrongType = expectThrows(Exception.class, () -> groups(new SimHashGroupsRequest("errors", "title")));
        assertThat(ExceptionsHelper.unwrapCause(wrongType).getMessage(), containsString("is of type [text], expected [simhash]"));
        expectThrows(Exception.class, () -> groups(new SimHashGroupsRequest("missing-index", "fp")));
    }

    /** A document of a field that verifies: fingerprint and signature (null: a bare fingerprint). */
    record Signed(long fingerprint, byte[] signature) {
    }

    /** Indexes {@code corpus} as the processor's objects (fingerprint and signature) into a {@code simhash-v4} field. */
    void indexSigned(String index, Map<String, Signed> corpus, int shards) {
        assertAcked(
            prepareCreate(index).setSettings(Settings.builder().put("index.number_of_shards", shards).put("index.number_of_replicas", 0))
                .setMapping("fp", "type=simhash")
        );
        List<String> ids = new ArrayList<>(corpus.keySet());
        for (int from = 0; from < ids.size(); from += 100) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (String id : ids.subList(from, Math.min(ids.size(), from + 100))) {
                Signed doc = corpus.get(id);
                Map<String, Object> value = new HashMap<>();
                value.put("fingerprint", Fingerprints.toHex(doc.fingerprint()));
                if (doc.signature() != null) value.put("signature", Signature.toHex(doc.signature()));
                bulk.add(
                    client().prepareIndex(index)
                        .setId(id)
                        .setRouting(routing(id))
                        .setSource(Map.of("fp", randomBoolean() && doc.signature() == null ? Fingerprints.toHex(doc.fingerprint()) : value))
                );
            }
            BulkResponse r = bulk.get();
            assertFalse(r.buildFailureMessage(), r.hasFailures());
            refresh(index);
        }
        ensureGreen(index);
    }

    /** The rule of a match: within k and, when both carry a signature, agreeing on at least {@code minAgreeing} slots. */
    static boolean matches(Signed a, Signed b, int k, int minAgreeing) {
        if (Fingerprints.distance(a.fingerprint(), b.fingerprint()) > k) return false;
        return a.signature() == null || b.signature() == null || Signature.agreeingSlots(a.signature(), 0, b.signature(), 0) >= minAgreeing;
    }

    static byte[] randomSignature() {
        byte[] s = new byte[Signature.BYTES];
        random().nextBytes(s);
        s[0] |= 1; // never all zeros
        return s;
    }

    public void testVerifiedGroupsEqualBruteForce() {
        for (int round = 0; round < 2; round++) {
            String index = "signed" + round;
            int k = randomIntBetween(2, 16);
            Double requested = randomBoolean() ? null : randomFrom(0.0, 0.2, 0.5, 0.8);
            double minSimilarity = requested == null ? SimHashSettings.DEFAULT.recommendedMinSimilarity() : requested;
            int minAgreeing = Signature.minAgreeing(minSimilarity);
            // fingerprints near a few centers; signatures of a few bases with a random number of slots changed
            long[] centers = new long[randomIntBetween(2, 5)];
            for (int i = 0; i < centers.length; i++)
                centers[i] = randomLong();
            byte[][] bases = new byte[randomIntBetween(1, 3)][];
            for (int i = 0; i < bases.length; i++)
                bases[i] = randomSignature();
            Map<String, Signed> corpus = new TreeMap<>();
            List<Signed> made = new ArrayList<>();
            int docs = randomIntBetween(100, 300);
            for (int i = 0; i < docs; i++) {
                Signed doc;
                if (made.isEmpty() == false && randomIntBetween(0, 9) == 0) {
                    doc = randomFrom(made); // an exact copy
                } else {
                    long fp = SimHashQueryTests.flipBits(centers[randomIntBetween(0, centers.length - 1)], randomIntBetween(0, k + 3));
                    byte[] sig = bases[randomIntBetween(0, bases.length - 1)].clone();
                    for (int changed = randomIntBetween(0, 32); changed > 0; changed--)
                        sig[randomIntBetween(0, 31)] ^= (byte) randomIntBetween(1, 255);
                    if (sig[0] == 0 && java.util.Arrays.equals(sig, new byte[Signature.BYTES])) sig[0] = 1;
                    doc = new Signed(fp, randomIntBetween(0, 14) == 0 ? null : sig);
                }
                made.add(doc);
                corpus.put("d" + i, doc);
            }
            indexSigned(index, corpus, randomIntBetween(1, 3));
            List<String> ids = new ArrayList<>(corpus.keySet());
            // brute force: pairs, components and representatives by the rule
            long pairs = 0;
            int[] parent = new int[ids.size()];
            for (int i = 0; i < parent.length; i++)
                parent[i] = i;
            for (int i = 0; i < ids.size(); i++) {
                for (int j = i + 1; j < ids.size(); j++) {
                    if (matches(corpus.get(ids.get(i)), corpus.get(ids.get(j)), k, minAgreeing)) {
                        pairs++;
                        parent[find(parent, i)] = find(parent, j);
                    }
                }
            }
            Set<Set<String>> components = new HashSet<>();
            Map<Integer, Set<String>> byRoot = new HashMap<>();
            for (int i = 0; i < ids.size(); i++)
                byRoot.computeIfAbsent(find(parent, i), x -> new TreeSet<>()).add(ids.get(i));
            for (Set<String> c : byRoot.values())
                if (c.size() > 1) components.add(c);
            Map<String, Set<String>> representatives = RepresentativesBruteForce.groups(
                new TreeSet<>(ids),
                new RepresentativesBruteForce.Relation() {
                    public boolean matches(String a, String b) {
                        return SimHashGroupsClusterTests.matches(corpus.get(a), corpus.get(b), k, minAgreeing);
                    }

                    public int agreeing(String a, String b) {
                        byte[] as = corpus.get(a).signature(), bs = corpus.get(b).signature();
                        return as == null || bs == null ? -1 : Signature.agreeingSlots(as, 0, bs, 0);
                    }

                    public int distance(String a, String b) {
                        return Fingerprints.distance(corpus.get(a).fingerprint(), corpus.get(b).fingerprint());
                    }
                }
            );
            String what = "k " + k + " min_similarity " + minSimilarity;
            SimHashGroupsResponse reps = groups(
                new SimHashGroupsRequest(index, "fp").maxDistance(k).minSimilarity(requested).size(10_000).maxMembers(10_000)
            );
            assertEquals(minSimilarity, reps.minSimilarity(), 0);
            assertEquals(what, pairs, reps.verifiedPairs());
            Map<String, Set<String>> actual = new HashMap<>();
            for (GroupsPage.Group g : reps.groups()) {
                Set<String> members = new TreeSet<>();
                for (GroupMembers.Member m : g.members()) {
                    members.add(m.id());
                    assertEquals(routing(m.id()), m.routing());
                    assertTrue(what + " " + m.id(), matches(corpus.get(g.representative()), corpus.get(m.id()), k, minAgreeing));
                }
                actual.put(g.representative(), members);
            }
            assertEquals(what, representatives, actual);
            SimHashGroupsResponse comps = groups(
                new SimHashGroupsRequest(index, "fp").maxDistance(k)
                    .minSimilarity(requested)
                    .mode(GroupMembers.Mode.COMPONENTS)
                    .size(10_000)
                    .maxMembers(10_000)
            );
            Set<Set<String>> actualComponents = new HashSet<>();
            for (GroupsPage.Group g : comps.groups()) {
                Set<String> members = new TreeSet<>();
                g.members().forEach(m -> members.add(m.id()));
                actualComponents.add(members);
            }
            assertEquals(what, components, actualComponents);
            assertEquals(what, pairs, comps.verifiedPairs());
        }
    }

    public void testDisagreeingSignaturesAndChainsAreNotGrouped() {
        byte[] x = randomSignature(), y = x.clone();
        for (int i = 0; i < y.length; i++)
            y[i] ^= 0x55; // agrees with x on no slot
        byte[] half = x.clone();
        System.arraycopy(y, 16, half, 16, 16); // agrees with both on 16 slots (similarity about 0.5)
        Map<String, Signed> corpus = new TreeMap<>();
        corpus.put("a", new Signed(0b000, x));
        corpus.put("b", new Signed(0b001, half));
        corpus.put("c", new Signed(0b011, y));
        corpus.put("p", new Signed(0xF0F0L << 20, x));
        corpus.put("q", new Signed((0xF0F0L << 20) ^ 1, y)); // within k of p, signatures disagree
        indexSigned("chain", corpus, 2);
        SimHashGroupsResponse reps = groups(new SimHashGroupsRequest("chain", "fp").maxDistance(3));
        assertEquals(3, reps.maxDistance());
        assertEquals(SimHashSettings.DEFAULT.recommendedMinSimilarity(), reps.minSimilarity(), 0);
        assertEquals(1, reps.groupCount()); // a with b; c (within k of a, not verified) alone; p and q no group
        assertEquals("a", reps.groups().get(0).representative());
        assertEquals(List.of("a", "b"), reps.groups().get(0).members().stream().map(GroupMembers.Member::id).toList());
        assertEquals(2, reps.verifiedPairs());
        SimHashGroupsResponse comps = groups(new SimHashGroupsRequest("chain", "fp").maxDistance(3).mode(GroupMembers.Mode.COMPONENTS));
        assertEquals(1, comps.groupCount());
        assertEquals(3, comps.groups().get(0).size());
        // min_similarity 0 accepts every pair within k: the fingerprints' groups
        SimHashGroupsResponse all = groups(new SimHashGroupsRequest("chain", "fp").maxDistance(3).minSimilarity(0.0));
        assertEquals(2, all.groupCount());
        assertEquals(4, all.verifiedPairs());
        // a min_similarity is refused for a field without signatures, and out of range
        assertAcked(prepareCreate("v3").setMapping("fp", "type=simhash,algorithm=simhash-v3"));
        client().prepareIndex("v3")
            .setId("1")
            .setSource("fp", "0000000000000001")
            .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
            .get();
        assertTrue(Double.isNaN(groups(new SimHashGroupsRequest("v3", "fp")).minSimilarity()));
        Exception unsigned = expectThrows(Exception.class, () -> groups(new SimHashGroupsRequest("v3", "fp").minSimilarity(0.5)));
        assertEquals(org.opensearch.core.rest.RestStatus.BAD_REQUEST, ExceptionsHelper.status(unsigned));
        assertThat(ExceptionsHelper.unwrapCause(unsigned).getMessage(), containsString("has no verification signatures"));
        Exception range = expectThrows(Exception.class, () -> groups(new SimHashGroupsRequest("chain", "fp").minSimilarity(1.5)));
        assertThat(range.getMessage(), containsString("[min_similarity] must be between 0 and 1"));
    }

    public void testCancellation() throws Exception {
        Map<String, Long> corpus = new TreeMap<>();
        for (int i = 0; i < 40_000; i++)
            corpus.put("d" + i, randomLong());
        indexCorpus("big", corpus, 3, 4, 3);
        // k = 40 over 40,000 random fingerprints: the brute force, 800M comparisons, long enough to be seen and cancelled
        ActionFuture<SimHashGroupsResponse> future = client().execute(
            SimHashGroupsAction.INSTANCE,
            new SimHashGroupsRequest("big", "fp").maxDistance(40)
        );
        TaskInfo running = null;
        for (int i = 0; i < 200 && running == null; i++) {
            ListTasksResponse tasks = client().admin()
                .cluster()
                .prepareListTasks()
                .setActions(SimHashGroupsAction.NAME)
                .setDetailed(true)
                .get();
            if (tasks.getTasks().isEmpty() == false) {
                running = tasks.getTasks().get(0);
            } else {
                Thread.sleep(10);
            }
        }
        assertNotNull("the task shows in _tasks", running);
        assertTrue(running.isCancellable());
        assertThat(running.getDescription(), containsString("near_duplicate groups index[big] field[fp]"));
        assertTrue(String.valueOf(running.getStatus()), running.getStatus() instanceof SimHashGroupsTask.Status);
        client().admin().cluster().prepareCancelTasks().setTaskId(running.getTaskId()).get();
        ExecutionException e = expectThrows(ExecutionException.class, future::get);
        assertNotNull(e.toString(), ExceptionsHelper.unwrap(e, TaskCancelledException.class));
        assertBusy(
            () -> assertTrue(
                client().admin().cluster().prepareListTasks().setActions(SimHashGroupsAction.NAME + "*").get().getTasks().isEmpty()
            )
        );
    }
}
