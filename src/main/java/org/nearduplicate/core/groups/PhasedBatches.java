package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The batches of a write that runs in phases (the groups write-back: members, then each page of singletons, then the
 * documents to clear): hands out batches of the current phase's items while fewer than a limit are in flight, and
 * tells exactly one caller that the phase is over, once every item is handed out and every batch has answered. Two
 * answers arriving together must not both start the next phase. Thread-safe and free of platform types, so both
 * platforms' writers share it.
 *
 * @param <T> an item, e.g. one update request
 */
public final class PhasedBatches<T> {
    private final int maxInFlight;
    private Iterator<T> pending;
    private int inFlight;
    /** The phase is over and one caller was told; nothing more until {@link #startPhase}. */
    private boolean over;

    /** What {@link #take} hands out: batches to send, or that the phase is over (the caller moves on), or neither. */
    public record Take<T>(List<List<T>> batches, boolean phaseOver) {
    }

    /** {@code maxInFlight}: batches in flight at most (at least 1); {@code firstPhase}: the first phase's items. */
    public PhasedBatches(int maxInFlight, Iterator<T> firstPhase) {
        if (maxInFlight < 1) throw new IllegalArgumentException("maxInFlight must be >= 1, got " + maxInFlight);
        this.maxInFlight = maxInFlight;
        this.pending = firstPhase;
    }

    /** The next phase's items: batches may go out again. */
    public synchronized void startPhase(Iterator<T> items) {
        pending = items;
        over = false;
    }

    /**
     * Batches of at most {@code batchSize} items, as many as may go out now ({@code oneInFlight}: at most one in flight,
     * e.g. while throttled); or, to exactly one caller, that the phase is over.
     */
    public synchronized Take<T> take(int batchSize, boolean oneInFlight) {
        if (batchSize < 1) throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
        int limit = oneInFlight ? 1 : maxInFlight;
        List<List<T>> batches = new ArrayList<>(limit);
        while (inFlight < limit && pending.hasNext()) {
            List<T> batch = new ArrayList<>(Math.min(batchSize, 1024));
            while (batch.size() < batchSize && pending.hasNext())
                batch.add(pending.next());
            batches.add(batch);
            inFlight++;
        }
        boolean phaseOver = over == false && inFlight == 0 && pending.hasNext() == false;
        if (phaseOver) over = true;
        return new Take<>(batches, phaseOver);
    }

    /** A batch handed out by {@link #take} has answered. */
    public synchronized void answered() {
        if (inFlight == 0) throw new IllegalStateException("no batch in flight");
        inFlight--;
    }

    /** Batches handed out and not yet answered. */
    public synchronized int inFlight() {
        return inFlight;
    }
}
