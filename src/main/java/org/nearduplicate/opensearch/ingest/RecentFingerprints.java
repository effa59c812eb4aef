package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A per-node window of the fingerprints the {@code near_duplicate_check} processor has recently seen for one target
 * index and field: it catches copies that a search cannot see yet (same bulk request, or not refreshed yet).
 *
 * <p>Lookups use pigeonhole block keys ({@link BlockLayout} with {@code k + 1} blocks, one kept block per key): two
 * fingerprints within k bits agree on at least one whole block, so every entry within k is found by looking up
 * the k + 1 keys, and each candidate is verified exactly. {@link #checkAndAdd} is atomic, so of two copies
 * processed at the same time one always sees the other.
 *
 * <p>Bounded: at most {@code capacity} entries (oldest evicted first) and entries older than {@code ttlMillis} are
 * ignored and evicted.
 */
public final class RecentFingerprints {

    /** One seen document. {@code group} completes once the processor has decided the document's group. */
    public static final class Entry {
        final long fingerprint;
        final String id;
        final long addedMillis;
        final CompletableFuture<String> group = new CompletableFuture<>();

        Entry(long fingerprint, String id, long addedMillis) {
            this.fingerprint = fingerprint;
            this.id = id;
            this.addedMillis = addedMillis;
        }

        public long fingerprint() {
            return fingerprint;
        }

        public String id() {
            return id;
        }

        public CompletableFuture<String> group() {
            return group;
        }
    }

    /** The closest earlier entry within k, and its distance. */
    public record Match(Entry entry, int distance) {}

    /** The outcome of {@link #checkAndAdd}: the closest earlier entry (or null) and the entry added for this document. */
    public record Result(Match match, Entry added) {}

    private final int maxDistance;
    private final int capacity;
    private final long ttlMillis;
    private final LongSupplier clock;
    private final BlockLayout layout;
    private final ArrayDeque<Entry> order = new ArrayDeque<>();
    /** Per combination: kept bits -> entries. */
    private final List<Map<Long, List<Entry>>> buckets;

    /**
     * The window answers k up to 15 (its in-memory keys are pigeonhole blocks, at most 16): a capacity of the window,
     * checked where a k meets it; the option itself is parsed by {@link org.nearduplicate.opensearch.common.MaxDistance}.
     */
    public static void checkMaxDistance(int maxDistance) {
        if (maxDistance < 0 || maxDistance >= BlockLayout.MAX_BLOCKS) {
            throw new IllegalArgumentException(
                "[max_distance] must be between 0 and " + (BlockLayout.MAX_BLOCKS - 1) + " for the recent-fingerprints window, got " + maxDistance
            );
        }
    }
    private volatile long lastAddMillis;

    public RecentFingerprints(int maxDistance, int capacity, long ttlMillis, LongSupplier clock) {
        checkMaxDistance(maxDistance);
        this.maxDistance = maxDistance;
        this.capacity = capacity;
        this.ttlMillis = ttlMillis;
        this.clock = clock;
        this.layout = new BlockLayout(maxDistance + 1, maxDistance);
        this.buckets = new ArrayList<>(layout.keyCount());
        for (int c = 0; c < layout.keyCount(); c++) {
            buckets.add(new HashMap<>());
        }
        this.lastAddMillis = clock.getAsLong();
    }

    /**
     * Finds the closest live entry within k of {@code fingerprint} (ignoring entries with the same non-null id, i.e.
     * earlier versions of the same document) and adds this document, in one atomic step.
     */
    public synchronized Result checkAndAdd(long fingerprint, String id) {
        long now = clock.getAsLong();
        expire(now);
        Match best = null;
        for (int c = 0; c < layout.keyCount(); c++) {
            List<Entry> bucket = buckets.get(c).get(fingerprint & layout.keptMask(c));
            if (bucket == null) {
                continue;
            }
            for (Entry e : bucket) {
                if (id != null && id.equals(e.id)) {
                    continue;
                }
                int d = Fingerprints.distance(fingerprint, e.fingerprint);
                if (d <= maxDistance && (best == null || d < best.distance())) {
                    best = new Match(e, d);
                }
            }
        }
        Entry added = new Entry(fingerprint, id, now);
        if (capacity > 0) {
            while (order.size() >= capacity) {
                remove(order.pollFirst());
            }
            order.addLast(added);
            for (int c = 0; c < layout.keyCount(); c++) {
                buckets.get(c).computeIfAbsent(fingerprint & layout.keptMask(c), k -> new ArrayList<>(1)).add(added);
            }
        }
        lastAddMillis = now;
        return new Result(best, added);
    }

    private void expire(long now) {
        while (order.isEmpty() == false && now - order.peekFirst().addedMillis > ttlMillis) {
            remove(order.pollFirst());
        }
    }

    private void remove(Entry e) {
        for (int c = 0; c < layout.keyCount(); c++) {
            long key = e.fingerprint & layout.keptMask(c);
            List<Entry> bucket = buckets.get(c).get(key);
            if (bucket != null) {
                bucket.remove(e);
                if (bucket.isEmpty()) {
                    buckets.get(c).remove(key);
                }
            }
        }
    }

    public synchronized int size() {
        return order.size();
    }

    long lastAddMillis() {
        return lastAddMillis;
    }

    /** The node's windows, one per (target index, field, k); windows idle for longer than their TTL are dropped. */
    public static final class Registry {
        private final ConcurrentHashMap<String, RecentFingerprints> windows = new ConcurrentHashMap<>();
        private final LongSupplier clock;
        private long calls;

        public Registry(LongSupplier clock) {
            this.clock = clock;
        }

        public RecentFingerprints window(String index, String field, int maxDistance, int capacity, long ttlMillis) {
            String key = index + '\u0000' + field + '\u0000' + maxDistance;
            if ((++calls & 1023) == 0) {
                long now = clock.getAsLong();
                for (Iterator<RecentFingerprints> it = windows.values().iterator(); it.hasNext();) {
                    RecentFingerprints w = it.next();
                    if (now - w.lastAddMillis() > w.ttlMillis) {
                        it.remove();
                    }
                }
            }
            return windows.computeIfAbsent(Objects.requireNonNull(key), k -> new RecentFingerprints(maxDistance, capacity, ttlMillis, clock));
        }

        /** Forgets the windows of a deleted index. */
        public void removeIndex(String index) {
            windows.keySet().removeIf(key -> key.startsWith(index + '\u0000'));
        }

        /** Forgets every window (tests). */
        public void clear() {
            windows.clear();
        }

        public int windowCount() {
            return windows.size();
        }
    }
}
