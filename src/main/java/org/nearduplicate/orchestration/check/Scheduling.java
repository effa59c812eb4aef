package org.nearduplicate.orchestration.check;

/**
 * The platform's timers, as the check uses them: a task after a delay, which can be cancelled; and how the platform
 * prints a duration in a message.
 */
public interface Scheduling {
    /** Runs {@code task} after {@code delayMillis}; throws when it cannot (e.g. the node is closing). */
    Timer schedule(long delayMillis, Runnable task);

    /** {@code millis} as the platform prints a duration, e.g. {@code 1.5s}. */
    String text(long millis);

    /** A scheduled task. */
    @FunctionalInterface
    interface Timer {
        /** Cancels the task if it has not run; false when it ran (or was cancelled) already. */
        boolean cancel();
    }
}
