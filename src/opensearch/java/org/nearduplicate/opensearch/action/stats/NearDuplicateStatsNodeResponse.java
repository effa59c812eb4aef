package org.nearduplicate.opensearch.action.stats;

import org.opensearch.action.support.nodes.BaseNodeResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.nearduplicate.core.stats.NearDuplicateStats;

/**
 * One node's stats. On the wire as (name, value) pairs, so that nodes of different plugin versions understand each
 * other: a name the reader does not know is skipped, one it misses reads as 0.
 */
public class NearDuplicateStatsNodeResponse extends BaseNodeResponse {
    private final NearDuplicateStats.Snapshot stats;

    public NearDuplicateStatsNodeResponse(DiscoveryNode node, NearDuplicateStats.Snapshot stats) {
        super(node);
        this.stats = stats;
    }

    public NearDuplicateStatsNodeResponse(StreamInput in) throws IOException {
        super(in);
        int n = in.readVInt();
        Map<String, Long> byKey = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            byKey.put(in.readString(), in.readZLong());
        }
        this.stats = NearDuplicateStats.Snapshot.fromKeys(byKey);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        Map<String, Long> byKey = stats.byKey();
        out.writeVInt(byKey.size());
        for (Map.Entry<String, Long> e : byKey.entrySet()) {
            out.writeString(e.getKey());
            out.writeZLong(e.getValue());
        }
    }

    public NearDuplicateStats.Snapshot stats() {
        return stats;
    }
}
