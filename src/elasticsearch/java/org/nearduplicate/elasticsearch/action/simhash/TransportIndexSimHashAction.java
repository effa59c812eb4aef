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
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.elasticsearch.common.FieldMappings;
import org.nearduplicate.elasticsearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.elasticsearch.index.query.LikeDocument;
import org.nearduplicate.elasticsearch.index.query.SimHashProbe;
import org.nearduplicate.elasticsearch.sketching.SketchingService;

/**
 * {@code /{index}/_simhash} ({@link IndexSimHashAction}): reads the algorithm and layout of the index's {@code simhash}
 * field from the cluster state's mapping, then fingerprints the inputs with them, so the answer matches what is indexed.
 * The action itself ({@code indices:data/read/near_duplicate/simhash}) is authorized on the index, so the {@code read}
 * privilege suffices; the OpenSearch adapter asks with a field-mappings request made as the caller instead, which
 * OpenSearch's {@code read} action group includes but Elasticsearch's {@code read} privilege does not. An {@code id} input
 * is the stored document's fingerprint (and signature) in the field, read from its {@code _source} with a GET made as the
 * caller, as a {@code like} probe reads it.
 */
public class TransportIndexSimHashAction extends HandledTransportAction<IndexSimHashRequest, SimHashResponse> {

    private final SketchingService engine;
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
        SketchingService engine
    ) {
        super(IndexSimHashAction.NAME, transportService, actionFilters, IndexSimHashRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.engine = engine;
        this.threadPool = threadPool;
        this.clusterService = clusterService;
        this.client = client;
    }

    @Override
    protected void doExecute(Task task, IndexSimHashRequest request, ActionListener<SimHashResponse> listener) {
        ActionListener.run(listener, l -> {
            List<IndexMetadata> indices = FieldMappings.resolve(clusterService.state(), request.index());
            Map<String, Object> field = FieldMappings.simHashField(indices, request.index(), request.field());
            SimHashSettings settings = engine.simHashSettings(String.valueOf(FieldMappings.algorithm(field, FieldMappings.SIMHASH)));
            BlockLayout layout = SimHashFieldMapper.layoutOf(field);
            stored(request, request.input(), settings, l.delegateFailureAndWrap((l1, first) -> {
                stored(request, request.compareInput(), settings, l1.delegateFailureAndWrap((l2, second) -> {
                    TransportSimHashAction.analyze(threadPool, engine, request, settings, layout, first, second, l2);
                }));
            }));
        });
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
