package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

import org.nearduplicate.PlatformTestCase;

/** The write-back over shards and a bulk sink in memory: what is written in which phase, throttling, failures. */
public class WriteBackTests extends PlatformTestCase {

    /** Answers every update at once: written, or noop for the ids in {@code noops}, or failed for those in {@code failing}. */
    static final class Sink implements BulkSink {
        final List<List<Update>> bulks = new ArrayList<>();
        List<String> noops = List.of();
        List<String> failing = List.of();
        boolean broken;

        @Override
        public void bulk(List<Update> updates, Listener<List<Item>> listener) {
            if (broken) {
                listener.onFailure(new IllegalStateException("bulk refused"));
                return;
            }
            bulks.add(updates);
            List<Item> items = new ArrayList<>();
            for (Update u : updates) {
                boolean failed = failing.contains(u.id());
                items.add(new Item(u.id(), failed, failed ? "mapping conflict" : null, noops.contains(u.id())));
            }
            listener.onResponse(items);
        }
    }

    /** Runs at once, counting the delays asked for. */
    static final class Immediate implements Delays {
        int scheduled;

        @Override
        public Scheduled schedule(Runnable command, long delayNanos) {
            scheduled++;
            command.run();
            return () -> false;
        }
    }

    private static FakeShards shards() {
        FakeShards shards = GroupingTests.twoShards();
        shards.shards.get(1).add(new FakeShards.Doc("old", 0, false, "x")); // no fingerprint, holds a group: cleared
        shards.shards.get(1).add(new FakeShards.Doc("f", 0x5555_0000_0000_0000L, true, "f")); // already its own group
        return shards;
    }

    private static FakeShards.Answered<WriteBack.Done> write(
        FakeShards shards,
        FakeShards.Task task,
        Sink sink,
        Delays delays,
        FakeShards.CountingBreaker breaker,
        int batchSize,
        float requestsPerSecond
    ) throws Exception {
        Grouping.Result result = GroupingTests.run(shards, new FakeShards.Task(), breaker);
        FakeShards.Answered<WriteBack.Done> answered = new FakeShards.Answered<>();
        new WriteBack(task, shards, sink, Runnable::run, delays, breaker, result, batchSize, requestsPerSecond, answered).start();
        assertEquals(1, answered.calls);
        assertEquals("the run gives back everything, the groups too", 0, breaker.used.get());
        return answered;
    }

    public void testWritesMembersThenSingletonsThenClears() throws Exception {
        FakeShards.Task task = new FakeShards.Task();
        Sink sink = new Sink();
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        FakeShards.Answered<WriteBack.Done> answered = write(shards(), task, sink, new Immediate(), breaker, 2, -1);
        assertNull(answered.failure);
        assertEquals(new WriteBack.Done(0, List.of()), answered.value);
        List<BulkSink.Update> all = sink.bulks.stream().flatMap(List::stream).toList();
        assertEquals(
            List.of(
                new BulkSink.Update("a", null, "a", 0),
                new BulkSink.Update("c", null, "a", 0),
                new BulkSink.Update("b", null, "a", 1),
                new BulkSink.Update("e", null, "e", 0),
                new BulkSink.Update("d", null, "d", 0),
                new BulkSink.Update("old", null, null, null)
            ),
            all
        );
        assertTrue("batches of at most 2", sink.bulks.stream().allMatch(b -> b.size() <= 2));
        WriteCounts counts = task.counts;
        assertEquals(1, counts.groups.get());
        assertEquals(3, counts.toWrite.get());
        assertEquals(3, counts.written.get());
        assertEquals(2, counts.singletons.get());
        assertEquals(1, counts.cleared.get());
        assertEquals(sink.bulks.size(), counts.batches.get());
        assertEquals(List.of("writing groups", "writing singletons", "clearing documents without a fingerprint"), task.phases);
    }

    public void testCountsNoopsAndReportsFailures() throws Exception {
        FakeShards.Task task = new FakeShards.Task();
        Sink sink = new Sink();
        sink.noops = List.of("c");
        sink.failing = List.of("b", "d");
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        FakeShards.Answered<WriteBack.Done> answered = write(shards(), task, sink, new Immediate(), breaker, 100, -1);
        assertEquals(new WriteBack.Done(2, List.of("[b]: mapping conflict", "[d]: mapping conflict")), answered.value);
        assertEquals(1, task.counts.written.get());
        assertEquals(1, task.counts.noops.get());
        assertEquals(2, task.counts.failures.get());
        assertEquals(1, task.counts.singletons.get());
    }

    public void testThrottledBatchesWaitOneAtATime() throws Exception {
        FakeShards.Task task = new FakeShards.Task();
        Immediate delays = new Immediate();
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        FakeShards.Answered<WriteBack.Done> answered = write(shards(), task, new Sink(), delays, breaker, 1, 0.001f);
        assertNull(answered.failure);
        assertEquals("every batch after the first waits", 5, delays.scheduled);
        assertTrue(task.counts.throttledMillis.get() > 0);
    }

    public void testAFailedBulkFailsTheWrite() throws Exception {
        Sink sink = new Sink();
        sink.broken = true;
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        FakeShards.Answered<WriteBack.Done> answered = write(shards(), new FakeShards.Task(), sink, new Immediate(), breaker, 10, -1);
        assertEquals("bulk refused", answered.failure.getMessage());
    }

    public void testCancellingStopsTheThrottleWait() throws Exception {
        FakeShards.Task task = new FakeShards.Task();
        List<Runnable> waiting = new ArrayList<>();
        Delays held = (command, delayNanos) -> {
            waiting.add(command);
            return () -> waiting.remove(command);
        };
        FakeShards shards = shards();
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        Grouping.Result result = GroupingTests.run(shards, new FakeShards.Task(), breaker);
        FakeShards.Answered<WriteBack.Done> answered = new FakeShards.Answered<>();
        Sink sink = new Sink();
        new WriteBack(task, shards, sink, Runnable::run, held, breaker, result, 1, 0.001f, answered).start();
        assertEquals(1, sink.bulks.size());
        assertEquals(1, waiting.size());
        assertEquals(0, answered.calls);
        task.cancel();
        assertEquals(List.of(), waiting);
        assertTrue(answered.failure instanceof CancellationException);
        assertEquals("near_duplicate groups write task cancelled: test", answered.failure.getMessage());
        assertEquals(0, breaker.used.get());
    }
}
