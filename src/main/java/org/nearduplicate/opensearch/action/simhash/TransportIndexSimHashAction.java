package org.nearduplicate.opensearch.action.simhash;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsRequest;
import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsResponse;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import java.util.Map;

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
        super(IndexSimHashAction.NAME, transportService, actionFilters, IndexSimHashRequest::new);
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
            Map<String, Object> field = simhashFieldMapping(response, request.index(), request.field());
            SimHashSettings settings = engine.simHashSettings(String.valueOf(field.get("algorithm")));
            BlockLayout layout = SimHashFieldMapper.layoutOf(field);
            TransportSimHashAction.analyze(threadPool, engine, request, settings, layout, listener);
        }, listener::onFailure));
    }

    /** The mapping of {@code field} in the one index {@code index} names, or a 400 naming what is missing. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> simhashFieldMapping(GetFieldMappingsResponse response, String index, String field) {
        if (response.mappings().isEmpty()) {
            throw new IllegalArgumentException("no index matches [" + index + "]");
        }
        if (response.mappings().size() > 1) {
            throw new IllegalArgumentException("[" + index + "] matches " + response.mappings().size() + " indices; name one index");
        }
        String concreteIndex = response.mappings().keySet().iterator().next();
        GetFieldMappingsResponse.FieldMappingMetadata metadata = response.fieldMappings(concreteIndex, field);
        if (metadata == null || metadata.sourceAsMap().isEmpty()) {
            throw new IllegalArgumentException("index [" + concreteIndex + "] has no field [" + field + "]");
        }
        Object mapping = metadata.sourceAsMap().values().iterator().next();
        if (mapping instanceof Map == false || "simhash".equals(((Map<String, Object>) mapping).get("type")) == false) {
            throw new IllegalArgumentException("field [" + field + "] of index [" + concreteIndex + "] is not a [simhash] field");
        }
        return (Map<String, Object>) mapping;
    }
}
