package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * One shard's answer: the field's algorithm and the fingerprints of its live documents (one per document, so copies
 * repeat); for a members request only the wanted ones, with each document's {@code _id} and routing.
 */
public class NearDuplicateShardFingerprintsResponse extends ActionResponse {
    private final String algorithm;
    private long[] fingerprints;
    private final String[] ids;
    private final String[] routings;

    public NearDuplicateShardFingerprintsResponse(String algorithm, long[] fingerprints, String[] ids, String[] routings) {
        this.algorithm = algorithm;
        this.fingerprints = fingerprints;
        this.ids = ids;
        this.routings = routings;
    }

    public NearDuplicateShardFingerprintsResponse(StreamInput in) throws IOException {
        super(in);
        algorithm = in.readString();
        fingerprints = SortedFingerprints.read(in);
        if (in.readBoolean()) {
            ids = new String[fingerprints.length];
            routings = new String[fingerprints.length];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = in.readString();
                routings[i] = in.readOptionalString();
            }
        } else {
            ids = null;
            routings = null;
        }
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(algorithm);
        SortedFingerprints.write(out, fingerprints, fingerprints.length);
        out.writeBoolean(ids != null);
        if (ids != null) {
            for (int i = 0; i < ids.length; i++) {
                out.writeString(ids[i]);
                out.writeOptionalString(routings[i]);
            }
        }
    }

    public String algorithm() {
        return algorithm;
    }

    /** One entry per live document: sorted (signed order) for the fingerprints pass, in document order for members. */
    public long[] fingerprints() {
        return fingerprints;
    }

    /** The fingerprints, handed over: this answer lets go of them so that they can be collected once merged. */
    long[] takeFingerprints() {
        long[] taken = fingerprints;
        fingerprints = new long[0];
        return taken;
    }

    /** For a members request: the {@code _id} of each entry of {@link #fingerprints}, else null. */
    public String[] ids() {
        return ids;
    }

    /** For a members request: the custom routing of each entry (null where none), else null. */
    public String[] routings() {
        return routings;
    }

    /** Heap held by this answer, for the breaker. */
    public long ramBytes() {
        long bytes = 64 + 8L * fingerprints.length;
        if (ids != null) {
            for (int i = 0; i < ids.length; i++) {
                bytes += 2 * 56 + 2L * ids[i].length() + (routings[i] == null ? 0 : 2L * routings[i].length());
            }
        }
        return bytes;
    }
}
