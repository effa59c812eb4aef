package org.nearduplicate.lucene;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;

import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's cache of {@link FingerprintColumn}s: one per segment core and field, loaded from the doc values on first
 * use, dropped when the segment core closes, and bounded by {@code maxBytes} (least recently used columns are evicted
 * first). Every column's bytes are reserved from a {@link MemoryAccounting} before it is read and released when it
 * leaves the cache.
 *
 * <p>A column that cannot be had (larger than the bound, the reservation refused, e.g. a tripped breaker, a segment
 * whose doc values were updated in place, a reader without a core cache key) is not an error: {@link #get} returns
 * null, counts a fallback, and the query answers that segment by its other exact paths (keys or the doc-values scan).
 * A column evicted while a query still scans it stays valid for that query (it is an immutable array); only its
 * accounting ends.
 */
public final class FingerprintColumns {
    /** What the cache holds and did since it was made. */
    public record Stats(long entries, long bytes, long maxBytes, long hits, long misses, long loads, long evictions, long fallbacks,
        long sharedPasses) {
    }

    private record Key(Object core, String field) {
    }

    /** A column being loaded or loaded; {@code column} is set once. */
    private static final class Entry {
        final long bytes;
        volatile FingerprintColumn column;
        volatile boolean failed;

        Entry(long bytes) {
            this.bytes = bytes;
        }
    }

    /** Changed at runtime by {@link #setMaxBytes} (the node setting is dynamic); read under the lock. */
    private long maxBytes;
    private final MemoryAccounting accounting;
    /** Access order: the eldest is the least recently used. Guarded by {@code this}. */
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    /** Cores whose close listener is registered. Guarded by {@code this}. */
    private final Set<Object> listening = new HashSet<>();
    /** Bytes of the entries (loading ones included: they are reserved). Guarded by {@code this}. */
    private long bytes;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong loads = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();
    private final AtomicLong fallbacks = new AtomicLong();
    private final AtomicLong sharedPasses = new AtomicLong();
    /** Whether concurrent searches of a column share its passes ({@link SharedColumnScan}); a dynamic node setting. */
    private volatile boolean sharePasses = true;

    public FingerprintColumns(long maxBytes, MemoryAccounting accounting) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.accounting = accounting;
    }

    public synchronized long maxBytes() {
        return maxBytes;
    }

    /**
     * A new bound: a smaller one evicts least recently used loaded columns at once until the cached bytes fit (columns
     * still loading are evicted by the next load that needs room, or when their segment closes; a query scanning an
     * evicted column keeps it until it ends); 0 loads no more columns. How many columns were evicted.
     */
    public synchronized int setMaxBytes(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
        int evicted = makeRoom(0);
        evictions.addAndGet(evicted);
        return evicted;
    }

    /**
     * The column of {@code field} in the segment of {@code context}, loaded now if it is not cached; null (a fallback)
     * when it cannot be had (see the class comment) or the segment has no value in the field.
     */
    public FingerprintColumn get(LeafReaderContext context, String field) throws IOException {
        LeafReader reader = context.reader();
        IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
        // doc values updated in place change under the same core key: never cached
        if (helper == null || DocValues.isCacheable(context, field) == false) {
            fallbacks.incrementAndGet();
            return null;
        }
        Key key = new Key(helper.getKey(), field);
        Entry entry;
        boolean loader = false;
        synchronized (this) {
            entry = entries.get(key);
            if (entry == null) {
                NumericDocValues probe = reader.getNumericDocValues(field);
                if (probe == null) {
                    return null;
                }
                long needed = FingerprintColumn.estimateBytes(reader.maxDoc(), probe.cost());
                if (needed > maxBytes) {
                    fallbacks.incrementAndGet();
                    return null;
                }
                evictions.addAndGet(makeRoom(needed));
                if (bytes + needed > maxBytes) {
                    fallbacks.incrementAndGet(); // the room is held by columns still loading
                    return null;
                }
                try {
                    accounting.reserve(needed, "near_duplicate scan column [" + field + "] of " + reader.maxDoc() + " docs");
                } catch (RuntimeException e) {
                    fallbacks.incrementAndGet();
                    return null;
                }
                if (listening.contains(helper.getKey()) == false) {
                    try {
                        helper.addClosedListener(this::coreClosed);
                    } catch (RuntimeException e) {
                        accounting.release(needed); // e.g. the segment closed meanwhile
                        throw e;
                    }
                    listening.add(helper.getKey());
                }
                entry = new Entry(needed);
                entries.put(key, entry);
                bytes += needed;
                loader = true;
                misses.incrementAndGet();
            }
        }
        if (loader) {
            return load(key, entry, reader, field);
        }
        synchronized (entry) {
            while (entry.column == null && entry.failed == false) {
                try {
                    entry.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    fallbacks.incrementAndGet();
                    return null;
                }
            }
            if (entry.failed) {
                fallbacks.incrementAndGet();
                return null;
            }
            hits.incrementAndGet();
            return entry.column;
        }
    }

    private FingerprintColumn load(Key key, Entry entry, LeafReader reader, String field) throws IOException {
        FingerprintColumn column = null;
        try {
            column = FingerprintColumn.load(reader.getNumericDocValues(field), reader.maxDoc());
            loads.incrementAndGet();
        } finally {
            synchronized (entry) {
                entry.column = column;
                entry.failed = column == null;
                entry.notifyAll();
            }
            if (column == null) {
                remove(key, entry);
            }
        }
        return column;
    }

    /** Evicts least recently used loaded columns until {@code needed} more bytes fit; how many. Called under the lock. */
    private int makeRoom(long needed) {
        int evicted = 0;
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (bytes + needed > maxBytes && it.hasNext()) {
            Entry eldest = it.next().getValue();
            if (eldest.column == null) {
                continue; // still loading
            }
            it.remove();
            bytes -= eldest.bytes;
            accounting.release(eldest.bytes);
            evicted++;
        }
        return evicted;
    }

    private synchronized void remove(Key key, Entry entry) {
        if (entries.remove(key, entry)) {
            bytes -= entry.bytes;
            accounting.release(entry.bytes);
        }
    }

    private synchronized void coreClosed(Object core) {
        listening.remove(core);
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Key, Entry> e = it.next();
            if (e.getKey().core() == core) {
                it.remove();
                bytes -= e.getValue().bytes;
                accounting.release(e.getValue().bytes);
                evictions.incrementAndGet();
            }
        }
    }

    /** Drops every column (e.g. when the node stops). */
    public synchronized void clear() {
        for (Entry e : entries.values()) {
            accounting.release(e.bytes);
        }
        entries.clear();
        bytes = 0;
    }

    /** Whether concurrent searches of one column share their passes; off, each scans alone (the same answers). */
    public void setSharePasses(boolean sharePasses) {
        this.sharePasses = sharePasses;
    }

    boolean sharePasses() {
        return sharePasses;
    }

    /** Counts a segment's scan answered by a pass shared with another concurrent search ({@link SharedColumnScan}). */
    void countSharedPass() {
        sharedPasses.incrementAndGet();
    }

    public synchronized Stats stats() {
        return new Stats(
            entries.size(),
            bytes,
            maxBytes,
            hits.get(),
            misses.get(),
            loads.get(),
            evictions.get(),
            fallbacks.get(),
            sharedPasses.get()
        );
    }
}
