package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.GroupMembers.Group;
import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.sketch.Signature;

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
 * documents visible through the request's index or alias are read ({@link ShardReads}). Documents written during a
 * run may or may not be in it. The merge, the choice of the groups' fingerprints and the grouping of members are
 * {@link GroupMembers}'; this class moves the arrays between the shards and the coordinator and reserves their memory.
 */
public final class Grouping {

    /** Bytes per document of a members answer whose ids are not known yet (auto-generated ids have 20 characters). */
    public static final int ESTIMATED_BYTES_PER_DOC = 8 + 8 + 20;

    /** {@link #ESTIMATED_BYTES_PER_DOC}, with the signature's bytes when the answer carries signatures. */
    public static long estimatedBytesPerDoc(boolean signed) {
        return ESTIMATED_BYTES_PER_DOC + (signed ? Signature.BYTES : 0);
    }

    /**
     * The groups sorted by representative, members by distance then id, and the run's counts. The memory of the groups
     * stays reserved in the breaker until whoever consumes the result closes it.
     */
    public record Result(int maxDistance, double minSimilarity, String algorithm, long docs, long comparisons, long verifiedPairs,
        HammingGroups.Plan plan, List<Group> groups, Reservation reservation) implements AutoCloseable {
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

    private final Supplier<Breaker> breaker;
    private final Executor generic;
    private final IntSupplier threads;

    /**
     * {@code breaker} and {@code threads} are read per run (they are set, or may change, after the node's actions are
     * built); {@code generic} runs the steps after the shards answered and the band passes.
     */
    public Grouping(Supplier<Breaker> breaker, Executor generic, IntSupplier threads) {
        this.breaker = breaker;
        this.generic = generic;
        this.threads = threads;
    }

    /**
     * Runs on {@code field} of the index {@code shards} reads, at {@code maxDistance} (null: the field algorithm's
     * recommended k) and {@code minSimilarity} (null: the field's recommended one; a 400 for a field without
     * signatures). The listener's result must be closed.
     */
    public void run(
        GroupsTask task,
        ShardReads shards,
        String field,
        Integer maxDistance,
        Double minSimilarity,
        GroupMembers.Mode mode,
        Listener<Result> listener
    ) {
        new Run(task, shards, field, maxDistance, minSimilarity, mode, listener).fingerprints();
    }

    private final class Run {
        private final GroupsTask task;
        private final ShardReads shards;
        private final String field;
        private final Integer requestedDistance;
        private final Double requestedSimilarity;
        private final GroupMembers.Mode mode;
        private final Listener<Result> listener;
        private final AtomicBoolean done = new AtomicBoolean();
        private final Reservation reservation = new Reservation(breaker.get(), "near_duplicate groups");

        Run(
            GroupsTask task,
            ShardReads shards,
            String field,
            Integer requestedDistance,
            Double requestedSimilarity,
            GroupMembers.Mode mode,
            Listener<Result> listener
        ) {
            this.task = task;
            this.shards = shards;
            this.field = field;
            this.requestedDistance = requestedDistance;
            this.requestedSimilarity = requestedSimilarity;
            this.mode = mode;
            this.listener = listener;
        }

        private void checkCancelled() {
            task.checkCancelled("near_duplicate groups task");
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
         * Reads every shard, then runs {@code next} on the generic pool with all answers. The answers' expected size is
         * reserved before the requests go out, each answer's real size when it arrives.
         */
        private void allShards(
            BiConsumer<Integer, Listener<ShardAnswer>> read,
            long expectedBytes,
            String phase,
            Consumer<List<ShardAnswer>> next
        ) {
            checkCancelled();
            task.phase(phase);
            reserve(expectedBytes, phase + ": expected answers");
            AllShards.read(shards, read, reservation, phase + " of a shard", new Listener<>() {
                @Override
                public void onResponse(List<ShardAnswer> answers) {
                    generic.execute(() -> {
                        try {
                            release(expectedBytes);
                            next.accept(answers);
                        } catch (Exception e) {
                            fail(e);
                        }
                    });
                }

                @Override
                public void onFailure(Exception e) {
                    fail(e);
                }
            });
        }

        void fingerprints() {
            try {
                allShards(shards::fingerprints, 0, "reading fingerprints", this::group);
            } catch (Exception e) {
                fail(e);
            }
        }

        private void group(List<ShardAnswer> responses) {
            checkCancelled();
            String algorithm = null;
            long docs = 0;
            long shardBytes = 0;
            boolean verifies = false, signed = false;
            for (ShardAnswer r : responses) {
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
            Merged merged = Merged.of(responses, docs, shardBytes, signed, reservation);
            // exact Manku tables, or the LSH stage over the signatures when the exact plan would compare too many pairs
            long[] signedCounts = HammingGroups.signatureCounts(merged.unitStart, merged.unitSignatures, merged.n);
            HammingGroups.Plan plan = HammingGroups.plan(
                merged.n,
                k,
                merged.units,
                signedCounts[0],
                signedCounts[1],
                rule.minAgreeing(),
                HammingGroups.Candidates.AUTO
            );
            HammingGroups.Workers workers = new HammingGroups.Workers(generic, threads.getAsInt());
            long tableBytes = HammingGroups.tableBytes(merged.n, merged.units, plan, workers);
            reserve(
                HammingGroups.resultBytes(merged.units) + tableBytes,
                "grouping "
                    + merged.n
                    + " distinct fingerprints at k="
                    + k
                    + (plan.lsh() ? " (lsh: " + plan.tables() + " band passes)" : " (" + plan.tables() + " tables)")
            );
            task.documents(docs);
            task.phase(plan.lsh() ? "grouping (lsh bands)" : "grouping");
            task.tables(0, plan.tables());
            HammingGroups.Result grouped = HammingGroups.find(
                merged.distinct,
                merged.unitStart,
                merged.counts,
                merged.unitSignatures,
                rule.minAgreeing(),
                k,
                GroupMembers.verifier(merged.unitSignatures, rule),
                plan,
                new HammingGroups.Progress() {
                    @Override
                    public void tableDone(int tablesDone, int total) {
                        task.tables(tablesDone, total);
                        checkCancelled();
                    }

                    @Override
                    public void withinTable(long done, long total) {
                        task.withinTable(done, total);
                    }

                    @Override
                    public void checkCancelled() {
                        Run.this.checkCancelled();
                    }
                },
                workers
            );
            release(tableBytes); // garbage now
            GroupMembers.Selection selection = GroupMembers.select(
                merged.distinct,
                merged.unitStart,
                merged.counts,
                grouped,
                this::reserve
            );
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
                Reservation.none()
            );
            if (selection.fingerprints().length == 0) {
                succeed(empty);
                return;
            }
            // only the units in groups are needed to place the members: compacted, every array over all units (the
            // fingerprints, their starts, counts and signatures, the components and pairs) is given back before the
            // members are read
            GroupMembers.Compacted compacted = GroupMembers.compact(
                merged.distinct,
                merged.unitStart,
                merged.unitSignatures,
                grouped.roots(),
                selection.pairsOfRoot(),
                selection.fingerprints(),
                this::reserve
            );
            release(merged.heldBytes() + HammingGroups.resultBytes(merged.units));
            long[] wanted = selection.fingerprints();
            allShards(
                (shard, each) -> shards.members(shard, wanted, each),
                selection.docs() * estimatedBytesPerDoc(signed),
                "reading group members",
                members -> succeed(groups(empty, members, compacted, rule))
            );
        }

        /**
         * The run's {@code min_similarity}: the request's, or the field's recommended one; NaN for a field without
         * signatures, where a requested one is a 400.
         */
        private double minSimilarity(String algorithm, boolean verifies) {
            if (verifies == false) {
                if (requestedSimilarity != null) {
                    throw GroupsChecks.noSignatures(field, algorithm);
                }
                return Double.NaN;
            }
            return requestedSimilarity != null ? requestedSimilarity : SimHashSettings.recommendedMinSimilarity(algorithm);
        }

        /**
         * The members read from the shards, grouped by component, split in {@link GroupMembers.Mode#REPRESENTATIVE}
         * mode (the representatives: {@link GroupMembers.Mode}). The objects of the groups are reserved before they
         * are made, and that reservation goes with the result.
         */
        private Result groups(Result counts, List<ShardAnswer> responses, GroupMembers.Compacted compacted, GroupMembers.Rule rule) {
            checkCancelled();
            List<GroupMembers.Documents> lists = new ArrayList<>(responses.size());
            long total = 0;
            long answerBytes = 0;
            for (ShardAnswer r : responses) {
                lists.add(r.docs());
                total += r.docs().size();
                answerBytes += r.ramBytes();
            }
            GroupMembers.Grouped grouped = GroupMembers.group(
                lists,
                compacted.distinct(),
                compacted.unitStart(),
                compacted.unitSignatures(),
                compacted.root(),
                compacted.pairsOfRoot(),
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
