package org.nearduplicate.opensearch.rest;

import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestCancellableNodeClient;
import org.opensearch.transport.client.node.NodeClient;

import java.io.IOException;
import java.util.List;

import org.nearduplicate.opensearch.action.groups.SimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsResponse;

import static org.opensearch.rest.RestRequest.Method.GET;
import static org.opensearch.rest.RestRequest.Method.POST;

/**
 * {@code POST /{index}/_near_duplicates {"field": "fp", "max_distance": 3, "min_similarity": 0.35, "size": 100, "after": "id"}}: the groups of
 * near-duplicates of an index, as a cancellable task (closing the connection cancels it too).
 */
public class RestSimHashGroupsAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "near_duplicate_groups";
    }

    @Override
    public List<Route> routes() {
        return NearDuplicateRoutes.withPluginAliases(
            List.of(new Route(POST, "/{index}/_near_duplicates"), new Route(GET, "/{index}/_near_duplicates"))
        );
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String index = request.param("index");
        SimHashGroupsRequest groups;
        if (request.hasContentOrSourceParam()) {
            try (XContentParser parser = request.contentOrSourceParamParser()) {
                groups = SimHashGroupsRequest.fromXContent(index, parser);
            }
        } else {
            groups = new SimHashGroupsRequest(index, null);
        }
        return channel -> new RestCancellableNodeClient(client, request.getHttpChannel()).execute(
            SimHashGroupsAction.INSTANCE,
            groups,
            new ChanceWarningListener<SimHashGroupsResponse>(channel)
        );
    }
}
