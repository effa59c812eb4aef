package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import org.nearduplicate.core.sketch.Signature;

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
    /** Estimated cost of bucketing one fingerprint in one table, in comparisons. */
    private static final double BUCKETING_COST = 6.0;

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
        if (k < 0 || k > 64) throw new IllegalArgumentException("k must be between 0 and 64, got " + k);
        int bucketBits = bucketBits(n);
        double allPairs = n * (double) (n - 1) / 2;
        // b = k + 1 .. 64 blocks (b = 64 with k = 64 would leave no key): the brute force is one table without key
        Plan best = new Plan(1, 0, 1, 0, allPairs);
        double bestCost = allPairs + n;
        for (int b = k + 1; b <= 64; b++) {
            double tables = binomial(b, k);
            if (tables > 1e7) break; // already far beyond any useful plan and growing
            int keyBits = (b - k) * 64 / b; // the narrowest table key
            // two levels bucket by the whole key (prefix partition + suffix bits); one level by at most bucketBits
            boolean twoLevels = b - k >= 2 && n >= 1L << (PARTITION_BITS + 2);
            int effective = twoLevels ? keyBits : Math.min(keyBits, bucketBits);
            double comparisons = tables * allPairs / Math.pow(2, effective);
            double cost = tables * n * BUCKETING_COST + comparisons;
            if (cost < bestCost) {
                bestCost = cost;
                best = new Plan(b, b - k, (int) tables, Math.min(keyBits, bucketBits), comparisons);
            }
        }
        return best;
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
            double exactCost = exact.tables() * (double) n * BUCKETING_COST + exact.estimatedComparisons();
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
        Progress progress
    ) {
        return find(distinct, unitStart, counts, unitSignatures, minAgreeing, k, verifier, plan, progress, Workers.CALLER);
    }

    /**
     * {@link #find(long[], int[], int[], byte[], int, int, Verifier, Plan, Progress)} with an LSH plan's band passes
     * spread over {@code workers}: the result is the same for any number of threads (the components' roots are their
     * smallest units and every pair is counted at its lower unit, whatever the order of the unions).
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
        return find(distinct, unitStart, counts, k, verifier, plan, 0, progress, unitSignatures, minAgreeing, workers);
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
        return find(distinct, unitStart, counts, k, verifier, plan, prefixBlocks, progress, null, 0, Workers.CALLER);
    }

    private static Result find(
        long[] distinct,
        int[] unitStart,
        int[] counts,
        int k,
        Verifier verifier,
        Plan plan,
        int prefixBlocks,
        Progress progress,
        byte[] unitSignatures,
        int minAgreeing,
        Workers workers
    ) {
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
        int[] parent = new int[units];
        for (int i = 0; i < units; i++)
            parent[i] = i;
        long[] pairsAt = new long[units];
        long verified = 0;
        for (int i = 0; i < units; i++) {
            long c = counts[i];
            if (c > 1) {
                pairsAt[i] = c * (c - 1) / 2;
                verified += pairsAt[i];
            }
        }
        Run run = new Run(distinct, unitStart, counts, k, verifier, plan, parent, pairsAt, progress);
        if (unitStart != null) run.sameFingerprint();
        if (plan.lsh()) {
            run.lsh(unitSignatures, minAgreeing, workers);
        } else if (prefixBlocks > 0 && distinct.length > 1) {
            run.twoLevel(prefixBlocks);
        } else {
            run.all();
        }
        return new Result(parent, pairsAt, run.comparisons, verified + run.verified, plan, run.cappedRuns);
    }

    private static final class Run {
        final long[] distinct;
        final int[] unitStart;
        final int[] counts;
        final Verifier verifier;
        final int k;
        final Plan plan;
        final int[] parent;
        final long[] pairsAt;
        final Progress progress;
        final long[] blockMasks;
        final int keep;
        long comparisons;
        long verified;
        long cappedRuns;

        Run(
            long[] distinct,
            int[] unitStart,
            int[] counts,
            int k,
            Verifier verifier,
            Plan plan,
            int[] parent,
            long[] pairsAt,
            Progress progress
        ) {
            this.distinct = distinct;
            this.unitStart = unitStart;
            this.counts = counts;
            this.verifier = verifier;
            this.k = k;
            this.plan = plan;
            this.parent = parent;
            this.pairsAt = pairsAt;
            this.progress = progress;
            int b = plan.blocks();
            blockMasks = new long[b];
            for (int i = 0; i < b; i++) {
                int from = i * 64 / b, to = (i + 1) * 64 / b;
                blockMasks[i] = to - from == 64 ? -1L : ((1L << (to - from)) - 1) << from;
            }
            keep = plan.keyBlocks();
        }

        void all() {
            int b = plan.blocks();
            int n = distinct.length;
            if (n < 2) {
                progress.tableDone(plan.tables(), plan.tables());
                return;
            }
            int bucketBits = plan.bucketBits();
            int[] start = new int[(1 << bucketBits) + 1];
            long[] order = new long[n];
            int[] combination = new int[keep];
            for (int i = 0; i < keep; i++)
                combination[i] = i;
            int done = 0;
            while (true) {
                long mask = 0;
                long tableBlocks = 0;
                for (int c : combination) {
                    mask |= blockMasks[c];
                    tableBlocks |= 1L << c;
                }
                table(mask, tableBlocks, bucketBits, start, order);
                progress.tableDone(++done, plan.tables());
                if (next(combination, b) == false) break;
            }
        }

        /**
         * The tables grouped by their first {@code prefixBlocks} blocks: all fingerprints are partitioned once per
         * prefix (a counting sort by its bits), then every table with that prefix is bucketed within each partition.
         * The same tables, so the same exact result and pair counts, with far less memory traffic.
         */
        void twoLevel(int prefixBlocks) {
            int b = plan.blocks();
            int n = distinct.length;
            int suffixLength = keep - prefixBlocks;
            long[] order = new long[n];
            long[] scratch = new long[1 << SCRATCH_BITS];
            int[] scratchStart = new int[(1 << (SCRATCH_BITS + 1)) + 1];
            int[] prefix = new int[prefixBlocks];
            for (int i = 0; i < prefixBlocks; i++)
                prefix[i] = i;
            int done = 0;
            do {
                int last = prefix[prefixBlocks - 1];
                int free = b - last - 1;
                if (free < suffixLength) continue; // no table starts with this prefix
                long prefixMask = 0, prefixSet = 0;
                for (int c : prefix) {
                    prefixMask |= blockMasks[c];
                    prefixSet |= 1L << c;
                }
                // the suffixes: every suffixLength-subset of the blocks after the prefix's last
                List<long[]> suffixes = new ArrayList<>();
                int[] suffix = new int[suffixLength];
                for (int i = 0; i < suffixLength; i++)
                    suffix[i] = last + 1 + i;
                do {
                    long mask = 0, set = 0;
                    for (int c : suffix) {
                        mask |= blockMasks[c];
                        set |= 1L << c;
                    }
                    suffixes.add(new long[] { mask, set });
                } while (nextAbove(suffix, b));
                int prefixBits = Math.min(Long.bitCount(prefixMask), bucketBits(n)); // wider keys are hashed
                int[] start = partition(prefixMask, prefixBits, order);
                for (int p = 0; p < (1 << prefixBits); p++) {
                    int from = start[p], to = start[p + 1];
                    if (to - from < 2) continue;
                    progress.checkCancelled();
                    for (long[] s : suffixes) {
                        within(order, from, to, prefixMask | s[0], s[0], prefixSet | s[1], scratch, scratchStart);
                    }
                    progress.withinTable(to, n);
                }
                done += suffixes.size();
                progress.tableDone(done, plan.tables());
            } while (next(prefix, b));
            assert done == plan.tables() : done + " tables of " + plan.tables();
        }

        /** Counting sort of all fingerprints into {@code order} by their bits under {@code mask}; bucket starts. */
        private int[] partition(long mask, int bits, long[] order) {
            boolean exact = Long.bitCount(mask) <= bits;
            int[] start = new int[(1 << bits) + 1];
            for (long fp : distinct)
                start[key(fp, mask, bits, exact) + 1]++;
            for (int i = 1; i < start.length; i++)
                start[i] += start[i - 1];
            int[] next = Arrays.copyOf(start, start.length - 1);
            for (long fp : distinct)
                order[next[key(fp, mask, bits, exact)]++] = fp;
            return start;
        }

        private static int key(long fp, long mask, int bits, boolean exact) {
            return exact ? (int) Long.compress(fp, mask) : bucket(fp & mask, bits);
        }

        /** One table within one partition {@code order[from, to)}: compares the fingerprints that share its key. */
        private void within(
            long[] order,
            int from,
            int to,
            long mask,
            long suffixMask,
            long tableBlocks,
            long[] scratch,
            int[] scratchStart
        ) {
            int size = to - from;
            if (size <= 16) {
                for (int i = from; i < to; i++) {
                    for (int j = i + 1; j < to; j++)
                        compare(order[i], order[j], mask, tableBlocks);
                }
                return;
            }
            if (size <= scratch.length) {
                // by the suffix's bits (the prefix's are shared within the partition, or hashed and checked by mask)
                int wanted = Math.min(32 - Integer.numberOfLeadingZeros(size - 1) + 1, SCRATCH_BITS + 1);
                boolean exact = Long.bitCount(suffixMask) <= wanted;
                int bits = exact ? Long.bitCount(suffixMask) : wanted;
                int buckets = 1 << bits;
                Arrays.fill(scratchStart, 0, buckets + 1, 0);
                for (int i = from; i < to; i++)
                    scratchStart[key(order[i], suffixMask, bits, exact) + 1]++;
                for (int i = 1; i <= buckets; i++)
                    scratchStart[i] += scratchStart[i - 1];
                for (int i = from; i < to; i++)
                    scratch[scratchStart[key(order[i], suffixMask, bits, exact)]++] = order[i];
                for (int i = buckets; i > 0; i--)
                    scratchStart[i] = scratchStart[i - 1];
                scratchStart[0] = 0;
                for (int bucket = 0; bucket < buckets; bucket++) {
                    int end = scratchStart[bucket + 1];
                    for (int i = scratchStart[bucket]; i < end; i++) {
                        for (int j = i + 1; j < end; j++)
                            compare(scratch[i], scratch[j], mask, tableBlocks);
                    }
                }
                return;
            }
            // a partition too large for the scratch (skewed data): sort it in place by the table key, which a bit
            // permutation moves to the top bits (distances are unchanged by it), then restore the fingerprints
            int keyBits = Long.bitCount(mask);
            long rest = ~mask;
            for (int i = from; i < to; i++)
                order[i] = Long.compress(order[i], mask) << (64 - keyBits) | Long.compress(order[i], rest);
            Arrays.sort(order, from, to);
            for (int i = from; i < to; i++)
                order[i] = Long.expand(order[i] >>> (64 - keyBits), mask) | Long.expand(order[i], rest);
            int runStart = from;
            for (int i = from + 1; i <= to; i++) {
                if (i == to || ((order[i] ^ order[runStart]) & mask) != 0) {
                    for (int x = runStart; x < i; x++) {
                        if ((x & 0xFFF) == 0) progress.checkCancelled();
                        for (int y = x + 1; y < i; y++)
                            compare(order[x], order[y], mask, tableBlocks);
                    }
                    runStart = i;
                }
            }
        }

        private void compare(long a, long b, long mask, long tableBlocks) {
            long diff = a ^ b;
            if ((diff & mask) != 0) return; // another key in the same hashed bucket
            comparisons++;
            if (Long.bitCount(diff) <= k && firstSharedTable(diff) == tableBlocks) pair(a, b);
        }

        /** Next subset in lexicographic order keeping its values below {@code b} (the first value may move). */
        private static boolean nextAbove(int[] c, int b) {
            return c.length > 0 && next(c, b);
        }

        /** Next {@code keep}-subset of 0..b-1 in lexicographic order; false after the last. */
        private static boolean next(int[] c, int b) {
            int i = c.length - 1;
            while (i >= 0 && c[i] == b - c.length + i)
                i--;
            if (i < 0) return false;
            c[i]++;
            for (int j = i + 1; j < c.length; j++)
                c[j] = c[j - 1] + 1;
            return true;
        }

        private void table(long mask, long tableBlocks, int bucketBits, int[] start, long[] order) {
            int n = distinct.length;
            int buckets = 1 << bucketBits;
            Arrays.fill(start, 0);
            for (long fp : distinct)
                start[bucket(fp & mask, bucketBits) + 1]++;
            for (int i = 1; i <= buckets; i++)
                start[i] += start[i - 1];
            // place, then restore start[] (the placing shifted every bucket's start to its end)
            for (long fp : distinct)
                order[start[bucket(fp & mask, bucketBits)]++] = fp;
            for (int i = buckets; i > 0; i--)
                start[i] = start[i - 1];
            start[0] = 0;
            for (int bucket = 0; bucket < buckets; bucket++) {
                int from = start[bucket], to = start[bucket + 1];
                for (int i = from; i < to; i++) {
                    if ((i & 0xFFF) == 0) {
                        progress.checkCancelled();
                        progress.withinTable(i, n);
                    }
                    long a = order[i];
                    for (int j = i + 1; j < to; j++) {
                        long diff = a ^ order[j];
                        if ((diff & mask) != 0) continue; // another key in the same hashed bucket
                        comparisons++;
                        if (Long.bitCount(diff) <= k && firstSharedTable(diff) == tableBlocks) {
                            pair(a, order[j]);
                        }
                    }
                }
            }
            assert start[buckets] == n;
        }

        /** The blocks of the first table (lexicographic) whose key the pair shares: its lowest {@code keep} agreeing blocks. */
        private long firstSharedTable(long diff) {
            long chosen = 0;
            int need = keep;
            for (int i = 0; i < blockMasks.length && need > 0; i++) {
                if ((diff & blockMasks[i]) == 0) {
                    chosen |= 1L << i;
                    need--;
                }
            }
            return chosen;
        }

        /** The pairs of different units sharing one fingerprint (distance 0): candidates, verified like any other. */
        void sameFingerprint() {
            for (int f = 0; f < distinct.length; f++) {
                int from = unitStart[f], to = unitStart[f + 1];
                for (int u = from; u < to; u++) {
                    for (int v = u + 1; v < to; v++) {
                        long p = (long) counts[u] * counts[v];
                        comparisons += p;
                        if (verifier.verify(u, v)) unite(u, v, p);
                    }
                }
                if ((f & 0xFFF) == 0) progress.checkCancelled();
            }
        }

        private void pair(long a, long b) {
            int ia = Arrays.binarySearch(distinct, a), ib = Arrays.binarySearch(distinct, b);
            if (unitStart == null) {
                long p = (long) counts[ia] * counts[ib];
                comparisons += p - 1; // the comparison stands for p document pairs
                if (verifier.verify(ia, ib)) unite(ia, ib, p);
                return;
            }
            comparisons--; // counted below, per unit pair
            for (int u = unitStart[ia]; u < unitStart[ia + 1]; u++) {
                for (int v = unitStart[ib]; v < unitStart[ib + 1]; v++) {
                    long p = (long) counts[u] * counts[v];
                    comparisons += p; // the fingerprints' comparison stands for every document pair of their units
                    if (verifier.verify(u, v)) unite(u, v, p);
                }
            }
        }

        /**
         * The LSH stage: per band, the signed units sorted by the band's key (a stable radix sort of key and unit), and
         * every pair of units sharing a key a candidate, counted in the first band it shares only ({@link
         * SignatureBands#firstSharedBand} of its agreeing slots) and verified (within k, and the verifier) before it is
         * united. Then the units without signature against every fingerprint.
         *
         * <p>A band runs on {@code workers.threads()} threads without more memory than one: each fills and histograms
         * its own slice of the units, scatters it into the shared buffer at offsets computed from all slices (so the
         * sort stays stable), then sorts and scans its own range of top-digit buckets (a key's run never leaves its
         * bucket). Candidates that pass the cheap checks are verified and united under a lock, a few thousand at a
         * time, so memory stays bounded however many pairs a band finds.
         */
        void lsh(byte[] signatures, int minAgreeing, Workers workers) {
            int units = counts.length;
            int threads = workers.threadsFor(units);
            long[] unsigned = null; // a bit per unit without signature
            int signed = 0;
            for (int u = 0; u < units; u++) {
                if (GroupMembers.hasNoSignature(signatures, u)) {
                    if (unsigned == null) unsigned = new long[(units + 63) >>> 6];
                    unsigned[u >>> 6] |= 1L << u;
                } else {
                    signed++;
                }
            }
            // slice t: units [sliceUnit[t], sliceUnit[t + 1]), filled at [sliceFill[t], sliceFill[t + 1])
            int[] sliceUnit = new int[threads + 1], sliceFill = new int[threads + 1];
            for (int t = 1; t <= threads; t++) {
                sliceUnit[t] = (int) ((long) units * t / threads);
                int filled = 0;
                for (int u = sliceUnit[t - 1]; u < sliceUnit[t]; u++)
                    if (unsigned == null || (unsigned[u >>> 6] & (1L << u)) == 0) filled++;
                sliceFill[t] = sliceFill[t - 1] + filled;
            }
            long[] fill = new long[signed];
            long[] sorted = new long[signed];
            int radix = 1 << RADIX_BITS;
            int topShift = 64 - RADIX_BITS;
            int[][] histograms = new int[threads][3 << RADIX_BITS];
            int[] bucketStart = new int[radix + 1];
            int[] digitFrom = new int[threads + 1];
            BandPairs[] pairs = new BandPairs[threads];
            for (int t = 0; t < threads; t++)
                pairs[t] = new BandPairs();
            long[] unsignedBits = unsigned;
            int done = 0;
            for (int band = 0; band < SignatureBands.BANDS; band++) {
                progress.checkCancelled();
                int b = band;
                // 1. every slice: its keys, and how many fall in each top digit
                parallel(workers, threads, t -> {
                    int[] histogram = histograms[t];
                    Arrays.fill(histogram, 0, radix, 0);
                    int m = sliceFill[t];
                    for (int u = sliceUnit[t]; u < sliceUnit[t + 1]; u++) {
                        if (unsignedBits != null && (unsignedBits[u >>> 6] & (1L << u)) != 0) continue;
                        long x = (long) SignatureBands.key(signatures, u * Signature.BYTES, b) << 32 | u;
                        fill[m++] = x;
                        histogram[(int) (x >>> topShift)]++;
                    }
                });
                // 2. offsets: digit d's bucket holds slice 0's entries, then slice 1's, ... (stable)
                int at = 0;
                for (int d = 0; d < radix; d++) {
                    bucketStart[d] = at;
                    for (int t = 0; t < threads; t++) {
                        int c = histograms[t][d];
                        histograms[t][d] = at;
                        at += c;
                    }
                }
                bucketStart[radix] = at;
                // the top digits cut into one range per thread of about as many entries each
                digitFrom[0] = 0;
                for (int t = 1, d = 0; t <= threads; t++) {
                    long target = (long) signed * t / threads;
                    while (d < radix && bucketStart[d] < target)
                        d++;
                    digitFrom[t] = t == threads ? radix : d;
                }
                // 3. every slice scatters into the buckets; 4. every range of buckets is sorted and its runs scanned
                parallel(workers, threads, t -> {
                    int[] next = histograms[t];
                    for (int i = sliceFill[t]; i < sliceFill[t + 1]; i++) {
                        long x = fill[i];
                        sorted[next[(int) (x >>> topShift)]++] = x;
                    }
                });
                parallel(workers, threads, t -> {
                    BandPairs found = pairs[t];
                    for (int d = digitFrom[t]; d < digitFrom[t + 1]; d++) {
                        int from = bucketStart[d], to = bucketStart[d + 1];
                        if (to - from < 2) continue;
                        sortBucketByKey(sorted, fill, from, to, histograms[t], radix);
                        for (int i = from; i < to;) {
                            int key = (int) (sorted[i] >>> 32);
                            int j = i + 1;
                            while (j < to && (int) (sorted[j] >>> 32) == key)
                                j++;
                            if (j - i > 1) bandRun(signatures, sorted, fill, i, j, b, minAgreeing, found);
                            i = j;
                        }
                    }
                    found.flush(this);
                });
                progress.tableDone(++done, plan.tables());
            }
            for (BandPairs found : pairs) {
                comparisons += found.comparisons;
                cappedRuns += found.cappedRuns;
            }
            if (plan.tables() > SignatureBands.BANDS) {
                unsignedPass(signatures);
                progress.tableDone(++done, plan.tables());
            }
        }

        /**
         * The pairs of one run of equal band keys {@code keys[from, to)}; {@code scratch[from, to)} is free. Runs of
         * up to {@value HammingGroups#LSH_MAX_RUN} units compare every pair; longer ones (a key shared by very many
         * units) are ordered by their whole signature (identical ones adjacent) and each unit is compared with its
         * next {@value HammingGroups#LSH_WINDOW} only, so one bucket cannot go quadratic.
         */
        private void bandRun(byte[] signatures, long[] keys, long[] scratch, int from, int to, int band, int minAgreeing, BandPairs found) {
            int size = to - from;
            if (size <= LSH_MAX_RUN) {
                for (int i = from; i < to; i++) {
                    if ((i & 0xFFF) == 0) progress.checkCancelled();
                    for (int j = i + 1; j < to; j++)
                        candidate(signatures, (int) keys[i], (int) keys[j], band, minAgreeing, found);
                }
                return;
            }
            found.cappedRuns++;
            for (int i = from; i < to; i++) {
                int u = (int) keys[i];
                long h = 0;
                for (int b = 0; b < Signature.BYTES; b += 8) {
                    long word = 0;
                    for (int x = 0; x < 8; x++)
                        word = word << 8 | (signatures[u * Signature.BYTES + b + x] & 0xFF);
                    h = (h ^ word) * 0x9E3779B97F4A7C15L;
                }
                scratch[i] = (h >>> 32) << 32 | u;
            }
            Arrays.sort(scratch, from, to);
            for (int i = from; i < to; i++) {
                if ((i & 0xFFF) == 0) progress.checkCancelled();
                for (int j = i + 1; j < Math.min(to, i + 1 + LSH_WINDOW); j++) {
                    int u = (int) scratch[i], v = (int) scratch[j];
                    candidate(signatures, Math.min(u, v), Math.max(u, v), band, minAgreeing, found);
                }
            }
        }

        /** A pair of signed units sharing band {@code band}'s key: kept for verification if it passes the cheap checks. */
        private void candidate(byte[] signatures, int u, int v, int band, int minAgreeing, BandPairs found) {
            int agreement = SignatureBands.agreement(signatures, u * Signature.BYTES, v * Signature.BYTES);
            if (SignatureBands.firstSharedBand(agreement) != band) return; // counted in an earlier band
            int fu = fingerprintOf(u), fv = fingerprintOf(v);
            if (fu == fv) return; // sameFingerprint() compared it
            found.comparisons += (long) counts[u] * counts[v];
            if (Long.bitCount(distinct[fu] ^ distinct[fv]) > k || Integer.bitCount(agreement) < minAgreeing) return;
            found.add(u, v, this);
        }

        /** Verifies and unites the pairs {@code u[i], v[i]} of one thread, under this run's lock. */
        synchronized void uniteVerified(int[] u, int[] v, int size) {
            for (int i = 0; i < size; i++) {
                if (verifier.verify(u[i], v[i])) unite(u[i], v[i], (long) counts[u[i]] * counts[v[i]]);
            }
        }

        /** The distinct fingerprint of unit {@code u}. */
        private int fingerprintOf(int u) {
            if (unitStart == null) return u; // one unit per fingerprint
            // every fingerprint has a unit, so unit u's lies within the units beyond the fingerprints below u: a search
            // of a few entries (usually one) instead of all of them
            int extra = counts.length - distinct.length;
            int at = Arrays.binarySearch(unitStart, Math.max(0, u - extra), Math.min(u, distinct.length - 1) + 1, u);
            if (at >= 0) {
                while (at + 1 < unitStart.length && unitStart[at + 1] == u)
                    at++; // never: every fingerprint has a unit
                return at;
            }
            return -at - 2;
        }

        /**
         * Pairs with a unit without signature (and different fingerprints), exactly: every fingerprint holding one
         * against every other fingerprint; a pair of two such fingerprints is taken from the lower one.
         */
        private void unsignedPass(byte[] signatures) {
            int n = distinct.length;
            for (int f = 0; f < n; f++) {
                if (holdsUnsigned(signatures, f) == false) continue;
                progress.checkCancelled();
                long a = distinct[f];
                for (int g = 0; g < n; g++) {
                    if (g == f || Long.bitCount(a ^ distinct[g]) > k) continue;
                    boolean gUnsigned = holdsUnsigned(signatures, g);
                    for (int u = start(f); u < start(f + 1); u++) {
                        boolean uUnsigned = GroupMembers.hasNoSignature(signatures, u);
                        for (int v = start(g); v < start(g + 1); v++) {
                            boolean vUnsigned = GroupMembers.hasNoSignature(signatures, v);
                            if (uUnsigned == false && vUnsigned == false) continue; // the bands' pair
                            if (gUnsigned && g < f) continue; // taken when g was the first fingerprint
                            long p = (long) counts[u] * counts[v];
                            comparisons += p;
                            if (verifier.verify(u, v)) unite(Math.min(u, v), Math.max(u, v), p);
                        }
                    }
                }
            }
        }

        private boolean holdsUnsigned(byte[] signatures, int f) {
            for (int u = start(f); u < start(f + 1); u++)
                if (GroupMembers.hasNoSignature(signatures, u)) return true;
            return false;
        }

        /** The first unit of fingerprint {@code f} ({@code unitStart} null: one unit per fingerprint). */
        private int start(int f) {
            return unitStart == null ? f : unitStart[f];
        }

        /** Counts {@code p} verified document pairs at unit {@code a} and joins the components of {@code a} and {@code b}. */
        private void unite(int a, int b, long p) {
            verified += p;
            pairsAt[a] += p;
            int ra = find(a), rb = find(b);
            if (ra != rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }

        private int find(int x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        }
    }

    /** One thread's candidates of a band waiting for verification, and its counts. */
    private static final class BandPairs {
        private static final int CAPACITY = LSH_VERIFY_BATCH;
        final int[] u = new int[CAPACITY], v = new int[CAPACITY];
        int size;
        long comparisons;
        long cappedRuns;

        void add(int a, int b, Run run) {
            u[size] = a;
            v[size] = b;
            if (++size == CAPACITY) flush(run);
        }

        void flush(Run run) {
            if (size > 0) run.uniteVerified(u, v, size);
            size = 0;
        }
    }

    /**
     * Runs {@code task} for 0 .. threads - 1, the first on the caller, the others on the executor, and waits for all;
     * the first failure is thrown (a cancellation included) once every task has ended, so none outlives the call.
     */
    static void parallel(Workers workers, int threads, IntConsumer task) {
        if (threads == 1) {
            task.accept(0);
            return;
        }
        CountDownLatch finished = new CountDownLatch(threads - 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 1; t < threads; t++) {
            int slice = t;
            Runnable share = () -> {
                try {
                    task.accept(slice);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    finished.countDown();
                }
            };
            try {
                workers.executor().execute(share);
            } catch (RuntimeException rejected) { // a saturated or closing pool: the caller does the share itself
                share.run();
            }
        }
        try {
            task.accept(0);
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
        boolean interrupted = false;
        while (true) {
            try {
                finished.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the shares still use the arrays: wait for them, then restore the flag
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        Throwable e = failure.get();
        if (e instanceof RuntimeException runtime) throw runtime;
        if (e instanceof Error error) throw error;
        if (e != null) throw new IllegalStateException(e);
    }

    /**
     * Sorts one top-digit bucket {@code data[from, to)} by the rest of its 32-bit key, stably, through
     * {@code scratch[from, to)}: two counting passes, or an insertion sort for a small bucket; {@code counts} from
     * {@code base} on is free.
     */
    static void sortBucketByKey(long[] data, long[] scratch, int from, int to, int[] counts, int base) {
        int lowBits = 32 - RADIX_BITS;
        int firstBits = lowBits - lowBits / 2, secondBits = lowBits / 2;
        if (to - from > INSERTION_SORT_MAX) {
            sortBucket(data, scratch, from, to, firstBits, secondBits, counts, base);
            return;
        }
        for (int i = from + 1; i < to; i++) { // stable: an entry moves past strictly larger keys only
            long x = data[i];
            long key = x >>> 32;
            int j = i - 1;
            while (j >= from && (data[j] >>> 32) > key) {
                data[j + 1] = data[j];
                j--;
            }
            data[j + 1] = x;
        }
    }

    /** Buckets of at most this many entries are insertion-sorted (their histograms would cost more). */
    private static final int INSERTION_SORT_MAX = 48;

    /**
     * Sorts {@code data[from, to)} by key bits 32 .. 32 + first + second, stably, through {@code scratch[from, to)};
     * {@code counts} from {@code base} on holds the two passes' counters.
     */
    private static void sortBucket(
        long[] data,
        long[] scratch,
        int from,
        int to,
        int firstBits,
        int secondBits,
        int[] histogram,
        int base
    ) {
        int firstSize = 1 << firstBits, firstMask = firstSize - 1, secondMask = (1 << secondBits) - 1;
        int[] counts = histogram;
        Arrays.fill(counts, base, base + firstSize + secondMask + 1, 0);
        for (int i = from; i < to; i++) {
            long x = data[i];
            counts[base + ((int) (x >>> 32) & firstMask)]++;
            counts[base + firstSize + ((int) (x >>> (32 + firstBits)) & secondMask)]++;
        }
        for (int d = 0, sum = from; d < firstSize; d++) {
            int c = counts[base + d];
            counts[base + d] = sum;
            sum += c;
        }
        for (int d = 0, sum = from; d <= secondMask; d++) {
            int c = counts[base + firstSize + d];
            counts[base + firstSize + d] = sum;
            sum += c;
        }
        for (int i = from; i < to; i++) {
            long x = data[i];
            scratch[counts[base + ((int) (x >>> 32) & firstMask)]++] = x;
        }
        for (int i = from; i < to; i++) {
            long x = scratch[i];
            data[counts[base + firstSize + ((int) (x >>> (32 + firstBits)) & secondMask)]++] = x;
        }
    }

    /** Bits per digit of the LSH stage's radix sort of the 32-bit band keys (three passes). */
    static final int RADIX_BITS = 11;

    private static int bucket(long key, int bits) {
        if (bits == 0) return 0;
        long h = key * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h >>> (64 - bits));
    }

    /** About log2(n) + 1 bits: on average under one fingerprint per bucket, at most {@link #MAX_BUCKET_BITS}. */
    static int bucketBits(long n) {
        if (n < 2) return 0;
        int bits = 64 - Long.numberOfLeadingZeros(n - 1) + 1;
        return Math.min(bits, MAX_BUCKET_BITS);
    }

    private static double binomial(int n, int r) {
        double v = 1;
        for (int i = 1; i <= r; i++)
            v = v * (n - r + i) / i;
        return v;
    }
}
