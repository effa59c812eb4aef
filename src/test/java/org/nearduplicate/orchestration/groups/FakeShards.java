package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.nearduplicate.core.groups.GroupMembers;

/**
 * Shards in memory for the neutral orchestration's tests: documents ({@code _id}, fingerprint) per shard, answered at
 * once on the caller's thread, and a breaker that counts what is held and trips above a limit.
 */
final class FakeShards implements ShardReads {
    static final String ALGORITHM = "simhash-v3";

    /** One document of a shard; {@code group} null: its group fields hold nothing. */
    record Doc(String id, long fingerprint, boolean hasFingerprint, String group) {
        static Doc of(String id, long fingerprint) {
            return new Doc(id, fingerprint, true, null);
        }
    }

    final List<List<Doc>> shards = new ArrayList<>();
    /** A shard that fails every read, or -1. */
    int failing = -1;
    int reads;

    FakeShards(int count) {
        for (int i = 0; i < count; i++)
            shards.add(new ArrayList<>());
    }

    @Override
    public int shards() {
        return shards.size();
    }

    @Override
    public void fingerprints(int shard, Listener<ShardAnswer> listener) {
        if (fail(shard, listener)) return;
        long[] all = shards.get(shard).stream().filter(Doc::hasFingerprint).mapToLong(Doc::fingerprint).sorted().toArray();
        listener.onResponse(new Answer(all, null, 0, -1));
    }

    @Override
    public void members(int shard, long[] members, Listener<ShardAnswer> listener) {
        if (fail(shard, listener)) return;
        List<Doc> found = new ArrayList<>();
        for (Doc d : shards.get(shard)) {
            if (d.hasFingerprint() && Arrays.binarySearch(members, d.fingerprint()) >= 0) found.add(d);
        }
        listener.onResponse(new Answer(null, found, 0, -1));
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
        if (fail(shard, listener)) return;
        // the position in the shard stands for the sequence number
        List<Doc> docs = shards.get(shard);
        long to = toSeqNo >= 0 ? toSeqNo : docs.size() - 1;
        List<Doc> found = new ArrayList<>();
        long at = Math.max(0, fromSeqNo);
        for (; at <= to && found.size() < limit; at++) {
            Doc d = docs.get((int) at);
            if (d.hasFingerprint() == false || Arrays.binarySearch(inGroups, d.fingerprint()) >= 0) continue;
            if (d.id().equals(d.group())) continue;
            found.add(d);
        }
        listener.onResponse(new Answer(null, found, at, to));
    }

    @Override
    public void stale(int shard, Listener<ShardAnswer> listener) {
        if (fail(shard, listener)) return;
        List<Doc> found = shards.get(shard).stream().filter(d -> d.hasFingerprint() == false && d.group() != null).toList();
        listener.onResponse(new Answer(null, found, 0, -1));
    }

    private boolean fail(int shard, Listener<ShardAnswer> listener) {
        reads++;
        if (shard != failing) return false;
        listener.onFailure(new IllegalStateException("shard [" + shard + "] failed"));
        return true;
    }

    /** A shard's answer: fingerprints, or documents. */
    static final class Answer implements ShardAnswer {
        private long[] fingerprints;
        private final List<Doc> docs;
        private final long nextSeqNo, toSeqNo;

        Answer(long[] fingerprints, List<Doc> docs, long nextSeqNo, long toSeqNo) {
            this.fingerprints = fingerprints;
            this.docs = docs;
            this.nextSeqNo = nextSeqNo;
            this.toSeqNo = toSeqNo;
        }

        @Override
        public String algorithm() {
            return ALGORITHM;
        }

        @Override
        public boolean verifies() {
            return false;
        }

        @Override
        public long[] fingerprints() {
            return fingerprints;
        }

        @Override
        public byte[] signatures() {
            return null;
        }

        @Override
        public long[] takeFingerprints() {
            long[] taken = fingerprints;
            fingerprints = new long[0];
            return taken;
        }

        @Override
        public byte[] takeSignatures() {
            return null;
        }

        @Override
        public GroupMembers.Documents docs() {
            return docs == null ? null : new GroupMembers.Documents() {
                @Override
                public int size() {
                    return docs.size();
                }

                @Override
                public long fingerprint(int i) {
                    return docs.get(i).fingerprint();
                }

                @Override
                public String id(int i) {
                    return docs.get(i).id();
                }

                @Override
                public String routing(int i) {
                    return null;
                }

                @Override
                public int textBytes(int i) {
                    return docs.get(i).id().length();
                }
            };
        }

        @Override
        public long nextSeqNo() {
            return nextSeqNo;
        }

        @Override
        public long toSeqNo() {
            return toSeqNo;
        }

        @Override
        public long ramBytes() {
            return 64 + (fingerprints != null ? 8L * fingerprints.length : 40L * docs.size());
        }
    }

    /** Counts what is held; trips above {@code limit}. */
    static final class CountingBreaker implements Breaker {
        final AtomicLong used = new AtomicLong();
        final long limit;

        CountingBreaker(long limit) {
            this.limit = limit;
        }

        @Override
        public void addEstimateBytesAndMaybeBreak(long bytes, String label) {
            if (used.get() + bytes > limit) throw new IllegalStateException("breaker tripped: " + label);
            used.addAndGet(bytes);
        }

        @Override
        public void addWithoutBreaking(long bytes) {
            used.addAndGet(bytes);
        }
    }

    /** A task that records its phases and counts, cancelled on demand. */
    static final class Task implements GroupsTask {
        final List<String> phases = new ArrayList<>();
        final WriteCounts counts = new WriteCounts();
        volatile boolean cancelled;
        Runnable onCancel;

        void cancel() {
            cancelled = true;
            Runnable action = onCancel;
            onCancel = null;
            if (action != null) action.run();
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public RuntimeException cancelled(String what) {
            return new java.util.concurrent.CancellationException(what + " cancelled: test");
        }

        @Override
        public void whenCancelled(Runnable action) {
            if (cancelled) action.run();
            else onCancel = action;
        }

        @Override
        public WriteCounts writeCounts() {
            return counts;
        }

        @Override
        public void phase(String phase) {
            phases.add(phase);
        }

        @Override
        public void tables(int done, int total) {}
    }

    /** Records the answer of an asynchronous step. */
    static final class Answered<T> implements Listener<T> {
        T value;
        Exception failure;
        int calls;

        @Override
        public void onResponse(T value) {
            this.value = value;
            calls++;
        }

        @Override
        public void onFailure(Exception e) {
            this.failure = e;
            calls++;
        }
    }
}
