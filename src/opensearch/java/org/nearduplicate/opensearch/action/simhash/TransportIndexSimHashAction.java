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

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.opensearch.common.FieldMappings;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.LikeDocument;
import org.nearduplicate.opensearch.index.query.SimHashProbe;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * {@code /{index}/_simhash} ({@link IndexSimHashAction}): reads the algorithm and layout of the index's {@code simhash}
 * field with a field-mappings request (made as the caller, so it is authorized as {@code indices:admin/mappings/fields/get}
 * on the index, which the security plugin's {@code read} action group includes), then fingerprints the inputs with
 * them, so the answer matches what is indexed. An {@code id} input is the stored document's fingerprint (and
 * signature) in the field, read from its {@code _source} with a GET made as the caller, as a {@code like} probe reads it.
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
            Map<String, Object> field = FieldMappings.simHashField(response, request.index(), request.field());
            SimHashSettings settings = engine.simHashSettings(String.valueOf(FieldMappings.algorithm(field, FieldMappings.SIMHASH)));
            BlockLayout layout = SimHashFieldMapper.layoutOf(field);
            stored(request, request.input(), settings, ActionListener.wrap(first -> {
                stored(request, request.compareInput(), settings, ActionListener.wrap(second -> {
                    TransportSimHashAction.analyze(threadPool, engine, request, settings, layout, first, second, listener);
                }, listener::onFailure));
            }, listener::onFailure));
        }, listener::onFailure));
    }

    /** The stored document's sketch for an {@code id} input, null for any other (or none). */
    private void stored(
        IndexSimHashRequest request,
        SimHashRequest.Input input,
        SimHashSettings settings,
        ActionListener<SimHash> listener
    ) {
        if (input == null || input.isStored() == false) {
            listener.onResponse(null);
            return;
        }
        new LikeDocument(request.index(), input.id(), null).fetch(client, request.field(), "document", (what, value) -> {
            SimHashProbe probe = SimHashProbe.stored(what, request.field(), value);
            if (probe.algorithm() != null && probe.algorithm().equals(settings.algorithmId()) == false) {
                throw new IllegalArgumentException(
                    what
                        + " was fingerprinted with algorithm ["
                        + probe.algorithm()
                        + "] but field ["
                        + request.field()
                        + "] is mapped with algorithm ["
                        + settings.algorithmId()
                        + "]"
                );
            }
            return new SimHash(probe.fingerprint(), probe.signature());
        }, listener);
    }
}
