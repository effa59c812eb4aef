package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.unit.ByteSizeValue;
import org.opensearch.indices.breaker.BreakerSettings;
import org.opensearch.indices.breaker.HierarchyCircuitBreakerService;
import org.opensearch.test.OpenSearchTestCase;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.lucene.SimHashQueryTests;

/** The node's windows together: bounded in entries and bytes (the breaker), per pipeline options, thread-safe upkeep. */
public class RecentFingerprintsTests extends OpenSearchTestCase {

    private static CircuitBreaker breaker(long limit) {
        HierarchyCircuitBreakerService service = new HierarchyCircuitBreakerService(
            Settings.builder().put("indices.breaker.total.use_real_memory", false).build(),
            List.of(new BreakerSettings("near_duplicate", limit, 1.0, CircuitBreaker.Type.MEMORY, CircuitBreaker.Durability.TRANSIENT)),
            new ClusterSettings(Settings.EMPTY, ClusterSettings.BUILT_IN_CLUSTER_SETTINGS)
        );
        return service.getBreaker("near_duplicate");
    }

    public void testAllWindowsOfANodeShareOneEntryLimit() {
        CircuitBreaker breaker = breaker(ByteSizeValue.parseBytesSizeValue("100mb", "test").getBytes());
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(() -> 0L, 100, new WindowMemory(() -> breaker));
        RecentFingerprints a = registry.window("a", "fp", 3, 1000, 60_000);
        RecentFingerprints b = registry.window("b", "fp", 3, 1000, 60_000);
        for (int i = 0; i < 80; i++) {
            a.checkAndAdd(randomLong(), "a" + i);
        }
        for (int i = 0; i < 80; i++) {
            b.checkAndAdd(randomLong(), "b" + i);
        }
        assertEquals(100, registry.entryCount());
        assertEquals("b has only what a left", 20, b.size());
        // a full node: a window makes room from its own oldest entries, so it keeps the newest
        long fp = randomLong();
        b.checkAndAdd(fp, "newest");
        assertEquals(20, b.size());
        assertEquals("newest", b.checkAndAdd(fp, "again").match().entry().id());
        assertEquals(registry.reservedBytes(), breaker.getUsed());
        assertTrue(breaker.getUsed() > 0);
        registry.removeIndex("a");
        assertEquals(20, registry.entryCount());
        assertEquals(registry.reservedBytes(), breaker.getUsed());
        registry.clear();
        assertEquals(0, registry.entryCount());
        assertEquals("every reservation is released", 0, breaker.getUsed());
    }

    public void testTheBreakerBoundsTheWindowsAndAFullNodeStillChecks() {
        long perEntry = RecentFingerprints.entryBytes(3, "d00");
        CircuitBreaker breaker = breaker(perEntry * 10);
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(() -> 0L, Long.MAX_VALUE, new WindowMemory(() -> breaker));
        RecentFingerprints first = registry.window("a", "fp", 3, 1000, 60_000);
        long fp = randomLong();
        for (int i = 0; i < 10; i++) {
            first.checkAndAdd(fp ^ (1L << i), String.format(java.util.Locale.ROOT, "d%02d", i));
        }
        assertEquals(10, first.size());
        // another window gets nothing from the breaker and has nothing of its own to evict: it does not keep the
        // entry, but still answers from what it holds
        RecentFingerprints second = registry.window("b", "fp", 3, 1000, 60_000);
        RecentFingerprints.Result r = second.checkAndAdd(fp, "d99");
        assertNull(r.match());
        assertEquals(0, second.size());
        assertEquals(10, registry.entryCount());
        assertEquals(perEntry * 10, breaker.getUsed());
        assertEquals("the window answers while the node is full", "d00", first.checkAndAdd(fp ^ 1, "d98").match().entry().id());
        registry.clear();
        assertEquals(0, breaker.getUsed());
    }

    /**
     * The operator's case: a pipeline with window_ttl 30s checks 3,000 documents and the node goes idle. The node's
     * scheduler sweeps the windows: within the TTL and a sweep interval the breaker holds nothing of them, though no
     * document came again.
     */
    public void testTheSweepGivesTheBreakerBackWithoutAnotherCheck() {
        CircuitBreaker breaker = breaker(ByteSizeValue.parseBytesSizeValue("100mb", "test").getBytes());
        AtomicLong clock = new AtomicLong();
        List<Runnable> due = new java.util.ArrayList<>();
        List<Long> delays = new java.util.ArrayList<>();
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(
            clock::get,
            WindowMemory.MAX_NODE_ENTRIES_SETTING.get(Settings.EMPTY),
            WindowMemory.MAX_NODE_BYTES_SETTING.get(Settings.EMPTY).getBytes(),
            new WindowMemory(() -> breaker)
        );
        registry.startSweeping((delay, task) -> {
            delays.add(delay);
            due.add(task);
            return () -> due.remove(task);
        });
        long ttl = TimeValue.timeValueSeconds(30).millis();
        RecentFingerprints window = registry.window("pages", "fp", 16, 10_000, ttl);
        for (int i = 0; i < 3_000; i++) {
            window.checkAndAdd(randomLong(), randomAlphaOfLength(20));
        }
        long held = breaker.getUsed();
        assertEquals(registry.reservedBytes(), held);
        assertTrue("about 2 KB an entry at k = 16: " + held, held > 3_000 * 1_900L);
        assertEquals("a tenth of the TTL", List.of(10_000L, 3_000L), delays);
        // the node idles past the TTL; its scheduler runs the sweep that is due
        clock.set(ttl + delays.get(delays.size() - 1));
        Runnable sweep = due.remove(0);
        assertTrue(due.isEmpty());
        sweep.run();
        assertEquals("the breaker has every byte of the window back", 0, breaker.getUsed());
        assertEquals(0, registry.entryCount());
        assertEquals(0, registry.windowCount());
        assertEquals("and the next sweep is scheduled", 1, due.size());
        registry.stopSweeping();
        assertTrue(due.isEmpty());
    }

    public void testEachPipelinesWindowOptionsAreItsOwn() {
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(() -> 0L);
        RecentFingerprints small = registry.window("pages", "fp", 3, 2, TimeValue.timeValueMinutes(5).millis());
        RecentFingerprints large = registry.window("pages", "fp", 3, 1000, TimeValue.timeValueMinutes(5).millis());
        RecentFingerprints shortLived = registry.window("pages", "fp", 3, 1000, TimeValue.timeValueSeconds(1).millis());
        assertNotSame(small, large);
        assertNotSame(large, shortLived);
        assertSame("same options share a window", large, registry.window("pages", "fp", 3, 1000, TimeValue.timeValueMinutes(5).millis()));
        for (int i = 0; i < 10; i++) {
            small.checkAndAdd(randomLong(), "s" + i);
            large.checkAndAdd(randomLong(), "l" + i);
        }
        assertEquals("the first pipeline's capacity is not imposed on the second", 2, small.size());
        assertEquals(10, large.size());
    }

    public void testConcurrentUseKeepsTheAccountsExact() throws Exception {
        AtomicLong clock = new AtomicLong();
        CircuitBreaker breaker = breaker(ByteSizeValue.parseBytesSizeValue("100mb", "test").getBytes());
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(clock::get, 500, new WindowMemory(() -> breaker));
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < 3000; i++) {
                    clock.addAndGet(1);
                    // short TTLs: idle windows are dropped by the periodic sweep while other threads use them
                    registry.window("idx" + (i % 7), "fp", i % 4, 50 + i % 100, 200).checkAndAdd(i * 31L + thread, "t" + thread + "-" + i);
                }
            });
            workers[t].start();
        }
        // the periodic sweep, as the node's generic pool runs it, at the same time as the checks
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread sweeper = new Thread(() -> {
            while (done.get() == false) {
                registry.sweep();
            }
        });
        sweeper.start();
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        done.set(true);
        sweeper.join();
        assertTrue(registry.entryCount() <= 500);
        assertEquals(registry.reservedBytes(), breaker.getUsed());
        registry.clear();
        assertEquals(0, registry.entryCount());
        assertEquals(0, breaker.getUsed());
    }

    /**
     * Gaps: a document let go of before its horizon counts for every other batch until then, not for its own batch
     * (whose bulk set holds it); one that expires by TTL after its horizon leaves none. The bulk set never evicts and
     * overflows when its budget refuses.
     */
    /** A document that is compared but not written (_simulate's) finds its matches and is never kept. */
    public void testADocumentNotWrittenIsComparedButNotKept() {
        AtomicLong clock = new AtomicLong();
        RecentFingerprints w = new RecentFingerprints(3, 10, 1_000, clock::get);
        w.checkAndAdd(0xffL, "kept");
        RecentFingerprints.Result simulated = w.checkAndAdd(0xfeL, null, 0, "_index", "sim", null, Long.MAX_VALUE, false);
        assertEquals("kept", simulated.match().entry().id());
        assertEquals(1, w.size());
        RecentFingerprints.Result next = w.checkAndAdd(0xfcL, "next");
        assertEquals("the unwritten document left no entry", "kept", next.match().entry().id());
        assertEquals(2, w.size());
    }

    public void testGapsArePerBatchAndTheBulkSetOverflows() {
        AtomicLong clock = new AtomicLong();
        RecentFingerprints w = new RecentFingerprints(3, 2, 1_000, clock::get);
        Object first = new Object(), second = new Object();
        w.checkAndAdd(1L << 10, "a", first, 5_000);
        w.checkAndAdd(1L << 20, "b", first, 5_000);
        RecentFingerprints.Result c = w.checkAndAdd(1L << 30, "c", first, 5_000); // lets go of "a"
        assertEquals("compared with a before letting it go", Long.MIN_VALUE, c.staleUntil());
        assertEquals("not a gap for its own batch", Long.MIN_VALUE, w.staleUntil(first));
        assertEquals(5_000, w.staleUntil(second));
        assertEquals(5_000, w.staleUntil(null));
        assertEquals(5_000, w.checkAndAdd(1L << 40, "d", second, 5_000).staleUntil());
        assertEquals(2, w.lostEntries());
        // horizon equal to the TTL: expiring leaves no gap
        RecentFingerprints ttl = new RecentFingerprints(3, 10, 1_000, clock::get);
        ttl.checkAndAdd(5L, "x", null, 1_000);
        clock.set(10_000);
        assertEquals(Long.MIN_VALUE, ttl.checkAndAdd(6L << 20, "y", null, 1_000).staleUntil());
        assertEquals(0, ttl.lostEntries());
        // refresh disabled: every document let go of is a gap for ever
        RecentFingerprints never = new RecentFingerprints(3, 0, 1_000, clock::get);
        never.checkAndAdd(5L, "x", null, Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, never.checkAndAdd(6L << 20, "y", null, Long.MAX_VALUE).staleUntil());

        AtomicLong reserved = new AtomicLong();
        RecentFingerprints.Budget two = new RecentFingerprints.Budget() {
            @Override
            public boolean tryReserve(long bytes) {
                if (reserved.get() >= 2 * RecentFingerprints.entryBytes(3, "p0")) return false;
                reserved.addAndGet(bytes);
                return true;
            }

            @Override
            public void release(long bytes) {
                reserved.addAndGet(-bytes);
            }
        };
        RecentFingerprints set = RecentFingerprints.bulkSet(3, two);
        for (int i = 0; i < 4; i++) {
            set.checkAndKeep(new RecentFingerprints.Entry(((long) i) << (i * 12), "p" + i, 0));
        }
        assertTrue(set.overflowed());
        assertEquals(2, set.size());
        assertEquals(0, set.checkAndKeep(new RecentFingerprints.Entry(1L << 12, "q", 0)).distance());
        set.retire();
        assertEquals(0, reserved.get());
    }

    /**
     * Both lookups find the closest distance brute force finds, for k below and above the switch to the linear scan,
     * with evictions (capacity smaller than the stream).
     */
    public void testBothLookupsMatchBruteForce() {
        for (int k : new int[] { 0, 3, 9, 10, 12, 16 }) {
            for (RecentFingerprints.Lookup lookup : RecentFingerprints.Lookup.values()) {
                int capacity = randomIntBetween(50, 400);
                RecentFingerprints window = RecentFingerprints.withLookup(k, capacity, lookup);
                java.util.ArrayDeque<Long> seen = new java.util.ArrayDeque<>();
                long center = randomLong();
                for (int i = 0; i < 1000; i++) {
                    long fp = randomBoolean() ? randomLong() : SimHashQueryTests.flipBits(center, randomIntBetween(0, k + 3));
                    int expected = Integer.MAX_VALUE;
                    for (long s : seen) {
                        int d = Fingerprints.distance(fp, s);
                        if (d <= k) expected = Math.min(expected, d);
                    }
                    RecentFingerprints.Result r = window.checkAndAdd(fp, "d" + i);
                    assertEquals(
                        k + " " + lookup,
                        expected == Integer.MAX_VALUE ? -1 : expected,
                        r.match() == null ? -1 : r.match().distance()
                    );
                    seen.addLast(fp);
                    if (seen.size() > capacity) seen.pollFirst();
                }
                assertEquals(capacity, window.size());
            }
        }
        assertEquals(RecentFingerprints.Lookup.BLOCK_KEYS, RecentFingerprints.Lookup.forDistance(6));
        assertEquals(RecentFingerprints.Lookup.LINEAR_SCAN, RecentFingerprints.Lookup.forDistance(7));
    }

    /** k = 16, the default of simhash-v4 and v5: the window finds what brute force finds. */
    public void testMaxDistance16FindsTheClosestLikeBruteForce() {
        RecentFingerprints.checkMaxDistance(16);
        expectThrows(IllegalArgumentException.class, () -> RecentFingerprints.checkMaxDistance(17));
        RecentFingerprints window = new RecentFingerprints(16, 10_000, Long.MAX_VALUE, () -> 0L);
        List<Long> seen = new java.util.ArrayList<>();
        long center = randomLong();
        for (int i = 0; i < 1500; i++) {
            long fp = randomBoolean() ? randomLong() : SimHashQueryTests.flipBits(center, randomIntBetween(10, 20));
            int expected = Integer.MAX_VALUE;
            for (long s : seen) {
                int d = Fingerprints.distance(fp, s);
                if (d <= 16) expected = Math.min(expected, d);
            }
            RecentFingerprints.Result r = window.checkAndAdd(fp, "d" + i);
            assertEquals(expected == Integer.MAX_VALUE ? -1 : expected, r.match() == null ? -1 : r.match().distance());
            seen.add(fp);
        }
        // exactly 16 bits, one in each 4-bit block (the case the one-bit variants exist for)
        RecentFingerprints w = new RecentFingerprints(16, 10, Long.MAX_VALUE, () -> 0L);
        long fp = randomLong();
        w.checkAndAdd(fp, "a");
        assertEquals(16, w.checkAndAdd(fp ^ 0x1111_1111_1111_1111L, "b").match().distance());
        RecentFingerprints alone = new RecentFingerprints(16, 10, Long.MAX_VALUE, () -> 0L);
        alone.checkAndAdd(fp, "a");
        assertNull("17 bits", alone.checkAndAdd(fp ^ 0x1111_1111_1111_1113L, "c").match());
    }

    /**
     * Both signed: a candidate within k whose signature disagrees is no match; agreeing ones are, and a side without
     * signature is compared on its fingerprint alone. The closest verified candidate wins over a closer unverified one.
     */
    public void testSignaturesAreVerifiedWhereBothArePresent() {
        double min = SimHashSettings.DEFAULT.recommendedMinSimilarity();
        byte[] sigA = Signature.of(1, 2, 3, 4, 5, 6, 7, 8);
        byte[] sigOther = Signature.of(101, 102, 103, 104, 105, 106, 107, 108);
        byte[] sigNearA = Signature.of(1, 2, 3, 4, 5, 6, 7, 9); // Jaccard 7/9
        assertTrue(Signature.similarity(sigA, sigOther) < min);
        assertTrue(Signature.similarity(sigA, sigNearA) >= min);
        long fp = randomLong();
        RecentFingerprints w = new RecentFingerprints(3, 100, Long.MAX_VALUE, () -> 0L);
        assertNull(w.checkAndAdd(fp, sigA, min, "a", null, 1_000).match());
        assertNull("same fingerprint, disagreeing signature", w.checkAndAdd(fp, sigOther, min, "b", null, 1_000).match());
        RecentFingerprints.Match near = w.checkAndAdd(fp ^ 1, sigNearA, min, "c", null, 1_000).match();
        assertEquals("a", near.entry().id());
        assertEquals(1, near.distance());
        // c is at distance 0 of this probe but disagrees (as does a, 1 bit); b (1 bit) agrees: the closest verified one
        RecentFingerprints.Match closest = w.checkAndAdd(fp ^ 1, sigOther, min, "d", null, 1_000).match();
        assertEquals("b", closest.entry().id());
        assertEquals(1, closest.distance());
        // a bare fingerprint matches on its fingerprint alone, signed or not
        assertEquals(0, w.checkAndAdd(fp, null, min, "f", null, 1_000).match().distance());
        // not verified (NaN): the fingerprint alone
        assertEquals(0, w.checkAndAdd(fp, sigOther, Double.NaN, "g", null, 1_000).match().distance());

        // the bulk set verifies the same way
        RecentFingerprints set = RecentFingerprints.bulkSet(3, RecentFingerprints.Budget.UNLIMITED);
        assertNull(set.checkAndKeep(new RecentFingerprints.Entry(fp, sigA, "p", 0), min));
        assertNull(set.checkAndKeep(new RecentFingerprints.Entry(fp, sigOther, "q", 0), min));
        assertEquals("p", set.checkAndKeep(new RecentFingerprints.Entry(fp ^ 2, sigNearA, "r", 0), min).entry().id());
    }

    /** A signed entry reserves its signature too, and gives back exactly what it reserved. */
    public void testSignedEntriesReserveTheirSignature() {
        assertEquals(
            RecentFingerprints.entryBytes(16, "id") + RecentFingerprints.SIGNATURE_BYTES,
            RecentFingerprints.entryBytes(16, "id", true)
        );
        assertTrue(RecentFingerprints.SIGNATURE_BYTES >= Signature.BYTES);
        CircuitBreaker breaker = breaker(ByteSizeValue.parseBytesSizeValue("100mb", "test").getBytes());
        RecentFingerprints.Registry registry = new RecentFingerprints.Registry(() -> 0L, 1000, new WindowMemory(() -> breaker));
        RecentFingerprints w = registry.window("a", "fp", 16, 5, 60_000);
        w.checkAndAdd(1L, Signature.of(1, 2), 0.35, "s1", null, 1_000);
        w.checkAndAdd(2L << 40, null, 0.35, "u1", null, 1_000);
        assertEquals(RecentFingerprints.entryBytes(16, "s1", true) + RecentFingerprints.entryBytes(16, "u1", false), breaker.getUsed());
        for (int i = 0; i < 10; i++) { // evictions give back what each entry reserved
            w.checkAndAdd(randomLong(), randomBoolean() ? Signature.of(i) : null, 0.35, "x" + i, null, 1_000);
        }
        assertEquals(registry.reservedBytes(), breaker.getUsed());
        RecentFingerprints set = RecentFingerprints.bulkSet(16, registry.bulkBudget());
        set.checkAndKeep(new RecentFingerprints.Entry(3L, Signature.of(3), "b1", 0), 0.35);
        assertEquals(registry.reservedBytes() + RecentFingerprints.entryBytes(16, "b1", true), breaker.getUsed());
        set.retire();
        registry.clear();
        assertEquals("every reservation is released", 0, breaker.getUsed());
    }
}
