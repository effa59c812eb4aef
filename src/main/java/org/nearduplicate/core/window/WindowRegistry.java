package org.nearduplicate.core.window;

import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.nearduplicate.core.window.RecentFingerprints.Budget;
import org.nearduplicate.core.window.RecentFingerprints.Memory;

/**
 * The node's windows, one per (target index, field, algorithm, k, window size, TTL): a pipeline's window options are
 * its own, pipelines with the same options share a window, and fingerprints of different algorithms are never in one
 * window. Windows idle for longer than their TTL and horizon are dropped (never while they have a gap). All
 * windows reserve their entries from one budget: at most {@code maxEntries} entries on the node, each also
 * reserved from the node's {@link Memory} (released when it leaves).
 *
 * <p>Other code names it {@link RecentFingerprints.Registry}, the public class that inherits everything from it.
 */
abstract class WindowRegistry {
    private final ConcurrentHashMap<String, RecentFingerprints> windows = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final AtomicLong calls = new AtomicLong();
    /** Changed at runtime by {@link #setMaxEntries} (the node setting is dynamic). */
    private volatile long maxEntries;
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final Memory memory;
    private final Budget budget = new Budget() {
        @Override
        public boolean tryReserve(long size) {
            if (entries.incrementAndGet() > maxEntries) {
                entries.decrementAndGet();
                return false;
            }
            if (memory.tryReserve(size, "near_duplicate_check recent window") == false) {
                entries.decrementAndGet();
                return false;
            }
            bytes.addAndGet(size);
            return true;
        }

        @Override
        public void release(long size) {
            entries.decrementAndGet();
            bytes.addAndGet(-size);
            memory.release(size);
        }
    };

    /** Unbounded and without memory accounting (tests). */
    WindowRegistry(LongSupplier clock) {
        this(clock, Long.MAX_VALUE, Memory.UNLIMITED);
    }

    WindowRegistry(LongSupplier clock, long maxEntries, Memory memory) {
        this.clock = clock;
        this.maxEntries = maxEntries;
        this.memory = memory;
    }

    /**
     * A new bound of the entries all windows keep together. A lower bound than the entries kept evicts nothing: the
     * node keeps no new entries (as when it is full) until enough leave by their windows' TTL and capacity, so no
     * window loses an entry it still vouches for.
     */
    public void setMaxEntries(long maxEntries) {
        if (maxEntries < 0) {
            throw new IllegalArgumentException("maxEntries must be >= 0, got " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    public long maxEntries() {
        return maxEntries;
    }

    public RecentFingerprints window(String index, String field, int maxDistance, int capacity, long ttlMillis) {
        return window(index, field, null, maxDistance, capacity, ttlMillis);
    }

    /** The window of fingerprints made by {@code algorithm} (null: not named by the document). */
    public RecentFingerprints window(String index, String field, String algorithm, int maxDistance, int capacity, long ttlMillis) {
        String key = index + '\u0000' + field + '\u0000' + (algorithm == null ? "" : algorithm) + '\u0000' + maxDistance + '\u0000'
            + capacity + '\u0000' + ttlMillis;
        if ((calls.incrementAndGet() & 1023) == 0) {
            long now = clock.getAsLong();
            for (Iterator<Map.Entry<String, RecentFingerprints>> it = windows.entrySet().iterator(); it.hasNext();) {
                Map.Entry<String, RecentFingerprints> w = it.next();
                if (w.getValue().forgettable(now) && windows.remove(w.getKey(), w.getValue())) {
                    w.getValue().retire();
                }
            }
        }
        return windows.computeIfAbsent(
            Objects.requireNonNull(key),
            k -> new RecentFingerprints(maxDistance, capacity, ttlMillis, clock, budget)
        );
    }

    /** Forgets the windows of a deleted index. */
    public void removeIndex(String index) {
        String prefix = index + '\u0000';
        for (String key : windows.keySet()) {
            if (key.startsWith(prefix)) {
                RecentFingerprints w = windows.remove(key);
                if (w != null) w.retire();
            }
        }
    }

    /**
     * The budget of a bulk set ({@link RecentFingerprints#bulkSet}): every entry reserves its estimate from the
     * node's {@link Memory} only (not from the windows' entry limit), until the set is retired.
     */
    public Budget bulkBudget() {
        return new Budget() {
            @Override
            public boolean tryReserve(long size) {
                return memory.tryReserve(size, "near_duplicate_check bulk set");
            }

            @Override
            public void release(long size) {
                memory.release(size);
            }
        };
    }

    /** Forgets every window (tests). */
    public void clear() {
        for (String key : windows.keySet()) {
            RecentFingerprints w = windows.remove(key);
            if (w != null) w.retire();
        }
    }

    public int windowCount() {
        return windows.size();
    }

    /** Entries kept by all windows of the node. */
    public long entryCount() {
        return entries.get();
    }

    /** Their estimated heap, as reserved from the node's {@link Memory}. */
    public long reservedBytes() {
        return bytes.get();
    }
}
