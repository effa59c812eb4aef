package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.orchestration.groups.DocList;
import org.nearduplicate.orchestration.groups.ShardAnswer;
import org.nearduplicate.orchestration.groups.SortedFingerprints;

/**
 * One shard's answer: the field's algorithm, whether its values carry verification signatures, and either the
 * sorted fingerprints of its live documents (one per document, so copies repeat; sorted by fingerprint then signature,
 * with the signatures beside them when any document has one), or, for a members or stale request, the wanted documents
 * with {@code _id}, routing and signature ({@link DocList}).
 */
public class SimHashShardFingerprintsResponse extends ActionResponse implements ShardAnswer {
    private final String algorithm;
    private final boolean verifies;
    private long[] fingerprints;
    /** {@link Signature#BYTES} per fingerprint (zeros: none), or null: no document of the shard has one. */
    private byte[] signatures;
    private final DocList docs;
    /** A singleton page: the next {@code _seq_no} to read and the pass's last one (done when next > last). */
    private long nextSeqNo = 0;
    private long toSeqNo = -1;

    public SimHashShardFingerprintsResponse(String algorithm, long[] fingerprints) {
        this(algorithm, false, fingerprints, null);
    }

    public SimHashShardFingerprintsResponse(String algorithm, boolean verifies, long[] fingerprints, byte[] signatures) {
        if (signatures != null && signatures.length != Signature.BYTES * fingerprints.length) {
            throw new IllegalArgumentException("one signature per fingerprint");
        }
        this.algorithm = algorithm;
        this.verifies = verifies;
        this.fingerprints = fingerprints;
        this.signatures = signatures;
        this.docs = null;
    }

    public SimHashShardFingerprintsResponse(String algorithm, DocList docs) {
        this(algorithm, docs.signed(), docs);
    }

    public SimHashShardFingerprintsResponse(String algorithm, boolean verifies, DocList docs) {
        this.algorithm = algorithm;
        this.verifies = verifies;
        this.fingerprints = null;
        this.signatures = null;
        this.docs = docs;
    }

    /** A singleton page: the documents to write, where the next page starts, and the pass's last {@code _seq_no}. */
    public SimHashShardFingerprintsResponse(String algorithm, boolean verifies, DocList docs, long nextSeqNo, long toSeqNo) {
        this(algorithm, verifies, docs);
        this.nextSeqNo = nextSeqNo;
        this.toSeqNo = toSeqNo;
    }

    public SimHashShardFingerprintsResponse(StreamInput in) throws IOException {
        super(in);
        algorithm = in.readString();
        verifies = in.readBoolean();
        if (in.readBoolean()) {
            docs = DocList.readFrom(StreamWire.in(in));
            fingerprints = null;
            signatures = null;
        } else {
            docs = null;
            fingerprints = SortedFingerprints.read(StreamWire.in(in));
            if (in.readBoolean()) {
                signatures = new byte[Signature.BYTES * fingerprints.length];
                if (signatures.length > 0) in.readBytes(signatures, 0, signatures.length);
            } else {
                signatures = null;
            }
        }
        nextSeqNo = in.readZLong();
        toSeqNo = in.readZLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(algorithm);
        out.writeBoolean(verifies);
        out.writeBoolean(docs != null);
        if (docs != null) {
            docs.writeTo(StreamWire.out(out));
        } else {
            SortedFingerprints.write(StreamWire.out(out), fingerprints, fingerprints.length);
            out.writeBoolean(signatures != null);
            if (signatures != null) out.writeBytes(signatures, 0, signatures.length);
        }
        out.writeZLong(nextSeqNo);
        out.writeZLong(toSeqNo);
    }

    /** A singleton page: the {@code _seq_no} the next page starts from. */
    @Override
    public long nextSeqNo() {
        return nextSeqNo;
    }

    /** A singleton page: the pass's last {@code _seq_no} (-1: the shard has no document). */
    @Override
    public long toSeqNo() {
        return toSeqNo;
    }

    @Override
    public String algorithm() {
        return algorithm;
    }

    /** Whether the field's algorithm carries verification signatures (its matches are verified). */
    @Override
    public boolean verifies() {
        return verifies;
    }

    /** The fingerprints pass's signatures, {@link Signature#BYTES} per fingerprint, or null (none in the shard). */
    @Override
    public byte[] signatures() {
        return signatures;
    }

    /** The signatures, handed over with {@link #takeFingerprints}. */
    @Override
    public byte[] takeSignatures() {
        byte[] taken = signatures;
        signatures = null;
        return taken;
    }

    /** The fingerprints pass: one entry per live document, sorted (signed order); null for a members answer. */
    @Override
    public long[] fingerprints() {
        return fingerprints;
    }

    /** The fingerprints, handed over: this answer lets go of them so that they can be collected once merged. */
    @Override
    public long[] takeFingerprints() {
        long[] taken = fingerprints;
        fingerprints = new long[0];
        return taken;
    }

    /** A members or stale answer: the documents found; null for the fingerprints pass. */
    @Override
    public DocList docs() {
        return docs;
    }

    /** The number of documents in this answer. */
    public int size() {
        return docs != null ? docs.size() : fingerprints.length;
    }

    /** Heap held by this answer, for the breaker. */
    @Override
    public long ramBytes() {
        if (docs != null) return 64 + docs.ramBytes();
        return 64 + 8L * fingerprints.length + (signatures == null ? 0 : 16 + signatures.length);
    }
}
