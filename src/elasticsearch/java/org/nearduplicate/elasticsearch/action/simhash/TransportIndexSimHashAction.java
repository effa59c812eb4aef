package org.nearduplicate.elasticsearch.action.simhash;

import java.util.List;
import java.util.Map;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;
import org.nearduplicate.elasticsearch.common.FieldMappings;
import org.nearduplicate.elasticsearch.sketching.SketchingService;

/**
 * {@code /{index}/_simhash} ({@link IndexSimHashAction}): reads the index's {@code simhash} field mapping from the cluster
 * state, then answers as {@link StoredInputs} says. The action itself ({@code indices:data/read/near_duplicate/simhash})
 * is authorized on the index, so the {@code read} privilege suffices; the OpenSearch adapter asks with a field-mappings
 * request made as the caller instead, which OpenSearch's {@code read} action group includes but Elasticsearch's
 * {@code read} privilege does not.
 */
public class TransportIndexSimHashAction extends HandledTransportAction<IndexSimHashRequest, SimHashResponse> {

    private final SketchingService sketching;
    private final ThreadPool threadPool;
    private final ClusterService clusterService;
    private final NodeClient client;

    @Inject
    public TransportIndexSimHashAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ThreadPool threadPool,
        ClusterService clusterService,
        NodeClient client,
        SketchingService sketching
    ) {
        super(IndexSimHashAction.NAME, transportService, actionFilters, IndexSimHashRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.sketching = sketching;
        this.threadPool = threadPool;
        this.clusterService = clusterService;
        this.client = client;
    }

    @Override
    protected void doExecute(Task task, IndexSimHashRequest request, ActionListener<SimHashResponse> listener) {
        ActionListener.run(listener, l -> {
            List<IndexMetadata> indices = FieldMappings.resolve(clusterService.state(), request.index());
            Map<String, Object> field = FieldMappings.simHashField(indices, request.index(), request.field());
            StoredInputs.analyze(client, threadPool, sketching, request, field, l);
        });
    }
}
