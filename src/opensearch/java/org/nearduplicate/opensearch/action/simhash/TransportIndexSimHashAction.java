package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsRequest;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import java.util.Map;

import org.nearduplicate.opensearch.common.FieldMappings;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * {@code /{index}/_simhash} ({@link IndexSimHashAction}): reads the index's {@code simhash} field mapping with a
 * field-mappings request made as the caller (authorized as {@code indices:admin/mappings/fields/get} on the index, which
 * the security plugin's {@code read} action group includes), then answers as {@link StoredInputs} says.
 */
public class TransportIndexSimHashAction extends HandledTransportAction<IndexSimHashRequest, SimHashResponse> {

    private final SketchingService sketching;
    private final ThreadPool threadPool;
    private final NodeClient client;

    @Inject
    public TransportIndexSimHashAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ThreadPool threadPool,
        NodeClient client,
        SketchingService sketching
    ) {
        super(IndexSimHashAction.NAME, transportService, actionFilters, IndexSimHashRequest::new);
        this.sketching = sketching;
        this.threadPool = threadPool;
        this.client = client;
    }

    @Override
    protected void doExecute(Task task, IndexSimHashRequest request, ActionListener<SimHashResponse> listener) {
        GetFieldMappingsRequest mappings = new GetFieldMappingsRequest().indices(request.index())
            .fields(request.field())
            .includeDefaults(true);
        client.admin().indices().getFieldMappings(mappings, ActionListener.wrap(response -> {
            Map<String, Object> field = FieldMappings.simHashField(response, request.index(), request.field());
            StoredInputs.analyze(client, threadPool, sketching, request, field, listener);
        }, listener::onFailure));
    }
}
