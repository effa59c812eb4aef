package org.nearduplicate.core.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;

/**
 * A per-node window of the fingerprints the {@code near_duplicate_check} processor has recently seen for one target
 * index and field: it catches copies that a search cannot see yet (same bulk request, or not refreshed yet).
 *
 * <p>Lookups use pigeonhole block keys ({@link BlockLayout} with {@code k + 1} blocks, at most 16, one kept block per
 * key): two fingerprints within k bits agree on at least one whole block, so every entry within k is found by looking
 * up the k + 1 keys (for k = 16, 16 blocks, and the first block's variants within one bit: the layout's probe
 * thresholds), and each candidate is verified exactly. From k = 7 the blocks are so narrow that the window scans a
 * column of every entry's fingerprint once instead ({@link Lookup}). {@link #checkAndAdd} is atomic, so of two copies processed at the same time one
 * always sees the other.
 *
 * <p>Verification ({@code simhash-v4}): an entry may carry the document's {@link Signature}. A candidate within k whose
 * signature and the probe's are both present is a match only when they agree on at least as many slots as the
 * caller's {@code minSimilarity} needs ({@link Signature#minAgreeing}), as the {@code near_duplicate} query decides; a
 * side without signature is compared on its fingerprint alone.
 *
 * <p>Bounded: at most {@code capacity} entries (oldest evicted first) and entries older than {@code ttlMillis} are
 * ignored and evicted; every entry is also reserved from the node's {@link Budget} (all windows of a node together),
 * and a window that cannot reserve makes room from its own oldest entries, or does not keep the new one.
 *
 * <p>Gaps: a document the window lets go of (evicted, expired, or never kept) before it may be searchable (its check
 * time + the horizon the caller passes, see {@link #checkAndAdd(long, String, Object, long)}) leaves a gap until then:
 * {@link #staleUntil} says until when, so that a check finding nothing in that time is not reported as unique.
 *
 * <p>{@link #bulkSet} makes the exhaustive variant for the documents of one bulk request: no capacity, no TTL, never
 * evicts; when the budget refuses an entry it keeps nothing more and {@link #overflowed} says so.
 *
 * <p>No platform types: the node's memory accounting comes in as a {@link Memory} (OpenSearch's adapter puts its circuit
 * breaker behind it), so another platform reuses the window as it is.
 */
public final class RecentFingerprints {

    /** One seen document. {@code group} completes once the processor has decided the document's group. */
    public static final class Entry {
        final long fingerprint;
        /** The verification signature ({@link Signature#BYTES} bytes), or null. */
        final byte[] signature;
        /** The index the document was written to; null when not known. */
        final String index;
        final String id;
        final long addedMillis;
        /** The bulk request (batch) that checked it; null: checked alone. */
        final Object batch;
        final CompletableFuture<String> group = new CompletableFuture<>();

        public Entry(long fingerprint, String id, long addedMillis) {
            this(fingerprint, null, null, id, addedMillis, null);
        }

        /** {@code signature}: the document's verification signature, or null (compared on the fingerprint alone). */
        public Entry(long fingerprint, byte[] signature, String id, long addedMillis) {
            this(fingerprint, signature, null, id, addedMillis, null);
        }

        /**
         * As {@link #Entry(long, byte[], String, long)}, for a document written to {@code index} (null: not known). Two
         * entries are the same document (an earlier version, never its own duplicate) when their ids are equal and so are
         * their indices, or one index is not known.
         */
        public Entry(long fingerprint, byte[] signature, String index, String id, long addedMillis) {
            this(fingerprint, signature, index, id, addedMillis, null);
        }

        Entry(long fingerprint, byte[] signature, String index, String id, long addedMillis, Object batch) {
            if (signature != null && signature.length != Signature.BYTES) {
                throw new IllegalArgumentException("a signature has " + Signature.BYTES + " bytes, got " + signature.length);
            }
            this.fingerprint = fingerprint;
            this.signature = signature;
            this.index = index;
            this.id = id;
            this.addedMillis = addedMillis;
            this.batch = batch;
        }

        public long fingerprint() {
            return fingerprint;
        }

        public String id() {
            return id;
        }

        /** The index the document was written to, or null when not known. */
        public String index() {
            return index;
        }

        /** Whether {@code id} in {@code index} (null: not known) names this entry's document. */
        boolean sameDocument(String index, String id) {
            return id != null && id.equals(this.id) && (index == null || this.index == null || index.equals(this.index));
        }

        /** The verification signature, or null. */
        public byte[] signature() {
            return signature;
        }

        /** When the window checked it (the window's clock). */
        public long addedMillis() {
            return addedMillis;
        }

        public CompletableFuture<String> group() {
            return group;
        }
    }

    /** The closest earlier entry within k, and its distance. */
    public record Match(Entry entry, int distance) {
    }

    /**
     * The outcome of {@link #checkAndAdd}: the closest earlier entry (or null), the entry added for this document, and
     * until when documents let go of before this check may be invisible to searches ({@link #staleUntil}).
     */
    public record Result(Match match, Entry added, long staleUntil) {
    }

    private final int maxDistance;
    private final int capacity;
    private final long ttlMillis;
    private final LongSupplier clock;
    private final BlockLayout layout;
    /** Per key combination, the bits a probe's block may differ from an entry's (layout's probe thresholds for k). */
    private final int[] thresholds;
    /** The entries in insertion order, oldest first, with their fingerprints as a column. */
    private final Ring order = new Ring();
    /** How a lookup finds the entries within k: {@link Lookup#forDistance}. */
    private final Lookup lookup;
    /** Per combination: kept bits -> entries ({@link Lookup#BLOCK_KEYS} only). */
    private final List<Map<Long, List<Entry>>> buckets;

    /**
     * How the window finds its entries within k. {@link #BLOCK_KEYS}: a bucket per pigeonhole block key, probed k + 1
     * times. The wider k, the narrower the blocks (8 blocks of 8 bits at k = 7), so a bucket holds 1/256 of the
     * entries or more and the k + 1 probes (and an eviction's k + 1 bucket removals) visit a large share of the window by hash
     * lookups and pointer chasing; {@link #LINEAR_SCAN} reads the window's column of fingerprints once, in insertion
     * order, and keeps no buckets. From {@link #LINEAR_SCAN_FROM_DISTANCE} on the scan is the faster
     * ({@code bench/window.sh}). Both find the same closest distance (RecentFingerprintsTests compares them with brute
     * force).
     */
    public enum Lookup {
        BLOCK_KEYS,
        LINEAR_SCAN;

        public static final int LINEAR_SCAN_FROM_DISTANCE = 7;

        public static Lookup forDistance(int maxDistance) {
            return maxDistance >= LINEAR_SCAN_FROM_DISTANCE ? LINEAR_SCAN : BLOCK_KEYS;
        }
    }

    /**
     * The window answers k up to {@link BlockLayout#MAX_DISTANCE} (16, the default of {@code simhash-v4}; its in-memory
     * keys are pigeonhole blocks, at most 16, probed with one-bit variants beyond k = 15): a capacity of the window,
     * checked where a k meets it; the option itself is parsed by {@link org.nearduplicate.core.MaxDistance}.
     */
    public static void checkMaxDistance(int maxDistance) {
        if (maxDistance < 0 || maxDistance > BlockLayout.MAX_DISTANCE) {
            throw new IllegalArgumentException(
                "[max_distance] must be between 0 and "
                    + BlockLayout.MAX_DISTANCE
                    + " for the recent-fingerprints window, got "
                    + maxDistance
            );
        }
    }

    /** The window's layout for k: {@code k + 1} single-block keys, at most {@link BlockLayout#MAX_BLOCKS}. */
    private static BlockLayout layout(int maxDistance) {
        return new BlockLayout(Math.min(maxDistance + 1, BlockLayout.MAX_BLOCKS), maxDistance);
    }

    /**
     * What all windows of a node may hold together: {@link #tryReserve} before an entry is kept, {@link #release}
     * when it leaves. Implementations are thread-safe.
     */
    public interface Budget {
        boolean tryReserve(long bytes);

        void release(long bytes);

        Budget UNLIMITED = new Budget() {
            @Override
            public boolean tryReserve(long bytes) {
                return true;
            }

            @Override
            public void release(long bytes) {}
        };
    }

    /**
     * Estimated heap of one kept entry without signature: the entry and its group future, its slot in the eviction
     * order, and per key a map node, a boxed key and a small list (an upper bound: keys usually share buckets only by
     * chance).
     */
    public static long entryBytes(int maxDistance, String id) {
        return entryBytes(maxDistance, id, false);
    }

    /** Heap of a signature an entry keeps: its {@link Signature#BYTES} bytes and the array's header. */
    public static final long SIGNATURE_BYTES = Signature.BYTES + 16;

    /** As {@link #entryBytes(int, String)}, plus {@link #SIGNATURE_BYTES} for an entry that keeps a signature. */
    public static long entryBytes(int maxDistance, String id, boolean signed) {
        int keys = Math.min(maxDistance + 1, BlockLayout.MAX_BLOCKS);
        return 96 + (id == null ? 0 : 40 + 2L * id.length()) + keys * 112L + (signed ? SIGNATURE_BYTES : 0);
    }

    private long entryBytes(Entry e) {
        return entryBytes(maxDistance, e.id, e.signature != null);
    }

    /**
     * The node's memory accounting, e.g. a circuit breaker: {@link #tryReserve} refuses bytes the node cannot spare,
     * {@code label} names who asks (for the platform's messages and statistics). Implementations are thread-safe.
     */
    public interface Memory {
        boolean tryReserve(long bytes, String label);

        void release(long bytes);

        Memory UNLIMITED = new Memory() {
            @Override
            public boolean tryReserve(long bytes, String label) {
                return true;
            }

            @Override
            public void release(long bytes) {}
        };
    }

    private final Budget budget;
    private boolean retired;
    private volatile long lastAddMillis;
    /** The horizon of the last check (see {@link #checkAndAdd(long, String, Object, long)}). */
    private volatile long horizonMillis;
    /** Bulk set ({@link #bulkSet}): never evicts, and stops keeping once the budget refused. */
    private final boolean exhaustive;
    private boolean overflowed;
    /**
     * Gaps: the latest time until which a let-go document may be invisible to searches ({@code gapUntil}, of batch
     * {@code gapBatch}), and an upper bound of the same over the documents of every other batch ({@code otherGapUntil}).
     */
    private long gapUntil = Long.MIN_VALUE;
    private Object gapBatch;
    private long otherGapUntil = Long.MIN_VALUE;
    private long lostEntries;

    public RecentFingerprints(int maxDistance, int capacity, long ttlMillis, LongSupplier clock) {
        this(maxDistance, capacity, ttlMillis, clock, Budget.UNLIMITED);
    }

    public RecentFingerprints(int maxDistance, int capacity, long ttlMillis, LongSupplier clock, Budget budget) {
        this(maxDistance, capacity, ttlMillis, clock, budget, false, Lookup.forDistance(maxDistance));
    }

    /** A window with a given {@link Lookup} rather than the one for its k (tests and benchmarks compare the two). */
    public static RecentFingerprints withLookup(int maxDistance, int capacity, Lookup lookup) {
        return new RecentFingerprints(maxDistance, capacity, Long.MAX_VALUE, () -> 0L, Budget.UNLIMITED, false, lookup);
    }

    private RecentFingerprints(
        int maxDistance,
        int capacity,
        long ttlMillis,
        LongSupplier clock,
        Budget budget,
        boolean exhaustive,
        Lookup lookup
    ) {
        checkMaxDistance(maxDistance);
        this.lookup = lookup;
        this.exhaustive = exhaustive;
        this.horizonMillis = ttlMillis;
        this.budget = budget;
        this.maxDistance = maxDistance;
        this.capacity = capacity;
        this.ttlMillis = ttlMillis;
        this.clock = clock;
        this.layout = layout(maxDistance);
        this.thresholds = layout.probeThresholds(maxDistance);
        this.buckets = new ArrayList<>(layout.keyCount());
        for (int c = 0; lookup == Lookup.BLOCK_KEYS && c < layout.keyCount(); c++) {
            buckets.add(new HashMap<>());
        }
        this.lastAddMillis = clock.getAsLong();
    }

    /**
     * The set of one bulk request's documents: every entry is kept (reserved from {@code budget}, never evicted, no
     * TTL) until the budget refuses one; from then on it keeps nothing more and {@link #overflowed} is true.
     * {@link #retire} gives its entries back.
     */
    public static RecentFingerprints bulkSet(int maxDistance, Budget budget) {
        return new RecentFingerprints(
            maxDistance,
            Integer.MAX_VALUE,
            Long.MAX_VALUE,
            () -> 0L,
            budget,
            true,
            Lookup.forDistance(maxDistance)
        );
    }

    /**
     * Bulk set: finds the closest earlier entry within k of {@code entry} (other than an earlier version of its
     * document: its non-null id in its index) and
     * keeps {@code entry}, unless the set has overflowed or the budget refuses it (then it overflows). Signatures are
     * not verified ({@link #checkAndKeep(Entry, double)} with NaN).
     */
    public Match checkAndKeep(Entry entry) {
        return checkAndKeep(entry, Double.NaN);
    }

    /**
     * As {@link #checkAndKeep(Entry)}, where an earlier entry whose signature and {@code entry}'s are both present must
     * reach {@code minSimilarity} (NaN: not verified).
     */
    public synchronized Match checkAndKeep(Entry entry, double minSimilarity) {
        assert exhaustive;
        Match best = find(entry.fingerprint, entry.signature, minAgreeing(minSimilarity), entry.index, entry.id);
        if (overflowed == false && retired == false) {
            if (budget.tryReserve(entryBytes(entry))) {
                keep(entry);
            } else {
                overflowed = true;
            }
        }
        return best;
    }

    /** Bulk set: true once an entry could not be kept (later checks are not exhaustive). */
    public synchronized boolean overflowed() {
        return overflowed;
    }

    /**
     * Finds the closest live entry within k of {@code fingerprint} (ignoring entries with the same non-null id, i.e.
     * earlier versions of the same document) and adds this document, in one atomic step. Let-go documents count as
     * searchable after the window's TTL.
     */
    public Result checkAndAdd(long fingerprint, String id) {
        return checkAndAdd(fingerprint, id, null, ttlMillis);
    }

    /**
     * As {@link #checkAndAdd(long, String, Object, long)}, without signature: compared on the fingerprint alone.
     */
    public Result checkAndAdd(long fingerprint, String id, Object batch, long horizonMillis) {
        return checkAndAdd(fingerprint, null, Double.NaN, id, batch, horizonMillis);
    }

    /**
     * As {@link #checkAndAdd(long, String)}, for a document of {@code batch} (null: checked alone) with its verification
     * {@code signature} (null: none): an entry within k whose signature is present too matches only when the two reach
     * {@code minSimilarity} (NaN: not verified; the target field's, e.g. {@code SimHashSettings.V6_MIN_SIMILARITY} for
     * {@code simhash-v6}). A document the window lets go of before {@code horizonMillis} have passed since its check
     * (Long.MAX_VALUE: never searchable) leaves a gap until then ({@link #staleUntil}).
     */
    public Result checkAndAdd(long fingerprint, byte[] signature, double minSimilarity, String id, Object batch, long horizonMillis) {
        return checkAndAdd(fingerprint, signature, minSimilarity, null, id, batch, horizonMillis);
    }

    /**
     * As {@link #checkAndAdd(long, byte[], double, String, Object, long)}, for a document written to {@code index} (null:
     * not known), which its entry records ({@link Entry#index}): an entry with the same id is an earlier version of the
     * document (not compared) only when it was written to the same index (or one of the two indices is not known); the
     * same id in another index is another document.
     */
    public synchronized Result checkAndAdd(
        long fingerprint,
        byte[] signature,
        double minSimilarity,
        String index,
        String id,
        Object batch,
        long horizonMillis
    ) {
        return checkAndAdd(fingerprint, signature, minSimilarity, index, id, batch, horizonMillis, true);
    }

    /**
     * As {@link #checkAndAdd(long, byte[], double, String, String, Object, long)}; with {@code record} false the
     * document is compared but not kept (a document that is not written, e.g. one of {@code _simulate}), so no later
     * document can match it.
     */
    public synchronized Result checkAndAdd(
        long fingerprint,
        byte[] signature,
        double minSimilarity,
        String index,
        String id,
        Object batch,
        long horizonMillis,
        boolean record
    ) {
        long now = clock.getAsLong();
        this.horizonMillis = horizonMillis;
        expire(now);
        Entry added = new Entry(fingerprint, signature, index, id, now, batch);
        Match best = find(fingerprint, signature, minAgreeing(minSimilarity), index, id);
        long staleUntil = staleUntil(batch); // before this document's own evictions: it was compared with those
        if (record == false) {
            return new Result(best, added, staleUntil);
        }
        if (capacity > 0 && retired == false) {
            while (order.size() >= capacity) {
                lose(order.peekFirst(), now);
                remove(order.pollFirst());
            }
            while (budget.tryReserve(entryBytes(added)) == false) {
                if (order.isEmpty()) { // the node's windows are full: this one has nothing to give back
                    lose(added, now);
                    lastAddMillis = now;
                    return new Result(best, added, staleUntil);
                }
                lose(order.peekFirst(), now);
                remove(order.pollFirst());
            }
            keep(added);
        } else if (retired == false) {
            lose(added, now); // window_size 0: every document is let go at once
        }
        lastAddMillis = now;
        return new Result(best, added, staleUntil);
    }

    /**
     * Until when a check of a document of {@code batch} may miss a document this window let go of before it was
     * searchable (Long.MIN_VALUE: no gap). The let-go documents of {@code batch} itself are not counted (the bulk set
     * has them), except when another batch's gap was recorded after them (then the bound is conservative).
     */
    public synchronized long staleUntil(Object batch) {
        return batch != null && batch == gapBatch ? otherGapUntil : Math.max(gapUntil, otherGapUntil);
    }

    /** Documents let go of before they were searchable, since the window was made. */
    public synchronized long lostEntries() {
        return lostEntries;
    }

    private void lose(Entry e, long now) {
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

    /** Slots two signatures must agree on for {@code minSimilarity}; 0 (always agree) for NaN: not verified. */
    private static int minAgreeing(double minSimilarity) {
        return Double.isNaN(minSimilarity) ? 0 : Signature.minAgreeing(minSimilarity);
    }

    private Match find(long fingerprint, byte[] signature, int minAgreeing, String index, String id) {
        Match[] best = new Match[1];
        if (lookup == Lookup.LINEAR_SCAN) {
            // one pass over the fingerprint column, oldest first (the ring's two runs, each a plain loop); an entry is
            // read only when its fingerprint is within k
            int first = Math.min(order.size, order.fingerprints.length - order.head);
            scanColumn(order.head, order.head + first, fingerprint, signature, minAgreeing, index, id, best);
            scanColumn(0, order.size - first, fingerprint, signature, minAgreeing, index, id, best);
            return best[0];
        }
        for (int c = 0; c < layout.keyCount(); c++) {
            long kept = layout.keptMask(c);
            Map<Long, List<Entry>> keys = buckets.get(c);
            if (thresholds[c] == 0) {
                scan(keys.get(fingerprint & kept), fingerprint, signature, minAgreeing, index, id, best);
            } else {
                // the block's variants within thresholds[c] bits (k = 16: one bit of the first block)
                variants(
                    fingerprint,
                    kept,
                    Long.numberOfTrailingZeros(kept),
                    thresholds[c],
                    v -> scan(keys.get(v & kept), fingerprint, signature, minAgreeing, index, id, best)
                );
            }
        }
        return best[0];
    }

    /** {@link #consider} for the entries at {@code [from, to)} of the ring whose fingerprints are within k. */
    private void scanColumn(int from, int to, long fingerprint, byte[] signature, int minAgreeing, String index, String id, Match[] best) {
        long[] fingerprints = order.fingerprints;
        for (int at = from; at < to; at++) {
            if (Long.bitCount(fingerprints[at] ^ fingerprint) <= maxDistance) {
                consider(order.entries[at], fingerprint, signature, minAgreeing, index, id, best);
            }
        }
    }

    /** {@code fingerprint} and every variant of it within {@code flips} bits of {@code mask}, from bit {@code from} on. */
    private static void variants(long fingerprint, long mask, int from, int flips, java.util.function.LongConsumer out) {
        out.accept(fingerprint);
        if (flips == 0) return;
        for (int bit = from; bit < 64; bit++) {
            if ((mask >>> bit & 1L) != 0) {
                variants(fingerprint ^ (1L << bit), mask, bit + 1, flips - 1, out);
            }
        }
    }

    private void scan(List<Entry> bucket, long fingerprint, byte[] signature, int minAgreeing, String index, String id, Match[] best) {
        if (bucket == null) {
            return;
        }
        for (Entry e : bucket)
            consider(e, fingerprint, signature, minAgreeing, index, id, best);
    }

    /** Makes {@code e} the best match if it is within k, closer than the best so far and, both signed, verified. */
    private void consider(Entry e, long fingerprint, byte[] signature, int minAgreeing, String index, String id, Match[] best) {
        int d = Fingerprints.distance(fingerprint, e.fingerprint);
        if (d > maxDistance || (best[0] != null && d >= best[0].distance()) || e.sameDocument(index, id)) {
            return;
        }
        // both signed: the signatures must agree, as the query's verification; otherwise the fingerprint alone
        if (signature != null && e.signature != null && Signature.agreesOnAtLeast(signature, e.signature, 0, minAgreeing) == false) {
            return;
        }
        best[0] = new Match(e, d);
    }

    private void keep(Entry added) {
        order.addLast(added);
        for (int c = 0; lookup == Lookup.BLOCK_KEYS && c < layout.keyCount(); c++) {
            buckets.get(c).computeIfAbsent(added.fingerprint & layout.keptMask(c), k -> new ArrayList<>(1)).add(added);
        }
    }

    private void expire(long now) {
        while (order.isEmpty() == false && now - order.peekFirst().addedMillis > ttlMillis) {
            lose(order.peekFirst(), now); // expired before searchable: only when the horizon exceeds the TTL
            remove(order.pollFirst());
        }
    }

    private void remove(Entry e) {
        budget.release(entryBytes(e));
        for (int c = 0; lookup == Lookup.BLOCK_KEYS && c < layout.keyCount(); c++) {
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

    /**
     * Empties the window and gives its entries back to the budget: the registry forgot it. A processor that still
     * holds it may check against it, but it keeps nothing more (nobody would release it).
     */
    public synchronized void retire() {
        retired = true;
        while (order.isEmpty() == false) {
            remove(order.pollFirst());
        }
    }

    long lastAddMillis() {
        return lastAddMillis;
    }

    /** True when the registry may forget this window: idle beyond its TTL and its horizon, and no gap left. */
    private synchronized boolean forgettable(long now) {
        long idle = Math.max(ttlMillis, horizonMillis);
        return (idle == Long.MAX_VALUE || now - lastAddMillis <= idle) == false && now >= Math.max(gapUntil, otherGapUntil);
    }

    /**
     * The node's windows, one per (target index, field, algorithm, k, window size, TTL): a pipeline's window options are
     * its own, pipelines with the same options share a window, and fingerprints of different algorithms are never in one
     * window. Windows idle for longer than their TTL and horizon are dropped (never while they have a gap). All
     * windows reserve their entries from one budget: at most {@code maxEntries} entries on the node, each also
     * reserved from the node's {@link Memory} (released when it leaves).
     */
    public static final class Registry {
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
        public Registry(LongSupplier clock) {
            this(clock, Long.MAX_VALUE, Memory.UNLIMITED);
        }

        public Registry(LongSupplier clock, long maxEntries, Memory memory) {
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

    /**
     * A FIFO of entries (an {@code ArrayDeque}'s ring) that keeps their fingerprints in a {@code long[]} beside them, so
     * that {@link Lookup#LINEAR_SCAN} reads contiguous memory instead of one object per entry. Its 8 bytes per entry
     * are within {@link #entryBytes}, which counts the block-key buckets this lookup does not build.
     */
    private static final class Ring {
        private Entry[] entries = new Entry[16];
        private long[] fingerprints = new long[16];
        private int head;
        private int size;

        int size() {
            return size;
        }

        boolean isEmpty() {
            return size == 0;
        }

        void addLast(Entry e) {
            if (size == entries.length) grow();
            int at = (head + size) & (entries.length - 1);
            entries[at] = e;
            fingerprints[at] = e.fingerprint;
            size++;
        }

        Entry peekFirst() {
            return size == 0 ? null : entries[head];
        }

        Entry pollFirst() {
            if (size == 0) return null;
            Entry e = entries[head];
            entries[head] = null;
            head = (head + 1) & (entries.length - 1);
            size--;
            return e;
        }

        private void grow() {
            Entry[] moreEntries = new Entry[entries.length * 2];
            long[] moreFingerprints = new long[entries.length * 2];
            for (int i = 0; i < size; i++) {
                int at = (head + i) & (entries.length - 1);
                moreEntries[i] = entries[at];
                moreFingerprints[i] = fingerprints[at];
            }
            entries = moreEntries;
            fingerprints = moreFingerprints;
            head = 0;
        }
    }
}
