package org.nearduplicate.core.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.window.RecentFingerprints.Entry;
import org.nearduplicate.core.window.RecentFingerprints.Lookup;
import org.nearduplicate.core.window.RecentFingerprints.Match;

/**
 * The entries of one {@link RecentFingerprints} window, oldest first, and how a probe finds those within k: per
 * pigeonhole block key a bucket ({@link Lookup#BLOCK_KEYS}), or a scan of the fingerprints, kept as a column in a ring
 * beside the entries ({@link Lookup#LINEAR_SCAN}: contiguous memory instead of one object per entry). The column's 8
 * bytes per entry are within {@link RecentFingerprints#entryBytes}, which counts the buckets this lookup does not build.
 * Not thread-safe: the window's lock guards it.
 */
final class WindowEntries {
    private final int maxDistance;
    private final Lookup lookup;
    private final BlockLayout layout;
    /** Per key combination, the bits a probe's block may differ from an entry's (layout's probe thresholds for k). */
    private final int[] thresholds;
    /** Per combination: kept bits -> entries ({@link Lookup#BLOCK_KEYS} only). */
    private final List<Map<Long, List<Entry>>> buckets;
    /** The ring (an {@code ArrayDeque}'s): entries and their fingerprints from {@code head} on, {@code size} of them. */
    private Entry[] entries = new Entry[16];
    private long[] fingerprints = new long[16];
    private int head;
    private int size;

    WindowEntries(int maxDistance, Lookup lookup) {
        this.maxDistance = maxDistance;
        this.lookup = lookup;
        // k + 1 single-block keys, at most BlockLayout.MAX_BLOCKS
        this.layout = new BlockLayout(Math.min(maxDistance + 1, BlockLayout.MAX_BLOCKS), maxDistance);
        this.thresholds = layout.probeThresholds(maxDistance);
        this.buckets = new ArrayList<>(layout.keyCount());
        for (int c = 0; lookup == Lookup.BLOCK_KEYS && c < layout.keyCount(); c++) {
            buckets.add(new HashMap<>());
        }
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Slots of the ring (tests: it grows with a burst and is trimmed once empty). */
    int ringCapacity() {
        return entries.length;
    }

    Entry peekFirst() {
        return size == 0 ? null : entries[head];
    }

    /** Keeps {@code added} as the newest entry. */
    void addLast(Entry added) {
        if (size == entries.length) grow();
        int at = (head + size) & (entries.length - 1);
        entries[at] = added;
        fingerprints[at] = added.fingerprint;
        size++;
        for (int c = 0; lookup == Lookup.BLOCK_KEYS && c < layout.keyCount(); c++) {
            buckets.get(c).computeIfAbsent(added.fingerprint & layout.keptMask(c), k -> new ArrayList<>(1)).add(added);
        }
    }

    /** Removes and returns the oldest entry; null when there is none. */
    Entry pollFirst() {
        if (size == 0) return null;
        Entry e = entries[head];
        entries[head] = null;
        head = (head + 1) & (entries.length - 1);
        size--;
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
        return e;
    }

    /**
     * Once empty, gives back the ring and the buckets a burst of entries grew (they never shrink while in use): an
     * emptied window the registry keeps for its gap then holds a few hundred bytes, not its peak's arrays.
     */
    void trimIfEmpty() {
        if (size != 0) return;
        if (entries.length > 16) {
            entries = new Entry[16];
            fingerprints = new long[16];
        }
        head = 0;
        for (int c = 0; c < buckets.size(); c++) {
            buckets.set(c, new HashMap<>());
        }
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

    /** The closest entry within k of {@code fingerprint} that is not {@code id} in {@code index} and, both signed, agrees. */
    Match find(long fingerprint, byte[] signature, int minAgreeing, String index, String id) {
        Search search = new Search(fingerprint, signature, minAgreeing, index, id);
        if (lookup == Lookup.LINEAR_SCAN) {
            // one pass over the fingerprint column, oldest first (the ring's two runs, each a plain loop); an entry is
            // read only when its fingerprint is within k
            int first = Math.min(size, fingerprints.length - head);
            scanColumn(head, head + first, search);
            scanColumn(0, size - first, search);
            return search.best;
        }
        for (int c = 0; c < layout.keyCount(); c++) {
            long kept = layout.keptMask(c);
            Map<Long, List<Entry>> keys = buckets.get(c);
            if (thresholds[c] == 0) {
                scan(keys.get(fingerprint & kept), search);
            } else {
                // the block's variants within thresholds[c] bits (k = 16: one bit of the first block)
                variants(fingerprint, kept, Long.numberOfTrailingZeros(kept), thresholds[c], v -> scan(keys.get(v & kept), search));
            }
        }
        return search.best;
    }

    /** {@link Search#consider} for the entries at {@code [from, to)} of the ring whose fingerprints are within k. */
    private void scanColumn(int from, int to, Search search) {
        long[] fingerprints = this.fingerprints;
        long fingerprint = search.fingerprint;
        for (int at = from; at < to; at++) {
            if (Long.bitCount(fingerprints[at] ^ fingerprint) <= maxDistance) {
                search.consider(entries[at]);
            }
        }
    }

    /** {@code fingerprint} and every variant of it within {@code flips} bits of {@code mask}, from bit {@code from} on. */
    private static void variants(long fingerprint, long mask, int from, int flips, LongConsumer out) {
        out.accept(fingerprint);
        if (flips == 0) return;
        for (int bit = from; bit < 64; bit++) {
            if ((mask >>> bit & 1L) != 0) {
                variants(fingerprint ^ (1L << bit), mask, bit + 1, flips - 1, out);
            }
        }
    }

    private static void scan(List<Entry> bucket, Search search) {
        if (bucket == null) {
            return;
        }
        for (Entry e : bucket)
            search.consider(e);
    }

    /** One lookup: the probe, who asks (not its own match), and the best match so far. */
    private final class Search {
        final long fingerprint;
        final byte[] signature;
        final int minAgreeing;
        final String index;
        final String id;
        Match best;

        Search(long fingerprint, byte[] signature, int minAgreeing, String index, String id) {
            this.fingerprint = fingerprint;
            this.signature = signature;
            this.minAgreeing = minAgreeing;
            this.index = index;
            this.id = id;
        }

        /** Makes {@code e} the best match if it is within k, closer than the best so far and, both signed, verified. */
        void consider(Entry e) {
            int d = Fingerprints.distance(fingerprint, e.fingerprint);
            if (d > maxDistance || (best != null && d >= best.distance()) || e.sameDocument(index, id)) {
                return;
            }
            // both signed: the signatures must agree, as the query's verification; otherwise the fingerprint alone
            if (signature != null && e.signature != null && Signature.agreesOnAtLeast(signature, e.signature, 0, minAgreeing) == false) {
                return;
            }
            best = new Match(e, d);
        }
    }
}
