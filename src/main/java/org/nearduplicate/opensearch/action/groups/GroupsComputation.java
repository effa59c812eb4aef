package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.opensearch.common.MaxDistance;
import org.opensearch.action.support.GroupedActionListener;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.tasks.CancellableTask;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.node.NodeClient;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Computes every near-duplicate group of one {@code simhash} field, exactly, for any k, in three steps:
 * <ol>
 *   <li>every shard sends the sorted fingerprints of its live documents (doc values, one forward pass); the
 *       coordinator merges them into the distinct fingerprints and their document counts;</li>
 *   <li>{@link HammingGroups} finds the components of the "within k" graph over the distinct fingerprints, without
 *       quadratic work in unrelated ones;</li>
 *   <li>every shard sends the {@code _id} and routing of its documents whose fingerprint is in a group.</li>
 * </ol>
 * Everything held on the coordinator is reserved in the {@code near_duplicate} breaker before it is allocated (or as
 * soon as a shard's answer arrives) and released when the run ends, however it ends: a run too large for the node
 * fails with the breaker's 429 instead of filling the heap. Documents written during a run may or may not be in it.
 */
public final class GroupsComputation {

    /** A member of a group: its document, fingerprint and distance to the representative's fingerprint. */
    public record Member(String id, String routing, long fingerprint, int distance) {}

    /** A group of two or more documents; {@code representative} is its smallest {@code _id}. */
    public record Group(String representative, List<Member> members, long verifiedPairs) {}

    /** The groups sorted by representative, members by distance then id, and the run's counts. */
    public record Result(
        int maxDistance,
        String algorithm,
        long docs,
        long comparisons,
        long verifiedPairs,
        HammingGroups.Plan plan,
        List<Group> groups
    ) {
        public long docsInGroups() {
            long n = 0;
            for (Group g : groups) n += g.members().size();
            return n;
        }
    }

    /** Where a run reports its progress (the task's status). */
    public interface Progress {
        void phase(String phase);

        void tables(int done, int total);
    }

    private final NodeClient client;
    private final ThreadPool threadPool;
    private final Supplier<CircuitBreaker> breakers;
    private final Supplier<String> localNodeId;

    /** The breaker and the local node are looked up per run: both are set after the actions are built. */
    public GroupsComputation(NodeClient client, ThreadPool threadPool, Supplier<CircuitBreaker> breaker, Supplier<String> localNodeId) {
        this.client = client;
        this.threadPool = threadPool;
        this.breakers = breaker;
        this.localNodeId = localNodeId;
    }

    /** Runs on {@code index}'s {@code field} at {@code maxDistance} (null: the field algorithm's recommended k). */
    public void run(
        CancellableTask task,
        IndexMetadata index,
        String field,
        Integer maxDistance,
        Progress progress,
        ActionListener<Result> listener
    ) {
        new Run(task, index, field, maxDistance, progress, listener).fingerprints();
    }

    private final class Run {
        private final CancellableTask task;
        private final IndexMetadata index;
        private final String field;
        private final Integer requestedDistance;
        private final Progress progress;
        private final ActionListener<Result> listener;
        private final AtomicBoolean done = new AtomicBoolean();
        private final CircuitBreaker breaker = breakers.get();
        private long reserved; // bytes held in the breaker (guarded by this)

        Run(CancellableTask task, IndexMetadata index, String field, Integer maxDistance, Progress progress, ActionListener<Result> listener) {
            this.task = task;
            this.index = index;
            this.field = field;
            this.requestedDistance = maxDistance;
            this.progress = progress;
            this.listener = listener;
        }

        private void checkCancelled() {
            if (task.isCancelled()) {
                throw new TaskCancelledException("near_duplicate groups task cancelled: " + task.getReasonCancelled());
            }
        }

        /** Reserves in the breaker (or throws its 429); nothing once the run has ended, so a late answer cannot leak. */
        private synchronized void reserve(long bytes, String what) {
            if (done.get()) return;
            breaker.addEstimateBytesAndMaybeBreak(bytes, "near_duplicate groups: " + what);
            reserved += bytes;
        }

        private synchronized void release(long bytes) {
            if (done.get()) return;
            breaker.addWithoutBreaking(-bytes);
            reserved -= bytes;
        }

        /** Ends the run: gives back everything it still holds, exactly once. */
        private synchronized boolean end() {
            if (done.compareAndSet(false, true) == false) return false;
            breaker.addWithoutBreaking(-reserved);
            reserved = 0;
            return true;
        }

        private void fail(Exception e) {
            if (end()) listener.onFailure(e);
        }

        private void succeed(Result result) {
            if (end()) listener.onResponse(result);
        }

        /** Sends one request per shard, then runs {@code next} on the generic pool with all answers. */
        private void allShards(long[] members, String phase, java.util.function.Consumer<Collection<NearDuplicateShardFingerprintsResponse>> next) {
            checkCancelled();
            progress.phase(phase);
            int shards = index.getNumberOfShards();
            GroupedActionListener<NearDuplicateShardFingerprintsResponse> all = new GroupedActionListener<>(
                ActionListener.wrap(responses -> threadPool.generic().execute(() -> {
                    try {
                        next.accept(responses);
                    } catch (Exception e) {
                        fail(e);
                    }
                }), this::fail),
                shards
            );
            TaskId parent = new TaskId(localNodeId.get(), task.getId());
            for (int s = 0; s < shards; s++) {
                NearDuplicateShardFingerprintsRequest request = new NearDuplicateShardFingerprintsRequest(
                    new ShardId(index.getIndex(), s),
                    field,
                    members
                );
                request.setParentTask(parent);
                client.executeLocally(NearDuplicateShardFingerprintsAction.INSTANCE, request, ActionListener.wrap(r -> {
                    try {
                        reserve(r.ramBytes(), phase + " of a shard");
                    } catch (Exception e) {
                        all.onFailure(e);
                        return;
                    }
                    all.onResponse(r);
                }, all::onFailure));
            }
        }

        void fingerprints() {
            try {
                allShards(null, "reading fingerprints", this::group);
            } catch (Exception e) {
                fail(e);
            }
        }

        private void group(Collection<NearDuplicateShardFingerprintsResponse> responses) {
            checkCancelled();
            String algorithm = null;
            long docs = 0;
            long shardBytes = 0;
            for (NearDuplicateShardFingerprintsResponse r : responses) {
                if (algorithm != null && algorithm.equals(r.algorithm()) == false) {
                    throw new IllegalStateException("shards disagree on the algorithm of field [" + field + "]: [" + algorithm + "], [" + r.algorithm() + "]");
                }
                algorithm = r.algorithm();
                docs += r.fingerprints().length;
                shardBytes += r.ramBytes();
            }
            int k = MaxDistance.orField(requestedDistance, MaxDistance.MAX, algorithm);
            // distinct fingerprints and their document counts, merged from the shards' sorted arrays
            reserve(12 * docs, "distinct fingerprints");
            long[] distinct = new long[Math.toIntExact(docs)];
            int[] counts = new int[distinct.length];
            List<long[]> shardArrays = new ArrayList<>(responses.size());
            for (NearDuplicateShardFingerprintsResponse r : responses) shardArrays.add(r.takeFingerprints());
            int n = merge(shardArrays, distinct, counts);
            shardArrays = null;
            release(shardBytes); // the shards' arrays are garbage once merged
            if (n < distinct.length) {
                distinct = Arrays.copyOf(distinct, n);
                counts = Arrays.copyOf(counts, n);
                release(12 * (docs - n));
            }
            HammingGroups.Plan plan = HammingGroups.plan(n, k);
            long tableBytes = HammingGroups.tableBytes(n, plan);
            reserve(HammingGroups.resultBytes(n) + tableBytes, "grouping " + n + " distinct fingerprints at k=" + k + " (" + plan.tables() + " tables)");
            progress.phase("grouping");
            progress.tables(0, plan.tables());
            HammingGroups.Result grouped = HammingGroups.find(distinct, counts, k, new HammingGroups.Progress() {
                @Override
                public void tableDone(int tablesDone, int total) {
                    progress.tables(tablesDone, total);
                    checkCancelled();
                }

                @Override
                public void checkCancelled() {
                    Run.this.checkCancelled();
                }
            });
            release(tableBytes); // garbage now
            reserve(4L * n, "group sizes");
            // the fingerprints of every group: components holding two or more documents
            int[] root = grouped.roots();
            int[] docsOfRoot = new int[n];
            for (int i = 0; i < n; i++) docsOfRoot[root[i]] = (int) Math.min(Integer.MAX_VALUE, (long) docsOfRoot[root[i]] + counts[i]);
            int wanted = 0;
            for (int i = 0; i < n; i++) if (docsOfRoot[root[i]] > 1) wanted++;
            reserve(8L * wanted, "fingerprints in groups");
            long[] inGroups = new long[wanted];
            Map<Integer, Long> pairsOfRoot = new HashMap<>();
            for (int i = 0, w = 0; i < n; i++) {
                if (docsOfRoot[root[i]] < 2) continue;
                inGroups[w++] = distinct[i];
                if (grouped.pairsAt(i) != 0) pairsOfRoot.merge(root[i], grouped.pairsAt(i), Long::sum);
            }
            long identicalPairs = 0;
            for (int c : counts) identicalPairs += (long) c * (c - 1) / 2;
            Result empty = new Result(k, algorithm, docs, grouped.comparisons() + identicalPairs, grouped.verifiedPairs(), plan, List.of());
            if (wanted == 0) {
                succeed(empty);
                return;
            }
            long[] distinctFingerprints = distinct;
            allShards(inGroups, "reading group members", responses2 -> succeed(groups(empty, responses2, distinctFingerprints, root, pairsOfRoot)));
        }

        /** The members read from the shards, grouped by component; representative = smallest {@code _id}. */
        private Result groups(
            Result counts,
            Collection<NearDuplicateShardFingerprintsResponse> responses,
            long[] distinct,
            int[] root,
            Map<Integer, Long> pairsOfRoot
        ) {
            checkCancelled();
            Map<Integer, List<Member>> byRoot = new HashMap<>();
            for (NearDuplicateShardFingerprintsResponse r : responses) {
                long[] fps = r.fingerprints();
                for (int i = 0; i < fps.length; i++) {
                    int at = Arrays.binarySearch(distinct, fps[i]);
                    if (at < 0) continue; // a fingerprint written during the run
                    byRoot.computeIfAbsent(root[at], x -> new ArrayList<>()).add(new Member(r.ids()[i], r.routings()[i], fps[i], 0));
                }
            }
            List<Group> groups = new ArrayList<>(byRoot.size());
            int seen = 0;
            for (Map.Entry<Integer, List<Member>> e : byRoot.entrySet()) {
                if ((++seen & 1023) == 0) checkCancelled();
                List<Member> found = e.getValue();
                if (found.size() < 2) continue; // its partners were deleted during the run
                Member rep = found.get(0);
                for (Member m : found) if (m.id().compareTo(rep.id()) < 0) rep = m;
                List<Member> members = new ArrayList<>(found.size());
                for (Member m : found) {
                    members.add(new Member(m.id(), m.routing(), m.fingerprint(), Fingerprints.distance(rep.fingerprint(), m.fingerprint())));
                }
                members.sort(Comparator.comparingInt(Member::distance).thenComparing(Member::id));
                groups.add(new Group(rep.id(), members, pairsOfRoot.getOrDefault(e.getKey(), 0L)));
            }
            groups.sort(Comparator.comparing(Group::representative));
            return new Result(counts.maxDistance(), counts.algorithm(), counts.docs(), counts.comparisons(), counts.verifiedPairs(), counts.plan(), groups);
        }
    }

    /** Merges the shards' sorted arrays into {@code distinct} and {@code counts}; returns the number of distinct values. */
    static int merge(List<long[]> sortedArrays, long[] distinct, int[] counts) {
        List<long[]> arrays = new ArrayList<>(sortedArrays.size());
        for (long[] a : sortedArrays) {
            if (a.length > 0) arrays.add(a);
        }
        int[] at = new int[arrays.size()];
        int n = 0;
        while (true) {
            int best = -1;
            for (int a = 0; a < arrays.size(); a++) {
                if (at[a] < arrays.get(a).length && (best < 0 || arrays.get(a)[at[a]] < arrays.get(best)[at[best]])) best = a;
            }
            if (best < 0) return n;
            long v = arrays.get(best)[at[best]++];
            if (n > 0 && distinct[n - 1] == v) {
                counts[n - 1]++;
            } else {
                distinct[n] = v;
                counts[n++] = 1;
            }
        }
    }
}
