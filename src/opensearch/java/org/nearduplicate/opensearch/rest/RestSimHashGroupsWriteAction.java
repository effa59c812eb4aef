package org.nearduplicate.opensearch.rest;

import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestCancellableNodeClient;
import org.opensearch.tasks.Task;
import org.opensearch.transport.client.node.NodeClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteRequest;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteResponse;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.orchestration.groups.RequestsPerSecond;

import static org.opensearch.rest.RestRequest.Method.POST;

/**
 * {@code POST /{index}/_near_duplicates/_write}: computes the groups and writes them into the documents. With
 * {@code wait_for_completion=false} it answers {@code {"task": "node:id"}} at once; {@code GET _tasks/<id>} shows the
 * progress and, once done, the result (stored as {@code _update_by_query}'s is). With {@code refresh=true} the index is
 * refreshed after the last update, before the answer (and before the task's result is stored).
 */
public class RestSimHashGroupsWriteAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "near_duplicate_groups_write";
    }

    @Override
    public List<Route> routes() {
        return NearDuplicateRoutes.withPluginAliases(List.of(new Route(POST, "/{index}/_near_duplicates/_write")));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String index = request.param("index");
        SimHashGroupsWriteRequest write;
        if (request.hasContentOrSourceParam()) {
            try (XContentParser parser = request.contentOrSourceParamParser()) {
                write = SimHashGroupsWriteRequest.fromXContent(index, parser);
            }
        } else {
            write = new SimHashGroupsWriteRequest(index, null);
        }
        if (request.hasParam("requests_per_second")) {
            write.requestsPerSecond(RequestsPerSecond.parse(request.param("requests_per_second")));
        }
        // always consumed (an unconsumed parameter is a 400); wait_for is refused with the values it may take
        write.refresh(SimHashGroupsWriteRequest.parseRefresh(request.param(SimHashGroupsWriteRequest.REFRESH)));
        if (request.paramAsBoolean("wait_for_completion", true)) {
            return channel -> new RestCancellableNodeClient(client, request.getHttpChannel()).execute(
                SimHashGroupsWriteAction.INSTANCE,
                write,
                new ChanceWarningListener<SimHashGroupsWriteResponse>(channel)
            );
        }
        write.setShouldStoreResult(true);
        // validated here, so that a bad request is a 400 now rather than a stored failure later
        if (write.validate() != null) throw write.validate();
        // the checks that can fail at once (index, field, mappings) run first, through the same action and privileges:
        // their failure is the answer, not a task id whose stored result is that failure
        return channel -> client.execute(SimHashGroupsWriteAction.INSTANCE, write.validationOnly(), new ActionListener<>() {
            @Override
            public void onResponse(SimHashGroupsWriteResponse checked) {
                Task task = Platform.executeLogged(client, SimHashGroupsWriteAction.INSTANCE, write);
                try {
                    XContentBuilder builder = channel.newBuilder();
                    builder.startObject().field("task", client.getLocalNodeId() + ":" + task.getId()).endObject();
                    channel.sendResponse(Platform.restResponse(RestStatus.OK, builder));
                } catch (IOException e) {
                    onFailure(e);
                }
            }

            @Override
            public void onFailure(Exception e) {
                try {
                    channel.sendResponse(Platform.restResponse(channel, e));
                } catch (IOException inner) {
                    inner.addSuppressed(e);
                    throw new UncheckedIOException(inner);
                }
            }
        });
    }
}
