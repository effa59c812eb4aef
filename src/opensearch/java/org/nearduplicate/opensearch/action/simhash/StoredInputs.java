package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.core.action.ActionListener;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.node.NodeClient;

import java.util.Map;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.opensearch.common.FieldMappings;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.LikeDocument;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * {@code /{index}/_simhash} once the index's {@code simhash} field mapping is known (each platform's transport action
 * reads it as that platform authorizes it): fingerprints the inputs with the field's algorithm and layout, so the
 * answer matches what is indexed. An {@code id} input is the stored document's fingerprint (and signature) in the
 * field, read from its {@code _source} with a GET made as the caller, as a {@code like} probe reads it.
 */
final class StoredInputs {
    private StoredInputs() {}

    static void analyze(
        NodeClient client,
        ThreadPool threadPool,
        SketchingService sketching,
        IndexSimHashRequest request,
        Map<String, Object> field,
        ActionListener<SimHashResponse> listener
    ) {
        SimHashSettings settings = sketching.simHashSettings(String.valueOf(FieldMappings.algorithm(field, FieldMappings.SIMHASH)));
        BlockLayout layout = SimHashFieldMapper.layoutOf(field);
        stored(client, request, request.input(), settings, Platform.delegateFailure(listener, (l1, first) -> {
            stored(client, request, request.compareInput(), settings, Platform.delegateFailure(l1, (l2, second) -> {
                TransportSimHashAction.analyze(threadPool, sketching, request, settings, layout, first, second, l2);
            }));
        }));
    }

    /** The stored document's sketch for an {@code id} input, null for any other (or none). */
    private static void stored(
        NodeClient client,
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
