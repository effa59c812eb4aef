package org.nearduplicate.orchestration.groups;

import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IntroSorter;

import java.io.IOException;
import java.util.Arrays;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.sketch.Signature;

/** What a shard pass of the groups runs reads from a segment's doc values and points, the platform's types aside. */
public final class ShardDocValues {
    private ShardDocValues() {}

    /** Whether any segment of the shard has the field (a field that verifies may hold only bare fingerprints). */
    public static boolean hasField(IndexReader reader, String field) {
        for (LeafReaderContext leaf : reader.leaves()) {
            if (leaf.reader().getFieldInfos().fieldInfo(field) != null) return true;
        }
        return false;
    }

    /** The signature of {@code doc}, or null; {@code signatures} null: the shard has none. */
    public static byte[] signature(BinaryDocValues signatures, int doc) throws IOException {
        if (signatures == null || signatures.advanceExact(doc) == false) return null;
        BytesRef value = signatures.binaryValue();
        if (value.length != Signature.BYTES) return null; // not a signature: compared on the fingerprint alone
        return Arrays.copyOfRange(value.bytes, value.offset, value.offset + value.length);
    }

    /**
     * Whether the document's unit is among the members: its fingerprint, and with {@code memberSignatures} its
     * signature too (members sorted by fingerprint; the fingerprint's run is searched for the signature).
     */
    public static boolean isMember(long[] members, byte[] memberSignatures, long fp, BinaryDocValues signatures, int doc)
        throws IOException {
        int at = Arrays.binarySearch(members, fp);
        if (at < 0) return false;
        if (memberSignatures == null) return true;
        byte[] signature = signature(signatures, doc);
        int from = at;
        while (from > 0 && members[from - 1] == fp)
            from--;
        for (int i = from; i < members.length && members[i] == fp; i++) {
            if (GroupMembers.compareSignatures(memberSignatures, i, signature, 0) == 0) return true;
        }
        return false;
    }

    /** Sorts the first {@code n} fingerprints and their signatures together, in place: by fingerprint, then signature. */
    public static void sortWithSignatures(long[] fingerprints, byte[] signatures, int n) {
        byte[] swap = new byte[Signature.BYTES];
        new IntroSorter() {
            private long pivot;
            private int pivotIndex;

            @Override
            protected void setPivot(int i) {
                pivot = fingerprints[i];
                pivotIndex = i;
                System.arraycopy(signatures, Signature.BYTES * i, swap, 0, Signature.BYTES);
            }

            @Override
            protected int comparePivot(int j) {
                int c = Long.compare(pivot, fingerprints[j]);
                return c != 0 ? c : GroupMembers.compareSignatures(swap, 0, signatures, j);
            }

            @Override
            protected int compare(int i, int j) {
                int c = Long.compare(fingerprints[i], fingerprints[j]);
                return c != 0 ? c : GroupMembers.compareSignatures(signatures, i, signatures, j);
            }

            @Override
            protected void swap(int i, int j) {
                long f = fingerprints[i];
                fingerprints[i] = fingerprints[j];
                fingerprints[j] = f;
                for (int b = 0, x = Signature.BYTES * i, y = Signature.BYTES * j; b < Signature.BYTES; b++, x++, y++) {
                    byte t = signatures[x];
                    signatures[x] = signatures[y];
                    signatures[y] = t;
                }
            }
        }.sort(0, n);
    }

    /** The largest sequence number ({@code seqNoField}'s points) the searcher holds (deleted documents included), or -1. */
    public static long maxSeqNo(IndexSearcher searcher, String seqNoField) throws IOException {
        long max = -1;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            PointValues points = leaf.reader().getPointValues(seqNoField);
            if (points != null && points.size() > 0) max = Math.max(max, LongPoint.decodeDimension(points.getMaxPackedValue(), 0));
        }
        return max;
    }
}
