package org.nearduplicate.elasticsearch.action.simhash;

import java.util.List;
import java.util.Map;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.service.ClusterService;
import org.nearduplicate.elasticsearch.common.FieldMappings;

/**
 * How {@link TransportIndexSimHashAction} reads the index's {@code simhash} field mapping on this platform: from the
 * cluster state. The action itself ({@code indices:data/read/near_duplicate/simhash}) is authorized on the index, so
 * the {@code read} privilege suffices; a field-mappings request made as the caller, as the OpenSearch adapter makes,
 * would need more, since Elasticsearch's {@code read} privilege does not include it. Each adapter has its own class of
 * this name.
 */
final class SimHashFieldMapping {
    private final ClusterService clusterService;

    /** The client is not needed here. */
    SimHashFieldMapping(NodeClient client, ClusterService clusterService) {
        this.clusterService = clusterService;
    }

    /** Answers {@code listener} with the mapping of {@code request}'s field. */
    void read(IndexSimHashRequest request, ActionListener<Map<String, Object>> listener) {
        ActionListener.run(listener, l -> {
            List<IndexMetadata> indices = FieldMappings.resolve(clusterService.state(), request.index());
            l.onResponse(FieldMappings.simHashField(indices, request.index(), request.field()));
        });
    }
}
