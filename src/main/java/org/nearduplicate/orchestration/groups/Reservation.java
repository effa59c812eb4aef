package org.nearduplicate.orchestration.groups;

/**
 * Bytes one piece of work holds in the {@code near_duplicate} breaker. Memory is reserved before it is allocated (the
 * breaker's 429 comes first) and everything still held is given back exactly once, on {@link #close()}, whichever
 * path ends the work. After close, reserving is a no-op, so a late answer cannot leave bytes behind.
 */
public final class Reservation implements AutoCloseable {
    private final Breaker breaker;
    private final String label;
    private long held;
    private boolean closed;

    public Reservation(Breaker breaker, String label) {
        this.breaker = breaker;
        this.label = label;
    }

    /** A reservation that holds nothing and never will. */
    public static Reservation none() {
        Reservation none = new Reservation(null, "none");
        none.closed = true;
        return none;
    }

    /** Reserves {@code bytes} or throws the breaker's circuit-breaking exception (429). */
    public synchronized void reserve(long bytes, String what) {
        if (closed || bytes <= 0) return;
        breaker.addEstimateBytesAndMaybeBreak(bytes, label + ": " + what);
        held += bytes;
    }

    /** Gives back up to {@code bytes} (never more than is held). */
    public synchronized void release(long bytes) {
        if (closed || bytes <= 0) return;
        long given = Math.min(bytes, held);
        breaker.addWithoutBreaking(-given);
        held -= given;
    }

    /** Moves up to {@code bytes} of what this holds into a new reservation, for whoever keeps the memory longer. */
    public synchronized Reservation transfer(long bytes) {
        Reservation to = new Reservation(breaker, label);
        if (closed) {
            to.closed = true;
            return to;
        }
        long moved = Math.min(Math.max(0, bytes), held);
        held -= moved;
        to.held = moved;
        return to;
    }

    public synchronized long held() {
        return held;
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        breaker.addWithoutBreaking(-held);
        held = 0;
    }
}
