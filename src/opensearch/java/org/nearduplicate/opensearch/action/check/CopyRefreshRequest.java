package org.nearduplicate.opensearch.action.check;

import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.index.shard.ShardId;

import java.io.IOException;

import org.nearduplicate.opensearch.common.AuthorizedShardRequest;

/** One shard copy (by allocation id) to wait for, at most {@code timeout}. */
public class CopyRefreshRequest extends AuthorizedShardRequest<CopyRefreshRequest> {
    private final ShardId shardId;
    private final String allocationId;
    private final TimeValue timeout;

    public CopyRefreshRequest(ShardId shardId, String allocationId, TimeValue timeout) {
        super(shardId.getIndexName());
        this.shardId = shardId;
        this.allocationId = allocationId;
        this.timeout = timeout;
    }

    public CopyRefreshRequest(StreamInput in) throws IOException {
        super(in);
        this.shardId = new ShardId(in);
        this.allocationId = in.readString();
        this.timeout = in.readTimeValue();
        readAuthorization(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        shardId.writeTo(out);
        out.writeString(allocationId);
        out.writeTimeValue(timeout);
        writeAuthorization(out);
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    public ShardId shardId() {
        return shardId;
    }

    public String allocationId() {
        return allocationId;
    }

    public TimeValue timeout() {
        return timeout;
    }

    @Override
    public String toString() {
        return "CopyRefreshRequest[" + shardId + ", allocation " + allocationId + ", timeout=" + timeout + "]";
    }
}
