package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsRequest;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.core.action.ActionListener;
import org.opensearch.transport.client.node.NodeClient;

import java.util.Map;

import org.nearduplicate.opensearch.common.FieldMappings;

/**
 * How {@link TransportIndexSimHashAction} reads the index's {@code simhash} field mapping on this platform: with a
 * field-mappings request made as the caller (authorized as {@code indices:admin/mappings/fields/get} on the index,
 * which the security plugin's {@code read} action group includes). Each adapter has its own class of this name.
 */
final class SimHashFieldMapping {
    private final NodeClient client;

    /** The cluster service is not needed here. */
    SimHashFieldMapping(NodeClient client, ClusterService clusterService) {
        this.client = client;
    }

    /** Answers {@code listener} with the mapping of {@code request}'s field. */
    void read(IndexSimHashRequest request, ActionListener<Map<String, Object>> listener) {
        GetFieldMappingsRequest mappings = new GetFieldMappingsRequest().indices(request.index())
            .fields(request.field())
            .includeDefaults(true);
        client.admin()
            .indices()
            .getFieldMappings(
                mappings,
                ActionListener.wrap(
                    response -> listener.onResponse(FieldMappings.simHashField(response, request.index(), request.field())),
                    listener::onFailure
                )
            );
    }
}
