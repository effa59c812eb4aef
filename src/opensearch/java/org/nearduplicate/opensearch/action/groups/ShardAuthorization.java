package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.IndicesRequest;

import java.util.function.UnaryOperator;

/**
 * What the shard requests of a groups run carry for the platform's security to authorize them against what the run's
 * request named. OpenSearch authorizes them by their index: they carry nothing more.
 */
final class ShardAuthorization {
    private ShardAuthorization() {}

    static UnaryOperator<SimHashShardFingerprintsRequest> of(IndicesRequest request) {
        return UnaryOperator.identity();
    }
}
