package org.nearduplicate.orchestration.groups;

/** The platform's task of a groups run or write-back: its progress, its counters and its cancellation. */
public interface GroupsTask extends Grouping.Progress {
    boolean isCancelled();

    /** The platform's exception for this task cancelled, with the message {@code what + " cancelled: " + reason}. */
    RuntimeException cancelled(String what);

    /**
     * Runs {@code action} as soon as the task is cancelled (at once if it already is), so that work waiting on a timer
     * stops when asked instead of when its delay ends. One action at a time.
     */
    void whenCancelled(Runnable action);

    /** The write-back's counters, shown in the task's status. */
    WriteCounts writeCounts();

    /** Throws {@link #cancelled} when the task is cancelled. */
    default void checkCancelled(String what) {
        if (isCancelled()) throw cancelled(what);
    }
}
