package org.nearduplicate.opensearch.rest;

import org.opensearch.core.common.Strings;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestActions;
import org.opensearch.transport.client.node.NodeClient;

import java.util.List;

import org.nearduplicate.opensearch.action.stats.NearDuplicateStatsAction;
import org.nearduplicate.opensearch.action.stats.NearDuplicateStatsRequest;
import org.nearduplicate.opensearch.common.Platform;

import static org.opensearch.rest.RestRequest.Method.GET;

/**
 * {@code GET _plugins/_near_duplicate/stats} and {@code GET _plugins/_near_duplicate/{nodeId}/stats}: the plugin's
 * counters per node and summed; {@code nodeId} takes the {@code _nodes} syntax ({@code _local}, names, ids, lists).
 */
public class RestNearDuplicateStatsAction extends BaseRestHandler {
    /** The path parameter of the node ids (named as the other plugin paths' index parameter at the same position). */
    static final String NODE_IDS = "index";

    @Override
    public String getName() {
        return "near_duplicate_stats";
    }

    @Override
    public List<Route> routes() {
        return List.of(
            new Route(GET, NearDuplicateRoutes.PREFIX + "/stats"),
            // the node ids sit where the aliased endpoints have {index}: a path trie takes one wildcard name per position
            new Route(GET, NearDuplicateRoutes.PREFIX + "/{" + NODE_IDS + "}/stats")
        );
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        String[] nodeIds = Strings.splitStringByCommaToArray(request.param(NODE_IDS));
        NearDuplicateStatsRequest stats = new NearDuplicateStatsRequest(nodeIds);
        stats.timeout(Platform.timeout(request));
        return channel -> client.execute(NearDuplicateStatsAction.INSTANCE, stats, new RestActions.NodesResponseRestListener<>(channel));
    }
}
