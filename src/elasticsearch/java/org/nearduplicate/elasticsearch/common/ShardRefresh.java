package org.nearduplicate.elasticsearch.common;

import java.util.concurrent.atomic.AtomicBoolean;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.engine.Engine;
import org.elasticsearch.index.shard.IndexShard;
import org.elasticsearch.threadpool.Scheduler;
import org.elasticsearch.threadpool.ThreadPool;

/**
 * Waits until the writes a shard copy had when asked (every operation up to its highest sequence number) are
 * searchable on it, at most {@code timeout}; answers the milliseconds waited. Each adapter has its own class of this
 * name. Elasticsearch listens for the refresh whose searcher holds that sequence number, as {@code refresh=wait_for}
 * does for a write. A copy whose writes are not searchable yet fails at once when no scheduled refresh can come in
 * time ({@link RefreshSchedule#neverSearchable}).
 */
public final class ShardRefresh {
    private ShardRefresh() {}

    public static void await(IndexShard shard, ThreadPool threadPool, TimeValue timeout, ActionListener<Long> listener) {
        long start = threadPool.relativeTimeInMillis();
        long target = shard.seqNoStats().getMaxSeqNo();
        Engine engine = shard.getEngineOrNull();
        if (target < 0 || (engine != null && engine.refreshNeeded() == false)) {
            listener.onResponse(0L); // the searcher holds every write of the copy
            return;
        }
        String never = RefreshSchedule.neverSearchable(shard, timeout.millis());
        if (never != null) {
            listener.onFailure(Platform.statusException(never, 503)); // and no listener left to force a refresh
            return;
        }
        AtomicBoolean done = new AtomicBoolean();
        Scheduler.ScheduledCancellable timer = Platform.scheduleGeneric(threadPool, () -> {
            if (done.compareAndSet(false, true)) {
                listener.onFailure(
                    Platform.statusException("the latest writes of " + shard.shardId() + " were not searchable within " + timeout, 503)
                );
            }
        }, timeout);
        shard.ensureShardSearchActive(refreshed -> {}); // a search-idle copy refreshes again on schedule
        shard.addRefreshListener(target, false, ActionListener.wrap(ignored -> {
            if (done.compareAndSet(false, true)) {
                timer.cancel();
                listener.onResponse(threadPool.relativeTimeInMillis() - start);
            }
        }, e -> {
            if (done.compareAndSet(false, true)) {
                timer.cancel();
                listener.onFailure(e);
            }
        }));
    }
}
