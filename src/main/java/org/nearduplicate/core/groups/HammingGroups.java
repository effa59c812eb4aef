package org.nearduplicate.core.groups;

import java.util.concurrent.Executor;

/**
 * All pairs of fingerprints within Hamming distance k, as connected components, without comparing all pairs and
 * without quadratic work in unrelated fingerprints (Manku, Jain and Das Sarma's batch mode, with hashed buckets
 * instead of sorted runs).
 *
 * <p>The 64 bits are cut into {@code b} blocks. Two fingerprints within distance k differ in at most k blocks, so
 * they agree on at least {@code b - k} of them. One <em>table</em> per choice of {@code b - k} blocks: the
 * fingerprints are bucketed by the bits of those blocks (a counting sort into 2^B buckets, O(n) per table), and only
 * fingerprints of one bucket are compared. Every pair within k shares the key of at least one table, so the result is
 * exact for any k. A pair is counted (and united) only in the first table whose key it shares, the lowest
 * {@code b - k} blocks on which it agrees, so each pair is counted once however many tables it shares. {@code b} is
 * chosen per run to minimise the estimated work: tables times (bucketing + expected comparisons in a bucket).
 *
 * <p>The input is the sorted distinct fingerprints with the number of documents holding each: identical fingerprints
 * are one vertex, so a thousand exact copies cost nothing more than one. Memory: the input, an {@code int} parent and
 * a {@code long} pair count per distinct fingerprint, and per table a {@code long} per fingerprint plus an
 * {@code int} per bucket; {@link #resultBytes} and {@link #tableBytes} give them for accounting before anything is allocated.
 *
 * <p><b>Units and verification.</b> A fingerprint may stand for several <em>units</em> (for {@code simhash-v4}: the
 * distinct (fingerprint, signature) pairs holding it), and a pair of units within k is joined only if a
 * {@link Verifier} accepts it. The tables still run over the distinct fingerprints; every candidate pair of
 * fingerprints within k (and every pair of units sharing a fingerprint, distance 0) is expanded into its unit pairs,
 * each verified before it is counted and united. Without units, every fingerprint is one unit and every pair within k
 * is accepted: the components of the plain "within k" graph.
 */
public final class HammingGroups {

    /** Largest number of bucket bits: 2^22 {@code int} counters, 16 MiB (more buckets only save cheap mask checks). */
    static final int MAX_BUCKET_BITS = 22;
    /** Target size of a first-level partition (log2): a few thousand fingerprints, which stay in the L1/L2 caches. */
    static final int PARTITION_BITS = 12;
    /** Largest partition bucketed in the scratch arrays; larger ones (skewed data) are sorted in place instead. */
    static final int SCRATCH_BITS = 16;

    /**
     * Whether two units (indices into the counts) within k are a match; applied to every candidate pair before it is
     * counted or joined. Must be symmetric.
     */
    @FunctionalInterface
    public interface Verifier {
        boolean verify(int unitA, int unitB);
    }

    /** Every pair within k matches (no verification). */
    public static final Verifier ANY = (a, b) -> true;

    /** Told after every table; {@link #checkCancelled} is called every few thousand buckets and may throw. */
    public interface Progress {
        void tableDone(int done, int total);

        /**
         * Within the current table (or group of tables that share a prefix): {@code done} of its {@code total} distinct
         * fingerprints passed over, so that a plan of one or few tables shows progress while it runs. Called at the
         * cancellation checkpoints; {@link #tableDone} resets it.
         */
        default void withinTable(long done, long total) {}

        default void checkCancelled() {}
    }

    /**
     * How a run is cut: {@code blocks} blocks, one table per choice of {@code keyBlocks} of them ({@code tables} in
     * all), {@code bucketBits} hashed bits per table. The brute force is one block and no key block.
     */
    public record Plan(int blocks, int keyBlocks, int tables, int bucketBits, double estimatedComparisons, int lshPartitions) {
        /** An exact plan (Manku's tables). */
        public Plan(int blocks, int keyBlocks, int tables, int bucketBits, double estimatedComparisons) {
            this(blocks, keyBlocks, tables, bucketBits, estimatedComparisons, 0);
        }

        /**
         * Whether the pairs of signed units are found by the LSH stage over their signatures ({@link SignatureBands}):
         * {@code tables} is then its bands, plus one pass for the units without signature, and
         * {@code estimatedComparisons} the exact plan's, which it replaced.
         */
        public boolean lsh() {
            return lshPartitions > 0;
        }

        /** "exact" or "lsh": how candidate pairs are found. */
        public String candidates() {
            return lsh() ? "lsh" : "exact";
        }
    }

    /** How {@link #plan(long, int, long, long, long, int, Candidates)} finds the candidate pairs. */
    public enum Candidates {
        /** The LSH stage when the exact plan's estimated comparisons are many more than its cost, else exact. */
        AUTO,
        /** Always Manku's tables: every pair within k. */
        EXACT,
        /** The LSH stage whenever the run has signed units (tests and benchmarks). */
        LSH
    }

    /** Lowest recall at the threshold ({@link SignatureBands#recallAt}) for which AUTO takes the LSH stage. */
    public static final double LSH_MIN_RECALL = 0.97;
    /** AUTO takes the LSH stage when the exact plan's estimated cost exceeds this many comparisons per unit per band. */
    static final double LSH_COST_PER_UNIT_BAND = 64;
    /**
     * Largest number of (fingerprint holding an unsigned unit) x (distinct fingerprint) comparisons the LSH path spends
     * on units without signature (compared with every fingerprint); beyond it the run stays exact.
     */
    static final long LSH_UNSIGNED_BUDGET = 2_000_000_000L;
    /** Runs of one band key longer than this compare each unit with its {@link #LSH_WINDOW} neighbours only. */
    static final int LSH_MAX_RUN = 2048;
    static final int LSH_WINDOW = 64;
    /** Candidates a thread of the LSH stage collects before it verifies and unites them under the run's lock. */
    public static final int LSH_VERIFY_BATCH = 4096;

    /** The components and counts of one run. {@link #root} and {@link #pairsAt} are indexed like the input's units (its counts). */
    public static final class Result {
        private final int[] parent;
        private final long[] pairsAt;
        private final long comparisons;
        private final long verifiedPairs;
        private final Plan plan;

        private final long cappedRuns;

        Result(int[] parent, long[] pairsAt, long comparisons, long verifiedPairs, Plan plan, long cappedRuns) {
            this.cappedRuns = cappedRuns;
            this.parent = parent;
            this.pairsAt = pairsAt;
            this.comparisons = comparisons;
            this.verifiedPairs = verifiedPairs;
            this.plan = plan;
        }

        /** The component of unit {@code i} (distinct fingerprint {@code i} without units): the smallest index in it. */
        public int root(int i) {
            int r = i;
            while (parent[r] != r)
                r = parent[r];
            return r;
        }

        /** The component of every distinct fingerprint, as {@link #root} (the result's own array, flattened in place). */
        public int[] roots() {
            for (int i = 0; i < parent.length; i++)
                parent[i] = parent[parent[i]]; // parents have smaller indices: done first
            return parent;
        }

        /** Verified document pairs within k counted at unit {@code i} (sum them over a component). */
        public long pairsAt(int i) {
            return pairsAt[i];
        }

        /**
         * Folds every unit's pairs into its component's root, in place, and returns the result's own array: entry
         * {@code r} of a root is then its component's verified pairs, every other entry 0 ({@link #pairsAt} reads the
         * folded values from then on). Nothing is allocated: the coordinator keeps one array of pairs, not two.
         */
        public long[] pairsByRoot() {
            int[] root = roots();
            for (int i = 0; i < root.length; i++) {
                if (root[i] != i) {
                    pairsAt[root[i]] += pairsAt[i];
                    pairsAt[i] = 0;
                }
            }
            return pairsAt;
        }

        /**
         * Pairs compared (sharing the key of a table): distinct-fingerprint pairs, where a matching pair counts as the
         * document pairs it stands for; identical copies are not compared (see {@link #verifiedPairs}).
         */
        public long comparisons() {
            return comparisons;
        }

        /** Verified document pairs within k, each counted once (identical units included). */
        public long verifiedPairs() {
            return verifiedPairs;
        }

        public Plan plan() {
            return plan;
        }

        /**
         * LSH plans: band keys shared by more than {@value HammingGroups#LSH_MAX_RUN} units, where each unit was
         * compared with its {@value HammingGroups#LSH_WINDOW} neighbours in signature order only (0: none).
         */
        public long cappedRuns() {
            return cappedRuns;
        }
    }

    private HammingGroups() {}

    /** The cheapest plan for {@code n} distinct fingerprints and distance {@code k} (0..64). */
    public static Plan plan(long n, int k) {
        return ExactTables.cheapestPlan(n, k);
    }

    /**
     * The plan of a run over units, some of which carry a signature: the exact plan ({@link #plan(long, int)}) or, with
     * {@code candidates} AUTO, the LSH stage when the exact plan's estimated cost exceeds
     * {@value #LSH_COST_PER_UNIT_BAND} comparisons per unit and band, the recall at {@code minAgreeing} is at least
     * {@value #LSH_MIN_RECALL}, and the units without signature are few enough to compare with every fingerprint.
     *
     * @param signedUnits units carrying a signature
     * @param unsignedFingerprints distinct fingerprints holding a unit without signature
     */
    public static Plan plan(
        long n,
        int k,
        long units,
        long signedUnits,
        long unsignedFingerprints,
        int minAgreeing,
        Candidates candidates
    ) {
        Plan exact = plan(n, k);
        if (candidates == Candidates.EXACT || signedUnits < 2 || minAgreeing < SignatureBands.SLOTS_PER_BAND) return exact;
        if (candidates == Candidates.AUTO) {
            double exactCost = exact.tables() * (double) n * ExactTables.BUCKETING_COST + exact.estimatedComparisons();
            if (exactCost <= LSH_COST_PER_UNIT_BAND * SignatureBands.BANDS * (double) units) return exact;
            if (SignatureBands.recallAt(minAgreeing) < LSH_MIN_RECALL) return exact;
            if ((double) unsignedFingerprints * n > LSH_UNSIGNED_BUDGET) return exact;
        }
        int tables = SignatureBands.BANDS + (unsignedFingerprints > 0 ? 1 : 0);
        return new Plan(0, 0, tables, 0, exact.estimatedComparisons(), SignatureBands.PARTITIONS);
    }

    /** {signed units, distinct fingerprints holding a unit without signature} of flat unit signatures (null: none signed). */
    public static long[] signatureCounts(int[] unitStart, byte[] unitSignatures, int n) {
        if (unitSignatures == null) return new long[] { 0, n };
        if (unitStart == null) { // one unit per fingerprint
            long signed = 0;
            for (int u = 0; u < n; u++)
                if (GroupMembers.hasNoSignature(unitSignatures, u) == false) signed++;
            return new long[] { signed, n - signed };
        }
        long signed = 0, unsignedFingerprints = 0;
        for (int f = 0; f < n; f++) {
            boolean unsigned = false;
            for (int u = unitStart[f]; u < unitStart[f + 1]; u++) {
                if (GroupMembers.hasNoSignature(unitSignatures, u)) unsigned = true;
                else signed++;
            }
            if (unsigned) unsignedFingerprints++;
        }
        return new long[] { signed, unsignedFingerprints };
    }

    /**
     * Heap of the LSH stage besides the input and the result: two {@code long} per unit (band keys and the radix
     * sort's buffer, shared by every band and every thread), a bit per unit (units without signature) and per thread
     * its radix counters and its buffer of candidates.
     */
    public static long lshBytes(long units, int threads) {
        return 16 * units + (units + 63) / 64 * 8 + (long) threads * lshBytesPerThread() + 4096;
    }

    /** {@link #lshBytes(long, int)} on one thread. */
    public static long lshBytes(long units) {
        return lshBytes(units, 1);
    }

    /** Per thread of the LSH stage: its radix counters and its candidates awaiting verification. */
    public static long lshBytesPerThread() {
        return 4L * 3 * (1 << RADIX_BITS) + 8L * LSH_VERIFY_BATCH + 64;
    }

    /** Heap used by {@link #find} while it runs on {@code workers}, besides the input and the result, for either kind of plan. */
    public static long tableBytes(long n, long units, Plan plan, Workers workers) {
        return plan.lsh() ? lshBytes(units, workers.threadsFor((int) Math.min(Integer.MAX_VALUE, units))) : tableBytes(n, plan);
    }

    /** {@link #tableBytes(long, long, Plan, Workers)} on the caller's thread. */
    public static long tableBytes(long n, long units, Plan plan) {
        return tableBytes(n, units, plan, Workers.CALLER);
    }

    /** Heap of the input: the distinct fingerprints and their counts. */
    public static long inputBytes(long n) {
        return 12 * n;
    }

    /** Heap of a {@link Result}: a parent and a pair count per unit ({@code n}: units, or distinct fingerprints without units). */
    public static long resultBytes(long n) {
        return 12 * n;
    }

    /** Heap of one table per distinct fingerprint (its key). */
    public static final int TABLE_BYTES_PER_FINGERPRINT = 8;

    /** Heap used by {@link #find} while it runs, besides the input and the result: one table. */
    public static long tableBytes(long n, Plan plan) {
        long scratch = prefixBlocks(n, plan) > 0 ? (8L << SCRATCH_BITS) + (4L << (SCRATCH_BITS + 1)) : 0;
        return TABLE_BYTES_PER_FINGERPRINT * n + (4L << plan.bucketBits()) + scratch + 4096;
    }

    /** The part of {@link #tableBytes} that does not grow with the fingerprints, at its largest (bucket counters, scratch). */
    public static long maxFixedTableBytes() {
        return (4L << MAX_BUCKET_BITS) + (8L << SCRATCH_BITS) + (4L << (SCRATCH_BITS + 1)) + 4096;
    }

    /**
     * Groups {@code distinct} (sorted ascending as signed longs, no repeats), {@code counts[i]} documents holding
     * {@code distinct[i]}, at distance {@code k}.
     */
    public static Result find(long[] distinct, int[] counts, int k, Progress progress) {
        return find(distinct, counts, k, plan(distinct.length, k), progress);
    }

    /**
     * Groups the units of {@code distinct} (sorted ascending as signed longs, no repeats): fingerprint {@code i} stands
     * for units {@code unitStart[i]} to {@code unitStart[i + 1] - 1} ({@code unitStart} null: unit {@code i} alone),
     * {@code counts[u]} documents holding unit {@code u}; a pair of units within {@code k} is joined when
     * {@code verifier} accepts it. The {@link Result} is indexed by unit.
     */
    public static Result find(long[] distinct, int[] unitStart, int[] counts, int k, Verifier verifier, Progress progress) {
        Plan plan = plan(distinct.length, k);
        return find(distinct, unitStart, counts, k, verifier, plan, prefixBlocks(distinct.length, plan), progress);
    }

    /**
     * {@link #find(long[], int[], int[], int, Verifier, Progress)} by {@code plan} (from
     * {@link #plan(long, int, long, long, long, int, Candidates)}): with an LSH plan, the pairs of signed units are
     * the candidates of {@link SignatureBands} (pairs within k whose signatures agree on at least {@code minAgreeing}
     * slots are found with the probability {@link SignatureBands#recallAt}), every candidate verified like the
     * exact path's; pairs with a unit without signature, and units sharing a fingerprint, are still exact. The
     * result holds verified pairs only, either way.
     * <p>
     * An LSH plan's band passes are spread over {@code workers} ({@link Workers#CALLER}: the caller alone): the result
     * is the same for any number of threads (the components' roots are their smallest units and every pair is counted
     * at its lower unit, whatever the order of the unions).
     *
     * @param unitStart as in {@link #find(long[], int[], int[], int, Verifier, Progress)}; null: one unit per
     *     fingerprint (the usual case, which then needs no array of starts)
     * @param unitSignatures flat, {@link org.nearduplicate.core.sketch.Signature#BYTES} per unit (zeros: none)
     */
    public static Result find(
        long[] distinct,
        int[] unitStart,
        int[] counts,
        byte[] unitSignatures,
        int minAgreeing,
        int k,
        Verifier verifier,
        Plan plan,
        Progress progress,
        Workers workers
    ) {
        if (plan.lsh() == false) return find(distinct, unitStart, counts, k, verifier, plan, prefixBlocks(distinct.length, plan), progress);
        if (unitSignatures == null) throw new IllegalArgumentException("the LSH stage needs units with signatures");
        check(distinct, unitStart, counts);
        return lsh(new LshStage(distinct, unitStart, counts, k, verifier, plan, progress), unitSignatures, minAgreeing, workers);
    }

    /**
     * Threads for the band passes of an LSH plan: {@code threads - 1} tasks go to {@code executor}, the caller runs one
     * share itself and waits for the others. The exact plans run on the caller alone.
     */
    public record Workers(Executor executor, int threads, int minUnitsPerThread) {
        /** The caller's thread alone. */
        public static final Workers CALLER = new Workers(Runnable::run, 1);
        /** Fewer units than this per thread run on fewer threads: a band over them takes well under a millisecond. */
        public static final int MIN_UNITS_PER_THREAD = 65_536;

        public Workers {
            if (threads < 1) throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            if (minUnitsPerThread < 1) throw new IllegalArgumentException("minUnitsPerThread must be at least 1");
        }

        public Workers(Executor executor, int threads) {
            this(executor, threads, MIN_UNITS_PER_THREAD);
        }

        /** Threads for a run over {@code units} units. */
        int threadsFor(int units) {
            return (int) Math.max(1, Math.min(threads, units / (long) minUnitsPerThread));
        }
    }

    static Result find(long[] distinct, int[] counts, int k, Plan plan, Progress progress) {
        return find(distinct, counts, k, plan, prefixBlocks(distinct.length, plan), progress);
    }

    static Result find(long[] distinct, int[] counts, int k, Plan plan, int prefixBlocks, Progress progress) {
        return find(distinct, null, counts, k, ANY, plan, prefixBlocks, progress);
    }

    /**
     * How many leading blocks of each table the first level partitions by (0: one level, every table bucketed over
     * all fingerprints): enough for partitions of about 2^{@value #PARTITION_BITS} fingerprints, which the second
     * level buckets per table within the CPU caches instead of scattering N fingerprints through memory per table.
     */
    static int prefixBlocks(long n, Plan plan) {
        if (plan.keyBlocks() < 2 || n < (1L << (PARTITION_BITS + 2))) return 0;
        double blockBits = 64.0 / plan.blocks();
        double wanted = (64 - Long.numberOfLeadingZeros(n)) - PARTITION_BITS;
        int blocks = (int) Math.round(wanted / blockBits);
        return Math.max(1, Math.min(plan.keyBlocks() - 1, blocks));
    }

    static Result find(
        long[] distinct,
        int[] unitStart,
        int[] counts,
        int k,
        Verifier verifier,
        Plan plan,
        int prefixBlocks,
        Progress progress
    ) {
        check(distinct, unitStart, counts);
        if (plan.lsh()) return lsh(new LshStage(distinct, unitStart, counts, k, verifier, plan, progress), null, 0, Workers.CALLER);
        ExactTables tables = new ExactTables(distinct, unitStart, counts, k, verifier, plan, progress);
        if (unitStart != null) tables.sameFingerprint();
        if (prefixBlocks > 0 && distinct.length > 1) {
            tables.twoLevel(prefixBlocks);
        } else {
            tables.all();
        }
        return result(tables);
    }

    private static void check(long[] distinct, int[] unitStart, int[] counts) {
        int n = distinct.length;
        int units = unitStart == null ? n : unitStart[n];
        if (unitStart != null && (unitStart.length != n + 1 || unitStart[0] != 0)) {
            throw new IllegalArgumentException("one unit start per fingerprint, and the end");
        }
        if (counts.length != units) throw new IllegalArgumentException("one count per unit");
        for (int i = 1; i < n; i++) {
            if (distinct[i - 1] >= distinct[i]) throw new IllegalArgumentException("fingerprints must be sorted and distinct");
            if (unitStart != null && unitStart[i] <= unitStart[i - 1]) throw new IllegalArgumentException("every fingerprint has a unit");
        }
    }

    private static Result lsh(LshStage stage, byte[] unitSignatures, int minAgreeing, Workers workers) {
        if (stage.unitStart != null) stage.sameFingerprint();
        stage.lsh(unitSignatures, minAgreeing, workers);
        return result(stage);
    }

    private static Result result(ComponentRun run) {
        return new Result(run.parent, run.pairsAt, run.comparisons, run.verified, run.plan, run.cappedRuns());
    }

    /** Bits per digit of the LSH stage's radix sort of the 32-bit band keys (three passes). */
    static final int RADIX_BITS = 11;

    /** About log2(n) + 1 bits: on average under one fingerprint per bucket, at most {@link #MAX_BUCKET_BITS}. */
    static int bucketBits(long n) {
        if (n < 2) return 0;
        int bits = 64 - Long.numberOfLeadingZeros(n - 1) + 1;
        return Math.min(bits, MAX_BUCKET_BITS);
    }
}
