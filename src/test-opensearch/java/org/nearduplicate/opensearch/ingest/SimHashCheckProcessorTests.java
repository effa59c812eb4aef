package org.nearduplicate.opensearch.ingest;

import org.opensearch.OpenSearchParseException;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionType;
import org.opensearch.action.OriginalIndices;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.ShardSearchFailure;
import org.opensearch.common.document.DocumentField;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.common.breaker.NoopCircuitBreaker;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;
import org.opensearch.ingest.Processor;
import org.opensearch.search.SearchHit;
import org.opensearch.search.SearchHits;
import org.opensearch.search.SearchShardTarget;
import org.opensearch.search.internal.InternalSearchResponse;
import org.opensearch.test.OpenSearchTestCase;
import org.opensearch.test.client.NoOpClient;
import org.opensearch.threadpool.Scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.lucene.SimHashQueryTests;
import org.nearduplicate.opensearch.action.check.WaitForRefreshRequest;
import org.nearduplicate.opensearch.action.check.WaitForRefreshResponse;

import static org.hamcrest.Matchers.containsString;

/** Options, timeouts, the in-flight cap, and the recent window against brute force. */
public class SimHashCheckProcessorTests extends OpenSearchTestCase {

    /**
     * A client whose searches never answer (they are kept for inspection); its waits for the target's refresh are kept
     * and answered at once, or failed with {@code waitFailure} when set.
     */
    private static final class PendingClient extends NoOpClient {
        final List<SearchRequest> searches = new ArrayList<>();
        final List<ActionListener<?>> listeners = new ArrayList<>();
        final List<WaitForRefreshRequest> waits = new ArrayList<>();
        Exception waitFailure;

        PendingClient(String name) {
            super(name);
        }

        @Override
        protected <Request extends ActionRequest, Response extends ActionResponse> void doExecute(
            ActionType<Response> action,
            Request request,
            ActionListener<Response> listener
        ) {
            if (request instanceof WaitForRefreshRequest wait) {
                waits.add(wait);
                if (waitFailure != null) {
                    listener.onFailure(waitFailure);
                } else {
                    @SuppressWarnings("unchecked")
                    Response response = (Response) new WaitForRefreshResponse(1, 0);
                    listener.onResponse(response);
                }
                return;
            }
            searches.add((SearchRequest) request);
            listeners.add(listener);
        }
    }

    private final List<Runnable> timers = new ArrayList<>();
    private final BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler = (delay, task) -> {
        timers.add(task);
        return new Scheduler.ScheduledCancellable() {
            @Override
            public long getDelay(java.util.concurrent.TimeUnit unit) {
                return 0;
            }

            @Override
            public int compareTo(java.util.concurrent.Delayed o) {
                return 0;
            }

            @Override
            public boolean cancel() {
                return timers.remove(task);
            }

            @Override
            public boolean isCancelled() {
                return false;
            }
        };
    };

    /** No recent window ({@code window_size} 0, a fresh registry), a stale search tags: only the bulk set and the index. */
    private SimHashCheckProcessor batchOnlyProcessor(PendingClient client) {
        return processor(client, new RecentFingerprints.Registry(() -> 0L), Map.of("on_unavailable", "tag", "window_size", 0));
    }

    private SimHashCheckProcessor processor(PendingClient client, RecentFingerprints.Registry windows, Map<String, Object> options) {
        return processor(client, windows, MappedMaxDistance.DEFAULT, options);
    }

    private SimHashCheckProcessor processor(
        PendingClient client,
        RecentFingerprints.Registry windows,
        MappedMaxDistance target,
        Map<String, Object> options
    ) {
        Processor.Parameters parameters = new Processor.Parameters(
            null,
            null,
            null,
            null,
            () -> 0L,
            scheduler,
            null,
            client,
            Runnable::run,
            null
        );
        return new SimHashCheckProcessor.Factory(parameters, windows, target).create(Map.of(), "t", null, new HashMap<>(options));
    }

    private static IngestDocument doc(String id, long fp) {
        return doc(id, fp, "x");
    }

    private static IngestDocument doc(String id, long fp, String algorithm) {
        Map<String, Object> source = new HashMap<>();
        source.put("_index", "pages");
        source.put("_id", id);
        source.put("simhash", Map.of("fingerprint", Fingerprints.toHex(fp), "algorithm", algorithm));
        return new IngestDocument(source, new HashMap<>());
    }

    /** A target whose field is mapped with {@code algorithms}, closed or not, with {@code refreshMillis}. */
    private static MappedMaxDistance target(Set<String> algorithms, boolean closed, long refreshMillis) {
        return new MappedMaxDistance() {
            @Override
            public int of(String index, String field) {
                return 3;
            }

            @Override
            public Set<String> algorithms(String index, String field) {
                return algorithms;
            }

            @Override
            public boolean closed(String index) {
                return closed;
            }

            @Override
            public long refreshMillis(String index) {
                return refreshMillis;
            }
        };
    }

    /** Answers every pending search with no hits (each search may start more: they are answered too). */
    @SuppressWarnings("unchecked")
    private static void answerEmpty(PendingClient client) {
        for (int i = 0; i < client.listeners.size(); i++) {
            ActionListener<SearchResponse> l = (ActionListener<SearchResponse>) client.listeners.get(i);
            if (l == null) continue;
            client.listeners.set(i, null);
            ShardSearchFailure[] none = ShardSearchFailure.EMPTY_ARRAY;
            l.onResponse(new SearchResponse(InternalSearchResponse.empty(), null, 1, 1, 0, 1, none, SearchResponse.Clusters.EMPTY));
        }
    }

    /** Runs {@code docs} as one batch (one bulk request); the results in the order of the documents. */
    private static List<IngestDocumentWrapper> runBatch(SimHashCheckProcessor p, List<IngestDocument> docs, Runnable answer) {
        List<IngestDocumentWrapper> wrappers = new ArrayList<>();
        for (int i = 0; i < docs.size(); i++) {
            wrappers.add(new IngestDocumentWrapper(i, 0, docs.get(i), null));
        }
        AtomicReference<List<IngestDocumentWrapper>> out = new AtomicReference<>();
        p.batchExecute(wrappers, results -> {
            assertNull("handler called twice", out.get());
            out.set(results);
        });
        answer.run();
        assertNotNull("every document answered", out.get());
        List<IngestDocumentWrapper> sorted = new ArrayList<>(out.get());
        sorted.sort(java.util.Comparator.comparingInt(IngestDocumentWrapper::getSlot));
        return sorted;
    }

    private static Map<?, ?> result(IngestDocument doc) {
        return (Map<?, ?>) doc.getSourceAndMetadata().get("near_duplicate");
    }

    private static final class Outcome {
        final AtomicReference<IngestDocument> doc = new AtomicReference<>();
        final AtomicReference<Exception> error = new AtomicReference<>();
        volatile boolean called;
    }

    private static Outcome run(SimHashCheckProcessor p, IngestDocument d) {
        Outcome o = new Outcome();
        p.execute(d, (doc, e) -> {
            assertFalse("handler called twice", o.called);
            o.called = true;
            o.doc.set(doc);
            o.error.set(e);
        });
        return o;
    }

    public void testTimeoutTagsOrFailsAndTheCapBoundsSearches() {
        try (PendingClient client = new PendingClient(getTestName())) {
            RecentFingerprints.Registry windows = new RecentFingerprints.Registry(() -> 0L);
            SimHashCheckProcessor tag = processor(
                client,
                windows,
                Map.of("on_unavailable", "tag", "max_in_flight", 1, "max_queued", 0, "timeout", "2s")
            );
            Outcome first = run(tag, doc("a", 1L));
            assertFalse("waits for the search", first.called);
            assertEquals(1, client.searches.size());
            assertThat(client.searches.get(0).source().toString(), containsString("near_duplicate"));
            assertEquals(0, tag.availableLookups());

            // over the cap: answered at once without a search, from the window alone (no match: unchecked)
            Outcome second = run(tag, doc("b", 0xFFFF_0000_0000_0000L));
            assertTrue(second.called);
            assertEquals(1, client.searches.size());
            Map<?, ?> r = (Map<?, ?>) second.doc.get().getSourceAndMetadata().get("near_duplicate");
            assertEquals("unchecked", r.get("status"));
            assertThat((String) r.get("reason"), containsString("too many lookups in flight"));

            // over the cap but a window match: still a duplicate
            Outcome third = run(tag, doc("c", 3L));
            Map<?, ?> r3 = (Map<?, ?>) third.doc.get().getSourceAndMetadata().get("near_duplicate");
            assertEquals("duplicate", r3.get("status"));
            assertEquals("a", r3.get("_id"));
            assertEquals(1, r3.get("distance"));
            assertEquals("recent", r3.get("source"));

            // the timer fires: the first document is tagged unchecked; the late answer is ignored, and frees the slot
            assertEquals(1, timers.size());
            timers.get(0).run();
            assertTrue(first.called);
            assertEquals("unchecked", ((Map<?, ?>) first.doc.get().getSourceAndMetadata().get("near_duplicate")).get("status"));
            assertEquals(0, tag.availableLookups());
            client.listeners.get(0).onFailure(new RuntimeException("late"));
            assertEquals(1, tag.availableLookups());

            SimHashCheckProcessor fail = processor(client, windows, Map.of("max_in_flight", 1, "max_queued", 0, "index", "other"));
            Outcome waiting = run(fail, doc("d", 12345L));
            Outcome refused = run(fail, doc("e", 999_999_999L));
            assertNull(refused.doc.get());
            assertThat(refused.error.get().getMessage(), containsString("could not check for near-duplicates: too many lookups in flight"));
            assertEquals(RestStatus.TOO_MANY_REQUESTS, ((OpenSearchStatusException) refused.error.get()).status());
            assertEquals("other", client.searches.get(1).indices()[0]);
            // a timeout with on_unavailable fail: a 503, not a 500
            timers.get(timers.size() - 1).run();
            assertThat(waiting.error.get().getMessage(), containsString("lookup timed out after"));
            assertEquals(RestStatus.SERVICE_UNAVAILABLE, ((OpenSearchStatusException) waiting.error.get()).status());
        }
    }

    public void testLookupsOverTheCapWaitInABoundedQueue() {
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = processor(
                client,
                new RecentFingerprints.Registry(() -> 0L),
                Map.of("max_in_flight", 1, "max_queued", 1, "on_unavailable", "tag", "max_distance", 3)
            );
            Outcome a = run(p, doc("a", 0x1111_0000_0000_0000L));
            Outcome b = run(p, doc("b", 0x0000_2222_0000_0000L));
            Outcome c = run(p, doc("c", 0x0000_0000_3333_0000L));
            assertEquals("b waits, not searched yet", 1, client.searches.size());
            assertEquals(1, p.queuedLookups());
            assertFalse(b.called);
            assertTrue("c: queue full", c.called);
            assertEquals("unchecked", ((Map<?, ?>) c.doc.get().getSourceAndMetadata().get("near_duplicate")).get("status"));
            // a's search fails: a is tagged unchecked, and b's search starts
            client.listeners.get(0).onFailure(new RuntimeException("boom"));
            assertTrue(a.called);
            assertThat(
                (String) ((Map<?, ?>) a.doc.get().getSourceAndMetadata().get("near_duplicate")).get("reason"),
                containsString("boom")
            );
            assertEquals(2, client.searches.size());
            assertEquals(0, p.queuedLookups());
            // b times out while its search runs; the late failure frees the slot
            timers.get(timers.size() - 1).run();
            assertTrue(b.called);
            client.listeners.get(1).onFailure(new RuntimeException("late"));
            assertEquals(1, p.availableLookups());
        }
    }

    public void testMissingFieldAndBadOptions() {
        try (PendingClient client = new PendingClient(getTestName())) {
            RecentFingerprints.Registry windows = new RecentFingerprints.Registry(() -> 0L);
            Map<String, Object> source = new HashMap<>(Map.of("_index", "pages", "_id", "1"));
            Outcome missing = run(processor(client, windows, Map.of()), new IngestDocument(new HashMap<>(source), new HashMap<>()));
            assertThat(missing.error.get().getMessage(), containsString("field [simhash] is missing"));
            Outcome ignored = run(
                processor(client, windows, Map.of("ignore_missing", true)),
                new IngestDocument(new HashMap<>(source), new HashMap<>())
            );
            assertNull(ignored.error.get());
            assertNotNull(ignored.doc.get());
            assertTrue(client.searches.isEmpty());
            for (Map<String, Object> bad : List.<Map<String, Object>>of(
                Map.of("on_duplicate", "delete"),
                Map.of("on_unavailable", "retry"),
                Map.of("max_distance", 17),
                Map.of("max_in_flight", 0),
                Map.of("timeout", "soon"),
                Map.of("window_size", -1),
                Map.of("max_queued", -1)
            )) {
                OpenSearchParseException e = expectThrows(OpenSearchParseException.class, () -> processor(client, windows, bad));
                assertThat(e.getMessage(), containsString("[" + bad.keySet().iterator().next() + "]"));
            }
        }
    }

    public void testWindowFindsTheClosestWithinKLikeBruteForce() {
        AtomicLong clock = new AtomicLong();
        int k = randomIntBetween(0, 6);
        int capacity = randomIntBetween(50, 400);
        RecentFingerprints window = new RecentFingerprints(k, capacity, 1000, clock::get);
        List<long[]> seen = new ArrayList<>(); // {fingerprint, time}
        long[] centers = new long[5];
        for (int i = 0; i < centers.length; i++)
            centers[i] = randomLong();
        for (int i = 0; i < 2000; i++) {
            clock.addAndGet(randomIntBetween(0, 3));
            long fp = randomBoolean()
                ? randomLong()
                : SimHashQueryTests.flipBits(centers[randomIntBetween(0, 4)], randomIntBetween(0, k + 3));
            int expected = Integer.MAX_VALUE;
            for (int j = Math.max(0, seen.size() - capacity); j < seen.size(); j++) {
                long[] s = seen.get(j);
                if (clock.get() - s[1] <= 1000) {
                    int d = Fingerprints.distance(fp, s[0]);
                    if (d <= k) expected = Math.min(expected, d);
                }
            }
            RecentFingerprints.Result r = window.checkAndAdd(fp, "d" + i);
            assertEquals(expected == Integer.MAX_VALUE ? -1 : expected, r.match() == null ? -1 : r.match().distance());
            seen.add(new long[] { fp, clock.get() });
            assertTrue(window.size() <= capacity);
        }
        // the same id is never its own match
        RecentFingerprints w = new RecentFingerprints(3, 10, 1000, clock::get);
        w.checkAndAdd(7L, "x");
        assertNull(w.checkAndAdd(7L, "x").match());
        assertEquals(0, w.checkAndAdd(7L, null).match().distance());
    }

    public void testTimeValueOption() {
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = processor(client, new RecentFingerprints.Registry(() -> 0L), Map.of("timeout", "150ms"));
            run(p, doc("a", 5L));
            assertEquals(TimeValue.timeValueMillis(150), client.searches.get(0).source().timeout());
        }
    }

    /**
     * Copies in one bulk request are caught whatever the bulk's size and window_size: the batch's bulk set compares every
     * document with every earlier one (here window_size 50, 600 documents, copies 300 apart; and window_size 0).
     */
    public void testCopiesInOneBulkAreCaughtBeyondTheWindow() {
        for (int windowSize : new int[] { 50, 0 }) {
            try (PendingClient client = new PendingClient(getTestName())) {
                SimHashCheckProcessor p = processor(
                    client,
                    new RecentFingerprints.Registry(() -> 0L),
                    Map.of("window_size", windowSize, "on_unavailable", "tag", "max_distance", 3)
                );
                List<IngestDocument> docs = new ArrayList<>();
                long[] fps = new long[300];
                for (int i = 0; i < 300; i++) {
                    fps[i] = randomLong();
                    docs.add(doc("o" + i, fps[i]));
                }
                for (int i = 0; i < 300; i++) {
                    docs.add(doc("c" + i, SimHashQueryTests.flipBits(fps[i], randomIntBetween(0, 2))));
                }
                List<IngestDocumentWrapper> results = runBatch(p, docs, () -> answerEmpty(client));
                int caught = 0;
                for (int i = 300; i < 600; i++) {
                    Map<?, ?> r = result(results.get(i).getIngestDocument());
                    if ("duplicate".equals(r.get("status")) && ("o" + (i - 300)).equals(r.get("_id"))) {
                        assertEquals("recent", r.get("source"));
                        caught++;
                    }
                }
                // random originals are more than 6 bits apart (2^-40 odds otherwise): each copy finds its own
                assertEquals("window_size " + windowSize, 300, caught);
                for (int i = 0; i < 300; i++) {
                    Map<?, ?> r = result(results.get(i).getIngestDocument());
                    assertEquals(r.toString(), "unique", r.get("status"));
                }
            }
        }
    }

    /** A bulk set the breaker cannot hold: what it could not compare exhaustively is unchecked, never unique. */
    public void testBulkSetOverflowIsUncheckedAndReleased() {
        AtomicLong used = new AtomicLong();
        long limit = 3 * RecentFingerprints.entryBytes(3, "d0");
        CircuitBreaker breaker = new NoopCircuitBreaker("near_duplicate") {
            @Override
            public double addEstimateBytesAndMaybeBreak(long bytes, String label) {
                if (used.get() + bytes > limit) {
                    throw new CircuitBreakingException("too much", bytes, limit, Durability.TRANSIENT);
                }
                return used.addAndGet(bytes);
            }

            @Override
            public long addWithoutBreaking(long bytes) {
                return used.addAndGet(bytes);
            }
        };
        try (PendingClient client = new PendingClient(getTestName())) {
            RecentFingerprints.Registry windows = new RecentFingerprints.Registry(
                () -> 0L,
                Long.MAX_VALUE,
                new WindowMemory(() -> breaker)
            );
            Map<String, Object> options = Map.of("window_size", 0, "on_unavailable", "tag", "max_distance", 3);
            SimHashCheckProcessor p = processor(client, windows, options);
            long base = randomLong();
            List<IngestDocument> docs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                docs.add(doc("d" + i, i == 2 ? base : randomLong()));
            }
            docs.add(doc("d8", base)); // a copy of d2, which the set kept
            List<IngestDocumentWrapper> results = runBatch(p, docs, () -> answerEmpty(client));
            // d0..d2 kept; d3 refused (its own check was still exhaustive); from d4 on nothing is certain
            for (int i = 0; i < 4; i++) {
                assertEquals("d" + i, "unique", result(results.get(i).getIngestDocument()).get("status"));
            }
            for (int i = 4; i < 8; i++) {
                Map<?, ?> r = result(results.get(i).getIngestDocument());
                assertEquals("d" + i, "unchecked", r.get("status"));
                assertThat((String) r.get("reason"), containsString("could not all be compared with each other"));
            }
            Map<?, ?> copy = result(results.get(8).getIngestDocument());
            assertEquals("duplicate", copy.get("status"));
            assertEquals("d2", copy.get("_id"));
            assertEquals("the bulk set gave its memory back", 0, used.get());

            // on_unavailable fail: a 429, not a 500
            SimHashCheckProcessor fail = processor(client, windows, Map.of("window_size", 0, "max_distance", 3, "index", "other"));
            List<IngestDocument> more = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                more.add(doc("f" + i, randomLong()));
            }
            List<IngestDocumentWrapper> failed = runBatch(fail, more, () -> answerEmpty(client));
            OpenSearchStatusException e = (OpenSearchStatusException) failed.get(5).getException();
            assertEquals(RestStatus.TOO_MANY_REQUESTS, e.status());
            assertEquals(0, used.get());
        }
    }

    /**
     * A document the window let go of before it may be searchable (checked less than refresh_interval + 1 s ago)
     * leaves a gap: a check that finds nothing meanwhile is unchecked. After the gap, unique again.
     */
    public void testWindowGapIsUncheckedNotUnique() {
        AtomicLong clock = new AtomicLong();
        try (PendingClient client = new PendingClient(getTestName())) {
            RecentFingerprints.Registry windows = new RecentFingerprints.Registry(clock::get);
            SimHashCheckProcessor p = processor(
                client,
                windows,
                target(Set.of(), false, 30_000),
                Map.of("window_size", 2, "window_ttl", "10s", "on_unavailable", "tag")
            );
            // one bulk request of 3 distinct documents through a window of 2: the first is let go of during the bulk
            long original = randomLong();
            List<IngestDocument> first = List.of(doc("a", original), doc("b", randomLong()), doc("c", randomLong()));
            for (IngestDocumentWrapper w : runBatch(p, first, () -> answerEmpty(client))) {
                assertEquals("unique", result(w.getIngestDocument()).get("status"));
            }
            // a later bulk: "a" left the window 1 s after its check, the index refreshes every 30 s: a copy of it may be
            // missed by both, so a document without a match is unchecked (and a copy of "a" is at least not unique)
            clock.addAndGet(1_000);
            List<IngestDocumentWrapper> second = runBatch(
                p,
                List.of(doc("copy", original), doc("other", randomLong())),
                () -> answerEmpty(client)
            );
            for (IngestDocumentWrapper w : second) {
                Map<?, ?> r = result(w.getIngestDocument());
                assertEquals(r.toString(), "unchecked", r.get("status"));
                assertThat((String) r.get("reason"), containsString("the search may not see documents this node checked recently"));
            }
            // refresh_interval (30 s) and the 1 s margin after the last documents let go of were checked, the search sees them
            clock.set(32_001); // the second bulk (checked at 1 s) expired from the window (window_ttl 10 s) before its gap ended
            Outcome later = run(p, doc("later", randomLong()));
            answerEmpty(client);
            assertEquals("unique", result(later.doc.get()).get("status"));

            // on_unavailable fail: the search ran, so the gap is still a tag (a bulk load with refresh off keeps its documents)
            SimHashCheckProcessor fail = processor(client, windows, target(Set.of(), false, -1), Map.of("window_size", 0));
            run(fail, doc("x", randomLong()));
            answerEmpty(client);
            clock.addAndGet(3_600_000);
            Outcome y = run(fail, doc("y", randomLong()));
            answerEmpty(client);
            assertNull(y.error.get());
            Map<?, ?> stale = result(y.doc.get());
            assertEquals("unchecked", stale.get("status"));
            assertThat((String) stale.get("reason"), containsString("never: refresh_interval of [pages] is -1"));
        }
    }

    /** The search carries the fingerprint's algorithm; a target mapped with another one is never compared. */
    public void testAlgorithmIsSentAndAnotherAlgorithmIsNeverCompared() {
        try (PendingClient client = new PendingClient(getTestName())) {
            RecentFingerprints.Registry windows = new RecentFingerprints.Registry(() -> 0L);
            SimHashCheckProcessor p = processor(
                client,
                windows,
                target(Set.of("simhash-v1:a"), false, 1_000),
                Map.of("on_unavailable", "tag")
            );
            Outcome same = run(p, doc("a", 42L, "simhash-v1:a"));
            assertEquals(1, client.searches.size());
            assertThat(client.searches.get(0).source().toString(), containsString("simhash-v1:a"));
            answerEmpty(client);
            assertEquals("unique", result(same.doc.get()).get("status"));

            Outcome other = run(p, doc("b", 42L, "simhash-v3:b"));
            assertEquals("no search for a target of another algorithm", 1, client.searches.size());
            Map<?, ?> r = result(other.doc.get());
            assertEquals("unchecked", r.get("status"));
            assertThat((String) r.get("reason"), containsString("made with algorithm [simhash-v3:b]"));
            assertThat((String) r.get("reason"), containsString("is mapped with algorithm [simhash-v1:a]"));

            // the windows are per algorithm: the same fingerprint made by another algorithm is not a recent match
            SimHashCheckProcessor unknownTarget = processor(client, windows, Map.of("on_unavailable", "tag", "index", "new"));
            run(unknownTarget, doc("c", 7L, "simhash-v1:a"));
            Outcome d = run(unknownTarget, doc("d", 7L, "simhash-v3:b"));
            Outcome e = run(unknownTarget, doc("e", 7L, "simhash-v1:a"));
            answerEmpty(client);
            assertEquals("unique", result(d.doc.get()).get("status"));
            assertEquals("duplicate", result(e.doc.get()).get("status"));
            assertEquals("c", result(e.doc.get()).get("_id"));
            // and so is a bulk request's set
            List<IngestDocumentWrapper> bulk = runBatch(
                unknownTarget,
                List.of(doc("f", ~7L, "simhash-v1:a"), doc("g", ~7L, "simhash-v3:b")),
                () -> answerEmpty(client)
            );
            assertEquals("unique", result(bulk.get(1).getIngestDocument()).get("status"));

            SimHashCheckProcessor fail = processor(client, windows, target(Set.of("simhash-v1:a"), false, 1_000), Map.of());
            Outcome refused = run(fail, doc("h", 1L, "simhash-v3:b"));
            assertEquals(RestStatus.BAD_REQUEST, ((OpenSearchStatusException) refused.error.get()).status());
        }
    }

    /** A closed target: unchecked with on_unavailable tag, a 400 (not a 500) with fail; no search is sent. */
    public void testClosedTargetIsUncheckedOrA400() {
        try (PendingClient client = new PendingClient(getTestName())) {
            RecentFingerprints.Registry windows = new RecentFingerprints.Registry(() -> 0L);
            Outcome tagged = run(processor(client, windows, target(Set.of(), true, 1_000), Map.of("on_unavailable", "tag")), doc("a", 5L));
            Map<?, ?> r = result(tagged.doc.get());
            assertEquals("unchecked", r.get("status"));
            assertEquals("target index [pages] is closed", r.get("reason"));
            Outcome failed = run(processor(client, windows, target(Set.of(), true, 1_000), Map.of()), doc("b", ~5L));
            OpenSearchStatusException e = (OpenSearchStatusException) failed.error.get();
            assertEquals(RestStatus.BAD_REQUEST, e.status());
            assertThat(e.getMessage(), containsString("could not check for near-duplicates: target index [pages] is closed"));
            assertTrue(client.searches.isEmpty());
        }
    }

    private static final String V4 = SimHashSettings.DEFAULT.algorithmId();
    private static final double MIN = SimHashSettings.DEFAULT.recommendedMinSimilarity();
    /** Three signatures: A and NEAR_A agree (Jaccard 7/9), OTHER agrees with neither. */
    private static final byte[] SIG_A = Signature.of(1, 2, 3, 4, 5, 6, 7, 8);
    private static final byte[] SIG_NEAR_A = Signature.of(1, 2, 3, 4, 5, 6, 7, 9);
    private static final byte[] SIG_OTHER = Signature.of(101, 102, 103, 104, 105, 106, 107, 108);

    /** A document as the simhash processor of simhash-v4 writes it: fingerprint, signature and algorithm. */
    private static IngestDocument signedDoc(String id, SimHash sketch) {
        Map<String, Object> value = new HashMap<>();
        value.put("fingerprint", Fingerprints.toHex(sketch.fingerprint()));
        if (sketch.signature() != null) value.put("signature", Signature.toHex(sketch.signature()));
        value.put("algorithm", V4);
        Map<String, Object> source = new HashMap<>();
        source.put("_index", "pages");
        source.put("_id", id);
        source.put("simhash", value);
        return new IngestDocument(source, new HashMap<>());
    }

    private static IngestDocument signedDoc(String id, long fp, byte[] signature) {
        return signedDoc(id, new SimHash(fp, signature));
    }

    /** An index hit: the fingerprint as the docvalue field, and (unless {@code withSource} is false) its simhash object. */
    private static SearchHit hit(String id, long fp, byte[] signature, boolean withSource) {
        SearchHit hit = new SearchHit(0, id, Map.of("simhash", new DocumentField("simhash", List.of(Fingerprints.toHex(fp)))), Map.of());
        if (withSource) {
            String sig = signature == null ? "" : ", \"signature\": \"" + Signature.toHex(signature) + "\"";
            hit.sourceRef(new BytesArray("{\"simhash\": {\"fingerprint\": \"" + Fingerprints.toHex(fp) + "\"" + sig + "}}"));
        } else {
            hit.sourceRef(new BytesArray("{}"));
        }
        return hit;
    }

    /** Answers the pending search {@code i} with {@code hits}. */
    @SuppressWarnings("unchecked")
    private static void answer(PendingClient client, int i, SearchHit... hits) {
        ActionListener<SearchResponse> l = (ActionListener<SearchResponse>) client.listeners.get(i);
        client.listeners.set(i, null);
        SearchHits searchHits = new SearchHits(hits, null, 1f);
        InternalSearchResponse internal = new InternalSearchResponse(searchHits, null, null, null, false, null, 1);
        l.onResponse(new SearchResponse(internal, null, 1, 1, 0, 1, ShardSearchFailure.EMPTY_ARRAY, SearchResponse.Clusters.EMPTY));
    }

    private static void assertStatus(String expected, IngestDocument doc) {
        Map<?, ?> r = result(doc);
        assertEquals(r.toString(), expected, r.get("status"));
    }

    /**
     * (a) Two documents within k whose signatures disagree are both unique, through the recent window and through one
     * bulk request's set; a third whose signature agrees with the first is its duplicate; a bare fingerprint is
     * compared on its fingerprint alone.
     */
    public void testWindowAndBulkSetVerifySignatures() {
        assertTrue(Signature.similarity(SIG_A, SIG_OTHER) < MIN);
        assertTrue(Signature.similarity(SIG_A, SIG_NEAR_A) >= MIN);
        long fp = randomLong();
        try (PendingClient client = new PendingClient(getTestName())) {
            // the window: one document at a time (default k: 16, simhash-v4's)
            SimHashCheckProcessor p = processor(client, new RecentFingerprints.Registry(() -> 0L), Map.of("on_unavailable", "tag"));
            Outcome a = run(p, signedDoc("a", fp, SIG_A));
            answerEmpty(client);
            Outcome b = run(p, signedDoc("b", fp ^ 1, SIG_OTHER));
            answerEmpty(client);
            assertStatus("unique", a.doc.get());
            assertStatus("unique", b.doc.get());
            Outcome c = run(p, signedDoc("c", fp ^ 0b110, SIG_NEAR_A));
            answerEmpty(client);
            Map<?, ?> rc = result(c.doc.get());
            assertEquals("duplicate", rc.get("status"));
            assertEquals("a", rc.get("_id"));
            assertEquals("recent", rc.get("source"));
            assertEquals(2, rc.get("distance"));
            Outcome bare = run(p, signedDoc("bare", fp ^ 1, null));
            answerEmpty(client);
            assertEquals("b", result(bare.doc.get()).get("_id")); // distance 0 to b, no signature to disagree

            // the bulk set: one bulk request, window_size 0
            SimHashCheckProcessor q = batchOnlyProcessor(client);
            List<IngestDocumentWrapper> bulk = runBatch(
                q,
                List.of(signedDoc("a", fp, SIG_A), signedDoc("b", fp ^ 1, SIG_OTHER), signedDoc("c", fp ^ 0b110, SIG_NEAR_A)),
                () -> answerEmpty(client)
            );
            assertStatus("unique", bulk.get(0).getIngestDocument());
            assertStatus("unique", bulk.get(1).getIngestDocument());
            Map<?, ?> rbc = result(bulk.get(2).getIngestDocument());
            assertEquals("duplicate", rbc.get("status"));
            assertEquals("a", rbc.get("_id"));
        }
    }

    /** (b) A real near-duplicate (a few words changed) is still a duplicate, in the window and within one bulk request. */
    public void testARealNearDuplicateIsStillADuplicate() {
        String text = "The city council voted on Tuesday to extend the harbor ferry service through the winter months, "
            + "after a season in which ridership rose sharply and the old bridge was closed for repairs. The mayor said "
            + "the additional crossings would be paid for from the transport budget, and that the schedule would be "
            + "published next week. Residents of the northern districts had asked for later evening departures, and the "
            + "operator agreed to add two sailings after nine o'clock on weekdays. Critics argued that the money would "
            + "be better spent on the bus network, which serves far more people each day than the ferries do.";
        String edited = text.replace("Tuesday", "Wednesday").replace("two sailings", "three sailings").replace("next week", "this week");
        String unrelated = "A small bakery on the corner of the market square has won a regional prize for its rye bread, "
            + "made with a sourdough starter that the owner's grandmother brought from the mountains sixty years ago. "
            + "The judges praised the crust and the slightly sour taste, and the queue outside the shop now starts before "
            + "dawn. The owner plans to train two apprentices so that the recipe is not lost when she retires.";
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        SimHash original = hasher.sketch(text), copy = hasher.sketch(edited), other = hasher.sketch(unrelated);
        assertNotNull(original.signature());
        int distance = Fingerprints.distance(original.fingerprint(), copy.fingerprint());
        assertTrue("distance " + distance, distance <= 16);
        assertTrue(
            "similarity " + Signature.similarity(original.signature(), copy.signature()),
            Signature.similarity(original.signature(), copy.signature()) >= MIN
        );
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = processor(client, new RecentFingerprints.Registry(() -> 0L), Map.of("on_unavailable", "tag"));
            Outcome first = run(p, signedDoc("original", original));
            answerEmpty(client);
            Outcome second = run(p, signedDoc("edited", copy));
            answerEmpty(client);
            Outcome third = run(p, signedDoc("unrelated", other));
            answerEmpty(client);
            assertStatus("unique", first.doc.get());
            Map<?, ?> r = result(second.doc.get());
            assertEquals("duplicate", r.get("status"));
            assertEquals("original", r.get("_id"));
            assertEquals(distance, r.get("distance"));
            assertStatus("unique", third.doc.get());
            // the probe carries the signature (the query verifies the index's hits)
            assertThat(client.searches.get(1).source().toString(), containsString(Signature.toHex(copy.signature())));

            SimHashCheckProcessor q = batchOnlyProcessor(client);
            List<IngestDocumentWrapper> bulk = runBatch(
                q,
                List.of(signedDoc("original", original), signedDoc("unrelated", other), signedDoc("edited", copy)),
                () -> answerEmpty(client)
            );
            assertStatus("unique", bulk.get(0).getIngestDocument());
            assertStatus("unique", bulk.get(1).getIngestDocument());
            assertEquals("original", result(bulk.get(2).getIngestDocument()).get("_id"));
        }
    }

    /**
     * (c) One batched search for two documents: the index hit H is within k of both, its signature agrees with A's and
     * not with B's. H matched A's probe; B takes it only if its own signature agrees: A is a duplicate, B unique.
     */
    public void testABatchHitOfAnotherDocumentIsVerifiedAgainstEachKey() {
        long h = randomLong();
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = batchOnlyProcessor(client);
            // A and B are 3 bits apart and their signatures disagree: the bulk set does not pair them either
            List<IngestDocumentWrapper> results = runBatch(
                p,
                List.of(signedDoc("A", h ^ 1, SIG_NEAR_A), signedDoc("B", h ^ 0b1100, SIG_OTHER)),
                () -> {
                    assertEquals("one search for both", 1, client.searches.size());
                    String request = client.searches.get(0).source().toString();
                    assertThat(request, containsString(Signature.toHex(SIG_NEAR_A)));
                    assertThat(request, containsString(Signature.toHex(SIG_OTHER)));
                    assertThat("the hits' simhash objects are fetched", request, containsString("\"includes\":[\"simhash\"]"));
                    answer(client, 0, hit("H", h, SIG_A, true));
                }
            );
            Map<?, ?> a = result(results.get(0).getIngestDocument());
            assertEquals("duplicate", a.get("status"));
            assertEquals("H", a.get("_id"));
            assertEquals("index", a.get("source"));
            assertEquals(1, a.get("distance"));
            assertStatus("unique", results.get(1).getIngestDocument());

            // a hit without signature (a bare fingerprint) is compared on its fingerprint alone, for every key (a new
            // window each time: the window_size 0 of the earlier bulks leaves a gap)
            client.searches.clear();
            client.listeners.clear();
            p = batchOnlyProcessor(client);
            List<IngestDocumentWrapper> bare = runBatch(
                p,
                List.of(signedDoc("A2", h ^ 1, SIG_NEAR_A), signedDoc("B2", h ^ 0b1100, SIG_OTHER)),
                () -> answer(client, 0, hit("H", h, null, true))
            );
            assertEquals("H", result(bare.get(0).getIngestDocument()).get("_id"));
            assertEquals("H", result(bare.get(1).getIngestDocument()).get("_id"));

            // the hit's signature cannot be read (its _source lacks the field): each document is looked up alone,
            // where the query verifies its hits against that document's signature
            client.searches.clear();
            client.listeners.clear();
            p = batchOnlyProcessor(client);
            List<IngestDocumentWrapper> unknown = runBatch(
                p,
                List.of(signedDoc("A3", h ^ 1, SIG_NEAR_A), signedDoc("B3", h ^ 0b1100, SIG_OTHER)),
                () -> {
                    answer(client, 0, hit("H", h, SIG_A, false));
                    assertEquals("looked up alone", 3, client.searches.size());
                    assertThat(
                        client.searches.get(1).source().toString(),
                        containsString("\"signature\":\"" + Signature.toHex(SIG_NEAR_A))
                    );
                    assertThat(client.searches.get(2).source().toString(), containsString("\"signature\":\"" + Signature.toHex(SIG_OTHER)));
                    answer(client, 1, hit("H", h, SIG_A, false)); // A's own search returned H: verified by the query
                    answer(client, 2); // B's did not
                }
            );
            assertEquals("H", result(unknown.get(0).getIngestDocument()).get("_id"));
            assertStatus("unique", unknown.get(1).getIngestDocument());
        }
    }

    /**
     * (d) A batch's hit within k of one probe of the batch only was verified by the query for that probe: it is taken
     * without reading its signature (a target with {@code _source} disabled), and no document is looked up again alone.
     */
    public void testAHitWithinKOfOneProbeOnlyIsVerifiedByTheQuery() {
        long h = randomLong();
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = batchOnlyProcessor(client);
            // C is 32 bits from H (and from A): only A's probe can have matched H
            List<IngestDocumentWrapper> results = runBatch(
                p,
                List.of(signedDoc("A", h ^ 1, SIG_NEAR_A), signedDoc("C", h ^ 0xFFFF_FFFFL, SIG_OTHER)),
                () -> answer(client, 0, hit("H", h, SIG_A, false))
            );
            assertEquals("one search, none alone", 1, client.searches.size());
            Map<?, ?> a = result(results.get(0).getIngestDocument());
            assertEquals("duplicate", a.get("status"));
            assertEquals("H", a.get("_id"));
            assertEquals(1, a.get("distance"));
            assertStatus("unique", results.get(1).getIngestDocument());
        }
    }

    /** A document written to {@code index} ({@code null}: no {@code _index}), with a bare fingerprint. */
    private static IngestDocument docIn(String index, String id, long fp) {
        Map<String, Object> source = new HashMap<>();
        if (index != null) source.put("_index", index);
        source.put("_id", id);
        source.put("simhash", Map.of("fingerprint", Fingerprints.toHex(fp), "algorithm", "x"));
        return new IngestDocument(source, new HashMap<>());
    }

    /** An index hit of {@code index} (its shard says where it was found), with a bare fingerprint. */
    private static SearchHit hitIn(String index, String id, long fp) {
        SearchHit hit = hit(id, fp, null, true);
        hit.shard(new SearchShardTarget("node", new ShardId(index, "_na_", 0), null, OriginalIndices.NONE));
        return hit;
    }

    /**
     * A document checked against a target it is not written to: the target's document with the same _id is another
     * document, not an earlier version of this one (the first document "1" of a new index was called unique although
     * the target held "1", an exact copy), while the document itself, in its own index, is still never its own duplicate.
     */
    public void testTheSameIdInAnotherIndexIsAnotherDocument() {
        long fp = randomLong();
        long own = fp ^ 0xFFFF_FFFF_0000_0000L;
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = processor(
                client,
                new RecentFingerprints.Registry(() -> 0L),
                Map.of("index", "pages", "on_unavailable", "tag")
            );
            Outcome copy = run(p, docIn("copies", "1", fp));
            // the search leaves out "1" of the document's own index only
            assertThat(client.searches.get(0).source().toString(), containsString("\"_index\":{\"value\":\"copies\""));
            answer(client, 0, hitIn("pages", "1", fp));
            Map<?, ?> r = result(copy.doc.get());
            assertEquals(r.toString(), "duplicate", r.get("status"));
            assertEquals("1", r.get("_id"));
            assertEquals("pages", r.get("_index"));
            assertEquals("index", r.get("source"));
            assertEquals(0, r.get("distance"));

            // the document itself (re-indexed into the target) is not its own duplicate
            Outcome self = run(p, docIn("pages", "7", own));
            answer(client, 1, hitIn("pages", "7", own));
            assertStatus("unique", self.doc.get());

            // in one batch: each document takes the other index's "1", not its own hit
            List<IngestDocumentWrapper> batch = runBatch(
                p,
                List.of(docIn("copies", "1", ~fp), docIn("copies", "2", ~own)),
                () -> answer(client, 2, hitIn("pages", "1", ~fp), hitIn("copies", "2", ~own))
            );
            Map<?, ?> b = result(batch.get(0).getIngestDocument());
            assertEquals(b.toString(), "duplicate", b.get("status"));
            assertEquals("pages", b.get("_index"));
            assertEquals("index", b.get("source"));
            assertStatus("unique", batch.get(1).getIngestDocument());
        }
    }

    /**
     * A match of the recent window names the index its document was written to, not the check's target; a document
     * whose index is not known claims none. The same _id written to another index is another document there too.
     */
    public void testARecentMatchNamesTheIndexItsDocumentWasWrittenTo() {
        long fp = randomLong();
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = processor(
                client,
                new RecentFingerprints.Registry(() -> 0L),
                Map.of("index", "pages", "on_unavailable", "tag")
            );
            Outcome first = run(p, docIn("copies", "2", fp));
            answerEmpty(client);
            assertStatus("unique", first.doc.get());
            Outcome second = run(p, docIn("more", "1", fp ^ 1));
            answerEmpty(client);
            Map<?, ?> r = result(second.doc.get());
            assertEquals(r.toString(), "duplicate", r.get("status"));
            assertEquals("2", r.get("_id"));
            assertEquals("copies", r.get("_index"));
            assertEquals("recent", r.get("source"));
            assertEquals(1, r.get("distance"));

            // "2" of another index: not the window's "copies/2"'s earlier version, its duplicate
            Outcome sameId = run(p, docIn("others", "2", fp));
            answerEmpty(client);
            Map<?, ?> s = result(sameId.doc.get());
            assertEquals(s.toString(), "duplicate", s.get("status"));
            assertEquals("copies", s.get("_index"));
            assertEquals(0, s.get("distance"));

            // the same in one bulk request (the bulk set), window_size 0
            SimHashCheckProcessor q = processor(
                client,
                new RecentFingerprints.Registry(() -> 0L),
                Map.of("index", "pages", "on_unavailable", "tag", "window_size", 0)
            );
            List<IngestDocumentWrapper> bulk = runBatch(
                q,
                List.of(docIn("copies", "5", ~fp), docIn("others", "5", ~fp)),
                () -> answerEmpty(client)
            );
            Map<?, ?> b = result(bulk.get(1).getIngestDocument());
            assertEquals(b.toString(), "duplicate", b.get("status"));
            assertEquals("5", b.get("_id"));
            assertEquals("copies", b.get("_index"));

            // a document without _index: its copies name no index
            long other = fp ^ 0xFFFF_FFFF_0000_0000L;
            Outcome unknown = run(p, docIn(null, "9", other));
            answerEmpty(client);
            Outcome copyOfUnknown = run(p, docIn("copies", "10", other));
            answerEmpty(client);
            Map<?, ?> u = result(copyOfUnknown.doc.get());
            assertEquals(u.toString(), "duplicate", u.get("status"));
            assertEquals("9", u.get("_id"));
            assertFalse(u.toString(), u.containsKey("_index"));
        }
    }

    /**
     * By default each lookup first waits for the target's shard copies to make their writes searchable, then searches;
     * a wait that fails (e.g. the refresh did not come within the timeout) sends no search and the document is
     * unchecked with the wait's reason, never unique. {@code wait_for_refresh: false} searches at once.
     */
    public void testLookupWaitsForTheTargetsRefreshFirst() {
        long fp = randomLong();
        try (PendingClient client = new PendingClient(getTestName())) {
            SimHashCheckProcessor p = processor(client, new RecentFingerprints.Registry(() -> 0L), Map.of("on_unavailable", "tag"));
            Outcome first = run(p, doc("a", fp));
            assertEquals(1, client.waits.size());
            assertArrayEquals(new String[] { "pages" }, client.waits.get(0).indices());
            assertEquals("5s", client.waits.get(0).timeout().getStringRep());
            assertEquals("the search follows the wait", 1, client.searches.size());
            answerEmpty(client);
            assertStatus("unique", first.doc.get());

            client.waitFailure = new IllegalStateException("the latest writes of [pages][0] were not searchable within 5s");
            Outcome second = run(p, doc("b", ~fp));
            assertEquals("no search without the wait", 1, client.searches.size());
            Map<?, ?> r = result(second.doc.get());
            assertEquals("unchecked", r.get("status"));
            assertThat((String) r.get("reason"), containsString("were not searchable within 5s"));

            SimHashCheckProcessor noWait = processor(
                client,
                new RecentFingerprints.Registry(() -> 0L),
                Map.of("on_unavailable", "tag", "wait_for_refresh", false)
            );
            Outcome third = run(noWait, doc("c", fp ^ 0xFF00FF00L));
            assertEquals("no wait asked", 2, client.waits.size());
            assertEquals(2, client.searches.size());
            answerEmpty(client);
            assertStatus("unique", third.doc.get());
        }
    }
}
