package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.options.MaxDistance;
import org.opensearch.action.support.GroupedActionListener;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.common.lease.Releasable;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.tasks.CancellableTask;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.node.NodeClient;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
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
 * Everything held on the coordinator is reserved in the {@code near_duplicate} breaker before it is allocated (a
 * shard's answer: its expected size before the requests go out, its real size when it arrives) and released when the
 * run ends, however it ends, except the groups themselves, whose reservation goes with the {@link Result} until its
 * consumer closes it: a run too large for the node fails with the breaker's 429 instead of filling the heap. Only the
 * documents visible through the request's index or alias are read. Documents written during a run may or may not be
 * in it.
 */
public final class GroupsComputation {

    /** A member of a group: its document, fingerprint and distance to the representative's fingerprint. */
    public record Member(String id, String routing, long fingerprint, int distance) {}

    /** A group of two or more documents; {@code representative} is its smallest {@code _id}. */
    public record Group(String representative, List<Member> members, long verifiedPairs) {}

    /**
     * The groups sorted by representative, members by distance then id, and the run's counts. The memory of the groups
     * stays reserved in the breaker until whoever consumes the result closes it.
     */
    public record Result(
        int maxDistance,
        String algorithm,
        long docs,
        long comparisons,
        long verifiedPairs,
        HammingGroups.Plan plan,
        List<Group> groups,
        Releasable reservation
    ) implements Releasable {
        public long docsInGroups() {
            long n = 0;
            for (Group g : groups) n += g.members().size();
            return n;
        }

        @Override
        public void close() {
            reservation.close();
        }
    }

    /** Heap of one member once grouped, beyond its id's and routing's bytes: the record, two strings, list slots. */
    static final long MEMBER_BYTES = 32 + 2 * 40 + 8;
    /** Heap of one group beyond its members: the record and its list. */
    static final long GROUP_BYTES = 32 + 40;

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

    /**
     * Runs on {@code index}'s {@code field} at {@code maxDistance} (null: the field algorithm's recommended k), reading
     * only the documents {@code aliasFilter} lets a search see. The listener's result must be closed.
     */
    public void run(
        CancellableTask task,
        IndexMetadata index,
        AliasFilter aliasFilter,
        String field,
        Integer maxDistance,
        Progress progress,
        ActionListener<Result> listener
    ) {
        new Run(task, index, aliasFilter, field, maxDistance, progress, listener).fingerprints();
    }

    private final class Run {
        private final CancellableTask task;
        private final IndexMetadata index;
        private final AliasFilter aliasFilter;
        private final String field;
        private final Integer requestedDistance;
        private final Progress progress;
        private final ActionListener<Result> listener;
        private final AtomicBoolean done = new AtomicBoolean();
        private final Reservation reservation = new Reservation(breakers.get(), "near_duplicate groups");

        Run(
            CancellableTask task,
            IndexMetadata index,
            AliasFilter aliasFilter,
            String field,
            Integer maxDistance,
            Progress progress,
            ActionListener<Result> listener
        ) {
            this.task = task;
            this.index = index;
            this.aliasFilter = aliasFilter;
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

        private void reserve(long bytes, String what) {
            reservation.reserve(bytes, what);
        }

        private void release(long bytes) {
            reservation.release(bytes);
        }

        private void fail(Exception e) {
            if (done.compareAndSet(false, true)) {
                reservation.close();
                listener.onFailure(e);
            } else {
                reservation.close();
            }
        }

        /** Hands the groups' bytes to the result; everything else the run held is given back. */
        private void succeed(Result result) {
            if (done.compareAndSet(false, true) == false) {
                result.close();
                return;
            }
            reservation.close();
            try {
                listener.onResponse(result);
            } catch (Exception e) {
                result.close();
                throw e;
            }
        }

        /**
         * Sends one request per shard, then runs {@code next} on the generic pool with all answers. The answers'
         * expected size is reserved before the requests go out, each answer's real size when it arrives.
         */
        private void allShards(
            long[] members,
            long expectedBytes,
            String phase,
            java.util.function.Consumer<Collection<SimHashShardFingerprintsResponse>> next
        ) {
            checkCancelled();
            progress.phase(phase);
            reserve(expectedBytes, phase + ": expected answers");
            int shards = index.getNumberOfShards();
            GroupedActionListener<SimHashShardFingerprintsResponse> all = new GroupedActionListener<>(
                ActionListener.wrap(responses -> threadPool.generic().execute(() -> {
                    try {
                        release(expectedBytes);
                        next.accept(responses);
                    } catch (Exception e) {
                        fail(e);
                    }
                }), this::fail),
                shards
            );
            TaskId parent = new TaskId(localNodeId.get(), task.getId());
            for (int s = 0; s < shards; s++) {
                SimHashShardFingerprintsRequest request = new SimHashShardFingerprintsRequest(
                    new ShardId(index.getIndex(), s),
                    field,
                    members,
                    aliasFilter
                );
                request.setParentTask(parent);
                client.executeLocally(SimHashShardFingerprintsAction.INSTANCE, request, ActionListener.wrap(r -> {
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
                allShards(null, 0, "reading fingerprints", this::group);
            } catch (Exception e) {
                fail(e);
            }
        }

        private void group(Collection<SimHashShardFingerprintsResponse> responses) {
            checkCancelled();
            String algorithm = null;
            long docs = 0;
            long shardBytes = 0;
            for (SimHashShardFingerprintsResponse r : responses) {
                if (algorithm != null && algorithm.equals(r.algorithm()) == false) {
                    throw new IllegalStateException(
                        "shards disagree on the algorithm of field [" + field + "]: [" + algorithm + "], [" + r.algorithm() + "]"
                    );
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
            for (SimHashShardFingerprintsResponse r : responses) shardArrays.add(r.takeFingerprints());
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
            reserve(
                HammingGroups.resultBytes(n) + tableBytes,
                "grouping " + n + " distinct fingerprints at k=" + k + " (" + plan.tables() + " tables)"
            );
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
            reserve(12L * n, "group sizes and pairs");
            // the fingerprints of every group: components holding two or more documents
            int[] root = grouped.roots();
            int[] docsOfRoot = new int[n];
            for (int i = 0; i < n; i++) docsOfRoot[root[i]] = (int) Math.min(Integer.MAX_VALUE, (long) docsOfRoot[root[i]] + counts[i]);
            int wanted = 0;
            long wantedDocs = 0;
            for (int i = 0; i < n; i++) {
                if (docsOfRoot[root[i]] > 1) {
                    wanted++;
                    wantedDocs += counts[i];
                }
            }
            reserve(8L * wanted, "fingerprints in groups");
            long[] inGroups = new long[wanted];
            long[] pairsOfRoot = new long[n];
            for (int i = 0, w = 0; i < n; i++) {
                if (docsOfRoot[root[i]] < 2) continue;
                inGroups[w++] = distinct[i];
                pairsOfRoot[root[i]] += grouped.pairsAt(i);
            }
            long identicalPairs = 0;
            for (int c : counts) identicalPairs += (long) c * (c - 1) / 2;
            Result empty = new Result(
                k,
                algorithm,
                docs,
                grouped.comparisons() + identicalPairs,
                grouped.verifiedPairs(),
                plan,
                List.of(),
                () -> {}
            );
            if (wanted == 0) {
                succeed(empty);
                return;
            }
            long[] distinctFingerprints = distinct;
            allShards(
                inGroups,
                wantedDocs * DocList.ESTIMATED_BYTES_PER_DOC,
                "reading group members",
                members -> succeed(groups(empty, members, distinctFingerprints, root, pairsOfRoot))
            );
        }

        /**
         * The members read from the shards, grouped by component; representative = smallest {@code _id}. The objects
         * of the groups are reserved before they are made, and that reservation goes with the result.
         */
        private Result groups(
            Result counts,
            Collection<SimHashShardFingerprintsResponse> responses,
            long[] distinct,
            int[] root,
            long[] pairsOfRoot
        ) {
            checkCancelled();
            List<DocList> lists = new ArrayList<>(responses.size());
            long total = 0;
            long answerBytes = 0;
            long objectBytes = 0;
            for (SimHashShardFingerprintsResponse r : responses) {
                DocList docs = r.docs();
                lists.add(docs);
                total += docs.size();
                answerBytes += r.ramBytes();
                for (int i = 0; i < docs.size(); i++) objectBytes += MEMBER_BYTES + 2L * docs.textBytes(i);
            }
            objectBytes += GROUP_BYTES * (total / 2);
            // every member as (component, member index), sorted: a group's members are then one run
            reserve(8L * total, "members by group");
            long[] byRoot = new long[Math.toIntExact(total)];
            int found = 0;
            for (int l = 0, base = 0; l < lists.size(); base += lists.get(l).size(), l++) {
                DocList docs = lists.get(l);
                for (int i = 0; i < docs.size(); i++) {
                    int at = Arrays.binarySearch(distinct, docs.fingerprint(i));
                    if (at < 0) continue; // a fingerprint written during the run
                    byRoot[found++] = ((long) root[at] << 32) | (base + i);
                }
            }
            Arrays.sort(byRoot, 0, found);
            int[] starts = new int[lists.size() + 1];
            for (int l = 0; l < lists.size(); l++) starts[l + 1] = starts[l] + lists.get(l).size();
            reserve(objectBytes, "groups of " + total + " documents");
            long resultBytes = objectBytes;
            List<Group> groups = new ArrayList<>();
            for (int from = 0; from < found;) {
                int component = (int) (byRoot[from] >>> 32);
                int to = from + 1;
                while (to < found && (int) (byRoot[to] >>> 32) == component) to++;
                if (groups.size() % 1024 == 0) checkCancelled();
                if (to - from >= 2) { // fewer: its partners were deleted during the run
                    List<Member> members = new ArrayList<>(to - from);
                    for (int m = from; m < to; m++) {
                        int global = (int) byRoot[m];
                        int l = Arrays.binarySearch(starts, global);
                        if (l < 0) l = -l - 2;
                        while (l + 1 < starts.length && starts[l + 1] == global) l++; // empty lists share a start
                        DocList docs = lists.get(l);
                        int i = global - starts[l];
                        members.add(new Member(docs.id(i), docs.routing(i), docs.fingerprint(i), 0));
                    }
                    Member rep = members.get(0);
                    for (Member m : members) if (m.id().compareTo(rep.id()) < 0) rep = m;
                    for (int m = 0; m < members.size(); m++) {
                        Member member = members.get(m);
                        int distance = Fingerprints.distance(rep.fingerprint(), member.fingerprint());
                        members.set(m, new Member(member.id(), member.routing(), member.fingerprint(), distance));
                    }
                    members.sort(Comparator.comparingInt(Member::distance).thenComparing(Member::id));
                    groups.add(new Group(rep.id(), members, pairsOfRoot[component]));
                }
                from = to;
            }
            byRoot = null;
            release(8L * total + answerBytes); // the sort keys and the shards' answers are garbage now
            groups.sort(Comparator.comparing(Group::representative));
            return new Result(
                counts.maxDistance(),
                counts.algorithm(),
                counts.docs(),
                counts.comparisons(),
                counts.verifiedPairs(),
                counts.plan(),
                groups,
                reservation.transfer(resultBytes)
            );
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
