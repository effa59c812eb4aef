package org.nearduplicate.elasticsearch.action.groups;

import java.util.function.UnaryOperator;

import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.OriginalIndices;

/**
 * What the shard requests of a groups run carry for the platform's security to authorize them against what the run's
 * request named: its index or alias and options, as Elasticsearch's own shard-level requests do.
 */
final class ShardAuthorization {
    private ShardAuthorization() {}

    static UnaryOperator<SimHashShardFingerprintsRequest> of(IndicesRequest request) {
        return shardRequest -> shardRequest.originalIndices(new OriginalIndices(request));
    }
}
