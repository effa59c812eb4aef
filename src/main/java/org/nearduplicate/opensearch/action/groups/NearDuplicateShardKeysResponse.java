package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** One shard's keys of a page: for each key, the (fingerprint, _id) of its live documents. */
public class NearDuplicateShardKeysResponse extends ActionResponse {

    /** The documents of one key. */
    public record KeyMembers(byte[] key, long[] fingerprints, String[] ids) {}

    private final int blocks;
    private final int maxDistance;
    private final long docs;
    private final List<KeyMembers> keys;

    public NearDuplicateShardKeysResponse(int blocks, int maxDistance, long docs, List<KeyMembers> keys) {
        this.blocks = blocks;
        this.maxDistance = maxDistance;
        this.docs = docs;
        this.keys = keys;
    }

    public NearDuplicateShardKeysResponse(StreamInput in) throws IOException {
        super(in);
        blocks = in.readVInt();
        maxDistance = in.readVInt();
        docs = in.readVLong();
        int n = in.readVInt();
        keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] key = in.readByteArray();
            int m = in.readVInt();
            long[] fps = new long[m];
            String[] ids = new String[m];
            for (int j = 0; j < m; j++) {
                fps[j] = in.readLong();
                ids[j] = in.readString();
            }
            keys.add(new KeyMembers(key, fps, ids));
        }
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeVInt(blocks);
        out.writeVInt(maxDistance);
        out.writeVLong(docs);
        out.writeVInt(keys.size());
        for (KeyMembers k : keys) {
            out.writeByteArray(k.key());
            out.writeVInt(k.fingerprints().length);
            for (int j = 0; j < k.fingerprints().length; j++) {
                out.writeLong(k.fingerprints()[j]);
                out.writeString(k.ids()[j]);
            }
        }
    }

    /** The field's layout, as mapped on this shard. */
    public int blocks() {
        return blocks;
    }

    public int maxDistance() {
        return maxDistance;
    }

    /** Live documents with a fingerprint in the shard (only counted when the request asked for it). */
    public long docs() {
        return docs;
    }

    public List<KeyMembers> keys() {
        return keys;
    }
}
