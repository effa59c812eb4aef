package org.nearduplicate.core.window;

import java.util.function.LongSupplier;

/**
 * Sweeps the node's windows ({@link WindowRegistry#sweep}) on the platform's timer, so that an entry past its window's
 * TTL leaves the window and its bytes leave the node's memory accounting whether or not the window is used again.
 *
 * <p>One task at a time, rescheduled after each sweep with the interval of the shortest TTL of the windows then on the
 * node ({@link #intervalFor}: a tenth of it, between {@link #MIN_INTERVAL_MILLIS} and {@link #MAX_INTERVAL_MILLIS}). A
 * new window whose interval is shorter than the wait to the next sweep brings that sweep forward ({@link #sooner}),
 * so every entry leaves within its window's TTL plus that window's interval (plus the time a busy pool takes to run
 * the task). Thread-safe.
 */
final class WindowSweeper {
    /** The shortest wait between two sweeps: a sweep visits every window of the node. */
    static final long MIN_INTERVAL_MILLIS = 1_000;
    /** The longest: how late, at most, an entry of a long TTL (the default 5 minutes) leaves after it. */
    static final long MAX_INTERVAL_MILLIS = 10_000;

    /** A tenth of {@code ttlMillis}, between {@link #MIN_INTERVAL_MILLIS} and {@link #MAX_INTERVAL_MILLIS}. */
    static long intervalFor(long ttlMillis) {
        return Math.max(MIN_INTERVAL_MILLIS, Math.min(MAX_INTERVAL_MILLIS, ttlMillis / 10));
    }

    private final WindowRegistry registry;
    private final SweepScheduler scheduler;
    private final LongSupplier clock;
    /** The scheduled sweep (null while one runs, or once stopped) and when it is due (the clock's time). */
    private SweepScheduler.Scheduled pending;
    private long pendingAt = Long.MAX_VALUE;
    /** Only the task of the latest generation sweeps and reschedules: a replaced or cancelled one does nothing. */
    private long generation;
    private boolean stopped;

    WindowSweeper(WindowRegistry registry, SweepScheduler scheduler, LongSupplier clock) {
        this.registry = registry;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    synchronized void start() {
        schedule(registry.sweepIntervalMillis());
    }

    /** No more sweeps (the node closes). */
    synchronized void stop() {
        stopped = true;
        generation++;
        if (pending != null) pending.cancel();
        pending = null;
        pendingAt = Long.MAX_VALUE;
    }

    /**
     * A new window came: brings the next sweep forward if it is due later than the interval of the windows now on the
     * node (the new one's TTL may be the shortest).
     */
    synchronized void sooner() {
        long intervalMillis = registry.sweepIntervalMillis();
        if (stopped || clock.getAsLong() + intervalMillis >= pendingAt) {
            return;
        }
        if (pending != null) pending.cancel();
        schedule(intervalMillis);
    }

    /** The wait until the next sweep (tests); Long.MAX_VALUE when none is scheduled. */
    synchronized long nextSweepInMillis() {
        return pendingAt == Long.MAX_VALUE ? Long.MAX_VALUE : pendingAt - clock.getAsLong();
    }

    private void schedule(long delayMillis) {
        if (stopped) return;
        long mine = ++generation;
        try {
            pending = scheduler.schedule(delayMillis, () -> run(mine));
            pendingAt = clock.getAsLong() + delayMillis;
        } catch (RuntimeException e) {
            // the platform refuses new tasks: the node is closing, and closing it gives every window back
            stopped = true;
            pending = null;
            pendingAt = Long.MAX_VALUE;
        }
    }

    private void run(long mine) {
        synchronized (this) {
            if (stopped || mine != generation) return;
            pending = null;
            pendingAt = Long.MAX_VALUE;
        }
        try {
            registry.sweep();
        } finally {
            synchronized (this) {
                // a new window may have scheduled an earlier sweep meanwhile (a newer generation): that one goes on
                if (mine == generation) schedule(registry.sweepIntervalMillis());
            }
        }
    }
}
