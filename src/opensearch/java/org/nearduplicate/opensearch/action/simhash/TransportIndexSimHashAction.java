package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * {@code /{index}/_simhash} ({@link IndexSimHashAction}): reads the index's {@code simhash} field mapping as the
 * platform authorizes it ({@link SimHashFieldMapping}), then answers as {@link StoredInputs} says.
 */
public class TransportIndexSimHashAction extends HandledTransportAction<IndexSimHashRequest, SimHashResponse> {

    private final SketchingService sketching;
    private final ThreadPool threadPool;
    private final NodeClient client;
    private final SimHashFieldMapping mapping;

    @Inject
    public TransportIndexSimHashAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ThreadPool threadPool,
        ClusterService clusterService,
        NodeClient client,
        SketchingService sketching
    ) {
        super(IndexSimHashAction.NAME, transportService, actionFilters, IndexSimHashRequest::new, Platform.DIRECT_EXECUTOR);
        this.sketching = sketching;
        this.threadPool = threadPool;
        this.client = client;
        this.mapping = new SimHashFieldMapping(client, clusterService);
    }

    @Override
    protected void doExecute(Task task, IndexSimHashRequest request, ActionListener<SimHashResponse> listener) {
        mapping.read(
            request,
            ActionListener.wrap(field -> StoredInputs.analyze(client, threadPool, sketching, request, field, listener), listener::onFailure)
        );
    }
}
