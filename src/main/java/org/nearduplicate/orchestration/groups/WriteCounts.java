package org.nearduplicate.orchestration.groups;

import java.util.concurrent.atomic.AtomicLong;

/** What a write-back has done so far, as its task's status shows it; -1: the write-back has not started. */
public final class WriteCounts {
    public final AtomicLong groups = new AtomicLong(-1);
    public final AtomicLong toWrite = new AtomicLong(-1);
    public final AtomicLong written = new AtomicLong();
    public final AtomicLong noops = new AtomicLong();
    public final AtomicLong cleared = new AtomicLong();
    /** Documents in no group given their own {@code _id} as group (not counting those that already had it). */
    public final AtomicLong singletons = new AtomicLong();
    public final AtomicLong failures = new AtomicLong();
    public final AtomicLong batches = new AtomicLong();
    public final AtomicLong throttledMillis = new AtomicLong();
}
