package org.nearduplicate.lucene;

import java.util.Arrays;

/**
 * Concurrent scans of one {@link FingerprintColumn} share their passes (a cooperative scan): the searches of an
 * {@code _msearch}, or any queries that reach the same segment at the same time, each join the column's pass instead of
 * reading the column once each. The pass hands out the column's blocks ({@link #CLAIM_SLOTS} values, cache-resident)
 * one claim at a time, circularly; whoever claims a block tests it against the probes of every search that still needs
 * it, so a block leaves memory once for all of them. A search joining mid-pass starts at the next block and wraps
 * around; it is done when it has seen every block once.
 *
 * <p>Every joined search's thread claims blocks too, until every block of its own range is claimed, so the work stays
 * spread over the threads that brought it (a search alone does its whole pass itself, as the plain scan would). A
 * search never waits for another thread: a block of its range still being scanned elsewhere when it runs out of claims
 * is scanned again by its own thread, and the first scan to complete counts. The result of each search is exactly {@link ColumnScan#scan}'s:
 * its matches in doc id order with their distances. A search whose matches would exceed {@link #MAX_HITS} (a very
 * large k) is answered {@code null} and scans alone, lazily, so the memory a shared pass holds per search is bounded.
 */
final class SharedColumnScan {
    /**
     * Columns with fewer slots are not shared: a pass over them costs less than ~40 microseconds (64 blocks), so
     * concurrent searches rarely overlap and the lock per block would be the only change.
     */
    static final int MIN_SLOTS = 64 * ColumnScan.BLOCK;
    /**
     * Slots per claim: four scan blocks (64 KB, L2-resident while each search of the claim reads it), so the two
     * monitors of a claim are paid once per 8,192 values; a search alone was ~6 % slower with one block per claim.
     */
    static final int CLAIM_SLOTS = 4 * ColumnScan.BLOCK;
    /** Matches one search may collect in a shared pass (8 bytes each: 512 KB); beyond, it scans alone. */
    static final int MAX_HITS = 1 << 16;

    /**
     * {@code RANDOM_WITHIN[k]}: the chance that two random 64-bit fingerprints are within k, the binomial CDF. A search
     * expected to find more than a quarter of {@link #MAX_HITS} by chance alone is not shared: it would likely overflow
     * and then scan a second time.
     */
    private static final double[] RANDOM_WITHIN = new double[Long.SIZE + 1];
    static {
        double choose = 1; // C(64, i)
        double sum = 0;
        for (int i = 0; i <= Long.SIZE; i++) {
            sum += choose;
            RANDOM_WITHIN[i] = Math.min(1, sum / Math.pow(2, Long.SIZE));
            choose = choose * (Long.SIZE - i) / (i + 1);
        }
    }

    private static final Search[] NONE = new Search[0];

    private final FingerprintColumn column;
    private final boolean slotsAreDocs;
    private final int blocks;
    /** Guards {@link #nextClaim} and {@link #searches}. */
    private final Object lock = new Object();
    /** Claims are numbered for ever; claim {@code c} is block {@code c % blocks}. */
    private long nextClaim;
    /** The searches that may still need a block; copied on change, read by claimers as a snapshot. */
    private Search[] searches = NONE;

    SharedColumnScan(FingerprintColumn column) {
        this.column = column;
        this.slotsAreDocs = ColumnScan.slotsAreDocs(column);
        this.blocks = (column.slots() + CLAIM_SLOTS - 1) / CLAIM_SLOTS;
    }

    /**
     * Whether a search of {@code probes} probes at distance {@code k} shares the column's passes: the column is large
     * enough, and the matches random fingerprints would give stay well under {@link #MAX_HITS}.
     */
    static boolean worthSharing(FingerprintColumn column, int probes, int k) {
        return worthSharing(column.slots(), column.count(), probes, k);
    }

    /** {@link #worthSharing(FingerprintColumn, int, int)} of a column of {@code slots} slots holding {@code count} values. */
    static boolean worthSharing(int slots, int count, int probes, int k) {
        return slots >= MIN_SLOTS && (double) count * probes * RANDOM_WITHIN[Math.min(Math.max(k, 0), Long.SIZE)] <= MAX_HITS / 4.0;
    }

    /** The outcome of one search's pass: its matches (null: too many, scan alone) and whether another search shared it. */
    record Result(ColumnScan.Matches matches, boolean shared) {
    }

    /** Every document within {@code k} of any of {@code probes}, as {@link ColumnScan#scan}, from the column's shared pass. */
    Result scan(long[] probes, int k) {
        Search search = join(probes, k);
        ColumnScan.Buffer scratch = new ColumnScan.Buffer();
        while (claimNext(search, scratch)) {
            // every claim also serves the other searches whose range holds it
        }
        return finish(search, scratch);
    }

    /** Enters the pass at the next claim: the search needs the next {@code blocks} claims. */
    Search join(long[] probes, int k) {
        synchronized (lock) {
            Search search = new Search(probes, k, nextClaim, nextClaim + blocks);
            for (Search other : searches) {
                if (nextClaim < other.end) { // still claiming: their ranges and this one's overlap
                    other.shared = true;
                    search.shared = true;
                }
            }
            Search[] grown = Arrays.copyOf(searches, searches.length + 1);
            grown[searches.length] = search;
            searches = grown;
            return search;
        }
    }

    /**
     * Claims the pass's next block and scans it for every search that needs it; false (and {@code search} leaves the
     * pass) when every claim of {@code search}'s range is taken.
     */
    boolean claimNext(Search search, ColumnScan.Buffer scratch) {
        Claim claim = claim(search);
        if (claim == null) return false;
        scan(claim, scratch);
        return true;
    }

    /** A claimed block and the searches in the pass when it was claimed. */
    record Claim(long number, Search[] searches) {
    }

    /** The pass's next claim, or null (and {@code search} leaves the pass) when every claim of its range is taken. */
    Claim claim(Search search) {
        synchronized (lock) {
            if (nextClaim >= search.end) {
                leave(search);
                return null;
            }
            return new Claim(nextClaim++, searches);
        }
    }

    /** Tests the claimed block against every search whose range holds the claim. */
    void scan(Claim claim, ColumnScan.Buffer scratch) {
        for (Search search : claim.searches()) {
            if (claim.number() >= search.start && claim.number() < search.end) {
                scanFor(search, claim.number(), scratch);
            }
        }
    }

    /**
     * The search's result once every block of its range is scanned for it: blocks other threads claimed but have not
     * finished are scanned again here, and whichever scan completes first counts, so no search ever waits for another
     * thread (one descheduled mid-block would stall it).
     */
    Result finish(Search search, ColumnScan.Buffer scratch) {
        for (int i = search.nextIncomplete(0); i >= 0; i = search.nextIncomplete(i + 1)) {
            scanFor(search, search.start + i, scratch);
        }
        return new Result(search.matches(), search.shared);
    }

    /** Claims handed out since the column was loaded (each one block read once). */
    long claims() {
        synchronized (lock) {
            return nextClaim;
        }
    }

    private void leave(Search search) {
        int at = -1;
        for (int i = 0; i < searches.length; i++) {
            if (searches[i] == search) at = i;
        }
        if (at < 0) return;
        Search[] shrunk = new Search[searches.length - 1];
        System.arraycopy(searches, 0, shrunk, 0, at);
        System.arraycopy(searches, at + 1, shrunk, at, searches.length - at - 1);
        searches = shrunk;
    }

    private void scanFor(Search search, long claim, ColumnScan.Buffer scratch) {
        int from = (int) (claim % blocks) * CLAIM_SLOTS;
        int to = Math.min(column.slots(), from + CLAIM_SLOTS);
        scratch.size = 0;
        if (search.overflowed == false) {
            for (int block = from; block < to; block += ColumnScan.BLOCK) {
                ColumnScan.scanBlock(column, slotsAreDocs, search.probes, search.k, block, Math.min(to, block + ColumnScan.BLOCK), scratch);
            }
        }
        search.complete((int) (claim - search.start), scratch);
    }

    /** One search in the pass: its claims are {@code start..end-1}, its {@code i}-th block claim {@code start + i}. */
    static final class Search {
        final long[] probes;
        final int k;
        final long start;
        final long end;
        /** Another search was in the pass with this one (set under the scan's lock). */
        volatile boolean shared;
        volatile boolean overflowed;
        /** Per block of the range, whether a scan of it completed; guarded by {@code this}. */
        private final boolean[] states;
        /** Blocks complete; guarded by {@code this}. */
        private int completed;
        /** Guarded by {@code this}. */
        private final ColumnScan.Buffer hits = new ColumnScan.Buffer();

        Search(long[] probes, int k, long start, long end) {
            this.probes = probes;
            this.k = k;
            this.start = start;
            this.end = end;
            this.states = new boolean[(int) (end - start)];
        }

        /** The first block at or after {@code from} not complete yet, or -1. */
        synchronized int nextIncomplete(int from) {
            if (completed == states.length) return -1;
            for (int i = from; i < states.length; i++) {
                if (states[i] == false) return i;
            }
            return -1;
        }

        /** The hits of block {@code i}, kept unless a scan of the same block completed first. */
        synchronized void complete(int i, ColumnScan.Buffer block) {
            if (states[i]) return;
            states[i] = true;
            completed++;
            if (block.size == 0 || overflowed) return;
            if (hits.size + block.size > MAX_HITS) {
                overflowed = true;
                hits.packed = new long[0];
                hits.size = 0;
                return;
            }
            for (int j = 0; j < block.size; j++) {
                hits.add(block.packed[j]);
            }
        }

        /** The matches in doc id order (blocks complete in any order; each is ordered and holds each doc once), or null. */
        synchronized ColumnScan.Matches matches() {
            if (overflowed) return null;
            Arrays.sort(hits.packed, 0, hits.size);
            return new ColumnScan.Matches(hits.packed, hits.size);
        }
    }
}
