package org.nearduplicate.lucene;

import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

import java.util.Arrays;
import java.util.Objects;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;

/**
 * Matches documents whose {@code simhash} fingerprint is within Hamming distance {@code maxDistance} of a probe.
 *
 * <p>Key mode ({@code maxDistance <= } the layout's indexed k): per segment, the probe's block keys are looked up
 * in the terms dictionary; the union of their postings is the candidate set (two-phase approximation), and each
 * candidate is verified against its doc-value fingerprint. When the keys carry check bits (as term frequencies, see
 * {@link BlockLayout} and the {@code simhash} field mapper), a posting whose check bits are already more than
 * {@code maxDistance} from the probe's is dropped while the postings are read, sequentially, so only ~1 % of the
 * random candidates cost a doc-values read. Scan mode: every document with a fingerprint is a
 * candidate (the doc values are the approximation) — exact for any distance, but linear in the segment size.
 *
 * <p>Several probes ({@link #SimHashQuery(String, long[], int, BlockLayout, boolean)}): documents within the
 * distance of any of them, found with one pass over the terms dictionary (all probes' keys in term order) and one scan
 * per small segment, instead of one query per probe; the distance is the one to the closest probe.
 *
 * <p>Candidate keys ({@link #SimHashQuery(String, long[], byte[][], Verification, int, BlockLayout, boolean,
 * CandidateKeyProbes)}): a verified query whose probes carry their {@link CandidateKeys} (hashed from the full min-wise
 * values at signing) answers every segment that indexes them ({@link SegmentPath#CANDIDATE_KEYS}) from their postings:
 * the candidates are the documents sharing at least {@code minSharedKeys} keys with a probe, each verified by the same
 * rule against those probes. The answer is the exact one restricted to the documents sharing that many keys: every
 * verified document whose full values agree with a probe's in at least {@code CandidateKeys.minSharedKeys}'s bound
 * (12 + s for the 28 pair-group keys) is found, none that fails the rule is returned. {@link #withExact} (or a segment
 * without the keys, or a probe without them) answers as before, from the column, the doc values or the block keys.
 *
 * <p>Score: {@code boost / (1 + distance)} — 1 for an identical fingerprint, 0.5 at distance 1, 0.25 at 3.
 */
public final class SimHashQuery extends Query {
    /*
     * The per-segment choice between the probed keys and a scan of every fingerprint, both exact, from the in-process
     * measurements of bench/anyk.sh (4 x 16-bit keys, 28 check bits, one segment of 1M and of 10M documents): one
     * probed key costs ~1.9 us plus ~0.85 ns per million documents of the segment (its postings and the fingerprint
     * reads that pass the check bits grow with the segment), one scanned fingerprint ~7.2 ns. Keys win everywhere up
     * to k = 10; at k = 16 (4,608 keys) a segment under ~2.8M documents is scanned, at k = 12 one under ~0.35M.
     */
    static final double KEY_NANOS = 1900;
    static final double KEY_NANOS_PER_DOC = 0.00085;
    static final double SCAN_NANOS_PER_DOC = 7.2;
    /** Each further probe of a scan: one more XOR and popcount per fingerprint read (an estimate, not measured). */
    static final double SCAN_NANOS_PER_DOC_PER_EXTRA_PROBE = 0.5;
    /**
     * One posting of the candidate-key path, its share of the candidates' verification included: bench/results/
     * RESULTS-keys-path.md measured 0.585 ms for ~31,000 postings and ~1,200 verifications per probe at 10M documents
     * (sorted mode), about 19 ns per posting.
     */
    static final double CANDIDATE_KEY_NANOS_PER_POSTING = 20;
    /**
     * A segment's candidate-key postings up to this many are always read (under ~0.1 ms): the exact path is taken
     * instead only for a probe whose keys are common in a large segment (boilerplate shared by much of the index).
     */
    static final long CANDIDATE_KEY_POSTINGS_ALWAYS_READ = 4096;

    /**
     * Bounds the keys one query looks up over all its probes (block variants included): by an estimate about 100 bytes
     * of heap each while they are built (key, its bytes, check and budget), about 0.5 GB at the limit. It is above the largest batch of the
     * {@code near_duplicate_check} processor (1,000 fingerprints) at k = 16 on the default 4 / 16 layout (4,608 keys
     * each); a query asking for more is refused before anything is built, instead of overflowing the key count.
     */
    public static final long MAX_QUERY_PROBE_KEYS = 5_000_000;

    final String field;
    final long fingerprint;
    /** Every probe, distinct and sorted ({@code fingerprint} is the first); one for the single-probe query. */
    final long[] fingerprints;
    /** Per probe of {@link #fingerprints}, its verification signature; null when the query does not verify. */
    final byte[][] signatures;
    /** Null: matches are decided by the distance alone (fields whose algorithm has no signature). */
    final Verification verification;
    final int maxDistance;
    final BlockLayout layout;
    final boolean scan;
    final boolean scanByCost;
    /** How many keys the probes look up per segment (0 for a scan). */
    private final int keyCount;
    /**
     * The probed keys and their check-bit budgets, built by the first segment that looks them up: a query whose
     * segments are all scanned (small segments at large k, by {@link #scanIsCheaper}) never pays for thousands of
     * variants.
     */
    private volatile ProbedKeys probedKeys;
    /** The node's fingerprint columns, for the column path ({@link #withColumns}); null: keys and doc-values scan only. */
    final FingerprintColumns columns;
    /**
     * What the caller expects of chance matches at this index size ({@link #withChanceNote}), shown by explain and
     * toString (so in profile); null: none. Not part of equals and hashCode: it describes the index the query was built
     * for (it changes with every document added), not what matches, and the query cache must not split on it.
     */
    final String chanceNote;
    /** Told how each segment was answered and how long it took (the node's stats); null: nobody. Not in equals. */
    final Listener listener;
    /** The candidate-key path's field, layout and minimum of shared keys; null: the query has no candidate keys. */
    final CandidateKeyPath candidateKeys;
    /** Per probe of {@link #fingerprints}, its candidate keys (null: none); null when {@link #candidateKeys} is. */
    final byte[][] probeKeys;
    /** Whether every segment is answered exactly (column, doc values or block keys), never by candidate keys. */
    final boolean exact;

    /**
     * Told, per segment, the path that answers it ({@link #path}) and, when the segment's candidates run out, the time
     * from the path's choice to that end (the verification and the collection of its matches included). Implemented
     * without platform types by the node's stats; must be cheap and thread-safe (segments may be searched
     * concurrently).
     */
    public interface Listener {
        void segment(SegmentPath path);

        void segmentTime(SegmentPath path, long nanos);

        /**
         * The postings of the probes' candidate keys a segment answered by {@link SegmentPath#CANDIDATE_KEYS} reads (told
         * after {@link #segment}): a bound of the candidates it verifies.
         */
        default void candidateKeyPostings(long postings) {}

        /**
         * Whether this segment's time is measured (then {@link #segmentTime} follows when its candidates run out):
         * timing a segment's end wraps its candidate iterator, which the cheap keys path feels, so a listener may time a
         * sample of its segments.
         */
        default boolean timed(SegmentPath path) {
            return true;
        }
    }

    /**
     * The second look of a verified match ({@code simhash-v4}): the signatures' field (binary doc values of
     * {@link Signature#BYTES} bytes) and how many of their slots must agree with the probe's. A document matches a
     * probe when its fingerprint is within the distance and its signature agrees; when the document or the probe has no
     * signature (a bare fingerprint indexed or given by the user), the fingerprint alone decides.
     */
    public record Verification(String signatureField, double minSimilarity) {
        public Verification {
            Objects.requireNonNull(signatureField);
            if ((minSimilarity >= 0 && minSimilarity <= 1) == false) {
                throw new InvalidOptionException("min_similarity", "must be between 0 and 1, got " + minSimilarity);
            }
        }

        public int minAgreeing() {
            return Signature.minAgreeing(minSimilarity);
        }
    }

    /**
     * Where a verified query finds its candidates when its probes carry {@link CandidateKeys}: the Lucene field of the
     * keys (one docs-only term per key, the key's bytes as the term), the layout that made them, and how many keys a
     * document must share with a probe to be verified against it (1, or 2 to verify ~24 times fewer unrelated
     * documents; the guarantee is {@code layout.minSharedKeys(agreeing) >= minSharedKeys}).
     */
    public record CandidateKeyPath(String keysField, CandidateKeys layout, int minSharedKeys) {
        public CandidateKeyPath {
            Objects.requireNonNull(keysField);
            Objects.requireNonNull(layout);
            if (minSharedKeys < 1 || minSharedKeys > layout.keyCount()) {
                throw new IllegalArgumentException("minSharedKeys must be 1.." + layout.keyCount() + ", got " + minSharedKeys);
            }
        }

        /** Layouts compare by their id (the query cache compares queries built per shard). */
        @Override
        public boolean equals(Object other) {
            return other instanceof CandidateKeyPath o
                && keysField.equals(o.keysField)
                && layout.id().equals(o.layout.id())
                && minSharedKeys == o.minSharedKeys;
        }

        @Override
        public int hashCode() {
            return Objects.hash(keysField, layout.id(), minSharedKeys);
        }

        /** Every full-value agreement from this many slots up is always found (up to 32 + 1: none). */
        public int guaranteedAgreeing() {
            for (int agreeing = 0; agreeing <= CandidateKeys.SLOTS; agreeing++)
                if (layout.minSharedKeys(agreeing) >= minSharedKeys) return agreeing;
            return CandidateKeys.SLOTS + 1;
        }
    }

    /** A path's keys: {@code keys[i]} are the candidate keys of the query's i-th fingerprint (null: that probe has none). */
    public record CandidateKeyProbes(CandidateKeyPath path, byte[][] keys) {
        public CandidateKeyProbes {
            Objects.requireNonNull(path);
            Objects.requireNonNull(keys);
            for (byte[] k : keys) {
                if (k != null && k.length != path.layout().bytesPerDocument()) {
                    throw new IllegalArgumentException(
                        "a probe's candidate keys have " + path.layout().bytesPerDocument() + " bytes (" + path.layout().id() + ")"
                    );
                }
            }
        }
    }

    /**
     * @param scan read every fingerprint instead of looking up block keys; required when {@code maxDistance}
     *             exceeds {@code layout.maxDistance()}
     */
    public SimHashQuery(String field, long fingerprint, int maxDistance, BlockLayout layout, boolean scan) {
        this(field, new long[] { fingerprint }, maxDistance, layout, scan);
    }

    /** Documents within {@code maxDistance} of any of {@code fingerprints} (at least one). */
    public SimHashQuery(String field, long[] fingerprints, int maxDistance, BlockLayout layout, boolean scan) {
        this(field, fingerprints, null, null, maxDistance, layout, scan);
    }

    /**
     * Documents within {@code maxDistance} of a probe whose signature agrees with theirs: {@code signatures[i]} is the
     * signature of {@code fingerprints[i]} (both may repeat fingerprints; each pair is one probe).
     */
    public SimHashQuery(
        String field,
        long[] fingerprints,
        byte[][] signatures,
        Verification verification,
        int maxDistance,
        BlockLayout layout,
        boolean scan
    ) {
        this(field, fingerprints, signatures, verification, maxDistance, layout, scan, null);
    }

    /**
     * A verified query whose probes carry candidate keys: {@code keys.keys()[i]} are those of {@code fingerprints[i]}
     * and {@code signatures[i]}. {@code keys} null: none (the constructor above).
     */
    public SimHashQuery(
        String field,
        long[] fingerprints,
        byte[][] signatures,
        Verification verification,
        int maxDistance,
        BlockLayout layout,
        boolean scan,
        CandidateKeyProbes keys
    ) {
        this.scanByCost = true;
        if (keys != null) {
            if (verification == null) throw new IllegalArgumentException("candidate keys are only read by a verified query");
            if (keys.keys().length != fingerprints.length) {
                throw new IllegalArgumentException(
                    "one set of candidate keys per fingerprint: " + fingerprints.length + " != " + keys.keys().length
                );
            }
        }
        if (verification == null && signatures != null) {
            throw new IllegalArgumentException("probe signatures are only read by a verified query");
        }
        if (signatures != null) {
            if (signatures.length != fingerprints.length) {
                throw new IllegalArgumentException("one signature per fingerprint: " + fingerprints.length + " != " + signatures.length);
            }
            for (byte[] signature : signatures) {
                if (signature != null && signature.length != Signature.BYTES) {
                    throw new IllegalArgumentException("a probe signature has " + Signature.BYTES + " bytes");
                }
            }
        }
        this.verification = verification;
        this.field = Objects.requireNonNull(field);
        this.layout = Objects.requireNonNull(layout);
        if (maxDistance < 0 || maxDistance > BlockLayout.BITS) {
            throw new InvalidOptionException("max_distance", "must be between 0 and 64, got " + maxDistance);
        }
        if (scan == false && maxDistance > layout.maxDistance()) {
            throw new IllegalArgumentException(
                "max_distance ["
                    + maxDistance
                    + "] exceeds the indexed max_distance ["
                    + layout.maxDistance()
                    + "] of field ["
                    + field
                    + "]"
            );
        }
        if (fingerprints.length == 0) {
            throw new IllegalArgumentException("at least one fingerprint is required");
        }
        if (signatures == null && verification != null) {
            signatures = new byte[fingerprints.length][];
        }
        if (signatures == null) {
            this.fingerprints = Probe.distinctSorted(fingerprints);
            this.signatures = null;
            this.probeKeys = null;
        } else {
            Probe[] probes = Probe.distinctSorted(fingerprints, signatures, keys == null ? null : keys.keys());
            this.fingerprints = new long[probes.length];
            this.signatures = new byte[probes.length][];
            this.probeKeys = keys == null ? null : new byte[probes.length][];
            for (int i = 0; i < probes.length; i++) {
                this.fingerprints[i] = probes[i].fingerprint();
                this.signatures[i] = probes[i].signature();
                if (keys != null) this.probeKeys[i] = probes[i].keys();
            }
        }
        this.candidateKeys = keys == null ? null : keys.path();
        this.exact = false;
        this.fingerprint = this.fingerprints[0];
        this.maxDistance = maxDistance;
        this.scan = scan;
        this.keyCount = scan ? 0 : (int) checkProbeKeys(layout, maxDistance, this.fingerprints.length);
        this.columns = null;
        this.chanceNote = null;
        this.listener = null;
    }

    private SimHashQuery(SimHashQuery query, FingerprintColumns columns, String chanceNote) {
        this(query, columns, chanceNote, query.listener, query.scanByCost, query.exact);
    }

    private SimHashQuery(SimHashQuery query, FingerprintColumns columns, String chanceNote, Listener listener, boolean scanByCost) {
        this(query, columns, chanceNote, listener, scanByCost, query.exact);
    }

    private SimHashQuery(
        SimHashQuery query,
        FingerprintColumns columns,
        String chanceNote,
        Listener listener,
        boolean scanByCost,
        boolean exact
    ) {
        this.field = query.field;
        this.fingerprint = query.fingerprint;
        this.fingerprints = query.fingerprints;
        this.signatures = query.signatures;
        this.verification = query.verification;
        this.maxDistance = query.maxDistance;
        this.layout = query.layout;
        this.scan = query.scan;
        this.scanByCost = scanByCost;
        this.keyCount = query.keyCount;
        this.columns = columns;
        this.chanceNote = chanceNote;
        this.listener = listener;
        this.candidateKeys = query.candidateKeys;
        this.probeKeys = query.probeKeys;
        this.exact = exact;
    }

    /**
     * This query answering every segment exactly ({@code exact}: from the column, the doc values or the block keys, as
     * a query without candidate keys) or (false, the default) from the probes' candidate keys where a segment has them.
     */
    public SimHashQuery withExact(boolean exact) {
        return exact == this.exact ? this : new SimHashQuery(this, columns, chanceNote, listener, scanByCost, exact);
    }

    public boolean isExact() {
        return exact;
    }

    /** The candidate-key path of the probes, or null (none given). */
    public CandidateKeyPath getCandidateKeyPath() {
        return candidateKeys;
    }

    /** Whether a segment that indexes the candidate keys is answered from them: keys given for every probe, not exact. */
    boolean answersByCandidateKeys() {
        if (candidateKeys == null || exact) return false;
        for (byte[] keys : probeKeys)
            if (keys == null) return false;
        return true;
    }

    /** This query, telling {@code listener} how each segment is answered (null: nobody); what matches is unchanged. */
    public SimHashQuery withListener(Listener listener) {
        return listener == this.listener ? this : new SimHashQuery(this, columns, chanceNote, listener, scanByCost);
    }

    /**
     * This query, scanning a segment where that is cheaper than the probed keys ({@code scanByCost}, the default) or
     * (false) always taking the keys, unless it is a scan: for tests and benches. Not part of equals.
     */
    SimHashQuery withScanByCost(boolean scanByCost) {
        return scanByCost == this.scanByCost ? this : new SimHashQuery(this, columns, chanceNote, listener, scanByCost);
    }

    /**
     * This query, answering a segment from its cached {@link FingerprintColumn} where that is cheaper than the keys
     * (always, for a scan), loaded on first use; {@code columns} null: without. The answers are the same on every path.
     */
    public SimHashQuery withColumns(FingerprintColumns columns) {
        return columns == this.columns ? this : new SimHashQuery(this, columns, chanceNote);
    }

    /**
     * This query with {@code note}, e.g. "expected chance matches per probe among this shard's 1,000 documents:
     * 0.0030 (...)", appended to its explanation of a match and to its toString (which profile shows). The caller
     * computes it (core.chance.NullDistribution); it changes nothing about what matches, and equals ignores it.
     */
    public SimHashQuery withChanceNote(String note) {
        return java.util.Objects.equals(note, chanceNote) ? this : new SimHashQuery(this, columns, note);
    }

    /** The note of {@link #withChanceNote}; null if none. */
    public String chanceNote() {
        return chanceNote;
    }

    /**
     * The keys {@code probes} distinct fingerprints look up at distance {@code k} (at most {@link BlockLayout#MAX_PROBE_KEYS}
     * each, so the product fits a long).
     *
     * @throws IllegalArgumentException if they are more than {@link #MAX_QUERY_PROBE_KEYS}
     */
    public static long checkProbeKeys(BlockLayout layout, int k, int probes) {
        long perProbe = layout.probeKeyCount(k);
        long keys = perProbe * probes;
        if (keys > MAX_QUERY_PROBE_KEYS) {
            throw new IllegalArgumentException(
                "[fingerprints] "
                    + probes
                    + " fingerprints at max_distance "
                    + k
                    + " need "
                    + keys
                    + " probe keys, more than the limit "
                    + MAX_QUERY_PROBE_KEYS
                    + "; lower [max_distance] or send at most "
                    + MAX_QUERY_PROBE_KEYS / perProbe
                    + " fingerprints per query at this distance"
            );
        }
        return keys;
    }

    ProbedKeys probedKeys() {
        ProbedKeys built = probedKeys;
        if (built == null) {
            // segments searched concurrently may both build them: the same keys, a little work wasted, no lock
            probedKeys = built = ProbedKeys.build(layout, fingerprints, maxDistance, keyCount);
        }
        return built;
    }

    /** Whether a segment has looked up the keys yet (tests). */
    boolean keysBuilt() {
        return probedKeys != null;
    }

    /**
     * Whether reading every fingerprint of a segment of {@code maxDoc} documents costs less than the probed keys (the
     * per-segment choice of a query built without {@code scan}). Public for the search bench
     * (org.nearduplicate.bench.search.Layout, in src/bench/java), which reports the path the query takes from this
     * method instead of a copy of the cost model.
     */
    public boolean scanIsCheaper(int maxDoc) {
        double scanPerDoc = SCAN_NANOS_PER_DOC + SCAN_NANOS_PER_DOC_PER_EXTRA_PROBE * (fingerprints.length - 1);
        return keysNanos(maxDoc) > scanPerDoc * maxDoc;
    }

    /**
     * How a segment of {@code maxDoc} documents is answered, given whether its column can be used ({@code column}: the
     * query has {@link #withColumns columns}): the column when its scan costs less than the probed keys (always, for a
     * scan), else {@link #scanIsCheaper}'s choice. Public for the benchmarks, which report it.
     */
    public SegmentPath path(int maxDoc, boolean column) {
        if (column && (scan || scanByCost && ColumnScan.nanos(maxDoc, fingerprints.length) < keysNanos(maxDoc))) {
            return SegmentPath.COLUMN;
        }
        return scan || scanByCost && scanIsCheaper(maxDoc) ? SegmentPath.DOC_VALUES : SegmentPath.KEYS;
    }

    /**
     * Whether a segment of {@code maxDoc} documents, where the probes' candidate keys have {@code postings} postings in
     * all, is answered from them rather than exactly: always up to {@link #CANDIDATE_KEY_POSTINGS_ALWAYS_READ}, beyond
     * it while reading them costs no more than the exact path the segment would take ({@link #path}: the column when
     * the query has one, else the doc-values scan or the block keys). Both answers hold every match the keys guarantee;
     * the exact one holds them all. Public for the benchmarks, which report it.
     */
    public boolean candidateKeysCheaper(long postings, int maxDoc, boolean column) {
        if (postings <= CANDIDATE_KEY_POSTINGS_ALWAYS_READ) return true;
        return postings * CANDIDATE_KEY_NANOS_PER_POSTING <= exactNanos(maxDoc, column);
    }

    /** The estimated cost of the exact path of {@link #path}. */
    private double exactNanos(int maxDoc, boolean column) {
        return switch (path(maxDoc, column)) {
            case COLUMN -> ColumnScan.nanos(maxDoc, fingerprints.length);
            case DOC_VALUES -> (SCAN_NANOS_PER_DOC + SCAN_NANOS_PER_DOC_PER_EXTRA_PROBE * (fingerprints.length - 1)) * maxDoc;
            case KEYS, CANDIDATE_KEYS -> keysNanos(maxDoc);
        };
    }

    private double keysNanos(int maxDoc) {
        return keyCount * (KEY_NANOS + KEY_NANOS_PER_DOC * maxDoc);
    }

    public String getField() {
        return field;
    }

    /** The probe (the first one of several). */
    public long getFingerprint() {
        return fingerprint;
    }

    /** Every probe, distinct and sorted. */
    public long[] getFingerprints() {
        return fingerprints.clone();
    }

    /** The distance from {@code value} to the closest probe. */
    int distanceToClosest(long value) {
        int best = Integer.MAX_VALUE;
        for (long probe : fingerprints) {
            best = Math.min(best, Long.bitCount(value ^ probe));
        }
        return best;
    }

    public int getMaxDistance() {
        return maxDistance;
    }

    /** The second look every match passes, or null (distance alone). */
    public Verification getVerification() {
        return verification;
    }

    /**
     * The distance of the closest probe that {@code value} is within {@link #maxDistance} of and, when verifying, whose
     * signature agrees with {@code signature} (null: the document has none, and a verified query never matches it);
     * {@code Integer.MAX_VALUE} when there is none.
     */
    int matchDistance(long value, BytesRef signature, int minAgreeing) {
        int best = Integer.MAX_VALUE;
        for (int i = 0; i < fingerprints.length; i++) {
            int d = Long.bitCount(value ^ fingerprints[i]);
            if (d <= maxDistance && d < best) {
                if (verification == null || signatures[i] == null || signature == null || signature.length != Signature.BYTES) {
                    best = d; // a side without signature is compared on its fingerprint alone
                } else if (Signature.agreesOnAtLeast(signatures[i], signature.bytes, signature.offset, minAgreeing)) {
                    best = d;
                }
            }
        }
        return best;
    }

    /**
     * {@link #matchDistance(long, BytesRef, int)} against the probes {@code probes[0..count)} only (indices into
     * {@link #fingerprints}): the candidate-key path verifies a document against the probes it shares keys with.
     */
    int matchDistance(long value, BytesRef signature, int minAgreeing, int[] probes, int count) {
        int best = Integer.MAX_VALUE;
        for (int j = 0; j < count; j++) {
            int i = probes[j];
            int d = Long.bitCount(value ^ fingerprints[i]);
            if (d <= maxDistance && d < best) {
                if (signatures[i] == null || signature == null || signature.length != Signature.BYTES) {
                    best = d;
                } else if (Signature.agreesOnAtLeast(signatures[i], signature.bytes, signature.offset, minAgreeing)) {
                    best = d;
                }
            }
        }
        return best;
    }

    public boolean isScan() {
        return scan;
    }

    public BlockLayout getLayout() {
        return layout;
    }

    /** The score of a match at {@code distance}, before boost. */
    public static float closeness(int distance) {
        return 1f / (1 + distance);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new SimHashWeight(this, boost);
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(field)) {
            visitor.visitLeaf(this);
        }
    }

    @Override
    public String toString(String defaultField) {
        StringBuilder sb = new StringBuilder("near_duplicate(");
        if (field.equals(defaultField) == false) {
            sb.append(field).append(':');
        }
        sb.append(fingerprints.length == 1 ? Fingerprints.toHex(fingerprint) : fingerprints.length + " fingerprints")
            .append(" ~")
            .append(maxDistance);
        sb.append(scan ? " scan" : " keys " + layout.id());
        if (verification != null) {
            sb.append(" verified ").append(verification.minSimilarity());
        }
        if (candidateKeys != null) {
            sb.append(exact ? " exact" : " candidate_keys " + candidateKeys.layout().id() + " >= " + candidateKeys.minSharedKeys());
        }
        if (chanceNote != null) {
            sb.append("; ").append(chanceNote);
        }
        return sb.append(')').toString();
    }

    @Override
    public boolean equals(Object other) {
        if (sameClassAs(other) == false) {
            return false;
        }
        SimHashQuery o = (SimHashQuery) other;
        return field.equals(o.field)
            && Arrays.equals(fingerprints, o.fingerprints)
            && maxDistance == o.maxDistance
            && scan == o.scan
            && layout.equals(o.layout)
            && Objects.equals(verification, o.verification)
            && Arrays.deepEquals(signatures, o.signatures)
            && exact == o.exact
            && Objects.equals(candidateKeys, o.candidateKeys)
            && Arrays.deepEquals(probeKeys, o.probeKeys);
    }

    @Override
    public int hashCode() {
        return 31 * classHash() + Objects.hash(
            field,
            Arrays.hashCode(fingerprints),
            maxDistance,
            scan,
            layout,
            verification,
            Arrays.deepHashCode(signatures),
            exact,
            candidateKeys,
            Arrays.deepHashCode(probeKeys)
        );
    }
}
