package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.nearduplicate.PlatformTestCase;

/** The write-back's batches: at most so many in flight, every item once, and one caller told that a phase is over. */
public class PhasedBatchesTests extends PlatformTestCase {

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    public void testHandsOutBatchesUpToTheLimitAndEndsThePhaseOnce() {
        PhasedBatches<Integer> batches = new PhasedBatches<>(2, range(0, 10).iterator());
        PhasedBatches.Take<Integer> take = batches.take(3, false);
        assertEquals(List.of(range(0, 3), range(3, 6)), take.batches());
        assertFalse(take.phaseOver());
        // both in flight: nothing more, and the phase is not over while they are out
        take = batches.take(3, false);
        assertEquals(List.of(), take.batches());
        assertFalse(take.phaseOver());
        batches.answered();
        assertEquals(List.of(range(6, 9)), batches.take(3, false).batches());
        batches.answered();
        assertEquals(List.of(range(9, 10)), batches.take(3, false).batches());
        batches.answered();
        assertFalse("one batch still out", batches.take(3, false).phaseOver());
        batches.answered();
        assertEquals(0, batches.inFlight());
        assertTrue(batches.take(3, false).phaseOver());
        // told once
        assertFalse(batches.take(3, false).phaseOver());
        // the next phase, throttled: one batch at a time
        batches.startPhase(range(10, 14).iterator());
        assertEquals(List.of(range(10, 12)), batches.take(2, true).batches());
        assertEquals(List.of(), batches.take(2, true).batches());
        batches.answered();
        assertEquals(List.of(range(12, 14)), batches.take(2, true).batches());
        batches.answered();
        assertTrue(batches.take(2, true).phaseOver());
        // an empty phase is over at once
        batches.startPhase(Collections.emptyIterator());
        assertTrue(batches.take(2, false).phaseOver());
        expectThrows(IllegalStateException.class, batches::answered);
        expectThrows(IllegalArgumentException.class, () -> batches.take(0, false));
        expectThrows(IllegalArgumentException.class, () -> new PhasedBatches<>(0, range(0, 1).iterator()));
    }

    /**
     * Answers arrive on several threads at once, as bulk responses do: every item is handed out exactly once, at most
     * the limit is ever in flight, and each phase is reported over exactly once, after all its batches answered.
     */
    public void testConcurrentAnswersEndEachPhaseExactlyOnce() throws Exception {
        int maxInFlight = randomIntBetween(1, 4);
        int phases = randomIntBetween(5, 40);
        int[] sizes = new int[phases];
        for (int p = 0; p < phases; p++)
            sizes[p] = randomIntBetween(0, 300);
        int batchSize = randomIntBetween(1, 17);
        AtomicInteger phase = new AtomicInteger();
        int[] starts = new int[phases + 1];
        for (int p = 0; p < phases; p++)
            starts[p + 1] = starts[p] + sizes[p];
        PhasedBatches<Integer> batches = new PhasedBatches<>(maxInFlight, range(0, sizes[0]).iterator());
        BlockingQueue<List<Integer>> inFlight = new LinkedBlockingQueue<>();
        int[] seen = new int[starts[phases]];
        AtomicInteger overs = new AtomicInteger();
        AtomicInteger maxSeenInFlight = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        // what a writer does after each answer (and once at the start): take, send, or move to the next phase
        Runnable next = new Runnable() {
            @Override
            public void run() {
                PhasedBatches.Take<Integer> take = batches.take(batchSize, false);
                if (take.phaseOver()) {
                    overs.incrementAndGet();
                    int p = phase.get();
                    for (int item = starts[p]; item < starts[p + 1]; item++) {
                        synchronized (seen) {
                            if (seen[item] != 1) errors.add("phase " + p + " over with item " + item + " seen " + seen[item] + " times");
                        }
                    }
                    if (batches.inFlight() != 0) errors.add("phase " + p + " over with batches in flight");
                    if (phase.incrementAndGet() == phases) {
                        done.countDown();
                        return;
                    }
                    batches.startPhase(range(starts[p + 1], starts[p + 2]).iterator());
                    run();
                    return;
                }
                maxSeenInFlight.accumulateAndGet(batches.inFlight(), Math::max);
                for (List<Integer> batch : take.batches()) {
                    synchronized (seen) {
                        for (int item : batch)
                            seen[item]++;
                    }
                    inFlight.add(batch);
                }
            }
        };
        Thread[] answerers = new Thread[4];
        for (int t = 0; t < answerers.length; t++) {
            answerers[t] = new Thread(() -> {
                try {
                    while (done.getCount() > 0) {
                        List<Integer> batch = inFlight.poll(10, TimeUnit.MILLISECONDS);
                        if (batch == null) continue;
                        if (java.util.concurrent.ThreadLocalRandom.current().nextBoolean()) Thread.yield();
                        batches.answered();
                        next.run();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    errors.add(e.toString());
                }
            });
            answerers[t].start();
        }
        next.run();
        assertTrue("every phase ended", done.await(30, TimeUnit.SECONDS));
        for (Thread t : answerers)
            t.join();
        assertEquals(List.of(), errors);
        assertEquals(phases, overs.get());
        for (int item = 0; item < seen.length; item++)
            assertEquals("item " + item, 1, seen[item]);
        assertTrue(maxSeenInFlight.get() <= maxInFlight);
    }
}
