package org.nearduplicate.elasticsearch.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.rest.action.RestCancellableNodeClient;
import org.elasticsearch.tasks.LoggingTaskListener;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;
import org.nearduplicate.elasticsearch.action.groups.SimHashGroupsWriteAction;
import org.nearduplicate.elasticsearch.action.groups.SimHashGroupsWriteRequest;
import org.nearduplicate.elasticsearch.action.groups.SimHashGroupsWriteResponse;

import static org.elasticsearch.rest.RestRequest.Method.POST;

/**
 * {@code POST /{index}/_near_duplicates/_write}: computes the groups and writes them into the documents. With
 * {@code wait_for_completion=false} it answers {@code {"task": "node:id"}} at once; {@code GET _tasks/<id>} shows the
 * progress and, once done, the result (stored as {@code _update_by_query}'s is).
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
            write.requestsPerSecond(SimHashGroupsWriteRequest.requestsPerSecond(request.param("requests_per_second")));
        }
        if (request.paramAsBoolean("wait_for_completion", true)) {
            return channel -> new RestCancellableNodeClient(client, request.getHttpChannel()).execute(
                SimHashGroupsWriteAction.INSTANCE,
                write,
                new ChanceWarningListener<>(channel, SimHashGroupsWriteResponse::chanceMatches)
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
                SubscribableListener<SimHashGroupsWriteResponse> outcome = new SubscribableListener<>();
                Task task = client.executeLocally(SimHashGroupsWriteAction.INSTANCE, write, outcome);
                outcome.addListener(new LoggingTaskListener<>(task));
                try {
                    XContentBuilder builder = channel.newBuilder();
                    builder.startObject().field("task", client.getLocalNodeId() + ":" + task.getId()).endObject();
                    channel.sendResponse(new RestResponse(RestStatus.OK, builder));
                } catch (IOException e) {
                    onFailure(e);
                }
            }

            @Override
            public void onFailure(Exception e) {
                try {
                    channel.sendResponse(new RestResponse(channel, e));
                } catch (IOException inner) {
                    inner.addSuppressed(e);
                    throw new UncheckedIOException(inner);
                }
            }
        });
    }
}
