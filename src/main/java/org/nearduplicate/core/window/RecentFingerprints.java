package org.nearduplicate.core.window;

import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.nearduplicate.core.keys.BlockLayout;
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
 * evicted, at the window's next check or by the registry's periodic {@link #sweep}, whichever comes first; every entry
 * is also reserved from the node's {@link Budget} (all windows of a node together), and a window that cannot reserve
 * makes room from its own oldest entries, or does not keep the new one.
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
    /** The entries in insertion order, oldest first, found by the window's {@link Lookup}. */
    private final WindowEntries order;

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
    /** When the window was last asked for ({@link #use}) or added to; the registry forgets it only when idle. */
    private volatile long lastAddMillis;
    /** The horizon of the last check (see {@link #checkAndAdd(long, String, Object, long)}). */
    private volatile long horizonMillis;
    /** Bulk set ({@link #bulkSet}): never evicts, and stops keeping once the budget refused. */
    private final boolean exhaustive;
    private boolean overflowed;
    /** Until when documents let go of before they were searchable may be missed (guarded by this window's lock). */
    private final Gaps gaps = new Gaps();

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
        this.order = new WindowEntries(maxDistance, lookup);
        this.exhaustive = exhaustive;
        this.horizonMillis = ttlMillis;
        this.budget = budget;
        this.maxDistance = maxDistance;
        this.capacity = capacity;
        this.ttlMillis = ttlMillis;
        this.clock = clock;
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
        Match best = order.find(entry.fingerprint, entry.signature, minAgreeing(minSimilarity), entry.index, entry.id);
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
        return checkAndAdd(fingerprint, signature, minSimilarity, null, id, batch, horizonMillis, true);
    }

    /**
     * As {@link #checkAndAdd(long, byte[], double, String, Object, long)}, for a document written to {@code index} (null:
     * not known), which its entry records ({@link Entry#index}): an entry with the same id is an earlier version of the
     * document (not compared) only when it was written to the same index (or one of the two indices is not known); the
     * same id in another index is another document. With {@code record} false the
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
        Match best = order.find(fingerprint, signature, minAgreeing(minSimilarity), index, id);
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
        return gaps.staleUntil(batch);
    }

    /** Documents let go of before they were searchable, since the window was made. */
    public synchronized long lostEntries() {
        return gaps.lostEntries();
    }

    private void lose(Entry e, long now) {
        gaps.lose(e, now, horizonMillis);
    }

    /** Slots two signatures must agree on for {@code minSimilarity}; 0 (always agree) for NaN: not verified. */
    private static int minAgreeing(double minSimilarity) {
        return Double.isNaN(minSimilarity) ? 0 : Signature.minAgreeing(minSimilarity);
    }

    private void keep(Entry added) {
        order.addLast(added);
    }

    private void remove(Entry e) {
        budget.release(entryBytes(e));
    }

    private void expire(long now) {
        while (order.isEmpty() == false && now - order.peekFirst().addedMillis > ttlMillis) {
            lose(order.peekFirst(), now); // expired before searchable: only when the horizon exceeds the TTL
            remove(order.pollFirst());
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

    long ttlMillis() {
        return ttlMillis;
    }

    /** Slots of the window's ring of entries (tests). */
    synchronized int ringCapacity() {
        return order.ringCapacity();
    }

    /**
     * The registry hands the window out at {@code now}: it counts as used then (not idle), unless the registry's sweep
     * has already forgotten it (false: the caller asks the registry again, for a new window).
     */
    synchronized boolean use(long now) {
        if (retired) {
            return false;
        }
        lastAddMillis = Math.max(lastAddMillis, now);
        return true;
    }

    /**
     * The registry's sweep at {@code now}: lets go of the entries past the TTL (a gap when one may not be searchable yet,
     * as at a check) and gives their bytes back, and an emptied window its grown arrays; then, when the window is forgettable, {@code unregister} removes it from
     * the registry and it retires, in one step under its lock, so that {@link #use} sees either a live window or a
     * retired one. True when it was forgotten.
     */
    synchronized boolean sweep(long now, BooleanSupplier unregister) {
        if (retired) {
            return false;
        }
        expire(now);
        order.trimIfEmpty();
        if (forgettable(now) && unregister.getAsBoolean()) {
            retire();
            return true;
        }
        return false;
    }

    /** True when the registry may forget this window: idle beyond its TTL and its horizon, and no gap left. */
    synchronized boolean forgettable(long now) {
        long idle = Math.max(ttlMillis, horizonMillis);
        return (idle == Long.MAX_VALUE || now - lastAddMillis <= idle) == false && now >= gaps.until();
    }

    /** The node's windows ({@link WindowRegistry}). */
    public static final class Registry extends WindowRegistry {
        /** Unbounded and without memory accounting (tests). */
        public Registry(LongSupplier clock) {
            super(clock);
        }

        public Registry(LongSupplier clock, long maxEntries, Memory memory) {
            super(clock, maxEntries, Long.MAX_VALUE, memory);
        }

        /** At most {@code maxEntries} entries and {@code maxBytes} of their estimated heap on the node, together. */
        public Registry(LongSupplier clock, long maxEntries, long maxBytes, Memory memory) {
            super(clock, maxEntries, maxBytes, memory);
        }
    }
}
