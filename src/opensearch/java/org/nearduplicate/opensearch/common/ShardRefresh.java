package org.nearduplicate.opensearch.common;

import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;

import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.engine.Engine;
import org.opensearch.index.mapper.SeqNoFieldMapper;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.threadpool.ThreadPool;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.nearduplicate.orchestration.groups.ShardDocValues;

/**
 * Waits until the writes a shard copy had when asked (every operation acknowledged before) are searchable on it, at
 * most {@code timeout}; answers the milliseconds waited. Each adapter has its own class of this name. OpenSearch has
 * no public refresh listener by sequence number or translog location, so this polls the searcher that searches see,
 * every {@link #POLL}, until it holds every write of the copy ({@link DirectoryReader#isCurrent()}) or holds an
 * operation with a higher sequence number than the copy's highest when asked: that operation reached the copy after
 * the call, so the refresh that made it searchable began after the call and holds every write the copy had then
 * (segments without sequence-number points: until it has been replaced twice since the call instead).
 * Internal refreshes (indexing buffer, version map) do not count: searches do not see them. A copy whose writes are not
 * searchable yet fails at once when no scheduled refresh can come in time ({@link RefreshSchedule#neverSearchable}).
 */
public final class ShardRefresh {
    static final TimeValue POLL = TimeValue.timeValueMillis(20);

    private ShardRefresh() {}

    public static void await(IndexShard shard, ThreadPool threadPool, TimeValue timeout, ActionListener<Long> listener) {
        long start = threadPool.relativeTimeInMillis();
        long maxSeqNo = shard.seqNoStats().getMaxSeqNo();
        shard.awaitShardSearchActive(refreshed -> {}); // a search-idle copy refreshes again on schedule
        new Poll(shard, threadPool, maxSeqNo, start, start + timeout.millis(), listener).run();
    }

    /** Whether every segment with documents indexes sequence numbers as points (they can be read without a scan). */
    static boolean hasSeqNoPoints(DirectoryReader reader) throws IOException {
        for (LeafReaderContext leaf : reader.leaves()) {
            if (leaf.reader().maxDoc() > 0 && leaf.reader().getPointValues(SeqNoFieldMapper.NAME) == null) return false;
        }
        return true;
    }

    private static final class Poll implements Runnable {
        private final IndexShard shard;
        private final ThreadPool threadPool;
        private final long start;
        private final long deadline;
        private final ActionListener<Long> listener;
        /** The copy's highest sequence number when asked. */
        private final long maxSeqNo;
        /** Without sequence-number points: the searcher's version at the last poll (-1 before), and its changes since. */
        private long lastVersion = -1;
        private int replaced;

        Poll(IndexShard shard, ThreadPool threadPool, long maxSeqNo, long start, long deadline, ActionListener<Long> listener) {
            this.shard = shard;
            this.threadPool = threadPool;
            this.maxSeqNo = maxSeqNo;
            this.start = start;
            this.deadline = deadline;
            this.listener = listener;
        }

        @Override
        public void run() {
            long now = threadPool.relativeTimeInMillis();
            try {
                if (searchable()) {
                    listener.onResponse(now - start);
                    return;
                }
            } catch (Exception e) {
                listener.onFailure(e);
                return;
            }
            String never = RefreshSchedule.neverSearchable(shard, deadline - now);
            if (never != null) {
                listener.onFailure(Platform.statusException(never, 503));
            } else if (now >= deadline) {
                listener.onFailure(
                    Platform.statusException(
                        "the latest writes of "
                            + shard.shardId()
                            + " were not searchable within "
                            + TimeValue.timeValueMillis(deadline - start),
                        503
                    )
                );
            } else {
                Platform.scheduleGeneric(threadPool, this, POLL);
            }
        }

        private boolean searchable() {
            try (Engine.Searcher searcher = shard.acquireSearcher("near_duplicate_check")) {
                DirectoryReader reader = searcher.getDirectoryReader();
                if (reader.isCurrent()) return true;
                if (hasSeqNoPoints(reader)) return ShardDocValues.maxSeqNo(searcher, SeqNoFieldMapper.NAME) > maxSeqNo;
                // no points to read the sequence numbers from: replaced twice, so that the second refresh began after
                long version = reader.getVersion();
                if (lastVersion >= 0 && version != lastVersion) replaced++;
                lastVersion = version;
                return replaced >= 2;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
