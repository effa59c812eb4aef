package org.nearduplicate.elasticsearch.common;

import java.io.IOException;

import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.OriginalIndices;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.action.support.single.shard.SingleShardRequest;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.index.shard.ShardId;

/**
 * What the plugin's shard requests carry for the platform's security to authorize them against what the
 * request they serve named: its index or alias and options, on this node and on the shard's, as Elasticsearch's own shard-level
 * requests do (absent: the shard's index). Each adapter has its own class of this name.
 */
public abstract class AuthorizedShardRequest<R extends AuthorizedShardRequest<R>> extends SingleShardRequest<R> {
    private OriginalIndices originalIndices;

    protected AuthorizedShardRequest(String index) {
        super(index);
    }

    protected AuthorizedShardRequest(StreamInput in) throws IOException {
        super(in);
    }

    public abstract ShardId shardId();

    /** Carries what {@code request} named, for authorization; returns this. */
    @SuppressWarnings("unchecked")
    public R authorizedAs(IndicesRequest request) {
        this.originalIndices = new OriginalIndices(request);
        return (R) this;
    }

    /** Reads what {@link #writeAuthorization} wrote, last on the wire. */
    protected void readAuthorization(StreamInput in) throws IOException {
        originalIndices = OriginalIndices.readOriginalIndices(in);
    }

    protected void writeAuthorization(StreamOutput out) throws IOException {
        OriginalIndices.writeOriginalIndices(originalIndices(), out);
    }

    private OriginalIndices originalIndices() {
        return originalIndices != null
            ? originalIndices
            : new OriginalIndices(new String[] { shardId().getIndexName() }, IndicesOptions.strictSingleIndexNoExpandForbidClosed());
    }

    @Override
    public String[] indices() {
        return originalIndices().indices();
    }

    @Override
    public IndicesOptions indicesOptions() {
        return originalIndices().indicesOptions();
    }
}
