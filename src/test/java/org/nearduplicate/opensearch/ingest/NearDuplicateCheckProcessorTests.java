package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.lucene.NearDuplicateQueryTests;
import org.nearduplicate.core.sketch.Fingerprints;
import org.opensearch.OpenSearchParseException;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionType;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;
import org.opensearch.test.OpenSearchTestCase;
import org.opensearch.test.client.NoOpClient;
import org.opensearch.threadpool.Scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import static org.hamcrest.Matchers.containsString;

/** Options, timeouts, the in-flight cap, and the recent window against brute force. */
public class NearDuplicateCheckProcessorTests extends OpenSearchTestCase {

    /** A client whose searches never answer (they are kept for inspection). */
    private static final class PendingClient extends NoOpClient {
        final List<SearchRequest> searches = new ArrayList<>();
        final List<ActionListener<?>> listeners = new ArrayList<>();

        PendingClient(String name) {
            super(name);
        }

        @Override
        protected <Request extends ActionRequest, Response extends ActionResponse> void doExecute(
            ActionType<Response> action,
            Request request,
            ActionListener<Response> listener
        ) {
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

    private NearDuplicateCheckProcessor processor(PendingClient client, RecentFingerprints.Registry windows, Map<String, Object> options) {
        Processor.Parameters parameters = new Processor.Parameters(null, null, null, null, () -> 0L, scheduler, null, client, Runnable::run, null);
        return new NearDuplicateCheckProcessor.Factory(parameters, windows).create(Map.of(), "t", null, new HashMap<>(options));
    }

    private static IngestDocument doc(String id, long fp) {
        Map<String, Object> source = new HashMap<>();
        source.put("_index", "pages");
        source.put("_id", id);
        source.put("simhash", Map.of("fingerprint", Fingerprints.toHex(fp), "algorithm", "x"));
        return new IngestDocument(source, new HashMap<>());
    }

    private static final class Outcome {
        final AtomicReference<IngestDocument> doc = new AtomicReference<>();
        final AtomicReference<Exception> error = new AtomicReference<>();
        volatile boolean called;
    }

    private static Outcome run(NearDuplicateCheckProcessor p, IngestDocument d) {
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
            NearDuplicateCheckProcessor tag = processor(client, windows, Map.of("on_unavailable", "tag", "max_in_flight", 1, "max_queued", 0, "timeout", "2s"));
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

            NearDuplicateCheckProcessor fail = processor(client, windows, Map.of("max_in_flight", 1, "max_queued", 0, "index", "other"));
            run(fail, doc("d", 12345L));
            Outcome refused = run(fail, doc("e", 999_999_999L));
            assertNull(refused.doc.get());
            assertThat(refused.error.get().getMessage(), containsString("could not check for near-duplicates: too many lookups in flight"));
            assertEquals("other", client.searches.get(1).indices()[0]);
        }
    }

    public void testLookupsOverTheCapWaitInABoundedQueue() {
        try (PendingClient client = new PendingClient(getTestName())) {
            NearDuplicateCheckProcessor p = processor(client, new RecentFingerprints.Registry(() -> 0L),
                Map.of("max_in_flight", 1, "max_queued", 1, "on_unavailable", "tag", "max_distance", 3));
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
            assertThat((String) ((Map<?, ?>) a.doc.get().getSourceAndMetadata().get("near_duplicate")).get("reason"), containsString("boom"));
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
            Outcome ignored = run(processor(client, windows, Map.of("ignore_missing", true)), new IngestDocument(new HashMap<>(source), new HashMap<>()));
            assertNull(ignored.error.get());
            assertNotNull(ignored.doc.get());
            assertTrue(client.searches.isEmpty());
            for (Map<String, Object> bad : List.<Map<String, Object>>of(
                Map.of("on_duplicate", "delete"),
                Map.of("on_unavailable", "retry"),
                Map.of("max_distance", 16),
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
        for (int i = 0; i < centers.length; i++) centers[i] = randomLong();
        for (int i = 0; i < 2000; i++) {
            clock.addAndGet(randomIntBetween(0, 3));
            long fp = randomBoolean() ? randomLong() : NearDuplicateQueryTests.flipBits(centers[randomIntBetween(0, 4)], randomIntBetween(0, k + 3));
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
            NearDuplicateCheckProcessor p = processor(client, new RecentFingerprints.Registry(() -> 0L), Map.of("timeout", "150ms"));
            run(p, doc("a", 5L));
            assertEquals(TimeValue.timeValueMillis(150), client.searches.get(0).source().timeout());
        }
    }
}
