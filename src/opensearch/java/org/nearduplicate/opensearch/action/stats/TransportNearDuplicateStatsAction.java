package org.nearduplicate.opensearch.action.stats;

import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.nodes.TransportNodesAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.io.IOException;
import java.util.List;

import org.nearduplicate.opensearch.sketching.SketchingService;

/** Asks every selected node for a snapshot of its plugin's counters ({@link SketchingService#stats()}). */
public class TransportNearDuplicateStatsAction extends TransportNodesAction<
    NearDuplicateStatsRequest,
    NearDuplicateStatsResponse,
    NearDuplicateStatsNodeRequest,
    NearDuplicateStatsNodeResponse> {

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
            threadPool,
            clusterService,
            transportService,
            actionFilters,
            NearDuplicateStatsRequest::new,
            NearDuplicateStatsNodeRequest::new,
            ThreadPool.Names.MANAGEMENT,
            NearDuplicateStatsNodeResponse.class
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
    protected NearDuplicateStatsNodeResponse newNodeResponse(StreamInput in) throws IOException {
        return new NearDuplicateStatsNodeResponse(in);
    }

    @Override
    protected NearDuplicateStatsNodeResponse nodeOperation(NearDuplicateStatsNodeRequest request) {
        return new NearDuplicateStatsNodeResponse(clusterService.localNode(), sketching.stats().snapshot());
    }
}
