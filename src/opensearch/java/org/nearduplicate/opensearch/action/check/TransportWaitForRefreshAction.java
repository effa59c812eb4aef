package org.nearduplicate.opensearch.action.check;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.index.Index;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.node.NodeClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.nearduplicate.opensearch.common.Platform;

/**
 * Resolves the request's indices as its search would, then waits on every started copy of their shards (one
 * {@link CopyRefreshAction} each, all at once); fails with the first copy that fails or times out, so that a search
 * sent after the answer sees, on whichever copy it reads, every write the copies had when this was asked.
 */
public class TransportWaitForRefreshAction extends HandledTransportAction<WaitForRefreshRequest, WaitForRefreshResponse> {
    private final ClusterService clusterService;
    private final IndexNameExpressionResolver resolver;
    private final NodeClient client;

    @Inject
    public TransportWaitForRefreshAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ClusterService clusterService,
        IndexNameExpressionResolver resolver,
        NodeClient client
    ) {
        super(WaitForRefreshAction.NAME, transportService, actionFilters, WaitForRefreshRequest::new, Platform.DIRECT_EXECUTOR);
        this.clusterService = clusterService;
        this.resolver = resolver;
        this.client = client;
    }

    @Override
    protected void doExecute(Task task, WaitForRefreshRequest request, ActionListener<WaitForRefreshResponse> listener) {
        List<ShardRouting> copies = new ArrayList<>();
        try {
            ClusterState state = clusterService.state();
            for (Index index : resolver.concreteIndices(state, request)) {
                for (ShardRouting copy : state.routingTable().allShards(index.getName())) {
                    if (copy.active()) copies.add(copy);
                }
            }
        } catch (Exception e) {
            listener.onFailure(e);
            return;
        }
        if (copies.isEmpty()) {
            listener.onResponse(new WaitForRefreshResponse(0, 0));
            return;
        }
        AtomicInteger left = new AtomicInteger(copies.size());
        AtomicLong maxWait = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        for (ShardRouting copy : copies) {
            CopyRefreshRequest copyRequest = new CopyRefreshRequest(copy.shardId(), copy.allocationId().getId(), request.timeout())
                .authorizedAs(request);
            copyRequest.setParentTask(clusterService.localNode().getId(), task.getId());
            client.executeLocally(CopyRefreshAction.INSTANCE, copyRequest, new ActionListener<WaitForRefreshResponse>() {
                @Override
                public void onResponse(WaitForRefreshResponse response) {
                    maxWait.accumulateAndGet(response.maxWaitMillis(), Math::max);
                    done();
                }

                @Override
                public void onFailure(Exception e) {
                    failure.compareAndSet(null, ExceptionsHelper.unwrapCause(e) instanceof Exception cause ? cause : e);
                    done();
                }

                private void done() {
                    if (left.decrementAndGet() > 0) return;
                    Exception e = failure.get();
                    if (e != null) {
                        listener.onFailure(e);
                    } else {
                        listener.onResponse(new WaitForRefreshResponse(copies.size(), maxWait.get()));
                    }
                }
            });
        }
    }
}
