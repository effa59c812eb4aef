package org.nearduplicate.orchestration.check;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admission control of the {@code near_duplicate_check} searches: at most {@code max_in_flight} run at once, up to
 * {@code max_queued} more wait (first in, first out), and each has {@code timeout} to answer. What is refused, cannot
 * be scheduled or times out is answered without its search, so that a slow or overloaded cluster delays ingest by at
 * most the timeout and the searches it sends stay bounded. It knows nothing of documents or searches ({@link Task}), so that the
 * cap, the queue and the timer can be tested alone.
 */
final class LookupAdmission {

    /** Something admitted: one search for one or more documents. */
    interface Task {
        /** True when nothing is left to search for (every document was answered, e.g. timed out while queued). */
        boolean abandoned();

        /**
         * Starts the search, holding a slot that must be given back with {@link #release} once the search answered or
         * failed to start. {@code timer}: the task's timeout, to cancel on an answer; null for a task {@link #readmit}ted
         * under the timer of the task it came from.
         */
        void start(Scheduling.Timer timer);

        /** The search will not run, or its answer came too late: its documents are answered without it. */
        void unavailable(Unavailable why);
    }

    private final int maxInFlight;
    private final int maxQueued;
    private final TimeSpan timeout;
    private final Scheduling scheduler;
    private final Semaphore inFlight;
    private final AtomicInteger queued = new AtomicInteger();
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();

    LookupAdmission(int maxInFlight, int maxQueued, TimeSpan timeout, Scheduling scheduler) {
        this.maxInFlight = maxInFlight;
        this.maxQueued = maxQueued;
        this.timeout = timeout;
        this.scheduler = scheduler;
        this.inFlight = new Semaphore(maxInFlight);
    }

    /** Starts the task's timer, then starts the task now or once a slot is free; answers it at once when the queue is full. */
    void admit(Task task) {
        Scheduling.Timer timer;
        try {
            timer = scheduler.schedule(
                timeout.millis(),
                () -> task.unavailable(new Unavailable(Unavailable.TIMED_OUT + timeout, Unavailable.SERVICE_UNAVAILABLE))
            );
        } catch (Exception e) {
            task.unavailable(new Unavailable("lookup could not be scheduled: " + e.getMessage(), Unavailable.SERVICE_UNAVAILABLE));
            return;
        }
        if (submit(() -> startOrSkip(task, timer)) == false) {
            timer.cancel();
            task.unavailable(tooMany());
        }
    }

    /** Like {@link #admit}, under the timer of the task this one continues (no timer of its own). */
    void readmit(Task task) {
        if (submit(() -> startOrSkip(task, null)) == false) {
            task.unavailable(tooMany());
        }
    }

    /** Gives back the slot of a search that answered, and starts the next queued one. */
    void release() {
        inFlight.release();
        drain();
    }

    /** Free slots. */
    int available() {
        return inFlight.availablePermits();
    }

    /** Tasks waiting for a slot. */
    int queued() {
        return queued.get();
    }

    private void startOrSkip(Task task, Scheduling.Timer timer) {
        if (task.abandoned()) { // timed out while queued
            release();
            return;
        }
        task.start(timer);
    }

    private Unavailable tooMany() {
        return new Unavailable(
            "too many lookups in flight (max_in_flight " + maxInFlight + ", max_queued " + maxQueued + ")",
            Unavailable.TOO_MANY_REQUESTS
        );
    }

    /** Runs the task now, or queues it while {@code max_in_flight} searches run; false when the queue is full too. */
    private boolean submit(Runnable task) {
        if (inFlight.tryAcquire()) {
            task.run();
            return true;
        }
        if (queued.incrementAndGet() > maxQueued) {
            queued.decrementAndGet();
            return false;
        }
        pending.add(task);
        drain(); // a slot may have been freed between tryAcquire and add
        return true;
    }

    private void drain() {
        while (pending.isEmpty() == false && inFlight.tryAcquire()) {
            Runnable next = pending.poll();
            if (next == null) {
                inFlight.release();
                continue;
            }
            queued.decrementAndGet();
            next.run();
        }
    }
}
