package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.action.support.single.shard.SingleShardRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.index.shard.ShardId;

import java.io.IOException;

/**
 * One page of one shard's key space: the keys of block combination {@code combination} whose first value byte is in
 * {@code [fromByte, toByte)}. {@code dropSingletons} (set when the index has one shard) leaves out keys that only one
 * document of the shard has, since they cannot pair with anything.
 */
public class NearDuplicateShardKeysRequest extends SingleShardRequest<NearDuplicateShardKeysRequest> {
    private final ShardId shardId;
    private final String field;
    private final int combination;
    private final int fromByte;
    private final int toByte;
    private final boolean dropSingletons;
    private final boolean countDocs;

    public NearDuplicateShardKeysRequest(
        ShardId shardId,
        String field,
        int combination,
        int fromByte,
        int toByte,
        boolean dropSingletons,
        boolean countDocs
    ) {
        super(shardId.getIndexName());
        this.shardId = shardId;
        this.field = field;
        this.combination = combination;
        this.fromByte = fromByte;
        this.toByte = toByte;
        this.dropSingletons = dropSingletons;
        this.countDocs = countDocs;
    }

    public NearDuplicateShardKeysRequest(StreamInput in) throws IOException {
        super(in);
        shardId = new ShardId(in);
        field = in.readString();
        combination = in.readVInt();
        fromByte = in.readVInt();
        toByte = in.readVInt();
        dropSingletons = in.readBoolean();
        countDocs = in.readBoolean();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        shardId.writeTo(out);
        out.writeString(field);
        out.writeVInt(combination);
        out.writeVInt(fromByte);
        out.writeVInt(toByte);
        out.writeBoolean(dropSingletons);
        out.writeBoolean(countDocs);
    }

    @Override
    public ActionRequestValidationException validate() {
        return validateNonNullIndex();
    }

    public ShardId shardId() {
        return shardId;
    }

    public String field() {
        return field;
    }

    public int combination() {
        return combination;
    }

    public int fromByte() {
        return fromByte;
    }

    public int toByte() {
        return toByte;
    }

    public boolean dropSingletons() {
        return dropSingletons;
    }

    public boolean countDocs() {
        return countDocs;
    }
}
