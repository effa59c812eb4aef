package org.nearduplicate.orchestration.groups;

/** The platform's scheduler: runs a command on the generic pool after a delay. */
public interface Delays {
    /** A scheduled command. */
    interface Scheduled {
        /** Cancels the command; false when it already ran or was cancelled. */
        boolean cancel();
    }

    Scheduled schedule(Runnable command, long delayNanos);
}
