package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * One shard's answer: the field's algorithm and either the sorted fingerprints of its live documents (one per
 * document, so copies repeat), or, for a members or stale request, the wanted documents with {@code _id} and routing
 * ({@link DocList}).
 */
public class SimHashShardFingerprintsResponse extends ActionResponse {
    private final String algorithm;
    private long[] fingerprints;
    private final DocList docs;

    public SimHashShardFingerprintsResponse(String algorithm, long[] fingerprints) {
        this.algorithm = algorithm;
        this.fingerprints = fingerprints;
        this.docs = null;
    }

    public SimHashShardFingerprintsResponse(String algorithm, DocList docs) {
        this.algorithm = algorithm;
        this.fingerprints = null;
        this.docs = docs;
    }

    public SimHashShardFingerprintsResponse(StreamInput in) throws IOException {
        super(in);
        algorithm = in.readString();
        if (in.readBoolean()) {
            docs = DocList.readFrom(in);
            fingerprints = null;
        } else {
            docs = null;
            fingerprints = SortedFingerprints.read(in);
        }
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(algorithm);
        out.writeBoolean(docs != null);
        if (docs != null) {
            docs.writeTo(out);
        } else {
            SortedFingerprints.write(out, fingerprints, fingerprints.length);
        }
    }

    public String algorithm() {
        return algorithm;
    }

    /** The fingerprints pass: one entry per live document, sorted (signed order); null for a members answer. */
    public long[] fingerprints() {
        return fingerprints;
    }

    /** The fingerprints, handed over: this answer lets go of them so that they can be collected once merged. */
    long[] takeFingerprints() {
        long[] taken = fingerprints;
        fingerprints = new long[0];
        return taken;
    }

    /** A members or stale answer: the documents found; null for the fingerprints pass. */
    public DocList docs() {
        return docs;
    }

    /** The number of documents in this answer. */
    public int size() {
        return docs != null ? docs.size() : fingerprints.length;
    }

    /** Heap held by this answer, for the breaker. */
    public long ramBytes() {
        return 64 + (docs != null ? docs.ramBytes() : 8L * fingerprints.length);
    }
}
