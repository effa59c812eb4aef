package org.nearduplicate.orchestration.groups;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.WrittenGroup;
import org.nearduplicate.core.sketch.Signature;

/**
 * Documents found by a shard pass (fingerprint, {@code _id}, routing and, for a field that verifies, the signature)
 * in primitive arrays: no object per document, so a pass over millions of documents costs about 8 + 8 + the id's UTF-8
 * bytes each, plus {@link Signature#BYTES} with signatures, and every growth is reserved (through {@link Reservation})
 * before the larger array is allocated. A document without signature holds zero bytes
 * ({@link GroupMembers#signatureAt}).
 */
public final class DocList implements GroupMembers.Documents {
    /** Bytes per document of an answer whose ids are not known yet (auto-generated ids have 20 characters). */
    public static final int ESTIMATED_BYTES_PER_DOC = Grouping.ESTIMATED_BYTES_PER_DOC;

    private long[] fingerprints;
    /** {@link Signature#BYTES} per document, or null: the list carries no signatures. */
    private byte[] signatures;
    private byte[] text; // ids and routings, UTF-8, one after the other
    private int textLength;
    /** Per document: the end of its id in {@link #text}, then the end of its routing, or {@code -1 - end} when none. */
    private int[] ends;
    /** Per document, what its group fields held ({@link WrittenGroup}), or null: not read. */
    private long[] written;
    private int size;

    private DocList(long[] fingerprints, byte[] signatures, byte[] text, int[] ends, int size, int textLength, long[] written) {
        this.fingerprints = fingerprints;
        this.signatures = signatures;
        this.text = text;
        this.ends = ends;
        this.size = size;
        this.textLength = textLength;
        this.written = written;
    }

    public static DocList empty() {
        return empty(false);
    }

    /** An empty list, with room for signatures when {@code signed}. */
    public static DocList empty(boolean signed) {
        return empty(signed, false);
    }

    /** An empty list, with room for signatures when {@code signed} and for what group fields held when {@code written}. */
    public static DocList empty(boolean signed, boolean written) {
        return new DocList(new long[0], signed ? new byte[0] : null, new byte[0], new int[0], 0, 0, written ? new long[0] : null);
    }

    /** Whether the list carries signatures. */
    public boolean signed() {
        return signatures != null;
    }

    @Override
    public byte[] signature(int i) {
        return GroupMembers.signatureAt(signatures, i);
    }

    @Override
    public long written(int i) {
        return written == null ? WrittenGroup.UNKNOWN : written[i];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long fingerprint(int i) {
        return fingerprints[i];
    }

    @Override
    public String id(int i) {
        int start = i == 0 ? 0 : routingEnd(i - 1);
        return new String(text, start, ends[2 * i] - start, StandardCharsets.UTF_8);
    }

    /** The custom routing of document {@code i}, or null. */
    @Override
    public String routing(int i) {
        int end = ends[2 * i + 1];
        if (end < 0) return null;
        int start = ends[2 * i];
        return new String(text, start, end - start, StandardCharsets.UTF_8);
    }

    /** The UTF-8 length of document {@code i}'s id and routing. */
    @Override
    public int textBytes(int i) {
        int start = i == 0 ? 0 : routingEnd(i - 1);
        return routingEnd(i) - start;
    }

    private int routingEnd(int i) {
        int end = ends[2 * i + 1];
        return end < 0 ? -1 - end : end;
    }

    /** Heap held by the arrays. */
    public long ramBytes() {
        return 3 * 16 + 8L * fingerprints.length + text.length + 4L * ends.length + (signatures == null ? 0 : 16 + signatures.length)
            + (written == null ? 0 : 16 + 8L * written.length);
    }

    /** Heap of the arrays as read from the wire (exactly sized). */
    static long ramBytes(int docs, int textBytes, boolean signed) {
        return 3 * 16 + 16L * docs + textBytes + (signed ? 16 + (long) Signature.BYTES * docs : 0);
    }

    /** Appends documents; every growth of its arrays is reserved first. */
    public static final class Builder {
        private final Reservation reservation;
        private final DocList docs;

        public Builder(Reservation reservation) {
            this(reservation, false);
        }

        /** A builder whose documents carry a signature each when {@code signed} (null when a document has none). */
        public Builder(Reservation reservation, boolean signed) {
            this(reservation, signed, false);
        }

        /** With {@code written}, every document also carries what its group fields held ({@link #add(long, byte[], String, String, long)}). */
        public Builder(Reservation reservation, boolean signed, boolean written) {
            this.reservation = reservation;
            this.docs = empty(signed, written);
        }

        public void add(long fingerprint, String id, String routing) {
            add(fingerprint, null, id, routing);
        }

        public void add(long fingerprint, byte[] signature, String id, String routing) {
            add(fingerprint, signature, id, routing, WrittenGroup.UNKNOWN);
        }

        public void add(long fingerprint, byte[] signature, String id, String routing, long written) {
            if (signature != null && (docs.signatures == null || signature.length != Signature.BYTES)) {
                throw new IllegalArgumentException("a signature for a list without signatures, or not " + Signature.BYTES + " bytes");
            }
            byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
            byte[] routingBytes = routing == null ? null : routing.getBytes(StandardCharsets.UTF_8);
            int more = idBytes.length + (routingBytes == null ? 0 : routingBytes.length);
            if (docs.size == docs.fingerprints.length) {
                int capacity = grow(docs.size, 1);
                long perDoc = 16L + (docs.signatures == null ? 0 : Signature.BYTES) + (docs.written == null ? 0 : Long.BYTES);
                reservation.reserve(perDoc * capacity, "documents of a shard");
                long old = perDoc * docs.fingerprints.length;
                docs.fingerprints = Arrays.copyOf(docs.fingerprints, capacity);
                docs.ends = Arrays.copyOf(docs.ends, 2 * capacity);
                if (docs.signatures != null) docs.signatures = Arrays.copyOf(docs.signatures, Signature.BYTES * capacity);
                if (docs.written != null) docs.written = Arrays.copyOf(docs.written, capacity);
                reservation.release(old);
            }
            if (docs.textLength + more > docs.text.length) {
                int capacity = grow(docs.text.length, docs.textLength + more);
                reservation.reserve(capacity, "ids of a shard");
                long old = docs.text.length;
                docs.text = Arrays.copyOf(docs.text, capacity);
                reservation.release(old);
            }
            System.arraycopy(idBytes, 0, docs.text, docs.textLength, idBytes.length);
            docs.textLength += idBytes.length;
            docs.ends[2 * docs.size] = docs.textLength;
            if (routingBytes == null) {
                docs.ends[2 * docs.size + 1] = -1 - docs.textLength;
            } else {
                System.arraycopy(routingBytes, 0, docs.text, docs.textLength, routingBytes.length);
                docs.textLength += routingBytes.length;
                docs.ends[2 * docs.size + 1] = docs.textLength;
            }
            if (signature != null) System.arraycopy(signature, 0, docs.signatures, Signature.BYTES * docs.size, Signature.BYTES);
            if (docs.written != null) docs.written[docs.size] = written;
            docs.fingerprints[docs.size++] = fingerprint;
        }

        private static int grow(int current, int atLeast) {
            long next = Math.max(16, current + (current >> 1));
            next = Math.max(next, atLeast);
            if (next > Integer.MAX_VALUE - 16) throw new IllegalStateException("too many documents in one shard answer");
            return (int) next;
        }

        /** The documents added so far. */
        public int size() {
            return docs.size;
        }

        public DocList build() {
            return docs;
        }
    }

    public void writeTo(WireOut out) throws IOException {
        SortedFingerprints.write(out, fingerprints, size); // deltas also work (less compactly) in document order
        int start = 0;
        for (int i = 0; i < size; i++) {
            out.writeVInt(ends[2 * i] - start);
            int end = ends[2 * i + 1];
            out.writeVInt(end < 0 ? 0 : end - ends[2 * i] + 1); // 0: no routing
            start = end < 0 ? -1 - end : end;
        }
        out.writeVInt(textLength);
        out.writeBytes(text, 0, textLength);
        out.writeBoolean(signatures != null);
        if (signatures != null) out.writeBytes(signatures, 0, Signature.BYTES * size);
        out.writeBoolean(written != null);
        if (written != null) {
            for (int i = 0; i < size; i++)
                out.writeLong(written[i]);
        }
    }

    public static DocList readFrom(WireIn in) throws IOException {
        long[] fingerprints = SortedFingerprints.read(in);
        int size = fingerprints.length;
        int[] ends = new int[2 * size];
        int at = 0;
        for (int i = 0; i < size; i++) {
            at += in.readVInt();
            ends[2 * i] = at;
            int routing = in.readVInt();
            if (routing == 0) {
                ends[2 * i + 1] = -1 - at;
            } else {
                at += routing - 1;
                ends[2 * i + 1] = at;
            }
        }
        int textLength = in.readVInt();
        if (textLength != at) throw new IOException("corrupt document list: " + textLength + " text bytes, " + at + " expected");
        byte[] text = new byte[textLength];
        if (textLength > 0) in.readBytes(text, 0, textLength);
        byte[] signatures = null;
        if (in.readBoolean()) {
            signatures = new byte[Signature.BYTES * size];
            if (size > 0) in.readBytes(signatures, 0, signatures.length);
        }
        long[] written = null;
        if (in.readBoolean()) {
            written = new long[size];
            for (int i = 0; i < size; i++)
                written[i] = in.readLong();
        }
        return new DocList(fingerprints, signatures, text, ends, size, textLength, written);
    }
}
