package org.nearduplicate.opensearch.common;

import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.single.shard.SingleShardRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * What the plugin's shard requests carry for the platform's security to authorize them against what the
 * request they serve named. OpenSearch authorizes a shard request by its index: nothing more is carried, nor written on the wire.
 * Each adapter has its own class of this name.
 */
public abstract class AuthorizedShardRequest<R extends AuthorizedShardRequest<R>> extends SingleShardRequest<R> {

    protected AuthorizedShardRequest(String index) {
        super(index);
    }

    protected AuthorizedShardRequest(StreamInput in) throws IOException {
        super(in);
    }

    /** Carries what {@code request} named, for authorization; returns this. */
    @SuppressWarnings("unchecked")
    public R authorizedAs(IndicesRequest request) {
        return (R) this;
    }

    /** Reads what {@link #writeAuthorization} wrote, last on the wire. */
    protected void readAuthorization(StreamInput in) throws IOException {}

    protected void writeAuthorization(StreamOutput out) throws IOException {}
}
