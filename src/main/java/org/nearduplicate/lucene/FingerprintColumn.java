package org.nearduplicate.lucene;

import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.FixedBitSet;

import java.io.IOException;
import java.util.Arrays;

/**
 * One segment's fingerprints of one field, read once from its doc values into contiguous memory, for the column scan
 * ({@link ColumnScan}). Two layouts, both exact (fingerprint 0 is a legal value, so no value marks "missing"):
 * <ul>
 * <li>dense (at least two thirds of the documents have a value): {@code values[doc]}, and when some documents have
 * none, a bitset of those that do, consulted only for the rare matches;</li>
 * <li>sparse: the documents with a value in order ({@code docs}) and their values at the same positions.</li>
 * </ul>
 * Deleted documents keep their values (as in the doc values): live docs are applied by the searcher.
 */
public final class FingerprintColumn {
    /** Dense when {@code 12 * count >= 8 * maxDoc}: below that the sparse layout (12 bytes per value) is smaller. */
    private static final int SPARSE_BYTES_PER_VALUE = Long.BYTES + Integer.BYTES;

    private final int maxDoc;
    private final long[] values;
    /** Sparse layout: the doc of each value; null when dense. */
    private final int[] docs;
    /** Dense layout with missing documents: which docs have a value; null when every doc has one, or sparse. */
    private final FixedBitSet present;
    private final int count;
    /** The passes concurrent searches share; last: it reads the fields above. */
    private final SharedColumnScan shared;

    private FingerprintColumn(int maxDoc, long[] values, int[] docs, FixedBitSet present, int count) {
        this.maxDoc = maxDoc;
        this.values = values;
        this.docs = docs;
        this.present = present;
        this.count = count;
        this.shared = new SharedColumnScan(this);
    }

    /** The heap a column of {@code count} values in a segment of {@code maxDoc} documents takes (arrays and their headers). */
    public static long bytes(int maxDoc, int count) {
        if (isDense(maxDoc, count)) {
            long bits = count == maxDoc ? 0 : 16 + FixedBitSet.bits2words(maxDoc) * (long) Long.BYTES;
            return 64 + 16 + (long) maxDoc * Long.BYTES + bits;
        }
        return 64 + 32 + (long) count * SPARSE_BYTES_PER_VALUE;
    }

    /** An upper bound of {@link #bytes} before the values are read: {@code cost} is the doc values' cost. */
    static long estimateBytes(int maxDoc, long cost) {
        return bytes(maxDoc, (int) Math.min(maxDoc, Math.max(0, cost)));
    }

    private static boolean isDense(int maxDoc, int count) {
        return (long) count * SPARSE_BYTES_PER_VALUE >= (long) maxDoc * Long.BYTES;
    }

    /** Reads every value of {@code values} (a fresh iterator) of a segment of {@code maxDoc} documents. */
    public static FingerprintColumn load(NumericDocValues values, int maxDoc) throws IOException {
        long cost = values.cost();
        if (isDense(maxDoc, (int) Math.min(maxDoc, cost))) {
            long[] dense = new long[maxDoc];
            FixedBitSet present = new FixedBitSet(maxDoc);
            int count = 0;
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                dense[doc] = values.longValue();
                present.set(doc);
                count++;
            }
            if (isDense(maxDoc, count)) {
                return new FingerprintColumn(maxDoc, dense, null, count == maxDoc ? null : present, count);
            }
            // the cost overstated the values: keep the smaller layout
            int[] docs = new int[count];
            long[] packed = new long[count];
            int i = 0;
            for (int doc = present.nextSetBit(0); doc != DocIdSetIterator.NO_MORE_DOCS; doc = doc + 1 < maxDoc
                ? present.nextSetBit(doc + 1)
                : DocIdSetIterator.NO_MORE_DOCS) {
                docs[i] = doc;
                packed[i++] = dense[doc];
            }
            return new FingerprintColumn(maxDoc, packed, docs, null, count);
        }
        int capacity = (int) Math.min(maxDoc, Math.max(16, cost));
        int[] docs = new int[capacity];
        long[] packed = new long[capacity];
        int count = 0;
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
            if (count == docs.length) {
                int grown = (int) Math.min(maxDoc, (long) count * 2);
                docs = Arrays.copyOf(docs, grown);
                packed = Arrays.copyOf(packed, grown);
            }
            docs[count] = doc;
            packed[count++] = values.longValue();
        }
        if (count < docs.length) {
            docs = Arrays.copyOf(docs, count);
            packed = Arrays.copyOf(packed, count);
        }
        if (isDense(maxDoc, count)) {
            long[] dense = new long[maxDoc];
            FixedBitSet present = count == maxDoc ? null : new FixedBitSet(maxDoc);
            for (int i = 0; i < count; i++) {
                dense[docs[i]] = packed[i];
                if (present != null) present.set(docs[i]);
            }
            return new FingerprintColumn(maxDoc, dense, null, present, count);
        }
        return new FingerprintColumn(maxDoc, packed, docs, null, count);
    }

    public int maxDoc() {
        return maxDoc;
    }

    /** Documents with a value. */
    public int count() {
        return count;
    }

    public boolean isDense() {
        return docs == null;
    }

    /** Heap held by this column. */
    public long bytes() {
        return bytes(maxDoc, count);
    }

    /** The values scanned: by doc id when dense, by position when sparse ({@link #docAt}). */
    long[] values() {
        return values;
    }

    /** The column's shared passes ({@link SharedColumnScan}). */
    SharedColumnScan shared() {
        return shared;
    }

    /** Number of scanned slots: maxDoc when dense, count when sparse. */
    int slots() {
        return docs == null ? maxDoc : count;
    }

    /** The first slot whose document is {@code doc} or after (the slot count when none). */
    int slotAtOrAfter(int doc) {
        if (docs == null) {
            return Math.min(Math.max(doc, 0), maxDoc);
        }
        int at = Arrays.binarySearch(docs, 0, count, doc);
        return at >= 0 ? at : -at - 1;
    }

    /** The document of slot {@code slot}, or -1 when that (dense) slot has no value. */
    int docAt(int slot) {
        if (docs != null) {
            return docs[slot];
        }
        return present == null || present.get(slot) ? slot : -1;
    }

    /** Whether {@code doc} has a value. */
    public boolean has(int doc) {
        if (docs != null) {
            return Arrays.binarySearch(docs, doc) >= 0;
        }
        return doc < maxDoc && (present == null || present.get(doc));
    }

    /** The value of {@code doc}, which must have one ({@link #has}). */
    public long get(int doc) {
        if (docs != null) {
            return values[Arrays.binarySearch(docs, doc)];
        }
        return values[doc];
    }

    /** The documents with a value, in order. */
    DocIdSetIterator iterator() {
        if (docs == null) {
            return present == null ? DocIdSetIterator.all(maxDoc) : new org.apache.lucene.util.BitSetIterator(present, count);
        }
        return new DocIdSetIterator() {
            private int i = -1;
            private int doc = -1;

            @Override
            public int docID() {
                return doc;
            }

            @Override
            public int nextDoc() {
                return doc = ++i < count ? docs[i] : NO_MORE_DOCS;
            }

            @Override
            public int advance(int target) {
                int at = Arrays.binarySearch(docs, Math.max(i + 1, 0), count, target);
                i = at >= 0 ? at : -at - 1;
                return doc = i < count ? docs[i] : NO_MORE_DOCS;
            }

            @Override
            public long cost() {
                return count;
            }
        };
    }
}
