package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.single.shard.SingleShardRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * What the groups runs' shard requests carry for the platform's security to authorize them against what the run's
 * request named. OpenSearch authorizes a shard request by its index: nothing more is carried, nor written on the wire.
 * Each adapter has its own class of this name.
 */
abstract class AuthorizedShardRequest extends SingleShardRequest<SimHashShardFingerprintsRequest> {

    protected AuthorizedShardRequest(String index) {
        super(index);
    }

    protected AuthorizedShardRequest(StreamInput in) throws IOException {
        super(in);
    }

    /** Carries what {@code request} named, for authorization; returns this. */
    public SimHashShardFingerprintsRequest authorizedAs(IndicesRequest request) {
        return (SimHashShardFingerprintsRequest) this;
    }

    /** Reads what {@link #writeAuthorization} wrote, last on the wire. */
    protected void readAuthorization(StreamInput in) throws IOException {}

    protected void writeAuthorization(StreamOutput out) throws IOException {}
}
