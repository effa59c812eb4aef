package org.nearduplicate.orchestration.check;

import org.junit.Test;

import java.util.Map;

import org.nearduplicate.orchestration.check.CheckFakes.Document;
import org.nearduplicate.orchestration.check.CheckFakes.Searches;
import org.nearduplicate.orchestration.check.CheckFakes.Timers;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

/** Documents that come one by one gather into a batch, whose searches go out when full or after their linger. */
public class StreamedBatchesTests {
    private final Searches searches = new Searches();
    private final Timers timers = new Timers();

    @Test
    public void testLookupsWaitForTheLingerAndShareASearch() throws InterruptedException {
        NearDuplicateCheck check = CheckFakes.check(Map.of("window_size", 0, "on_unavailable", "tag"), searches, timers);
        StreamedBatches batches = new StreamedBatches(check, null);
        Document first = new Document("first", 0xF0L), copy = new Document("copy", 0xF1L);
        batches.check(first);
        batches.check(copy);
        assertEquals("the searches wait", 0, searches.requests.size());
        Thread.sleep(StreamedBatches.SEARCH_LINGER_MILLIS + 1);
        timers.runAll();
        assertEquals(1, searches.requests.size());
        assertFalse(searches.requests.get(0).single());
        assertArrayEquals(new long[] { 0xF0L, 0xF1L }, searches.requests.get(0).fingerprints());
        searches.answer(0);
        assertEquals(Map.of("status", "unique"), first.result());
        assertEquals("first", copy.result().get("_id"));
        assertEquals("recent", copy.result().get("source"));
    }

    @Test
    public void testAFullSearchGoesOutAtOnce() {
        NearDuplicateCheck check = CheckFakes.check(Map.of("batch_size", 2), searches, timers);
        StreamedBatches batches = new StreamedBatches(check, null);
        batches.check(new Document("a", 1L));
        assertEquals(0, searches.requests.size());
        batches.check(new Document("b", 1L << 40));
        assertEquals(1, searches.requests.size());
        assertEquals(2, searches.requests.get(0).fingerprints().length);
    }

    @Test
    public void testWithoutTimersTheBatchClosesAndSendsAtOnce() {
        Scheduling refusing = new Scheduling() {
            @Override
            public Timer schedule(long delayMillis, Runnable task) {
                throw new IllegalStateException("closing");
            }

            @Override
            public String text(long millis) {
                return millis + "ms";
            }
        };
        NearDuplicateCheck check = new NearDuplicateCheck(
            CheckFakes.options(Map.of("on_unavailable", "tag")),
            (index, field) -> 3,
            new org.nearduplicate.core.window.RecentFingerprints.Registry(() -> 0L),
            null,
            searches,
            refusing
        );
        Document doc = new Document("a", 1L);
        new StreamedBatches(check, null).check(doc);
        assertEquals("the lookup could not be scheduled", "unchecked", doc.result().get("status"));
    }

    @Test
    public void testAnAnswerWhilePreparedWaitsForTheLock() {
        NearDuplicateCheck check = CheckFakes.check(Map.of(), searches, timers);
        Document missing = new Document("pages", "a");
        new StreamedBatches(check, null).check(missing);
        assertEquals(1, missing.answers);
        assertEquals("field [simhash] is missing, cannot check for near-duplicates", missing.failure.getMessage());
    }
}
