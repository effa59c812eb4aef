package org.nearduplicate.opensearch.action.stats;

import org.opensearch.action.support.nodes.BaseNodesRequest;
import org.opensearch.core.common.io.stream.StreamInput;

import java.io.IOException;

/** The nodes whose stats are asked for, in the {@code _nodes} syntax (ids, names, {@code _local}, attributes...). */
public class NearDuplicateStatsRequest extends BaseNodesRequest<NearDuplicateStatsRequest> {
    public NearDuplicateStatsRequest(String... nodeIds) {
        super(nodeIds);
    }

    public NearDuplicateStatsRequest(StreamInput in) throws IOException {
        super(in);
    }
}
