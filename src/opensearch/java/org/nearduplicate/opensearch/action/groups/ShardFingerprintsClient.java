package org.nearduplicate.opensearch.action.groups;

import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.transport.client.node.NodeClient;

import java.util.function.UnaryOperator;

import org.nearduplicate.orchestration.groups.Listener;
import org.nearduplicate.orchestration.groups.ShardAnswer;
import org.nearduplicate.orchestration.groups.ShardReads;

/** The shards of one index as a groups run reads them: one {@link SimHashShardFingerprintsAction} request each. */
final class ShardFingerprintsClient implements ShardReads {
    private final NodeClient client;
    private final IndexMetadata index;
    private final String field;
    private final AliasFilter aliasFilter;
    /** The write-back's group fields; null: not a write-back. */
    private final String groupField;
    private final String distanceField;
    /** Makes a request ready to send (parent task, what security authorizes it against). */
    private final UnaryOperator<SimHashShardFingerprintsRequest> prepare;

    ShardFingerprintsClient(
        NodeClient client,
        IndexMetadata index,
        String field,
        AliasFilter aliasFilter,
        String groupField,
        String distanceField,
        UnaryOperator<SimHashShardFingerprintsRequest> prepare
    ) {
        this.client = client;
        this.index = index;
        this.field = field;
        this.aliasFilter = aliasFilter;
        this.groupField = groupField;
        this.distanceField = distanceField;
        this.prepare = prepare;
    }

    @Override
    public int shards() {
        return index.getNumberOfShards();
    }

    private ShardId shardId(int shard) {
        return new ShardId(index.getIndex(), shard);
    }

    @Override
    public void fingerprints(int shard, Listener<ShardAnswer> listener) {
        send(new SimHashShardFingerprintsRequest(shardId(shard), field, null, aliasFilter), listener);
    }

    @Override
    public void members(int shard, long[] members, Listener<ShardAnswer> listener) {
        send(
            groupField != null
                ? new SimHashShardFingerprintsRequest(shardId(shard), field, members, aliasFilter, groupField, distanceField)
                : new SimHashShardFingerprintsRequest(shardId(shard), field, members, aliasFilter),
            listener
        );
    }

    @Override
    public void singletons(
        int shard,
        long[] inGroups,
        byte[] inGroupSignatures,
        long fromSeqNo,
        long toSeqNo,
        int limit,
        Listener<ShardAnswer> listener
    ) {
        send(
            new SimHashShardFingerprintsRequest(
                shardId(shard),
                field,
                inGroups,
                inGroupSignatures,
                groupField,
                distanceField,
                fromSeqNo,
                toSeqNo,
                limit,
                aliasFilter
            ),
            listener
        );
    }

    @Override
    public void stale(int shard, Listener<ShardAnswer> listener) {
        // no members: every document with a fingerprint has had its group written
        send(new SimHashShardFingerprintsRequest(shardId(shard), field, new long[0], null, groupField, aliasFilter), listener);
    }

    private void send(SimHashShardFingerprintsRequest request, Listener<ShardAnswer> listener) {
        client.executeLocally(
            SimHashShardFingerprintsAction.INSTANCE,
            prepare.apply(request),
            ActionListener.wrap(listener::onResponse, listener::onFailure)
        );
    }
}
