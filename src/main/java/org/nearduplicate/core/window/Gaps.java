package org.nearduplicate.core.window;

/**
 * The gaps of a {@link RecentFingerprints} window: documents it let go of (evicted, expired, never kept) before they
 * may be searchable. Keeps the latest time until which one may be invisible to searches ({@code gapUntil}, of batch
 * {@code gapBatch}), and an upper bound of the same over the documents of every other batch ({@code otherGapUntil}).
 * Not thread-safe: the window's lock guards it.
 */
final class Gaps {
    private long gapUntil = Long.MIN_VALUE;
    private Object gapBatch;
    private long otherGapUntil = Long.MIN_VALUE;
    private long lostEntries;

    /** {@link RecentFingerprints#staleUntil}. */
    long staleUntil(Object batch) {
        return batch != null && batch == gapBatch ? otherGapUntil : Math.max(gapUntil, otherGapUntil);
    }

    /** Until when any let-go document may be invisible to searches (Long.MIN_VALUE: no gap). */
    long until() {
        return Math.max(gapUntil, otherGapUntil);
    }

    long lostEntries() {
        return lostEntries;
    }

    /** Records that {@code e} was let go of at {@code now}: a gap if it may not be searchable yet. */
    void lose(RecentFingerprints.Entry e, long now, long horizonMillis) {
        long until = horizonMillis == Long.MAX_VALUE || e.addedMillis > Long.MAX_VALUE - horizonMillis
            ? Long.MAX_VALUE
            : e.addedMillis + horizonMillis;
        if (until <= now) {
            return; // searchable by now
        }
        lostEntries++;
        if (e.batch != null && e.batch == gapBatch) {
            gapUntil = Math.max(gapUntil, until);
        } else {
            // the previous batch's bound joins the others' (an upper bound for every batch but the new one)
            otherGapUntil = Math.max(otherGapUntil, gapUntil);
            gapUntil = until;
            gapBatch = e.batch;
            if (e.batch == null) {
                otherGapUntil = Math.max(otherGapUntil, until);
            }
        }
    }
}
