package org.nearduplicate.opensearch.action.stats;

import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.nodes.BaseNodesResponse;
import org.opensearch.cluster.ClusterName;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.stats.NearDuplicateStats;

/**
 * The stats of every node that answered, by node id, and their sum ({@code total}); the REST layer adds the
 * {@code _nodes} header (total, successful, failed and the failures) and the cluster name. (Elasticsearch 8 keeps a
 * nodes response on its node, so only OpenSearch sends it.)
 */
public class NearDuplicateStatsResponse extends BaseNodesResponse<NearDuplicateStatsNodeResponse> implements ToXContentFragment {

    public NearDuplicateStatsResponse(StreamInput in) throws IOException {
        super(in);
    }

    public NearDuplicateStatsResponse(
        ClusterName clusterName,
        List<NearDuplicateStatsNodeResponse> nodes,
        List<FailedNodeException> failures
    ) {
        super(clusterName, nodes, failures);
    }

    @Override
    protected List<NearDuplicateStatsNodeResponse> readNodesFrom(StreamInput in) throws IOException {
        return Arrays.asList(in.readArray(NearDuplicateStatsNodeResponse::new, NearDuplicateStatsNodeResponse[]::new));
    }

    @Override
    protected void writeNodesTo(StreamOutput out, List<NearDuplicateStatsNodeResponse> nodes) throws IOException {
        out.writeCollection(nodes);
    }

    /** The sum of the nodes' stats. */
    public NearDuplicateStats.Snapshot total() {
        NearDuplicateStats.Snapshot total = NearDuplicateStats.Snapshot.empty();
        for (NearDuplicateStatsNodeResponse node : getNodes()) {
            total = total.plus(node.stats());
        }
        return total;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject("nodes");
        for (NearDuplicateStatsNodeResponse node : getNodes()) {
            builder.startObject(node.getNode().getId());
            builder.field("name", node.getNode().getName());
            write(builder, node.stats().toNestedMap());
            builder.endObject();
        }
        builder.endObject();
        builder.startObject("total");
        write(builder, total().toNestedMap());
        builder.endObject();
        return builder;
    }

    private static void write(XContentBuilder builder, Map<String, Object> values) throws IOException {
        for (Map.Entry<String, Object> e : values.entrySet()) {
            builder.field(e.getKey(), e.getValue());
        }
    }
}
