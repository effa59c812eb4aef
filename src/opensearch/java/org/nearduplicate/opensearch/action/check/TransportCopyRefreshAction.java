package org.nearduplicate.opensearch.action.check;

import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.single.shard.TransportSingleShardAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.routing.PlainShardsIterator;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.cluster.routing.ShardsIterator;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.util.List;

import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.common.ShardRefresh;

/** Waits on the node of one shard copy (named by its allocation id) until its writes are searchable ({@link ShardRefresh}). */
public class TransportCopyRefreshAction extends TransportSingleShardAction<CopyRefreshRequest, WaitForRefreshResponse> {
    private final IndicesService indicesService;

    @Inject
    public TransportCopyRefreshAction(
        ClusterService clusterService,
        TransportService transportService,
        IndicesService indicesService,
        ThreadPool threadPool,
        ActionFilters actionFilters,
        IndexNameExpressionResolver indexNameExpressionResolver
    ) {
        super(
            CopyRefreshAction.NAME,
            threadPool,
            clusterService,
            transportService,
            actionFilters,
            indexNameExpressionResolver,
            CopyRefreshRequest::new,
            Platform.DIRECT_EXECUTOR
        );
        this.indicesService = indicesService;
    }

    @Override
    protected boolean isSubAction() {
        return true;
    }

    @Override
    protected Writeable.Reader<WaitForRefreshResponse> getResponseReader() {
        return WaitForRefreshResponse::new;
    }

    @Override
    protected boolean resolveIndex(CopyRefreshRequest request) {
        return false;
    }

    /** The one copy the request names, while it is started; none (the request fails) otherwise. */
    @Override
    protected ShardsIterator shards(ClusterState state, InternalRequest request) {
        ShardId shardId = request.request().shardId();
        ShardRouting copy = state.routingTable().shardRoutingTable(shardId).getByAllocationId(request.request().allocationId());
        return new PlainShardsIterator(copy != null && copy.active() ? List.of(copy) : List.of());
    }

    @Override
    protected void asyncShardOperation(CopyRefreshRequest request, ShardId shardId, ActionListener<WaitForRefreshResponse> listener) {
        IndexShard shard = indicesService.indexServiceSafe(shardId.getIndex()).getShard(shardId.id());
        if (shard.routingEntry().allocationId().getId().equals(request.allocationId()) == false) {
            throw new IllegalStateException("shard copy " + request.allocationId() + " of " + shardId + " is no longer on this node");
        }
        ShardRefresh.await(shard, threadPool, request.timeout(), Platform.map(listener, waited -> new WaitForRefreshResponse(1, waited)));
    }

    @Override
    protected WaitForRefreshResponse shardOperation(CopyRefreshRequest request, ShardId shardId) {
        throw new UnsupportedOperationException("asynchronous only");
    }
}
