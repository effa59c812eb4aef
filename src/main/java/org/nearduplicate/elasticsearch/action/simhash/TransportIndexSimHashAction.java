package org.nearduplicate.elasticsearch.action.simhash;

import java.util.Map;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.admin.indices.mapping.get.GetFieldMappingsRequest;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.elasticsearch.common.FieldMappings;
import org.nearduplicate.elasticsearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.elasticsearch.sketching.SketchingService;

/**
 * {@code /{index}/_simhash} ({@link IndexSimHashAction}): reads the algorithm and layout of the index's {@code simhash}
 * field with a field-mappings request (made as the caller, so it is authorized as {@code indices:admin/mappings/fields/get}
 * on the index, which the security plugin's {@code read} action group includes), then fingerprints the inputs with
 * them, so the answer matches what is indexed.
 */
public class TransportIndexSimHashAction extends HandledTransportAction<IndexSimHashRequest, SimHashResponse> {

    private final SketchingService engine;
    private final ThreadPool threadPool;
    private final NodeClient client;

    @Inject
    public TransportIndexSimHashAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ThreadPool threadPool,
        NodeClient client,
        SketchingService engine
    ) {
        super(IndexSimHashAction.NAME, transportService, actionFilters, IndexSimHashRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.engine = engine;
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
            SimHashSettings settings = engine.simHashSettings(String.valueOf(FieldMappings.algorithm(field, FieldMappings.SIMHASH)));
            BlockLayout layout = SimHashFieldMapper.layoutOf(field);
            TransportSimHashAction.analyze(threadPool, engine, request, settings, layout, listener);
        }, listener::onFailure));
    }
}
