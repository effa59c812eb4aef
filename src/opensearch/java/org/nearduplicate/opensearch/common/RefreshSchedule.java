package org.nearduplicate.opensearch.common;

import org.opensearch.common.unit.TimeValue;
import org.opensearch.index.shard.IndexShard;

/** What a shard copy's refresh schedule promises to a wait for its writes ({@link ShardRefresh}). */
public final class RefreshSchedule {
    private RefreshSchedule() {}

    /**
     * Why a shard copy's pending writes cannot become searchable within {@code remainingMillis} by a scheduled refresh
     * (refresh disabled, or an interval longer than that), or null when one can come.
     */
    public static String neverSearchable(IndexShard shard, long remainingMillis) {
        TimeValue interval = shard.indexSettings().getRefreshInterval();
        if (interval.millis() < 0) {
            return shard.shardId() + " has index.refresh_interval -1: its latest writes are not searchable until a refresh";
        }
        if (interval.millis() > remainingMillis) {
            return shard.shardId()
                + " refreshes every "
                + interval
                + ", longer than the lookup may wait ("
                + TimeValue.timeValueMillis(remainingMillis)
                + ")";
        }
        return null;
    }
}
