package org.nearduplicate.core.window;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.stats.NearDuplicateStats.Stat;
import org.nearduplicate.core.window.RecentFingerprints.Budget;
import org.nearduplicate.core.window.RecentFingerprints.Memory;

/**
 * The node's windows, one per (target index, field, algorithm, k, window size, TTL): a pipeline's window options are
 * its own, pipelines with the same options share a window, and fingerprints of different algorithms are never in one
 * window. All windows reserve their entries from one budget: at most {@code maxEntries} entries and {@code maxBytes}
 * of their estimated heap on the node, each entry also reserved from the node's {@link Memory} (released when it
 * leaves).
 *
 * <p>{@link #sweep} lets go of every window's entries past its TTL and forgets the windows idle for longer than their
 * TTL and horizon (never while they have a gap: a new window would not know it). {@link #startSweeping} runs it on the
 * platform's timer ({@link WindowSweeper}), so an entry leaves within its TTL plus the sweep interval whether or not
 * its window is used again; without a timer (tests), every 1,024th {@link #window} call sweeps.
 *
 * <p>Other code names it {@link RecentFingerprints.Registry}, the public class that inherits everything from it.
 */
abstract class WindowRegistry {
    private final ConcurrentHashMap<String, RecentFingerprints> windows = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final AtomicLong calls = new AtomicLong();
    /** Changed at runtime by {@link #setMaxEntries} and {@link #setMaxBytes} (the node settings are dynamic). */
    private volatile long maxEntries;
    private volatile long maxBytes;
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final Memory memory;
    /** The periodic sweep, once {@link #startSweeping} gave it a timer. */
    private volatile WindowSweeper sweeper;
    private final Budget budget = new Budget() {
        @Override
        public boolean tryReserve(long size) {
            if (entries.incrementAndGet() > maxEntries) {
                entries.decrementAndGet();
                return false;
            }
            if (bytes.addAndGet(size) > maxBytes) {
                bytes.addAndGet(-size);
                entries.decrementAndGet();
                return false;
            }
            if (memory.tryReserve(size, "near_duplicate_check recent window") == false) {
                bytes.addAndGet(-size);
                entries.decrementAndGet();
                return false;
            }
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
        this(clock, Long.MAX_VALUE, Long.MAX_VALUE, Memory.UNLIMITED);
    }

    WindowRegistry(LongSupplier clock, long maxEntries, long maxBytes, Memory memory) {
        this.clock = clock;
        setMaxEntries(maxEntries);
        setMaxBytes(maxBytes);
        this.memory = memory;
    }

    /**
     * Sweeps the windows on {@code scheduler} from now on ({@link WindowSweeper}); a second call does nothing (the
     * platform may ask for the processors more than once).
     */
    public synchronized void startSweeping(SweepScheduler scheduler) {
        if (sweeper == null) {
            WindowSweeper started = new WindowSweeper(this, scheduler, clock);
            sweeper = started;
            started.start();
        }
    }

    /** No more periodic sweeps (the node closes). */
    public synchronized void stopSweeping() {
        if (sweeper != null) sweeper.stop();
    }

    /** The wait until the next periodic sweep (tests); Long.MAX_VALUE when none is scheduled. */
    long nextSweepInMillis() {
        WindowSweeper s = sweeper;
        return s == null ? Long.MAX_VALUE : s.nextSweepInMillis();
    }

    /**
     * Lets go of every window's entries past its TTL (their bytes go back to the budget and the node's memory) and
     * forgets the windows that are idle beyond their TTL and horizon and have no gap left. The periodic sweep's work;
     * safe to run at any time, concurrently with checks.
     */
    public void sweep() {
        long now = clock.getAsLong();
        for (Map.Entry<String, RecentFingerprints> w : windows.entrySet()) {
            w.getValue().sweep(now, () -> windows.remove(w.getKey(), w.getValue()));
        }
    }

    /**
     * How often the windows now on the node are swept: the {@link WindowSweeper#intervalFor interval} of the shortest
     * TTL among them ({@link WindowSweeper#MAX_INTERVAL_MILLIS} when there is none).
     */
    public long sweepIntervalMillis() {
        long interval = WindowSweeper.MAX_INTERVAL_MILLIS;
        for (RecentFingerprints w : windows.values()) {
            interval = Math.min(interval, WindowSweeper.intervalFor(w.ttlMillis()));
        }
        return interval;
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

    /**
     * A new bound of the estimated heap all windows keep together; as {@link #setMaxEntries}, a lower bound than the
     * bytes kept evicts nothing (the node keeps no new entries until enough leave).
     */
    public void setMaxBytes(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public RecentFingerprints window(String index, String field, int maxDistance, int capacity, long ttlMillis) {
        return window(index, field, null, maxDistance, capacity, ttlMillis);
    }

    /** The window of fingerprints made by {@code algorithm} (null: not named by the document). */
    public RecentFingerprints window(String index, String field, String algorithm, int maxDistance, int capacity, long ttlMillis) {
        String key = index + '\u0000' + field + '\u0000' + (algorithm == null ? "" : algorithm) + '\u0000' + maxDistance + '\u0000'
            + capacity + '\u0000' + ttlMillis;
        if (sweeper == null && (calls.incrementAndGet() & 1023) == 0) {
            sweep();
        }
        while (true) {
            boolean[] created = { false };
            RecentFingerprints w = windows.computeIfAbsent(Objects.requireNonNull(key), k -> {
                created[0] = true;
                return new RecentFingerprints(maxDistance, capacity, ttlMillis, clock, budget);
            });
            if (created[0] && sweeper != null) {
                sweeper.sooner(); // its TTL may be the shortest on the node
            }
            if (w.use(clock.getAsLong())) {
                return w;
            }
            // the sweep forgot it after the lookup: the next round makes a new one
        }
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

    /**
     * Reports the windows' memory in {@code stats} at every snapshot: windows, entries and their estimated bytes now, and
     * the node's bounds ({@code check.windows.*}).
     */
    public void addGauges(NearDuplicateStats stats) {
        stats.addGauges(
            b -> b.set(Stat.CHECK_WINDOWS, windowCount())
                .set(Stat.CHECK_WINDOW_ENTRIES, entryCount())
                .set(Stat.CHECK_WINDOW_BYTES, reservedBytes())
                .set(Stat.CHECK_WINDOW_MAX_ENTRIES, maxEntries)
                .set(Stat.CHECK_WINDOW_MAX_BYTES, maxBytes)
        );
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
