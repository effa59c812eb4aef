package org.nearduplicate.core.stats;

import org.junit.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.nearduplicate.core.stats.NearDuplicateStats.Method;
import org.nearduplicate.core.stats.NearDuplicateStats.Outcome;
import org.nearduplicate.core.stats.NearDuplicateStats.Path;
import org.nearduplicate.core.stats.NearDuplicateStats.Snapshot;
import org.nearduplicate.core.stats.NearDuplicateStats.Stat;

import static org.junit.Assert.assertEquals;

public class NearDuplicateStatsTests {

    @Test
    public void countsEachEventUnderItsName() {
        NearDuplicateStats stats = new NearDuplicateStats();
        stats.fingerprint(Method.SIMHASH);
        stats.fingerprint(Method.SIMHASH);
        stats.fingerprint(Method.MINHASH);
        stats.refused(Method.IMATCH);
        stats.probe();
        stats.query();
        stats.segment(Path.KEYS, 0);
        stats.segmentTime(Path.KEYS, 1_500);
        stats.segment(Path.COLUMN, 200);
        stats.segment(Path.SCAN, 0);
        stats.segment(Path.CANDIDATE_KEYS, 0);
        stats.segmentTime(Path.CANDIDATE_KEYS, 700);
        stats.candidateKeyPostings(31);
        stats.check(Outcome.DUPLICATE);
        stats.check(Outcome.UNIQUE);
        stats.check(Outcome.UNIQUE);
        stats.check(Outcome.UNCHECKED);
        stats.check(Outcome.TIMED_OUT);
        stats.check(Outcome.FAILED);
        stats.groups(false, false, 12);
        stats.groups(true, true, 30);
        Snapshot s = stats.snapshot();
        assertEquals(2, s.get(Stat.FINGERPRINTS_SIMHASH_COMPUTED));
        assertEquals(1, s.get(Stat.FINGERPRINTS_MINHASH_COMPUTED));
        assertEquals(0, s.get(Stat.FINGERPRINTS_IMATCH_COMPUTED));
        assertEquals(1, s.get(Stat.FINGERPRINTS_IMATCH_REFUSED));
        assertEquals(1, s.get(Stat.FINGERPRINTS_PROBES));
        assertEquals(1, s.get(Stat.QUERIES_TOTAL));
        assertEquals(1, s.get(Stat.QUERIES_KEYS_SEGMENTS));
        assertEquals(1_500, s.get(Stat.QUERIES_KEYS_TIME));
        assertEquals(1, s.get(Stat.QUERIES_COLUMN_SEGMENTS));
        assertEquals(200, s.get(Stat.QUERIES_COLUMN_TIME));
        assertEquals(1, s.get(Stat.QUERIES_SCAN_SEGMENTS));
        assertEquals("the candidate keys count under their own name", 1, s.get(Stat.QUERIES_KEYS_SEGMENTS));
        assertEquals(1, s.get(Stat.QUERIES_CANDIDATE_KEYS_SEGMENTS));
        assertEquals(700, s.get(Stat.QUERIES_CANDIDATE_KEYS_TIME));
        assertEquals(1, s.get(Stat.QUERIES_CANDIDATE_KEYS_TIMED));
        assertEquals(31, s.get(Stat.QUERIES_CANDIDATE_KEYS_POSTINGS));
        assertEquals("queries.candidate_keys.segments", Stat.QUERIES_CANDIDATE_KEYS_SEGMENTS.key());
        assertEquals(1, s.get(Stat.CHECK_DUPLICATE));
        assertEquals(2, s.get(Stat.CHECK_UNIQUE));
        assertEquals(1, s.get(Stat.CHECK_UNCHECKED));
        assertEquals(1, s.get(Stat.CHECK_TIMED_OUT));
        assertEquals(1, s.get(Stat.CHECK_FAILED));
        assertEquals(1, s.get(Stat.GROUPS_RUNS));
        assertEquals(0, s.get(Stat.GROUPS_FAILED));
        assertEquals(12, s.get(Stat.GROUPS_TIME));
        assertEquals(1, s.get(Stat.GROUPS_WRITE_RUNS));
        assertEquals(1, s.get(Stat.GROUPS_WRITE_FAILED));
        assertEquals(30, s.get(Stat.GROUPS_WRITE_TIME));
    }

    @Test
    public void gaugesAreReadAtSnapshotTime() {
        NearDuplicateStats stats = new NearDuplicateStats();
        long[] used = { 10 };
        stats.addGauges(b -> b.set(Stat.BREAKER_USED, used[0]).set(Stat.BREAKER_LIMIT, 100));
        assertEquals(10, stats.snapshot().get(Stat.BREAKER_USED));
        used[0] = 42;
        assertEquals(42, stats.snapshot().get(Stat.BREAKER_USED));
        assertEquals(100, stats.snapshot().get(Stat.BREAKER_LIMIT));
    }

    @Test
    public void snapshotsSumAndCrossTheWireByName() {
        NearDuplicateStats a = new NearDuplicateStats();
        NearDuplicateStats b = new NearDuplicateStats();
        a.fingerprint(Method.SIMHASH);
        b.fingerprint(Method.SIMHASH);
        b.check(Outcome.DUPLICATE);
        Snapshot total = a.snapshot().plus(b.snapshot());
        assertEquals(2, total.get(Stat.FINGERPRINTS_SIMHASH_COMPUTED));
        assertEquals(1, total.get(Stat.CHECK_DUPLICATE));
        Map<String, Long> wire = new HashMap<>(total.byKey());
        wire.put("some.future.counter", 7L); // a newer node's: skipped
        wire.remove("check.unique"); // an older node's: 0
        assertEquals(total, Snapshot.fromKeys(wire));
    }

    @Test
    @SuppressWarnings("unchecked")
    public void rendersNestedByDottedName() {
        NearDuplicateStats stats = new NearDuplicateStats();
        stats.segment(Path.KEYS, 5);
        Map<String, Object> nested = stats.snapshot().toNestedMap();
        assertEquals(List.of("fingerprints", "queries", "check", "groups", "breaker", "cache"), List.copyOf(nested.keySet()));
        Map<String, Object> keys = (Map<String, Object>) ((Map<String, Object>) nested.get("queries")).get("keys");
        assertEquals(1L, keys.get("segments"));
        assertEquals(5L, keys.get("time_in_nanos"));
        assertEquals(Stat.values().length, NearDuplicateStats.keys().size());
    }

    @Test
    public void concurrentCountsAreNotLost() throws Exception {
        NearDuplicateStats stats = new NearDuplicateStats();
        int threads = 8;
        int each = 100_000;
        CountDownLatch start = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < each; i++) {
                    stats.fingerprint(Method.SIMHASH);
                }
            });
            workers[t].start();
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertEquals((long) threads * each, stats.snapshot().get(Stat.FINGERPRINTS_SIMHASH_COMPUTED));
    }

    /** Counters shared by every search and ingest thread of a node lose no count under concurrency. */
    @Test
    public void concurrentCountsAreAllKept() throws Exception {
        NearDuplicateStats stats = new NearDuplicateStats();
        int threads = 8;
        int each = 200_000;
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    stats.segment(Path.KEYS, 1);
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        assertEquals((long) threads * each, stats.snapshot().get(Stat.QUERIES_KEYS_SEGMENTS));
        assertEquals((long) threads * each, stats.snapshot().get(Stat.QUERIES_KEYS_TIME));
    }
}
