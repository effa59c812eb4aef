package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.support.GroupedActionListener;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.lease.Releasable;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.concurrent.OpenSearchExecutors;
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
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.GroupMembers.Group;
import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * Computes every near-duplicate group of one {@code simhash} field, exactly, for any k, in three steps:
 * <ol>
 *   <li>every shard sends the sorted fingerprints of its live documents (doc values, one forward pass), with their
 *       verification signatures for a field that has them; the coordinator merges them into the distinct fingerprints,
 *       their units (distinct (fingerprint, signature) pairs) and the units' document counts;</li>
 *   <li>{@link HammingGroups} finds the components of the "match" graph over the units, without quadratic work in
 *       unrelated ones: pairs within k and, when both carry a signature, whose signatures agree on enough slots for
 *       {@code min_similarity} (the rule of the queries; {@link GroupMembers.Rule});</li>
 *   <li>every shard sends the {@code _id}, routing and signature of its documents whose fingerprint is in a group.</li>
 * </ol>
 * Everything held on the coordinator is reserved in the {@code near_duplicate} breaker before it is allocated (a
 * shard's answer: its expected size before the requests go out, its real size when it arrives) and released when the
 * run ends, however it ends, except the groups themselves, whose reservation goes with the {@link Result} until its
 * consumer closes it: a run too large for the node fails with the breaker's 429 instead of filling the heap. Only the
 * documents visible through the request's index or alias are read. Documents written during a run may or may not be
 * in it. The merge, the choice of the groups' fingerprints and the grouping of members are {@link GroupMembers}' (no
 * OpenSearch types); this class moves the arrays between the shards and the coordinator and reserves their memory.
 */
public final class GroupsComputation {

    /**
     * The groups sorted by representative, members by distance then id, and the run's counts. The memory of the groups
     * stays reserved in the breaker until whoever consumes the result closes it.
     */
    public record Result(int maxDistance, double minSimilarity, String algorithm, long docs, long comparisons, long verifiedPairs,
        HammingGroups.Plan plan, List<Group> groups, Releasable reservation) implements Releasable {
        public long docsInGroups() {
            long n = 0;
            for (Group g : groups)
                n += g.members().size();
            return n;
        }

        @Override
        public void close() {
            reservation.close();
        }
    }

    /** Where a run reports its progress (the task's status). */
    public interface Progress {
        void phase(String phase);

        void tables(int done, int total);

        /** Within the current table: {@code done} of {@code total} distinct fingerprints passed over. */
        default void withinTable(long done, long total) {}

        /** The documents with a fingerprint the run read from the shards (known once they all answered). */
        default void documents(long total) {}
    }

    /**
     * Threads of one run's band passes (the LSH stage of the default match), on the generic pool; 0, the default: the
     * node's allocated processors. The grouping is a batch job that would otherwise use one core; lower it to keep
     * cores for searches while a run goes on. Any value gives the same groups.
     */
    public static final Setting<Integer> THREADS_SETTING = Setting.intSetting(
        "near_duplicate.groups.threads",
        0,
        0,
        256,
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );

    private final NodeClient client;
    private final ThreadPool threadPool;
    private final Supplier<CircuitBreaker> breakers;
    private final Supplier<String> localNodeId;
    private final IntSupplier threads;

    /**
     * The breaker and the local node are looked up per run: both are set after the actions are built; so is
     * {@code threads} (from {@link #threads}), which may change between runs.
     */
    public GroupsComputation(
        NodeClient client,
        ThreadPool threadPool,
        Supplier<CircuitBreaker> breaker,
        Supplier<String> localNodeId,
        IntSupplier threads
    ) {
        this.client = client;
        this.threadPool = threadPool;
        this.breakers = breaker;
        this.localNodeId = localNodeId;
        this.threads = threads;
    }

    /**
     * The computation of this node's transport actions: the engine's breaker, the local node and the threads setting
     * are read per run (they are set, or may change, after the actions are built).
     */
    public static GroupsComputation onNode(
        NodeClient client,
        ThreadPool threadPool,
        SketchingService engine,
        ClusterService clusterService
    ) {
        return new GroupsComputation(
            client,
            threadPool,
            engine::breaker,
            () -> clusterService.localNode().getId(),
            () -> threads(clusterService.getSettings(), clusterService.getClusterSettings().get(THREADS_SETTING))
        );
    }

    /** The threads a run uses: {@link #THREADS_SETTING}, or the node's allocated processors when it is 0. */
    public static int threads(Settings nodeSettings, int configured) {
        return configured > 0 ? configured : Math.max(1, OpenSearchExecutors.allocatedProcessors(nodeSettings));
    }

    /**
     * Runs on {@code index}'s {@code field} at {@code maxDistance} (null: the field algorithm's recommended k) and
     * {@code minSimilarity} (null: the field's recommended one; a 400 for a field without signatures), reading only the
     * documents {@code aliasFilter} lets a search see. The listener's result must be closed.
     * For the write-back, each member also carries what its {@code groupField} and {@code distanceField} hold
     * ({@link org.nearduplicate.core.groups.WrittenGroup}), so that members already right need not be written; null
     * for both reads neither.
     */
    public void run(
        CancellableTask task,
        IndexMetadata index,
        AliasFilter aliasFilter,
        String field,
        Integer maxDistance,
        Double minSimilarity,
        GroupMembers.Mode mode,
        String groupField,
        String distanceField,
        Progress progress,
        ActionListener<Result> listener
    ) {
        new Run(task, index, aliasFilter, field, maxDistance, minSimilarity, mode, groupField, distanceField, progress, listener)
            .fingerprints();
    }

    private final class Run {
        private final CancellableTask task;
        private final IndexMetadata index;
        private final AliasFilter aliasFilter;
        private final String field;
        private final Integer requestedDistance;
        private final Double requestedSimilarity;
        private final GroupMembers.Mode mode;
        /** The write-back's group fields, read with each member; null: not read. */
        private final String groupField;
        private final String distanceField;
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
            Double minSimilarity,
            GroupMembers.Mode mode,
            String groupField,
            String distanceField,
            Progress progress,
            ActionListener<Result> listener
        ) {
            this.requestedSimilarity = minSimilarity;
            this.mode = mode;
            this.groupField = groupField;
            this.distanceField = distanceField;
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
                SimHashShardFingerprintsRequest request = members != null && groupField != null
                    ? new SimHashShardFingerprintsRequest(
                        new ShardId(index.getIndex(), s),
                        field,
                        members,
                        aliasFilter,
                        groupField,
                        distanceField
                    )
                    : new SimHashShardFingerprintsRequest(new ShardId(index.getIndex(), s), field, members, aliasFilter);
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
            boolean verifies = false, signed = false;
            for (SimHashShardFingerprintsResponse r : responses) {
                if (algorithm != null && algorithm.equals(r.algorithm()) == false) {
                    throw new IllegalStateException(
                        "shards disagree on the algorithm of field [" + field + "]: [" + algorithm + "], [" + r.algorithm() + "]"
                    );
                }
                algorithm = r.algorithm();
                verifies |= r.verifies();
                signed |= r.signatures() != null;
                docs += r.fingerprints().length;
                shardBytes += r.ramBytes();
            }
            int k = MaxDistance.orField(requestedDistance, MaxDistance.MAX, algorithm);
            double minSimilarity = minSimilarity(algorithm, verifies);
            GroupMembers.Rule rule = GroupMembers.Rule.of(k, minSimilarity);
            // distinct fingerprints, their units (with signatures: the distinct (fingerprint, signature) pairs) and the
            // units' document counts, merged from the shards' sorted arrays; one shard's arrays are merged in place
            // (they then hold the distinct fingerprints and the units' signatures: no second copy of either)
            SimHashShardFingerprintsResponse only = null;
            int nonEmpty = 0;
            for (SimHashShardFingerprintsResponse r : responses) {
                if (r.fingerprints().length > 0) {
                    nonEmpty++;
                    only = r;
                }
            }
            boolean inPlace = nonEmpty == 1 && (signed == false || only.signatures() != null);
            long[] distinct;
            int[] counts;
            int[] unitStart;
            byte[] unitSignatures;
            long distinctBytes, signatureBytes; // what the two arrays hold reserved, given back by the compaction
            int n, units;
            if (inPlace) {
                reserve(4L * docs + (signed ? 4L * (docs + 1) : 0), signed ? "unit counts and starts" : "fingerprint counts");
                unitSignatures = only.takeSignatures();
                distinct = only.takeFingerprints();
                counts = new int[distinct.length];
                unitStart = signed ? new int[distinct.length + 1] : null;
                if (signed) {
                    int[] merged = GroupMembers.mergeUnitsInPlace(distinct, unitSignatures, unitStart, counts);
                    n = merged[0];
                    units = merged[1];
                } else {
                    n = units = GroupMembers.mergeInPlace(distinct, counts);
                }
                // the shards' answers (the empty ones too) stay reserved: the merged arrays are theirs
                signatureBytes = signed ? 16 + (long) Signature.BYTES * docs : 0;
                distinctBytes = shardBytes - signatureBytes;
            } else {
                long perDoc = signed ? 12 + 4 + Signature.BYTES : 12;
                reserve(perDoc * docs + (signed ? 4 : 0), signed ? "distinct fingerprints and signatures" : "distinct fingerprints");
                distinct = new long[Math.toIntExact(docs)];
                counts = new int[distinct.length];
                unitStart = signed ? new int[distinct.length + 1] : null;
                unitSignatures = signed ? new byte[Signature.BYTES * distinct.length] : null;
                List<long[]> shardArrays = new ArrayList<>(responses.size());
                List<byte[]> shardSignatures = new ArrayList<>(responses.size());
                for (SimHashShardFingerprintsResponse r : responses) {
                    shardSignatures.add(r.takeSignatures());
                    shardArrays.add(r.takeFingerprints());
                }
                if (signed) {
                    int[] merged = GroupMembers.mergeUnits(shardArrays, shardSignatures, distinct, unitStart, counts, unitSignatures);
                    n = merged[0];
                    units = merged[1];
                } else {
                    n = units = GroupMembers.merge(shardArrays, distinct, counts);
                }
                shardArrays = null;
                shardSignatures = null;
                release(shardBytes); // the shards' arrays are garbage once merged
                signatureBytes = signed ? (long) Signature.BYTES * docs : 0;
                distinctBytes = 8L * docs;
            }
            // trimmed copies are reserved before they are made; the signatures are not copied (the units' come first,
            // the slack after them stays reserved until the compaction gives the whole array back)
            if (n < distinct.length) {
                reserve(8L * n, "distinct fingerprints");
                distinct = Arrays.copyOf(distinct, n);
                release(distinctBytes);
                distinctBytes = 8L * n;
            }
            if (signed && n + 1 < unitStart.length) {
                reserve(4L * (n + 1), "unit starts");
                long before = 4L * unitStart.length;
                unitStart = Arrays.copyOf(unitStart, n + 1);
                release(before);
            }
            if (units < counts.length) {
                reserve(4L * units, "unit counts");
                long before = 4L * counts.length;
                counts = Arrays.copyOf(counts, units);
                release(before);
            }
            if (signed && n == units) {
                // one unit per fingerprint (the usual case): the grouping needs no starts
                release(4L * unitStart.length);
                unitStart = null;
            }
            // exact Manku tables, or the LSH stage over the signatures when the exact plan would compare too many pairs
            long[] signedCounts = HammingGroups.signatureCounts(unitStart, unitSignatures, n);
            HammingGroups.Plan plan = HammingGroups.plan(
                n,
                k,
                units,
                signedCounts[0],
                signedCounts[1],
                rule.minAgreeing(),
                HammingGroups.Candidates.AUTO
            );
            HammingGroups.Workers workers = new HammingGroups.Workers(threadPool.generic(), threads.getAsInt());
            long tableBytes = HammingGroups.tableBytes(n, units, plan, workers);
            reserve(
                HammingGroups.resultBytes(units) + tableBytes,
                "grouping "
                    + n
                    + " distinct fingerprints at k="
                    + k
                    + (plan.lsh() ? " (lsh: " + plan.tables() + " band passes)" : " (" + plan.tables() + " tables)")
            );
            progress.documents(docs);
            progress.phase(plan.lsh() ? "grouping (lsh bands)" : "grouping");
            progress.tables(0, plan.tables());
            HammingGroups.Result grouped = HammingGroups.find(
                distinct,
                unitStart,
                counts,
                unitSignatures,
                rule.minAgreeing(),
                k,
                GroupMembers.verifier(unitSignatures, rule),
                plan,
                new HammingGroups.Progress() {
                    @Override
                    public void tableDone(int tablesDone, int total) {
                        progress.tables(tablesDone, total);
                        checkCancelled();
                    }

                    @Override
                    public void withinTable(long done, long total) {
                        progress.withinTable(done, total);
                    }

                    @Override
                    public void checkCancelled() {
                        Run.this.checkCancelled();
                    }
                },
                workers
            );
            release(tableBytes); // garbage now
            GroupMembers.Selection selection = GroupMembers.select(distinct, unitStart, counts, grouped, this::reserve);
            release(selection.scratchBytes());
            Result empty = new Result(
                k,
                minSimilarity,
                algorithm,
                docs,
                grouped.comparisons() + selection.identicalPairs(),
                grouped.verifiedPairs(),
                plan,
                List.of(),
                () -> {}
            );
            if (selection.fingerprints().length == 0) {
                succeed(empty);
                return;
            }
            // only the units in groups are needed to place the members: compacted, every array over all units (the
            // fingerprints, their starts, counts and signatures, the components and pairs) is given back before the
            // members are read
            GroupMembers.Compacted compacted = GroupMembers.compact(
                distinct,
                unitStart,
                unitSignatures,
                grouped.roots(),
                selection.pairsOfRoot(),
                selection.fingerprints(),
                this::reserve
            );
            release(
                distinctBytes + signatureBytes + 4L * units + (unitStart != null ? 4L * unitStart.length : 0) + HammingGroups.resultBytes(
                    units
                )
            );
            allShards(
                selection.fingerprints(),
                selection.docs() * DocList.estimatedBytesPerDoc(signed),
                "reading group members",
                members -> succeed(
                    groups(
                        empty,
                        members,
                        compacted.distinct(),
                        compacted.unitStart(),
                        compacted.unitSignatures(),
                        compacted.root(),
                        compacted.pairsOfRoot(),
                        rule
                    )
                )
            );
        }

        /**
         * The run's {@code min_similarity}: the request's, or the field's recommended one; NaN for a field without
         * signatures, where a requested one is a 400.
         */
        private double minSimilarity(String algorithm, boolean verifies) {
            if (verifies == false) {
                if (requestedSimilarity != null) {
                    throw new IllegalArgumentException(
                        "[min_similarity] is given, but field ["
                            + field
                            + "]'s algorithm ["
                            + algorithm
                            + "] has no verification signatures (simhash-v4 and later have them)"
                    );
                }
                return Double.NaN;
            }
            return requestedSimilarity != null ? requestedSimilarity : SimHashSettings.recommendedMinSimilarity(algorithm);
        }

        /**
         * The members read from the shards, grouped by component, split in {@link GroupMembers.Mode#REPRESENTATIVE}
         * mode (the representatives: {@link GroupMembers.Mode}). The objects
         * of the groups are reserved before they are made, and that reservation goes with the result.
         */
        private Result groups(
            Result counts,
            Collection<SimHashShardFingerprintsResponse> responses,
            long[] distinct,
            int[] unitStart,
            byte[] unitSignatures,
            int[] root,
            long[] pairsOfRoot,
            GroupMembers.Rule rule
        ) {
            checkCancelled();
            List<DocList> lists = new ArrayList<>(responses.size());
            long total = 0;
            long answerBytes = 0;
            for (SimHashShardFingerprintsResponse r : responses) {
                lists.add(r.docs());
                total += r.docs().size();
                answerBytes += r.ramBytes();
            }
            GroupMembers.Grouped grouped = GroupMembers.group(
                lists,
                distinct,
                unitStart,
                unitSignatures,
                root,
                pairsOfRoot,
                mode,
                rule,
                this::reserve,
                this::checkCancelled
            );
            release(8L * total + answerBytes); // the sort keys and the shards' answers are garbage now
            return new Result(
                counts.maxDistance(),
                counts.minSimilarity(),
                counts.algorithm(),
                counts.docs(),
                counts.comparisons(),
                counts.verifiedPairs(),
                counts.plan(),
                grouped.groups(),
                reservation.transfer(grouped.bytes())
            );
        }
    }
}
