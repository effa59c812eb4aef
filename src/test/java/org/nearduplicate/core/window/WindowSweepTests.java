package org.nearduplicate.core.window;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.stats.NearDuplicateStats.Stat;
import org.nearduplicate.core.window.RecentFingerprints.Memory;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

/**
 * The node's windows give their entries and memory back on time: the periodic sweep lets go of every entry past its
 * window's TTL and forgets idle windows, without the windows being used again, and never forgets a gap. A fake clock
 * and a fake timer stand for the platform's.
 */
public class WindowSweepTests {
    private static final long SECOND = 1_000;
    /** The horizon of a target refreshed every second: its documents are searchable 2 s after their check. */
    private static final long HORIZON = 2 * SECOND;

    private final AtomicLong clock = new AtomicLong();
    private final FakeTimer timer = new FakeTimer();
    private final CountingMemory memory = new CountingMemory();

    /** The platform's timer: tasks run when the test moves the clock past their time, in time order. */
    private final class FakeTimer implements SweepScheduler {
        private final class Task {
            final long at;
            final Runnable run;
            boolean cancelled;

            Task(long at, Runnable run) {
                this.at = at;
                this.run = run;
            }
        }

        final List<Task> tasks = new ArrayList<>();
        int scheduled;
        boolean refuse;

        @Override
        public Scheduled schedule(long delayMillis, Runnable task) {
            if (refuse) throw new IllegalStateException("the pool is shut down");
            scheduled++;
            Task t = new Task(clock.get() + delayMillis, task);
            tasks.add(t);
            return () -> t.cancelled = true;
        }

        /** Moves the clock to {@code to}, running every task due by then at its time. */
        void advanceTo(long to) {
            while (true) {
                tasks.removeIf(t -> t.cancelled);
                Task next = tasks.stream().filter(t -> t.at <= to).min(Comparator.comparingLong(t -> t.at)).orElse(null);
                if (next == null) break;
                tasks.remove(next);
                clock.set(Math.max(clock.get(), next.at));
                next.run.run();
            }
            clock.set(to);
        }

        long pending() {
            return tasks.stream().filter(t -> t.cancelled == false).count();
        }
    }

    /** The node's memory accounting, e.g. the breaker: the bytes reserved now. */
    private static final class CountingMemory implements Memory {
        final AtomicLong used = new AtomicLong();

        @Override
        public boolean tryReserve(long bytes, String label) {
            used.addAndGet(bytes);
            return true;
        }

        @Override
        public void release(long bytes) {
            used.addAndGet(-bytes);
        }
    }

    private RecentFingerprints.Registry sweptRegistry() {
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(clock::get, Long.MAX_VALUE, memory);
        registry.startSweeping(timer);
        return registry;
    }

    private static void fill(RecentFingerprints window, int documents, String prefix, long horizon) {
        for (int i = 0; i < documents; i++) {
            window.checkAndAdd(i * 0x9E3779B97F4A7C15L, null, Double.NaN, "idx", prefix + i, null, horizon, true);
        }
    }

    @Test
    public void entriesAndTheirBytesLeaveAfterTheTtlWithoutAnotherCheck() {
        RecentFingerprints.Registry registry = sweptRegistry();
        long ttl = 30 * SECOND; // the operator's pipeline: 3,000 documents, then idle
        RecentFingerprints window = registry.window("pages", "fp", 16, 10_000, ttl);
        fill(window, 3_000, "d", HORIZON);
        assertEquals(3_000, registry.entryCount());
        assertTrue(memory.used.get() > 3_000 * 1_900L);
        assertEquals(registry.reservedBytes(), memory.used.get());

        timer.advanceTo(ttl);
        assertEquals("an entry stays for its TTL", 3_000, window.size());

        timer.advanceTo(ttl + WindowSweeper.intervalFor(ttl));
        assertEquals("every entry left within ttl + the sweep interval", 0, registry.entryCount());
        assertEquals(0, window.size());
        assertEquals("their bytes left the node's memory", 0, memory.used.get());
        assertEquals(0, registry.reservedBytes());
        assertEquals("the empty idle window is forgotten", 0, registry.windowCount());
        assertEquals("searchable long before they expired: no gap", 0, window.lostEntries());
        assertTrue("the sweeps go on", timer.pending() > 0);
    }

    @Test
    public void theDefaultTtlIsSweptWithinTenSecondsAfterIt() {
        RecentFingerprints.Registry registry = sweptRegistry();
        long ttl = 5 * 60 * SECOND;
        RecentFingerprints window = registry.window("pages", "fp", 16, 10_000, ttl);
        fill(window, 100, "d", HORIZON);
        timer.advanceTo(ttl);
        assertEquals(100, window.size());
        assertEquals(WindowSweeper.MAX_INTERVAL_MILLIS, WindowSweeper.intervalFor(ttl));
        timer.advanceTo(ttl + WindowSweeper.MAX_INTERVAL_MILLIS);
        assertEquals(0, registry.entryCount());
        assertEquals(0, memory.used.get());
    }

    @Test
    public void onlyTheExpiredEntriesLeaveAWindowInUse() {
        RecentFingerprints.Registry registry = sweptRegistry();
        long ttl = 10 * SECOND;
        RecentFingerprints window = registry.window("pages", "fp", 3, 10_000, ttl);
        fill(window, 10, "old", HORIZON);
        timer.advanceTo(8 * SECOND);
        registry.window("pages", "fp", 3, 10_000, ttl); // the pipeline asks for it again
        fill(window, 5, "new", HORIZON);
        long fiveEntries = registry.reservedBytes() / 15 * 5;
        timer.advanceTo(ttl + WindowSweeper.intervalFor(ttl));
        assertEquals("the old ones left, the new ones stay", 5, window.size());
        assertEquals(fiveEntries, memory.used.get());
        assertEquals(1, registry.windowCount());
        timer.advanceTo(8 * SECOND + ttl + WindowSweeper.intervalFor(ttl));
        assertEquals(0, memory.used.get());
        assertEquals(0, registry.windowCount());
    }

    @Test
    public void anEntryLetGoOfBeforeItIsSearchableKeepsItsGapAndItsWindow() {
        RecentFingerprints.Registry registry = sweptRegistry();
        long ttl = 5 * SECOND;
        long horizon = 60 * SECOND; // refresh_interval 59s: searchable a minute after the check
        RecentFingerprints window = registry.window("pages", "fp", 3, 10_000, ttl);
        fill(window, 4, "d", horizon);
        timer.advanceTo(ttl + WindowSweeper.intervalFor(ttl));
        assertEquals("the entries left the window and the memory", 0, window.size());
        assertEquals(0, memory.used.get());
        assertEquals("before they could be searchable", 4, window.lostEntries());
        assertEquals("the window stays while its gap lasts", 1, registry.windowCount());

        timer.advanceTo(30 * SECOND);
        RecentFingerprints again = registry.window("pages", "fp", 3, 10_000, ttl);
        assertSame("the same window, gap and all", window, again);
        RecentFingerprints.Result r = again.checkAndAdd(42L, null, Double.NaN, "idx", "later", null, horizon, true);
        assertNull(r.match());
        assertEquals("a check finding nothing during the gap is told so", horizon, r.staleUntil());

        // 'later' is searchable at 90 s: the window is forgotten after its gap and its idle time
        timer.advanceTo(90 * SECOND + 2 * WindowSweeper.intervalFor(ttl));
        assertEquals(0, registry.windowCount());
        assertEquals(0, memory.used.get());
    }

    @Test
    public void aWindowNeverSearchableKeepsItsGapForever() {
        RecentFingerprints.Registry registry = sweptRegistry();
        long ttl = 5 * SECOND;
        RecentFingerprints window = registry.window("pages", "fp", 3, 10_000, ttl);
        fill(window, 3_000, "d", Long.MAX_VALUE); // refresh_interval -1
        assertTrue(window.ringCapacity() >= 3_000);
        timer.advanceTo(10 * 60 * SECOND);
        assertEquals("the entries leave", 0, memory.used.get());
        assertEquals("the window and its gap stay", 1, registry.windowCount());
        assertEquals(Long.MAX_VALUE, window.staleUntil(null));
        assertEquals("without the arrays of its peak", 16, window.ringCapacity());
        fill(window, 20, "e", Long.MAX_VALUE);
        assertEquals("and it keeps entries again", 20, window.size());
    }

    @Test
    public void aShorterTtlBringsTheNextSweepForward() {
        RecentFingerprints.Registry registry = sweptRegistry();
        assertEquals(WindowSweeper.MAX_INTERVAL_MILLIS, registry.nextSweepInMillis());
        registry.window("pages", "fp", 3, 10_000, 5 * 60 * SECOND);
        assertEquals(WindowSweeper.MAX_INTERVAL_MILLIS, registry.nextSweepInMillis());
        timer.advanceTo(4 * SECOND);
        RecentFingerprints shortLived = registry.window("pages", "fp", 3, 10_000, 2 * SECOND);
        assertEquals(WindowSweeper.MIN_INTERVAL_MILLIS, registry.sweepIntervalMillis());
        assertEquals(WindowSweeper.MIN_INTERVAL_MILLIS, registry.nextSweepInMillis());
        assertEquals("one sweep pending: the later one was cancelled", 1, timer.pending());
        fill(shortLived, 10, "d", HORIZON);
        timer.advanceTo(4 * SECOND + 2 * SECOND + WindowSweeper.MIN_INTERVAL_MILLIS);
        assertEquals(0, shortLived.size());
        assertEquals(0, memory.used.get());
    }

    @Test
    public void theIntervalIsATenthOfTheTtlBetweenOneAndTenSeconds() {
        assertEquals(1_000, WindowSweeper.intervalFor(1));
        assertEquals(1_000, WindowSweeper.intervalFor(5_000));
        assertEquals(3_000, WindowSweeper.intervalFor(30_000));
        assertEquals(10_000, WindowSweeper.intervalFor(300_000));
        assertEquals(10_000, WindowSweeper.intervalFor(Long.MAX_VALUE));
    }

    @Test
    public void aForgottenWindowIsNeverHandedOut() {
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(clock::get, Long.MAX_VALUE, memory);
        RecentFingerprints window = registry.window("pages", "fp", 3, 10_000, SECOND);
        fill(window, 2, "d", HORIZON);
        clock.set(10 * SECOND);
        registry.sweep();
        assertEquals(0, registry.windowCount());
        assertFalse("a retired window refuses to be used", window.use(clock.get()));
        RecentFingerprints fresh = registry.window("pages", "fp", 3, 10_000, SECOND);
        assertNotSame(window, fresh);
        fill(fresh, 1, "e", HORIZON);
        assertEquals("the new one keeps what it is given", 1, fresh.size());
        assertEquals(registry.reservedBytes(), memory.used.get());
    }

    @Test
    public void stoppedOrRefusedTheSweepsEnd() {
        RecentFingerprints.Registry registry = sweptRegistry();
        registry.startSweeping(timer);
        assertEquals("a second start adds no sweep", 1, timer.pending());
        registry.stopSweeping();
        assertEquals(0, timer.pending());
        assertEquals(Long.MAX_VALUE, registry.nextSweepInMillis());

        RecentFingerprints.Registry closing = new RecentFingerprints.Registry(clock::get, Long.MAX_VALUE, memory);
        timer.refuse = true;
        closing.startSweeping(timer); // the node's pool is shut down: no sweep, no error
        assertEquals(Long.MAX_VALUE, closing.nextSweepInMillis());
        fill(closing.window("pages", "fp", 3, 10, SECOND), 1, "d", HORIZON);
        closing.clear();
        assertEquals(0, memory.used.get());
    }

    @Test
    public void theByteCapBoundsTheNodeAndARefusedEntryLeavesAGap() {
        long perEntry = RecentFingerprints.entryBytes(3, "d0");
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(clock::get, Long.MAX_VALUE, 3 * perEntry, memory);
        RecentFingerprints first = registry.window("a", "fp", 3, 1_000, 60 * SECOND);
        fill(first, 5, "d", HORIZON);
        assertEquals("the window makes room from its own oldest entries", 3, first.size());
        assertEquals(3 * perEntry, registry.reservedBytes());
        assertEquals(3 * perEntry, memory.used.get());
        RecentFingerprints.Result r = first.checkAndAdd(7L, null, Double.NaN, "idx", "d9", null, HORIZON, true);
        assertEquals("two documents were let go of before they were searchable: a gap", HORIZON, r.staleUntil());

        RecentFingerprints second = registry.window("b", "fp", 3, 1_000, 60 * SECOND);
        RecentFingerprints.Result refused = second.checkAndAdd(8L, null, Double.NaN, "idx", "e0", null, HORIZON, true);
        assertEquals("a full node keeps nothing new", 0, second.size());
        RecentFingerprints.Result next = second.checkAndAdd(9L, null, Double.NaN, "idx", "e1", null, HORIZON, true);
        assertEquals("and says so to the next check", refused.added().addedMillis() + HORIZON, next.staleUntil());

        registry.setMaxBytes(perEntry);
        assertEquals("a lower cap evicts nothing", 3, first.size());
        registry.setMaxBytes(Long.MAX_VALUE);
        registry.clear();
        assertEquals(0, memory.used.get());
    }

    @Test
    public void theStatsShowTheWindowsMemory() {
        NearDuplicateStats stats = new NearDuplicateStats();
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(clock::get, 200_000, 50_000_000, memory);
        registry.addGauges(stats);
        NearDuplicateStats.Snapshot empty = stats.snapshot();
        assertEquals(0, empty.get(Stat.CHECK_WINDOWS));
        assertEquals(0, empty.get(Stat.CHECK_WINDOW_ENTRIES));
        assertEquals(0, empty.get(Stat.CHECK_WINDOW_BYTES));
        assertEquals(200_000, empty.get(Stat.CHECK_WINDOW_MAX_ENTRIES));
        assertEquals(50_000_000, empty.get(Stat.CHECK_WINDOW_MAX_BYTES));

        fill(registry.window("a", "fp", 16, 1_000, 60 * SECOND), 7, "d", HORIZON);
        fill(registry.window("b", "fp", 3, 1_000, 60 * SECOND), 2, "e", HORIZON);
        registry.setMaxEntries(1_000);
        NearDuplicateStats.Snapshot s = stats.snapshot();
        assertEquals(2, s.get(Stat.CHECK_WINDOWS));
        assertEquals(9, s.get(Stat.CHECK_WINDOW_ENTRIES));
        assertEquals(memory.used.get(), s.get(Stat.CHECK_WINDOW_BYTES));
        assertTrue(s.get(Stat.CHECK_WINDOW_BYTES) > 0);
        assertEquals(1_000, s.get(Stat.CHECK_WINDOW_MAX_ENTRIES));
        @SuppressWarnings("unchecked")
        java.util.Map<String, Object> windows = (java.util.Map<String, Object>) ((java.util.Map<String, Object>) s.toNestedMap()
            .get("check")).get("windows");
        assertEquals(
            "rendered inside check",
            List.of("count", "entries", "size_in_bytes", "max_entries", "max_size_in_bytes"),
            List.copyOf(windows.keySet())
        );
        assertEquals(9L, windows.get("entries"));
    }
}
