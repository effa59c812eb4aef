package org.nearduplicate.opensearch;

import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.search.SearchHit;
import org.opensearch.search.collapse.CollapseBuilder;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;
import org.opensearch.transport.client.Client;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.lucene.SimHashQueryTests;

import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/** The check-on-ingest processor on a 2-node cluster: same bulk, before and after refresh, across shards, tag vs drop, groups + collapse. */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 2, supportsDedicatedMasters = false)
public class SimHashCheckClusterTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    private void pipeline(String name, String options) {
        String json = "{\"processors\": [{\"near_duplicate_check\": {\"field\": \"fp\", \"max_distance\": 3" + options + "}}]}";
        assertAcked(client().admin().cluster().preparePutPipeline(name, new BytesArray(json), XContentType.JSON).get());
    }

    private void index(String name, int shards) {
        assertAcked(
            prepareCreate(name).setSettings(
                Settings.builder()
                    .put("index.number_of_shards", shards)
                    .put("index.number_of_replicas", 0)
                    .put("index.refresh_interval", -1)
            ).setMapping("fp", "type=simhash,blocks=4,max_distance=3", "group", "type=keyword")
        );
        ensureGreen(name);
    }

    private static BulkResponse bulk(Client client, String index, String pipeline, Map<String, Long> docs) {
        BulkRequestBuilder bulk = client.prepareBulk();
        docs.forEach(
            (id, fp) -> bulk.add(client.prepareIndex(index).setId(id).setSource("fp", Fingerprints.toHex(fp)).setPipeline(pipeline))
        );
        BulkResponse response = bulk.get();
        assertFalse(response.buildFailureMessage(), response.hasFailures());
        return response;
    }

    private Map<String, Map<String, Object>> results(String index) {
        refresh(index);
        SearchResponse response = client().prepareSearch(index).setSize(1000).get();
        Map<String, Map<String, Object>> results = new HashMap<>();
        for (SearchHit hit : response.getHits().getHits()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) hit.getSourceAsMap().get("near_duplicate");
            results.put(hit.getId(), result);
        }
        return results;
    }

    public void testTwoCopiesInOneBulkRequest() {
        index("same-bulk", randomIntBetween(1, 3));
        pipeline("check-tag", "");
        long fp = randomLong();
        long other = SimHashQueryTests.flipBits(fp, 40);
        Map<String, Long> docs = new java.util.LinkedHashMap<>();
        docs.put("a", fp);
        docs.put("b", SimHashQueryTests.flipBits(fp, 2));
        docs.put("c", other);
        bulk(client(), "same-bulk", "check-tag", docs);
        Map<String, Map<String, Object>> results = results("same-bulk");
        assertEquals(3, results.size());
        // exactly one of the two copies points at the other, through the node's recent window
        Map<String, Object> first = results.get("a"), second = results.get("b");
        Map<String, Object> dup = "duplicate".equals(first.get("status")) ? first : second;
        Map<String, Object> kept = dup == first ? second : first;
        assertEquals("unique", kept.get("status"));
        assertEquals("duplicate", dup.get("status"));
        assertEquals(dup == first ? "b" : "a", dup.get("_id"));
        assertEquals(2, dup.get("distance"));
        assertEquals("recent", dup.get("source"));
        assertEquals("unique", results.get("c").get("status"));
    }

    /** Without its own max_distance the check uses the target field's mapped one, as the query does (here 1, not 3). */
    public void testAbsentMaxDistanceIsTheFieldsMappedOne() {
        assertAcked(
            prepareCreate("mapped-k").setSettings(Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0))
                .setMapping("fp", "type=simhash,blocks=4,max_distance=1")
        );
        ensureGreen("mapped-k");
        String json = "{\"processors\": [{\"near_duplicate_check\": {\"field\": \"fp\", \"window_size\": 0}}]}";
        assertAcked(client().admin().cluster().preparePutPipeline("check-mapped", new BytesArray(json), XContentType.JSON).get());
        long fp = randomLong();
        // indexed without the check: a document the check itself wrote would leave a gap in its (disabled) window for
        // window_ttl, and "two-bits" would be unchecked, not unique (testWindowGapIsUncheckedNotUnique)
        bulk(client(), "mapped-k", null, Map.of("a", fp));
        refresh("mapped-k");
        Map<String, Long> docs = new java.util.LinkedHashMap<>();
        // in one bulk request, so they are compared with each other too: "two-bits" is 3 bits from "near"
        int bit = randomIntBetween(0, 61);
        docs.put("near", fp ^ (1L << bit));
        docs.put("two-bits", fp ^ (1L << (bit + 1)) ^ (1L << (bit + 2)));
        bulk(client(), "mapped-k", "check-mapped", docs);
        Map<String, Map<String, Object>> results = results("mapped-k");
        assertEquals("duplicate", results.get("near").get("status"));
        assertEquals(1, results.get("near").get("distance"));
        // within the old fixed default of 3, but beyond the field's max_distance of 1
        assertEquals("unique", results.get("two-bits").get("status"));
    }

    public void testDropInOneBulkRequestKeepsOneCopy() {
        index("drop-bulk", 2);
        pipeline("check-drop", ", \"on_duplicate\": \"drop\"");
        Map<String, Long> docs = new java.util.LinkedHashMap<>();
        long[] centers = { randomLong(), randomLong(), randomLong() };
        for (int i = 0; i < 30; i++) {
            docs.put("d" + i, SimHashQueryTests.flipBits(centers[i % 3], i < 3 ? 0 : 1));
        }
        BulkResponse response = bulk(client(), "drop-bulk", "check-drop", docs);
        assertEquals(30, response.getItems().length);
        Map<String, Map<String, Object>> results = results("drop-bulk");
        // every copy within 2 bits (1 + 1) of the kept one: one document per cluster survives
        assertEquals(results.keySet().toString(), 3, results.size());
        for (Map<String, Object> r : results.values()) {
            assertEquals("unique", r.get("status"));
        }
    }

    public void testAfterRefreshAcrossShardsAndTheWindowsLimit() throws Exception {
        index("refreshed", 4);
        pipeline("check-index-only", ", \"window_size\": 0");
        pipeline("check-window", "");
        long fp = randomLong();
        // "a" in its own bulk, via node 0, refreshed: the search finds it whatever shard the copy goes to
        String[] nodes = internalCluster().getNodeNames();
        bulk(internalCluster().client(nodes[0]), "refreshed", "check-window", Map.of("a", fp));
        refresh("refreshed");
        Set<String> shardsSeen = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            String id = "copy" + i;
            long copy = SimHashQueryTests.flipBits(fp, 1 + i % 3);
            bulk(client(), "refreshed", "check-index-only", Map.of(id, copy));
            Map<String, Object> r = results("refreshed").get(id);
            assertEquals(r.toString(), "duplicate", r.get("status"));
            assertEquals("index", r.get("source"));
            // the closest existing document: "a" or an earlier, closer copy
            assertTrue(r.toString(), ((Number) r.get("distance")).intValue() <= Fingerprints.distance(fp, copy));
            shardsSeen.add(Integer.toString(shardOf("refreshed", id)));
        }
        assertTrue("copies routed to several shards: " + shardsSeen, shardsSeen.size() > 1);

        // not refreshed: found through the window of the node that ingested "b" ...
        long g = randomLong();
        bulk(internalCluster().client(nodes[0]), "refreshed", "check-window", Map.of("b", g));
        bulk(internalCluster().client(nodes[0]), "refreshed", "check-window", Map.of("b2", SimHashQueryTests.flipBits(g, 3)));
        // ... another ingest node cannot see it before a refresh, and refresh is disabled here: not unique but unchecked,
        // unless the pipeline opts out of waiting for the refresh (then the per-node window's documented limit)
        pipeline("check-tag", ", \"on_unavailable\": \"tag\"");
        pipeline("check-no-wait", ", \"wait_for_refresh\": false");
        bulk(internalCluster().client(nodes[1]), "refreshed", "check-tag", Map.of("b3", SimHashQueryTests.flipBits(g, 1)));
        long c = randomLong();
        bulk(internalCluster().client(nodes[0]), "refreshed", "check-no-wait", Map.of("c", c));
        bulk(internalCluster().client(nodes[1]), "refreshed", "check-no-wait", Map.of("c-no-wait", SimHashQueryTests.flipBits(c, 1)));
        Map<String, Map<String, Object>> results = results("refreshed");
        assertEquals("duplicate", results.get("b2").get("status"));
        assertEquals("b", results.get("b2").get("_id"));
        assertEquals("recent", results.get("b2").get("source"));
        assertEquals("unchecked", results.get("b3").get("status"));
        assertThat((String) results.get("b3").get("reason"), containsString("has index.refresh_interval -1"));
        assertEquals("unique", results.get("c-no-wait").get("status"));
        // after the refresh, another node finds it through the index
        bulk(internalCluster().client(nodes[1]), "refreshed", "check-window", Map.of("b4", SimHashQueryTests.flipBits(g, 0)));
        Map<String, Object> b4 = results("refreshed").get("b4");
        assertEquals("duplicate", b4.get("status"));
        assertEquals(0, b4.get("distance"));
        assertEquals("index", b4.get("source"));
    }

    private int shardOf(String index, String id) {
        SearchResponse r = client().prepareSearch(index).setQuery(QueryBuilders.idsQuery().addIds(id)).get();
        return r.getHits().getAt(0).getShard().getShardId().id();
    }

    public void testGroupFieldFeedsCollapse() {
        index("grouped", 3);
        pipeline("check-group", ", \"group_field\": \"group\"");
        Map<String, Long> expectedCluster = new HashMap<>();
        long[] centers = new long[5];
        for (int c = 0; c < centers.length; c++) {
            centers[c] = randomLong();
        }
        // several bulks through one ingest node, with and without refreshes in between: the group id always comes
        // from the first member
        Client node = internalCluster().client(internalCluster().getNodeNames()[0]);
        int id = 0;
        for (int round = 0; round < 4; round++) {
            Map<String, Long> docs = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 10; i++) {
                int c = randomIntBetween(0, centers.length - 1);
                String name = String.format(Locale.ROOT, "g%02d", id++);
                docs.put(name, SimHashQueryTests.flipBits(centers[c], randomIntBetween(0, 1)));
                expectedCluster.put(name, (long) c);
            }
            bulk(node, "grouped", "check-group", docs);
            if (randomBoolean()) {
                refresh("grouped");
            }
        }
        refresh("grouped");
        // one group id per cluster (copies within 2 bits of each other are always linked)
        Map<Long, String> groupOfCluster = new HashMap<>();
        SearchResponse all = client().prepareSearch("grouped").setSize(100).get();
        for (SearchHit hit : all.getHits().getHits()) {
            String group = (String) hit.getSourceAsMap().get("group");
            String previous = groupOfCluster.putIfAbsent(expectedCluster.get(hit.getId()), group);
            assertEquals("document " + hit.getId(), previous == null ? group : previous, group);
        }
        assertEquals(new HashSet<>(groupOfCluster.values()).size(), groupOfCluster.size());
        SearchResponse collapsed = client().prepareSearch("grouped").setSize(100).setCollapse(new CollapseBuilder("group")).get();
        assertEquals(groupOfCluster.size(), collapsed.getHits().getHits().length);
    }

    public void testReindexedDocumentIsNotItsOwnDuplicate() {
        // a re-indexed document is never its own duplicate (same _id excluded from window and search)
        index("reindex", 1);
        pipeline("check-self", "");
        long fp = randomLong();
        bulk(client(), "reindex", "check-self", Map.of("x", fp));
        refresh("reindex");
        bulk(client(), "reindex", "check-self", Map.of("x", fp));
        assertEquals("unique", results("reindex").get("x").get("status"));
        assertEquals(1, client().prepareSearch("reindex").setSize(0).setTrackTotalHits(true).get().getHits().getTotalHits().value());
        // another id with the same fingerprint is a duplicate at distance 0
        client().prepareIndex("reindex")
            .setId("y")
            .setSource("fp", Fingerprints.toHex(fp))
            .setPipeline("check-self")
            .setRefreshPolicy(WriteRequest.RefreshPolicy.NONE)
            .get();
        Map<String, Object> y = results("reindex").get("y");
        assertEquals("duplicate", y.get("status"));
        assertEquals("x", y.get("_id"));
        assertEquals(0, y.get("distance"));
    }

    /**
     * Documents checked against another index (the reported sequence): "sec-c/1" is a duplicate of the target's
     * "sec-a/1" (the same _id in another index is another document; it was called unique), and a match of the recent
     * window names the index its document was written to ("sec-c", not the target "sec-a").
     */
    public void testDocumentsOfAnotherIndexAreComparedWithEveryIdOfTheTarget() {
        index("sec-a", randomIntBetween(1, 2));
        long fp = randomLong();
        bulk(client(), "sec-a", null, Map.of("1", fp));
        refresh("sec-a");
        pipeline("check-sec-a", ", \"index\": \"sec-a\"");
        Client node = internalCluster().client(internalCluster().getNodeNames()[0]); // one node's window
        bulk(node, "sec-c", "check-sec-a", Map.of("1", fp));
        Map<String, Object> first = results("sec-c").get("1");
        assertEquals(first.toString(), "duplicate", first.get("status"));
        assertEquals("1", first.get("_id"));
        assertEquals("sec-a", first.get("_index"));
        assertEquals("index", first.get("source"));
        assertEquals(0, first.get("distance"));
        bulk(node, "sec-c", "check-sec-a", Map.of("2", fp));
        Map<String, Object> second = results("sec-c").get("2");
        assertEquals(second.toString(), "sec-a", second.get("_index"));
        assertEquals("1", second.get("_id"));
        assertEquals("index", second.get("source"));

        // a copy only the window knows of (the target holds nothing like it)
        long other = SimHashQueryTests.flipBits(fp, 40);
        bulk(node, "sec-c", "check-sec-a", Map.of("3", other));
        assertEquals("unique", results("sec-c").get("3").get("status"));
        bulk(node, "sec-e", "check-sec-a", Map.of("1", SimHashQueryTests.flipBits(other, 1)));
        Map<String, Object> recent = results("sec-e").get("1");
        assertEquals(recent.toString(), "duplicate", recent.get("status"));
        assertEquals("3", recent.get("_id"));
        assertEquals("sec-c", recent.get("_index"));
        assertEquals("recent", recent.get("source"));
        assertEquals(1, recent.get("distance"));
        // the same _id as a window entry of another index: that document's duplicate
        bulk(node, "sec-e", "check-sec-a", Map.of("3", other));
        Map<String, Object> sameId = results("sec-e").get("3");
        assertEquals(sameId.toString(), "duplicate", sameId.get("status"));
        assertEquals("sec-c", sameId.get("_index"));
        assertEquals(0, sameId.get("distance"));
    }

    public void testDottedGroupFieldIsReadBackFromTheIndex() {
        // group_field "dup.group" is written as an object; a later document must read it back, not fall back to the _id
        assertAcked(
            prepareCreate("dotted").setSettings(Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0))
                .setMapping("fp", "type=simhash,blocks=4,max_distance=3", "dup.group", "type=keyword")
        );
        ensureGreen("dotted");
        pipeline("check-dotted", ", \"window_size\": 0, \"group_field\": \"dup.group\"");
        long x = randomLong();
        long a = SimHashQueryTests.flipBits(x, 2);
        long b = a ^ (Long.lowestOneBit(~(x ^ a) & ~0b11L)) ^ Long.highestOneBit(~(x ^ a) & ~0b11L);
        assertEquals(2, Fingerprints.distance(a, b));
        assertTrue("b is too far from x to match it", Fingerprints.distance(x, b) > 3);
        bulk(client(), "dotted", "check-dotted", Map.of("x", x));
        refresh("dotted");
        bulk(client(), "dotted", "check-dotted", Map.of("a", a));
        refresh("dotted");
        bulk(client(), "dotted", "check-dotted", Map.of("b", b));
        refresh("dotted");
        Map<String, Object> source = client().prepareGet("dotted", "b").get().getSourceAsMap();
        @SuppressWarnings("unchecked")
        Map<String, Object> dup = (Map<String, Object>) source.get("dup");
        assertEquals(source.toString(), "a", ((Map<?, ?>) source.get("near_duplicate")).get("_id"));
        assertEquals("the group of a, read through the dotted path", "x", dup.get("group"));
    }

    public void testBatchedLookupsFindTheClosestLikeBruteForce() {
        // documents of one bulk request are looked up together (batch_size per search); with the window off, each
        // must get the closest refreshed document within k, as a brute-force scan says
        index("batched", 2);
        pipeline("check-batched", ", \"window_size\": 0, \"batch_size\": " + randomIntBetween(2, 7));
        long[] centers = new long[4];
        Map<String, Long> existing = new HashMap<>();
        for (int c = 0; c < centers.length; c++) {
            centers[c] = randomLong();
            existing.put("e" + c, centers[c]);
        }
        // one center with many identical copies: a batch asking for 10 hits per document gets truncated and its
        // documents are looked up one by one
        for (int i = 0; i < 40; i++) {
            existing.put("same" + i, centers[0]);
        }
        bulk(client(), "batched", null, existing);
        refresh("batched");
        Map<String, Long> incoming = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 30; i++) {
            long fp = i % 3 == 2
                ? randomLong()
                : SimHashQueryTests.flipBits(centers[randomIntBetween(0, centers.length - 1)], randomIntBetween(0, 4));
            incoming.put(String.format(Locale.ROOT, "n%02d", i), fp);
        }
        bulk(client(), "batched", "check-batched", incoming);
        Map<String, Map<String, Object>> results = results("batched");
        // the closest of the refreshed documents and the earlier documents of the same bulk request (the bulk set,
        // whatever window_size says)
        Map<String, Long> earlier = new HashMap<>(existing);
        for (Map.Entry<String, Long> doc : incoming.entrySet()) {
            int best = Integer.MAX_VALUE;
            for (long e : earlier.values()) {
                best = Math.min(best, Fingerprints.distance(e, doc.getValue()));
            }
            Map<String, Object> r = results.get(doc.getKey());
            earlier.put(doc.getKey(), doc.getValue());
            if (best <= 3) {
                assertEquals(doc.getKey() + " " + r, "duplicate", r.get("status"));
                assertEquals(doc.getKey() + " " + r, best, ((Number) r.get("distance")).intValue());
                assertEquals(best, Fingerprints.distance(earlier.get((String) r.get("_id")), doc.getValue()));
                assertEquals(doc.getKey() + " " + r, existing.containsKey((String) r.get("_id")) ? "index" : "recent", r.get("source"));
            } else {
                assertEquals(doc.getKey() + " " + r, "unique", r.get("status"));
            }
        }
    }

    /**
     * A target with {@code _source} disabled (a common choice for a fingerprint-only index) is still checked: batches of
     * unsigned documents and single lookups never read the hits' {@code _source} (found by bench/check_scale.py).
     */
    public void testTargetWithoutSourceIsChecked() throws Exception {
        assertAcked(
            prepareCreate("nosource").setSettings(
                Settings.builder().put("index.number_of_shards", 2).put("index.number_of_replicas", 0).put("index.refresh_interval", -1)
            )
                .setMapping(
                    org.opensearch.common.xcontent.XContentFactory.jsonBuilder()
                        .startObject()
                        .startObject("_source")
                        .field("enabled", false)
                        .endObject()
                        .startObject("properties")
                        .startObject("fp")
                        .field("type", "simhash")
                        .field("blocks", 4)
                        .field("max_distance", 3)
                        .endObject()
                        .endObject()
                        .endObject()
                )
        );
        index("incoming", 1);
        long[] existing = new long[20];
        Map<String, Long> targets = new HashMap<>();
        for (int i = 0; i < existing.length; i++) {
            existing[i] = randomLong();
            targets.put("t" + i, existing[i]);
        }
        bulk(client(), "nosource", null, targets);
        refresh("nosource");
        pipeline(
            "check-nosource",
            ", \"index\": \"nosource\", \"window_size\": 0, \"on_unavailable\": \"tag\", \"batch_size\": " + randomIntBetween(1, 6)
        );
        Map<String, Long> incoming = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            incoming.put("n" + i, i % 2 == 0 ? SimHashQueryTests.flipBits(existing[i], randomIntBetween(0, 2)) : randomLong());
        }
        bulk(client(), "incoming", "check-nosource", incoming);
        Map<String, Map<String, Object>> results = results("incoming");
        for (int i = 0; i < 20; i++) {
            Map<String, Object> r = results.get("n" + i);
            assertEquals("n" + i + " " + r, i % 2 == 0 ? "duplicate" : "unique", r.get("status"));
        }
    }

    /** Copies in one bulk request are caught whatever window_size says (600 documents, copies 300 apart, window 50). */
    public void testCopiesInOneBulkBeyondTheWindow() {
        index("big-bulk", 2);
        pipeline("check-small-window", ", \"window_size\": 50, \"on_unavailable\": \"tag\"");
        Map<String, Long> docs = new java.util.LinkedHashMap<>();
        long[] originals = new long[300];
        for (int i = 0; i < originals.length; i++) {
            originals[i] = randomLong();
            docs.put("o" + i, originals[i]);
        }
        for (int i = 0; i < originals.length; i++) {
            docs.put("c" + i, originals[i]);
        }
        bulk(client(), "big-bulk", "check-small-window", docs);
        Map<String, Map<String, Object>> results = results("big-bulk");
        for (int i = 0; i < originals.length; i++) {
            Map<String, Object> copy = results.get("c" + i);
            assertEquals(copy.toString(), "duplicate", copy.get("status"));
            assertEquals(copy.toString(), "o" + i, copy.get("_id"));
            assertEquals(0, copy.get("distance"));
            assertEquals("recent", copy.get("source"));
            assertEquals("unique", results.get("o" + i).get("status"));
        }
    }

    /**
     * Across bulk requests, a copy of a document the window let go of before the index could have refreshed it
     * (refresh_interval 30s) is never unique: the search may not see the original, so it is unchecked (or, if a refresh
     * happened meanwhile, found in the index).
     */
    public void testCopyOfADocumentTheWindowLetGoOfIsNeverUnique() {
        assertAcked(
            prepareCreate("slow-refresh").setSettings(
                Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0).put("index.refresh_interval", "30s")
            ).setMapping("fp", "type=simhash,blocks=4,max_distance=3")
        );
        ensureGreen("slow-refresh");
        pipeline("check-window-20", ", \"window_size\": 20, \"on_unavailable\": \"tag\"");
        Client node = internalCluster().client(internalCluster().getNodeNames()[0]);
        Map<String, Long> originals = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            originals.put("o" + i, randomLong());
        }
        bulk(node, "slow-refresh", "check-window-20", originals);
        Map<String, Long> fillers = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            fillers.put("f" + i, randomLong());
        }
        bulk(node, "slow-refresh", "check-window-20", fillers);
        Map<String, Long> copies = new java.util.LinkedHashMap<>();
        originals.forEach((id, fp) -> copies.put("copy-" + id, fp));
        bulk(node, "slow-refresh", "check-window-20", copies);
        Map<String, Map<String, Object>> results = results("slow-refresh");
        for (String id : copies.keySet()) {
            Map<String, Object> r = results.get(id);
            assertNotEquals(id + " " + r, "unique", r.get("status"));
            if ("unchecked".equals(r.get("status"))) {
                // the lookup cannot wait 30s for the refresh, or (with wait_for_refresh false) the window's gap
                assertThat(
                    (String) r.get("reason"),
                    anyOf(
                        containsString("refreshes every 30s, longer than the lookup may wait"),
                        containsString("the search may not see documents this node checked recently")
                    )
                );
            } else {
                assertEquals("index", r.get("source"));
            }
        }
    }

    /**
     * The check sends the fingerprint's algorithm: a fingerprint of the default algorithm checked against a simhash-v1 index is never
     * compared (an exact copy of the text would otherwise be about 30 bits away and tagged unique).
     */
    public void testTargetOfAnotherAlgorithmIsUncheckedOr400() {
        assertAcked(
            prepareCreate("pages-v1").setSettings(Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0))
                .setMapping("fp", "type=simhash,algorithm=simhash-v1")
        );
        assertAcked(
            prepareCreate("incoming").setSettings(Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0))
                .setMapping("fp", "type=simhash")
        );
        ensureGreen("pages-v1", "incoming");
        String v1 = "{\"processors\": [{\"simhash\": {\"field\": \"content\", \"target_field\": \"fp\", \"version\": 1}}]}";
        assertAcked(client().admin().cluster().preparePutPipeline("fp-v1", new BytesArray(v1), XContentType.JSON).get());
        String text = "The harbor bridge opened in the spring after four years of work, and the ferries stopped running at night.";
        client().prepareIndex("pages-v1").setId("old").setSource("content", text).setPipeline("fp-v1").get();
        refresh("pages-v1");
        for (String onUnavailable : new String[] { "tag", "fail" }) {
            String json = "{\"processors\": [{\"simhash\": {\"field\": \"content\", \"target_field\": \"fp\"}}, "
                + "{\"near_duplicate_check\": {\"field\": \"fp\", \"index\": \"pages-v1\", \"max_distance\": 12, "
                + "\"on_unavailable\": \""
                + onUnavailable
                + "\""
                + (onUnavailable.equals("fail") ? ", \"window_size\": 0" : "")
                + "}}]}"; // (window_size 0: "new-tag" in the window of the first pipeline would be a recent match)
            String name = "check-v3-" + onUnavailable;
            assertAcked(client().admin().cluster().preparePutPipeline(name, new BytesArray(json), XContentType.JSON).get());
            BulkResponse response = client().prepareBulk()
                .add(client().prepareIndex("incoming").setId("new-" + onUnavailable).setSource("content", text).setPipeline(name))
                .get();
            BulkItemResponse item = response.getItems()[0];
            if (onUnavailable.equals("tag")) {
                assertFalse(response.buildFailureMessage(), response.hasFailures());
                refresh("incoming");
                @SuppressWarnings("unchecked")
                Map<String, Object> r = (Map<String, Object>) client().prepareGet("incoming", "new-tag")
                    .get()
                    .getSourceAsMap()
                    .get("near_duplicate");
                assertEquals(r.toString(), "unchecked", r.get("status"));
                assertThat((String) r.get("reason"), containsString("made with algorithm [" + SimHashSettings.VERSION));
                assertThat((String) r.get("reason"), containsString("is mapped with algorithm [simhash-v1"));
            } else {
                assertTrue(item.isFailed());
                assertEquals(RestStatus.BAD_REQUEST, item.status());
                assertThat(item.getFailureMessage(), containsString("made with algorithm [" + SimHashSettings.VERSION));
            }
        }
    }

    /** A closed target index: unchecked with on_unavailable tag; with fail a 400 that on_failure can catch, never a 500. */
    public void testClosedTargetIndexIsUncheckedOr400() {
        index("closed-target", 1);
        index("open-source", 1);
        assertAcked(client().admin().indices().prepareClose("closed-target").get());
        pipeline("check-closed-tag", ", \"index\": \"closed-target\", \"on_unavailable\": \"tag\"");
        pipeline("check-closed-fail", ", \"index\": \"closed-target\"");
        // (no ingest-common module here: the on_failure handler fingerprints a field, which shows it ran)
        String caught = "{\"processors\": [{\"near_duplicate_check\": "
            + "{\"field\": \"fp\", \"max_distance\": 3, \"index\": \"closed-target\"}}], "
            + "\"on_failure\": [{\"simhash\": {\"field\": \"note\", \"target_field\": \"handled\"}}]}";
        assertAcked(client().admin().cluster().preparePutPipeline("check-closed-caught", new BytesArray(caught), XContentType.JSON).get());
        bulk(client(), "open-source", "check-closed-tag", Map.of("t1", randomLong(), "t2", randomLong()));
        Map<String, Map<String, Object>> results = results("open-source");
        for (String id : List.of("t1", "t2")) {
            assertEquals("unchecked", results.get(id).get("status"));
            assertEquals("target index [closed-target] is closed", results.get(id).get("reason"));
        }
        BulkRequestBuilder failing = client().prepareBulk();
        for (String id : List.of("f1", "f2")) {
            String fp = Fingerprints.toHex(randomLong());
            failing.add(client().prepareIndex("open-source").setId(id).setSource("fp", fp).setPipeline("check-closed-fail"));
        }
        for (BulkItemResponse item : failing.get().getItems()) {
            assertTrue(item.isFailed());
            assertEquals(item.getFailureMessage(), RestStatus.BAD_REQUEST, item.status());
            assertThat(item.getFailureMessage(), containsString("target index [closed-target] is closed"));
        }
        BulkResponse handled = client().prepareBulk()
            .add(
                client().prepareIndex("open-source")
                    .setId("c1")
                    .setSource("fp", Fingerprints.toHex(randomLong()), "note", "the harbor bridge opened in the spring")
                    .setPipeline("check-closed-caught")
            )
            .get();
        assertFalse(handled.buildFailureMessage(), handled.hasFailures());
        Map<String, Object> source = client().prepareGet("open-source", "c1").get().getSourceAsMap();
        assertNotNull("on_failure ran: " + source, source.get("handled"));
        assertNull(source.get("near_duplicate"));
    }

    private static final byte[] SIG_A = Signature.of(1, 2, 3, 4, 5, 6, 7, 8);
    private static final byte[] SIG_NEAR_A = Signature.of(1, 2, 3, 4, 5, 6, 7, 9);
    private static final byte[] SIG_OTHER = Signature.of(101, 102, 103, 104, 105, 106, 107, 108);
    private static final byte[] SIG_B = Signature.of(201, 202, 203, 204, 205, 206, 207, 208);

    /** Indexes signed values ({fingerprint, signature}, as the simhash processor of simhash-v4 writes them) in one bulk. */
    private static BulkResponse signedBulk(Client client, String index, String pipeline, Map<String, SimHash> docs) {
        BulkRequestBuilder bulk = client.prepareBulk();
        docs.forEach(
            (id, v) -> bulk.add(
                client.prepareIndex(index)
                    .setId(id)
                    .setSource(
                        Map.of(
                            "fp",
                            Map.of("fingerprint", Fingerprints.toHex(v.fingerprint()), "signature", Signature.toHex(v.signature()))
                        )
                    )
                    .setPipeline(pipeline)
            )
        );
        BulkResponse response = bulk.get();
        assertFalse(response.buildFailureMessage(), response.hasFailures());
        return response;
    }

    /**
     * The index path verifies: (a) a refreshed document within k whose signature disagrees is no duplicate, alone or
     * batched; (c) in one batched search, a hit that matches A's probe (signature agrees) but is within k of B only by
     * distance does not make B a duplicate.
     */
    public void testIndexHitsAreVerifiedAlsoInABatch() {
        index("verified", randomIntBetween(1, 2));
        pipeline("check-verified", ", \"window_size\": 0, \"on_unavailable\": \"tag\"");
        // another window for the first check (its own window options): the document it lets go of is no gap of the
        // batch's window (refresh_interval -1 would make that gap last for ever); the test refreshes itself
        pipeline("check-verified-single", ", \"window_size\": 0, \"window_ttl\": \"1m\", \"on_unavailable\": \"tag\"");
        long h = randomLong();
        signedBulk(client(), "verified", null, Map.of("H", new SimHash(h, SIG_A)));
        refresh("verified");
        // alone: 1 bit from H, its signature disagrees
        signedBulk(client(), "verified", "check-verified-single", Map.of("alone", new SimHash(h ^ 1, SIG_OTHER)));
        assertEquals("unique", results("verified").get("alone").get("status"));
        // one bulk request, one batched search: A agrees with H; B (2 bits from H, 1 from "alone", 3 from A) agrees
        // with none of them, so the hit H that A's probe brings back is not B's
        Map<String, SimHash> batch = new java.util.LinkedHashMap<>();
        batch.put("A", new SimHash(h ^ 1L << 20, SIG_NEAR_A));
        batch.put("B", new SimHash(h ^ 0b11, SIG_B));
        signedBulk(client(), "verified", "check-verified", batch);
        Map<String, Map<String, Object>> results = results("verified");
        Map<String, Object> a = results.get("A");
        assertEquals(a.toString(), "duplicate", a.get("status"));
        assertEquals("H", a.get("_id"));
        assertEquals("index", a.get("source"));
        assertEquals(1, a.get("distance"));
        assertEquals(results.get("B").toString(), "unique", results.get("B").get("status"));
    }

    /** A signature agreeing with {@code base} on slots {@code from} (inclusive) to {@code to} (exclusive) only. */
    private static byte[] agreeingOn(byte[] base, int from, int to, int otherwise) {
        byte[] s = new byte[Signature.BYTES];
        for (int i = 0; i < s.length; i++)
            s[i] = i >= from && i < to ? base[i] : (byte) (otherwise + i);
        return s;
    }

    /**
     * A batched hit is verified again with the target field's default min_similarity, which is its algorithm's:
     * B agrees with H on exactly 12 of 32 slots, a match for a simhash-v4 or simhash-v5 field (0.35) and none for a
     * simhash-v6 field (0.40, 13 slots); A (20 slots) brings H back in the same search, so B's hit is not verified by the query.
     */
    public void testBatchedHitsAreVerifiedWithTheFieldsAlgorithmsDefault() {
        byte[] h = new byte[Signature.BYTES];
        for (int i = 0; i < h.length; i++)
            h[i] = (byte) i;
        for (String version : new String[] { "4", "5", "6" }) {
            String index = "verified-v" + version;
            assertAcked(
                prepareCreate(index).setSettings(
                    Settings.builder()
                        .put("index.number_of_shards", randomIntBetween(1, 2))
                        .put("index.number_of_replicas", 0)
                        .put("index.refresh_interval", -1)
                ).setMapping("fp", "type=simhash,blocks=4,max_distance=3,algorithm=simhash-v" + version, "group", "type=keyword")
            );
            ensureGreen(index);
            pipeline("check-" + index, ", \"window_size\": 0, \"on_unavailable\": \"tag\"");
            long fp = randomLong();
            signedBulk(client(), index, null, Map.of("H", new SimHash(fp, h)));
            refresh(index);
            Map<String, SimHash> batch = new java.util.LinkedHashMap<>();
            batch.put("A", new SimHash(fp ^ 1L << 20, agreeingOn(h, 0, 20, 100)));
            batch.put("B", new SimHash(fp ^ 0b11, agreeingOn(h, 12, 24, -100)));
            assertEquals(12, Signature.agreeingSlots(h, 0, batch.get("B").signature(), 0));
            assertTrue(Signature.agreeingSlots(batch.get("A").signature(), 0, batch.get("B").signature(), 0) < 12);
            signedBulk(client(), index, "check-" + index, batch);
            Map<String, Map<String, Object>> results = results(index);
            assertEquals(results.get("A").toString(), "duplicate", results.get("A").get("status"));
            Map<String, Object> b = results.get("B");
            if (version.equals("4") || version.equals("5")) {
                assertEquals(b.toString(), "duplicate", b.get("status"));
                assertEquals("H", b.get("_id"));
            } else {
                assertEquals(b.toString(), "unique", b.get("status"));
            }
        }
    }

    /**
     * A copy sent through another ingest node right after its original's bulk was acknowledged is found: the lookup
     * waits until the target's shard copies (primaries and replicas) have made their writes searchable, as
     * {@code refresh=wait_for} does for a write.
     */
    public void testCopyThroughAnotherIngestNodeAfterTheOriginalIsAcknowledgedIsFound() {
        assertAcked(
            prepareCreate("crawl").setSettings(
                Settings.builder().put("index.number_of_shards", 2).put("index.number_of_replicas", 1).put("index.refresh_interval", "1s")
            ).setMapping("fp", "type=simhash,blocks=4,max_distance=3")
        );
        ensureGreen("crawl");
        pipeline("check-across-nodes", ", \"on_unavailable\": \"tag\"");
        String[] nodes = internalCluster().getNodeNames();
        Map<String, Long> copies = new java.util.LinkedHashMap<>();
        for (int round = 0; round < 3; round++) {
            Map<String, Long> originals = new java.util.LinkedHashMap<>();
            Map<String, Long> roundCopies = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 10; i++) {
                long fp = randomLong();
                originals.put("o" + round + "-" + i, fp);
                roundCopies.put("copy-o" + round + "-" + i, SimHashQueryTests.flipBits(fp, i % 3));
            }
            bulk(internalCluster().client(nodes[round % 2]), "crawl", "check-across-nodes", originals); // acknowledged
            bulk(internalCluster().client(nodes[(round + 1) % 2]), "crawl", "check-across-nodes", roundCopies);
            copies.putAll(roundCopies);
        }
        Map<String, Map<String, Object>> results = results("crawl");
        for (String id : copies.keySet()) {
            Map<String, Object> r = results.get(id);
            assertEquals(id + " " + r, "duplicate", r.get("status"));
            assertEquals(id + " " + r, id.substring("copy-".length()), r.get("_id"));
            assertEquals("index", r.get("source"));
        }
    }
}
