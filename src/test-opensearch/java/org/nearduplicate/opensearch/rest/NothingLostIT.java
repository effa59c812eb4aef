package org.nearduplicate.opensearch.rest;

import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.StringEntity;

import org.opensearch.client.Request;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.test.rest.OpenSearchRestTestCase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * "Nothing lost" against the real node: a bulk ingest of {@link #DOCS} documents (100,000 unless
 * {@code tests.nothing_lost.docs} says otherwise) through a {@code simhash} pipeline, 1% of them bad in six different
 * ways, while other threads run {@code near_duplicate} queries. Afterwards every good document is indexed with exactly
 * the fingerprint the engine computes locally, every bad one was reported in its bulk item with a 400 naming the
 * problem, nothing is missing or extra, and the query matches brute force.
 */
public class NothingLostIT extends OpenSearchRestTestCase {
    static final int DOCS = Integer.getInteger("tests.nothing_lost.docs", 100_000);
    private static final int BATCH = 2_000;
    private static final String INDEX = "nothing-lost";

    private static final String[] BAD_KINDS = { "number", "empty", "stopwords", "object", "bad-hex", "too-long-hex" };

    public void testBulkWithBadDocumentsUnderConcurrentQueries() throws Exception {
        Request pipeline = new Request("PUT", "/_ingest/pipeline/nothing-lost");
        pipeline.setJsonEntity(
            "{\"processors\": [{\"simhash\": {\"field\": \"content\", \"target_field\": \"fp\", \"ignore_missing\": true}}]}"
        );
        client().performRequest(pipeline);
        Request create = new Request("PUT", "/" + INDEX);
        create.setJsonEntity(
            "{\"settings\": {\"number_of_shards\": 3, \"number_of_replicas\": 0, \"refresh_interval\": \"1s\"},"
                + " \"mappings\": {\"dynamic\": false, \"properties\": {\"fp\": {\"type\": \"simhash\"}, \"kind\": {\"type\": \"keyword\"}}}}"
        );
        client().performRequest(create);

        Random random = new Random(randomLong());
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        String[] vocabulary = new String[3000];
        for (int i = 0; i < vocabulary.length; i++)
            vocabulary[i] = "w" + Integer.toString(i * 7919 + 1013, 36) + "x";
        // groups of near-duplicates: a base text and edits of it, so that queries have real neighbours
        String[] bases = new String[DOCS / 20];
        for (int i = 0; i < bases.length; i++)
            bases[i] = text(random, vocabulary, 30 + random.nextInt(30));

        Map<String, Long> expected = new HashMap<>(DOCS * 2);
        Map<String, String> badKinds = new HashMap<>();
        AtomicBoolean ingesting = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> queryFailures = new ConcurrentLinkedQueue<>();
        AtomicInteger queries = new AtomicInteger();
        List<Thread> searchers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            final long seed = random.nextLong();
            Thread thread = new Thread(() -> {
                Random r = new Random(seed);
                while (ingesting.get()) {
                    try {
                        Request search = new Request("POST", "/" + INDEX + "/_search");
                        String probe = r.nextBoolean()
                            ? "\"fingerprint\": \"" + Fingerprints.toHex(r.nextLong()) + "\""
                            : "\"text\": " + XContentFactory.jsonBuilder().value(bases[r.nextInt(bases.length)]).toString();
                        search.setJsonEntity(
                            "{\"size\": 5, \"query\": {\"near_duplicate\": {\"field\": \"fp\", " + probe + ", \"max_distance\": 3}}}"
                        );
                        Map<String, Object> response = entityAsMap(client().performRequest(search));
                        Object failed = ((Map<?, ?>) response.get("_shards")).get("failed");
                        if (((Number) failed).intValue() != 0) queryFailures.add(response.toString());
                        queries.incrementAndGet();
                    } catch (Exception e) {
                        queryFailures.add(e.toString());
                    }
                }
            }, "near-duplicate-searcher-" + t);
            thread.start();
            searchers.add(thread);
        }

        int goodCount = 0;
        long start = System.nanoTime();
        for (int from = 0; from < DOCS; from += BATCH) {
            StringBuilder body = new StringBuilder();
            List<String> ids = new ArrayList<>();
            for (int i = from; i < Math.min(DOCS, from + BATCH); i++) {
                String id = "d" + i;
                ids.add(id);
                body.append("{\"index\": {\"_index\": \"").append(INDEX).append("\", \"_id\": \"").append(id).append("\"}}\n");
                if (random.nextInt(100) == 0) {
                    String kind = BAD_KINDS[random.nextInt(BAD_KINDS.length)];
                    badKinds.put(id, kind);
                    body.append(switch (kind) {
                        case "number" -> "{\"kind\": \"bad\", \"content\": 12345}";
                        case "empty" -> "{\"kind\": \"bad\", \"content\": \"  \"}";
                        case "stopwords" -> "{\"kind\": \"bad\", \"content\": \"the and of to\"}";
                        case "object" -> "{\"kind\": \"bad\", \"content\": {\"text\": \"harbor\"}}";
                        case "bad-hex" -> "{\"kind\": \"bad\", \"fp\": \"zz3a0c11d2e4b607\"}";
                        default -> "{\"kind\": \"bad\", \"fp\": \"0x18f3a0c11d2e4b607\"}";
                    }).append('\n');
                } else if (random.nextInt(10) == 0) {
                    long fp = random.nextLong(); // a fingerprint given directly, bypassing the processor (ignore_missing)
                    expected.put(id, fp);
                    body.append("{\"kind\": \"direct\", \"fp\": \"").append(Fingerprints.toHex(fp)).append("\"}\n");
                    goodCount++;
                } else {
                    String content = edit(random, vocabulary, bases[random.nextInt(bases.length)]);
                    expected.put(id, hasher.fingerprint(content));
                    body.append(
                        XContentFactory.jsonBuilder().startObject().field("kind", "text").field("content", content).endObject().toString()
                    ).append('\n');
                    goodCount++;
                }
            }
            Request bulk = new Request("POST", "/_bulk?pipeline=nothing-lost");
            bulk.setEntity(new StringEntity(body.toString(), ContentType.create("application/x-ndjson")));
            Map<String, Object> response = entityAsMap(client().performRequest(bulk));
            @SuppressWarnings("unchecked")
            List<Map<String, Map<String, Object>>> items = (List<Map<String, Map<String, Object>>>) response.get("items");
            assertEquals(ids.size(), items.size());
            for (int i = 0; i < items.size(); i++) {
                Map<String, Object> item = items.get(i).get("index");
                String id = ids.get(i);
                assertEquals(id, item.get("_id"));
                if (badKinds.containsKey(id)) {
                    assertEquals("bad document " + id + " (" + badKinds.get(id) + ") must be reported: " + item, 400, item.get("status"));
                    assertNotNull(item.get("error"));
                } else {
                    assertEquals("good document " + id + " must be indexed: " + item, 201, item.get("status"));
                }
            }
        }
        long ingestMillis = (System.nanoTime() - start) / 1_000_000;
        ingesting.set(false);
        for (Thread t : searchers)
            t.join();
        assertTrue("concurrent queries failed: " + queryFailures, queryFailures.isEmpty());
        assertTrue(queries.get() > 0);

        client().performRequest(new Request("POST", "/" + INDEX + "/_refresh"));
        Map<String, Object> count = entityAsMap(client().performRequest(new Request("GET", "/" + INDEX + "/_count")));
        assertEquals(goodCount, ((Number) count.get("count")).intValue());
        assertEquals(DOCS, goodCount + badKinds.size());

        // every document's indexed fingerprint (doc values) equals the locally computed one; no bad one slipped in
        Map<String, Long> indexed = readAllFingerprints();
        assertEquals(expected.size(), indexed.size());
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            assertEquals(
                "fingerprint of " + e.getKey(),
                Fingerprints.toHex(e.getValue()),
                Fingerprints.toHex(indexed.getOrDefault(e.getKey(), ~e.getValue()))
            );
        }

        // the query is exact on this corpus
        for (int q = 0; q < 10; q++) {
            long probe = expected.get("d" + (q * 997 % DOCS)) != null ? expected.get("d" + (q * 997 % DOCS)) : random.nextLong();
            Set<String> brute = new HashSet<>();
            expected.forEach((id, fp) -> { if (Fingerprints.distance(fp, probe) <= 3) brute.add(id); });
            Request search = new Request("POST", "/" + INDEX + "/_search");
            search.setJsonEntity(
                "{\"size\": 10000, \"_source\": false, \"track_total_hits\": true, \"query\": {\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": \""
                    + Fingerprints.toHex(probe)
                    + "\", \"max_distance\": 3}}}"
            );
            Set<String> hits = new HashSet<>();
            for (Object hit : (List<?>) ((Map<?, ?>) entityAsMap(client().performRequest(search)).get("hits")).get("hits")) {
                hits.add((String) ((Map<?, ?>) hit).get("_id"));
            }
            assertEquals(brute, hits);
        }
        logger.info(
            "nothing lost: {} documents ({} good, {} bad reported) in {} ms with {} concurrent queries",
            DOCS,
            goodCount,
            badKinds.size(),
            ingestMillis,
            queries.get()
        );
        System.out.println(
            "nothing-lost: docs="
                + DOCS
                + " good="
                + goodCount
                + " bad="
                + badKinds.size()
                + " badKinds="
                + countKinds(badKinds)
                + " ingestMillis="
                + ingestMillis
                + " concurrentQueries="
                + queries.get()
        );
    }

    private static Map<String, Integer> countKinds(Map<String, String> kinds) {
        Map<String, Integer> counts = new HashMap<>();
        kinds.values().forEach(k -> counts.merge(k, 1, Integer::sum));
        return counts;
    }

    private Map<String, Long> readAllFingerprints() throws IOException {
        Map<String, Long> indexed = new HashMap<>();
        Request first = new Request("POST", "/" + INDEX + "/_search?scroll=2m");
        first.setJsonEntity("{\"size\": 5000, \"_source\": false, \"sort\": [\"_doc\"], \"docvalue_fields\": [\"fp\"]}");
        Map<String, Object> page = entityAsMap(client().performRequest(first));
        while (true) {
            List<?> hits = (List<?>) ((Map<?, ?>) page.get("hits")).get("hits");
            if (hits.isEmpty()) break;
            for (Object h : hits) {
                Map<?, ?> hit = (Map<?, ?>) h;
                List<?> values = (List<?>) ((Map<?, ?>) hit.get("fields")).get("fp");
                assertEquals(1, values.size());
                assertNull(
                    "duplicate id " + hit.get("_id"),
                    indexed.put((String) hit.get("_id"), Fingerprints.parse((String) values.get(0)))
                );
            }
            Request next = new Request("POST", "/_search/scroll");
            next.setJsonEntity("{\"scroll\": \"2m\", \"scroll_id\": \"" + page.get("_scroll_id") + "\"}");
            page = entityAsMap(client().performRequest(next));
        }
        return indexed;
    }

    private static String text(Random random, String[] vocabulary, int words) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words; i++)
            sb.append(vocabulary[random.nextInt(vocabulary.length)]).append(i % 12 == 11 ? ". " : " ");
        return sb.toString().trim();
    }

    /** The base text with up to three words replaced: a near-duplicate. */
    private static String edit(Random random, String[] vocabulary, String base) {
        String[] words = base.split(" ");
        for (int e = random.nextInt(4); e > 0; e--)
            words[random.nextInt(words.length)] = vocabulary[random.nextInt(vocabulary.length)];
        return String.join(" ", words);
    }
}
