package org.nearduplicate.opensearch.rest;

import org.nearduplicate.opensearch.action.groups.NearDuplicateGroupsWriteAction;
import org.nearduplicate.opensearch.action.groups.NearDuplicateGroupsWriteRequest;
import org.nearduplicate.opensearch.action.groups.NearDuplicateGroupsWriteResponse;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.BytesRestResponse;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestCancellableNodeClient;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.tasks.LoggingTaskListener;
import org.opensearch.tasks.Task;
import org.opensearch.tasks.TaskListener;
import org.opensearch.transport.client.node.NodeClient;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.opensearch.rest.RestRequest.Method.POST;

/**
 * {@code POST /{index}/_near_duplicates/_write}: computes the groups and writes them into the documents. With
 * {@code wait_for_completion=false} it answers {@code {"task": "node:id"}} at once; {@code GET _tasks/<id>} shows the
 * progress and, once done, the result (stored as {@code _update_by_query}'s is).
 */
public class RestNearDuplicateGroupsWriteAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "near_duplicate_groups_write";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(POST, "/{index}/_near_duplicates/_write"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String index = request.param("index");
        NearDuplicateGroupsWriteRequest write;
        if (request.hasContentOrSourceParam()) {
            try (XContentParser parser = request.contentOrSourceParamParser()) {
                write = NearDuplicateGroupsWriteRequest.fromXContent(index, parser);
            }
        } else {
            write = new NearDuplicateGroupsWriteRequest(index, null);
        }
        if (request.hasParam("requests_per_second")) {
            write.requestsPerSecond(NearDuplicateGroupsWriteRequest.requestsPerSecond(request.param("requests_per_second")));
        }
        if (request.paramAsBoolean("wait_for_completion", true)) {
            return channel -> new RestCancellableNodeClient(client, request.getHttpChannel()).execute(
                NearDuplicateGroupsWriteAction.INSTANCE,
                write,
                new RestToXContentListener<>(channel)
            );
        }
        write.setShouldStoreResult(true);
        // validated here, so that a bad request is a 400 now rather than a stored failure later
        if (write.validate() != null) throw write.validate();
        // the action checks the index, the field and the mappings before it starts any work, and fails on this thread:
        // such a failure is the answer, not a task id whose stored result is that failure
        AtomicReference<Exception> failedAtOnce = new AtomicReference<>();
        AtomicBoolean started = new AtomicBoolean();
        Task task = client.executeLocally(NearDuplicateGroupsWriteAction.INSTANCE, write, new TaskListener<>() {
            @Override
            public void onResponse(Task t, NearDuplicateGroupsWriteResponse response) {
                LoggingTaskListener.<NearDuplicateGroupsWriteResponse>instance().onResponse(t, response);
            }

            @Override
            public void onFailure(Task t, Exception e) {
                if (started.get() == false) failedAtOnce.set(e);
                LoggingTaskListener.<NearDuplicateGroupsWriteResponse>instance().onFailure(t, e);
            }
        });
        started.set(true);
        if (failedAtOnce.get() != null) {
            Exception e = failedAtOnce.get();
            return channel -> channel.sendResponse(new BytesRestResponse(channel, e));
        }
        return sendTask(client.getLocalNodeId(), task);
    }
}
