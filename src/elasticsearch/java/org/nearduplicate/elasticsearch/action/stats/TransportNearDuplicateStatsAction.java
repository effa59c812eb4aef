package org.nearduplicate.elasticsearch.action.stats;

import java.io.IOException;
import java.util.List;

import org.elasticsearch.action.FailedNodeException;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.nodes.TransportNodesAction;
import org.elasticsearch.cluster.node.DiscoveryNode;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;
import org.nearduplicate.elasticsearch.sketching.SketchingService;

/** Asks every selected node for a snapshot of its plugin's counters ({@link SketchingService#stats()}). */
public class TransportNearDuplicateStatsAction extends TransportNodesAction<
    NearDuplicateStatsRequest,
    NearDuplicateStatsResponse,
    NearDuplicateStatsNodeRequest,
    NearDuplicateStatsNodeResponse,
    Void> {

    private final SketchingService sketching;

    @Inject
    public TransportNearDuplicateStatsAction(
        ThreadPool threadPool,
        ClusterService clusterService,
        TransportService transportService,
        ActionFilters actionFilters,
        SketchingService sketching
    ) {
        super(
            NearDuplicateStatsAction.NAME,
            clusterService,
            transportService,
            actionFilters,
            NearDuplicateStatsNodeRequest::new,
            threadPool.executor(ThreadPool.Names.MANAGEMENT)
        );
        this.sketching = sketching;
    }

    @Override
    protected NearDuplicateStatsResponse newResponse(
        NearDuplicateStatsRequest request,
        List<NearDuplicateStatsNodeResponse> responses,
        List<FailedNodeException> failures
    ) {
        return new NearDuplicateStatsResponse(clusterService.getClusterName(), responses, failures);
    }

    @Override
    protected NearDuplicateStatsNodeRequest newNodeRequest(NearDuplicateStatsRequest request) {
        return new NearDuplicateStatsNodeRequest();
    }

    @Override
    protected NearDuplicateStatsNodeResponse newNodeResponse(StreamInput in, DiscoveryNode node) throws IOException {
        return new NearDuplicateStatsNodeResponse(in);
    }

    @Override
    protected NearDuplicateStatsNodeResponse nodeOperation(NearDuplicateStatsNodeRequest request, Task task) {
        return new NearDuplicateStatsNodeResponse(clusterService.localNode(), sketching.stats().snapshot());
    }
}
