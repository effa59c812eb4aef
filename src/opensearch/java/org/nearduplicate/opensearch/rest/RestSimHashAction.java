package org.nearduplicate.opensearch.rest;

import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.transport.client.node.NodeClient;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.opensearch.action.simhash.IndexSimHashAction;
import org.nearduplicate.opensearch.action.simhash.IndexSimHashRequest;
import org.nearduplicate.opensearch.action.simhash.SimHashAction;
import org.nearduplicate.opensearch.action.simhash.SimHashRequest;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.opensearch.rest.RestRequest.Method.GET;
import static org.opensearch.rest.RestRequest.Method.POST;

/**
 * {@code _simhash}: the debugging tool for "why are these two pages (not) near-duplicates", in the spirit of
 * {@code _analyze}. Fingerprints one input (or two, and compares them) with explicit settings or with the settings
 * and block layout of an index's {@code simhash} field, and shows the main text, the heaviest features, the
 * fingerprint, its algorithm and its block keys. The work runs in a transport action, so roles can allow or deny it:
 * {@link SimHashAction} ({@code cluster:monitor/near_duplicate/simhash}) without an index, {@link IndexSimHashAction}
 * ({@code indices:data/read/near_duplicate/simhash}, on the index) with one.
 */
public class RestSimHashAction extends BaseRestHandler {

    private final SketchingService sketching;

    public RestSimHashAction(SketchingService sketching) {
        this.sketching = sketching;
    }

    @Override
    public String getName() {
        return "near_duplicate_simhash_action";
    }

    @Override
    public List<Route> routes() {
        return NearDuplicateRoutes.withPluginAliases(
            List.of(
                new Route(GET, "/_simhash"),
                new Route(POST, "/_simhash"),
                new Route(GET, "/{index}/_simhash"),
                new Route(POST, "/{index}/_simhash")
            )
        );
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String index = request.param("index");
        Map<String, Object> body;
        if (request.hasContentOrSourceParam() == false) {
            throw new IllegalArgumentException("[_simhash] needs a request body with [text] or [html]");
        }
        try (XContentParser parser = request.contentOrSourceParamParser()) {
            body = parser.map();
        }
        // validated here (a bad option is a 400 before any work) and run by the transport action
        SimHashRequest parsed = SimHashRequest.parse(body, index, sketching);
        if (parsed instanceof IndexSimHashRequest withIndex) {
            return channel -> client.execute(IndexSimHashAction.INSTANCE, withIndex, new RestToXContentListener<>(channel));
        }
        return channel -> client.execute(SimHashAction.INSTANCE, parsed, new RestToXContentListener<>(channel));
    }

    @Override
    protected Set<String> responseParams() {
        return Set.of();
    }
}
