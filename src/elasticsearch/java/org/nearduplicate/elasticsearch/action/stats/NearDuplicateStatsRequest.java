package org.nearduplicate.elasticsearch.action.stats;

import org.elasticsearch.action.support.nodes.BaseNodesRequest;

/**
 * The nodes whose stats are asked for, in the {@code _nodes} syntax (ids, names, {@code _local}, attributes...). Local
 * only, as every Elasticsearch 8 nodes request: each node is sent a {@link NearDuplicateStatsNodeRequest}.
 */
public class NearDuplicateStatsRequest extends BaseNodesRequest<NearDuplicateStatsRequest> {
    public NearDuplicateStatsRequest(String... nodeIds) {
        super(nodeIds);
    }
}
