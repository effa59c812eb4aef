package org.nearduplicate.orchestration.check;

import org.junit.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/** The check's admission control alone: the in-flight cap, the bounded queue and the timeouts, without documents or searches. */
public class LookupAdmissionTests {

    /** Timers that fire when the test runs them; a cancelled one is removed. */
    private final List<Runnable> timers = new ArrayList<>();
    private final Scheduling scheduler = scheduling((delay, task) -> {
        timers.add(task);
        return () -> timers.remove(task);
    });

    /** Timers of {@code schedule}, printing durations in seconds. */
    private static Scheduling scheduling(BiFunction<Long, Runnable, Scheduling.Timer> schedule) {
        return new Scheduling() {
            @Override
            public Timer schedule(long delayMillis, Runnable task) {
                return schedule.apply(delayMillis, task);
            }

            @Override
            public String text(long millis) {
                return millis / 1000 + "s";
            }
        };
    }

    private static Scheduling.Timer timer(BooleanSupplier cancel) {
        return cancel::getAsBoolean;
    }

    private static TimeSpan seconds(int seconds) {
        return new TimeSpan(seconds + "s", seconds * 1000L, seconds + "s");
    }

    /** Records what admission did with it; answered (and so abandoned) once unavailable, as a document is. */
    private static class Recorder implements LookupAdmission.Task {
        final AtomicInteger starts = new AtomicInteger();
        volatile Scheduling.Timer timer;
        volatile Unavailable why;

        @Override
        public boolean abandoned() {
            return why != null;
        }

        @Override
        public void start(Scheduling.Timer timer) {
            this.timer = timer;
            starts.incrementAndGet();
        }

        @Override
        public void unavailable(Unavailable why) {
            this.why = why;
        }
    }

    @Test
    public void testCapThenQueueThenRefusal() {
        LookupAdmission admission = new LookupAdmission(2, 1, seconds(5), scheduler);
        Recorder a = new Recorder(), b = new Recorder(), c = new Recorder(), d = new Recorder();
        admission.admit(a);
        admission.admit(b);
        assertEquals(1, a.starts.get());
        assertEquals(1, b.starts.get());
        assertNotNull("started with its timer", a.timer);
        assertEquals(0, admission.available());

        admission.admit(c);
        assertEquals("c waits for a slot", 0, c.starts.get());
        assertEquals(1, admission.queued());
        assertNull(c.why);

        admission.admit(d);
        assertEquals(0, d.starts.get());
        assertEquals("too many lookups in flight (max_in_flight 2, max_queued 1)", d.why.reason());
        assertEquals(Unavailable.TOO_MANY_REQUESTS, d.why.status());
        assertTrue(d.why.mayFail());
        assertEquals("the refused task's timer is cancelled", 3, timers.size());

        admission.release(); // a answered: c takes its slot
        assertEquals(1, c.starts.get());
        assertEquals(0, admission.queued());
        assertEquals(0, admission.available());
        admission.release();
        admission.release();
        assertEquals(2, admission.available());
        assertEquals("started once", 1, a.starts.get());
        assertEquals(1, b.starts.get());
        assertEquals(1, c.starts.get());
    }

    @Test
    public void testTimeoutAnswersATaskAndItsSlotIsFreedOnlyByItsSearch() {
        LookupAdmission admission = new LookupAdmission(1, 1, seconds(2), scheduler);
        Recorder running = new Recorder(), waiting = new Recorder();
        admission.admit(running);
        admission.admit(waiting);
        assertEquals(2, timers.size());

        timers.get(0).run(); // the running search is too slow
        assertEquals("lookup timed out after 2s", running.why.reason());
        assertEquals(Unavailable.SERVICE_UNAVAILABLE, running.why.status());
        assertEquals("its search still holds the slot", 0, admission.available());

        timers.get(1).run(); // the queued one too, before it could start
        assertEquals("lookup timed out after 2s", waiting.why.reason());
        assertEquals(1, admission.queued());

        admission.release(); // the late answer of the first: the abandoned one is skipped, its slot given back
        assertEquals(0, waiting.starts.get());
        assertEquals(0, admission.queued());
        assertEquals(1, admission.available());
    }

    @Test
    public void testUnschedulableTaskIsAnsweredWithoutASlot() {
        LookupAdmission admission = new LookupAdmission(1, 0, seconds(1), scheduling((delay, task) -> {
            throw new IllegalStateException("no threads");
        }));
        Recorder task = new Recorder();
        admission.admit(task);
        assertEquals(0, task.starts.get());
        assertEquals("lookup could not be scheduled: no threads", task.why.reason());
        assertEquals(Unavailable.SERVICE_UNAVAILABLE, task.why.status());
        assertEquals(1, admission.available());
    }

    @Test
    public void testReadmittedTaskRunsUnderTheFirstTimerAndIsCapped() {
        LookupAdmission full = new LookupAdmission(1, 0, seconds(1), scheduler);
        full.admit(new Recorder());
        Recorder refused = new Recorder();
        full.readmit(refused);
        assertEquals(Unavailable.TOO_MANY_REQUESTS, refused.why.status());

        timers.clear();
        LookupAdmission admission = new LookupAdmission(1, 1, seconds(1), scheduler);
        admission.admit(new Recorder());
        Recorder again = new Recorder();
        admission.readmit(again);
        assertEquals(1, admission.queued());
        admission.release();
        assertEquals(1, again.starts.get());
        assertNull("no timer of its own", again.timer);
        assertEquals(1, timers.size());
        admission.release();
        assertEquals(1, admission.available());
    }

    /** Admitted and answered from several threads: never more than the cap at once, each task started or refused once, no slot lost. */
    @Test
    public void testConcurrentAdmissionKeepsTheCapAndLosesNoSlot() throws Exception {
        int maxInFlight = ThreadLocalRandom.current().nextInt(1, 5);
        int maxQueued = ThreadLocalRandom.current().nextInt(0, 9);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        ConcurrentLinkedQueue<Recorder> searching = new ConcurrentLinkedQueue<>();
        LookupAdmission admission = new LookupAdmission(maxInFlight, maxQueued, seconds(1), scheduling((d, t) -> timer(() -> true)));
        int threads = 4;
        int perThread = 500;
        List<Recorder> tasks = new ArrayList<>();
        for (int i = 0; i < threads * perThread; i++) {
            tasks.add(new Recorder() {
                @Override
                public void start(Scheduling.Timer timer) {
                    super.start(timer);
                    peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                    searching.add(this);
                }
            });
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Recorder> mine = tasks.subList(t * perThread, (t + 1) * perThread);
            Thread worker = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (Recorder task : mine) {
                    admission.admit(task);
                    answerOne(admission, searching, running);
                }
            });
            worker.start();
            workers.add(worker);
        }
        go.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        while (answerOne(admission, searching, running)) {
            // the searches still running answer, and the queued ones start and answer
        }
        assertEquals(0, admission.queued());
        assertEquals(maxInFlight, admission.available());
        assertTrue("at most " + maxInFlight + " at once, saw " + peak.get(), peak.get() <= maxInFlight);
        for (Recorder task : tasks) {
            if (task.why == null) {
                assertEquals(1, task.starts.get());
            } else {
                assertEquals(0, task.starts.get());
                assertEquals(Unavailable.TOO_MANY_REQUESTS, task.why.status());
            }
        }
    }

    /** Answers one running search, if any. */
    private static boolean answerOne(LookupAdmission admission, ConcurrentLinkedQueue<Recorder> searching, AtomicInteger running) {
        Recorder done = searching.poll();
        if (done == null) {
            return false;
        }
        running.decrementAndGet();
        admission.release();
        return true;
    }
}
