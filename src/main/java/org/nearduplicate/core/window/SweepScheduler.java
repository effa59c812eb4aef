package org.nearduplicate.core.window;

/**
 * The platform's timer, as the node's windows use it for their periodic sweep ({@link WindowSweeper}): a task run once
 * after a delay, on a thread that may take a window's lock for the time of a sweep (a generic pool's thread, never a
 * transport or timer thread). The adapter puts its thread pool behind it; no platform type comes in here.
 */
@FunctionalInterface
public interface SweepScheduler {
    /** Runs {@code task} once after {@code delayMillis}; throws when it cannot (e.g. the node is closing). */
    Scheduled schedule(long delayMillis, Runnable task);

    /** A scheduled task. */
    @FunctionalInterface
    interface Scheduled {
        /** Cancels the task if it has not started (a task already running finishes). */
        void cancel();
    }
}
