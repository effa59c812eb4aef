package org.nearduplicate.lucene;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.lucene.compat.PlatformWeight;

/**
 * The weight of a {@link SimHashQuery}: per segment, the path that answers it (column, doc-values scan or block keys,
 * all exact) and the explanation of a match.
 */
final class SimHashWeight extends PlatformWeight {
    private final SimHashQuery query;
    private final float boost;

    SimHashWeight(SimHashQuery query, float boost) {
        super(query);
        this.query = query;
        this.boost = boost;
    }

    @Override
    public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
        NumericDocValues values = context.reader().getNumericDocValues(query.field);
        if (values == null) {
            return null;
        }
        // null when no document of the segment has a signature: each is compared on its fingerprint alone
        BinaryDocValues signatureValues = query.verification == null
            ? null
            : context.reader().getBinaryDocValues(query.verification.signatureField());
        int minAgreeing = query.verification == null ? 0 : query.verification.minAgreeing();
        long start = query.listener == null ? 0 : System.nanoTime();
        KeysAnswer byKeys = candidateKeysAnswer(context);
        if (byKeys != null) {
            return candidateKeys(byKeys.found(), values, signatureValues, start);
        }
        if (query.columns != null && query.path(context.reader().maxDoc(), true) == SegmentPath.COLUMN) {
            FingerprintColumn column = query.columns.get(context, query.field);
            if (column != null) {
                ColumnScorer.Verifier verifier = query.verification == null ? null : (doc, value) -> {
                    BytesRef signature = signatureValues != null && signatureValues.advanceExact(doc)
                        ? signatureValues.binaryValue()
                        : null;
                    return query.matchDistance(value, signature, minAgreeing);
                };
                return ColumnScorer.supplier(
                    this,
                    column,
                    query.fingerprints,
                    query.maxDistance,
                    boost,
                    verifier,
                    timer(SegmentPath.COLUMN, start),
                    query.columns
                );
            }
            // no column (cache bound, breaker, updated doc values): the same answer from the paths below
        }
        // both ways are exact; scan small segments when the probed keys would cost more than reading every fingerprint
        if (query.scan || query.scanByCost && query.scanIsCheaper(context.reader().maxDoc())) {
            Runnable timer = timer(SegmentPath.DOC_VALUES, start);
            return LazyScorerSupplier.of(
                values.cost(),
                () -> new DistanceScorer(query, SimHashWeight.this, values, values, signatureValues, boost, timer)
            );
        }
        ProbedKeys probed = query.probedKeys();
        KeyPostings found = KeyPostings.seek(context.reader().terms(query.field), probed.keys());
        if (found == null) {
            Runnable timer = timer(SegmentPath.KEYS, start); // answered: no key of the probes is in the segment
            if (timer != null) timer.run();
            return null;
        }
        // keys indexed without frequencies (check_bits 0) are verified from doc values alone
        FieldInfo info = context.reader().getFieldInfos().fieldInfo(query.field);
        boolean checked = query.layout.checkBits() > 0 && info != null && info.getIndexOptions() == IndexOptions.DOCS_AND_FREQS;
        // the check bits are stored as term frequency - 1
        // a key's own distance and its check bits' distance lie on disjoint bits: their sum is a lower bound
        KeyPostings.FrequencyCheck check = checked ? probed.frequencyCheck() : null;
        Runnable timer = timer(SegmentPath.KEYS, start);
        return LazyScorerSupplier.of(
            found.cost(),
            () -> new DistanceScorer(
                query,
                SimHashWeight.this,
                found.union(context.reader().maxDoc(), check),
                values,
                signatureValues,
                boost,
                timer
            )
        );
    }

    /** A segment the candidate keys answer, with the probes' keys found there ({@code found} null: none can share enough). */
    private record KeysAnswer(SharedKeyPostings found) {
    }

    /**
     * Whether the candidate keys answer this segment (null: the exact paths do). Exact when the query has no keys path,
     * when the segment has no candidate keys (written before them), when some document has none (the marker term
     * {@link SketchFields#withoutCandidateKeys()}: a bare fingerprint or a v6 value, which only the exact paths find), or
     * when the probes' keys are so common here that the exact path costs less.
     */
    private KeysAnswer candidateKeysAnswer(LeafReaderContext context) throws IOException {
        if (query.answersByCandidateKeys() == false) return null;
        Terms keyTerms = context.reader().terms(query.candidateKeys.keysField());
        if (keyTerms == null || keyTerms.iterator().seekExact(SketchFields.withoutCandidateKeys())) return null;
        SharedKeyPostings found = seekCandidateKeys(keyTerms);
        if (found == null || query.candidateKeysCheaper(found.cost(), context.reader().maxDoc(), query.columns != null)) {
            return new KeysAnswer(found);
        }
        return null;
    }

    /** The probes' candidate keys in a segment's terms; null when no document can share enough of them with a probe. */
    private SharedKeyPostings seekCandidateKeys(Terms keyTerms) throws IOException {
        SimHashQuery.CandidateKeyPath path = query.candidateKeys;
        return SharedKeyPostings.seek(keyTerms, query.probeKeys, path.layout().keyBytes(), path.minSharedKeys());
    }

    /**
     * The candidate-key path: documents sharing the minimum of keys with a probe ({@code found}, null: none), verified
     * against those probes.
     */
    private ScorerSupplier candidateKeys(SharedKeyPostings found, NumericDocValues values, BinaryDocValues signatureValues, long start)
        throws IOException {
        SimHashQuery.CandidateKeyPath path = query.candidateKeys;
        Runnable timer = timer(SegmentPath.CANDIDATE_KEYS, start);
        if (query.listener != null) query.listener.candidateKeyPostings(found == null ? 0 : found.cost());
        if (found == null) {
            if (timer != null) timer.run(); // answered: no document can share enough keys with a probe
            return null;
        }
        return LazyScorerSupplier.of(
            found.cost(),
            () -> new CandidateKeyScorer(
                query,
                SimHashWeight.this,
                found.candidates(path.minSharedKeys()),
                values,
                signatureValues,
                boost,
                timer
            )
        );
    }

    /** Counts the segment on {@code path} and returns what reports its time at its end; null without a listener. */
    private Runnable timer(SegmentPath path, long start) {
        if (query.listener == null) return null;
        query.listener.segment(path);
        if (query.listener.timed(path) == false) return null;
        return () -> query.listener.segmentTime(path, System.nanoTime() - start);
    }

    @Override
    public Explanation explain(LeafReaderContext context, int doc) throws IOException {
        NumericDocValues values = context.reader().getNumericDocValues(query.field);
        if (values == null || values.advanceExact(doc) == false) {
            return Explanation.noMatch("document has no fingerprint in field [" + query.field + "]");
        }
        long value = values.longValue();
        KeysAnswer byKeys = candidateKeysAnswer(context);
        if (byKeys != null) {
            return explainCandidateKeys(byKeys.found(), context, doc, value);
        }
        int distance = query.distanceToClosest(value);
        long closest = query.fingerprint;
        for (long probe : query.fingerprints) {
            if (Long.bitCount(value ^ probe) == distance) {
                closest = probe;
                break;
            }
        }
        String pair = pair(closest, value);
        if (distance > query.maxDistance) {
            return Explanation.noMatch("hamming distance " + distance + " > " + query.maxDistance + " between " + pair);
        }
        String verified = "";
        if (query.verification != null) {
            BinaryDocValues signatureValues = context.reader().getBinaryDocValues(query.verification.signatureField());
            BytesRef signature = signatureValues != null && signatureValues.advanceExact(doc) ? signatureValues.binaryValue() : null;
            if (signature == null || signature.length != Signature.BYTES) {
                signature = null;
            }
            int verifiedDistance = query.matchDistance(value, signature, query.verification.minAgreeing());
            if (verifiedDistance > query.maxDistance) {
                return Explanation.noMatch(
                    "hamming distance "
                        + distance
                        + " <= "
                        + query.maxDistance
                        + " between "
                        + pair
                        + ", but no probe within it has a signature similarity >= "
                        + query.verification.minSimilarity()
                );
            }
            int closestIndex = 0;
            for (int i = 0; i < query.fingerprints.length; i++) {
                if (Long.bitCount(value ^ query.fingerprints[i]) == verifiedDistance
                    && (signature == null
                        || query.signatures[i] == null
                        || Signature.agreesOnAtLeast(
                            query.signatures[i],
                            signature.bytes,
                            signature.offset,
                            query.verification.minAgreeing()
                        ))) {
                    closestIndex = i;
                    break;
                }
            }
            distance = verifiedDistance;
            closest = query.fingerprints[closestIndex];
            pair = pair(closest, value);
            if (signature == null || query.signatures[closestIndex] == null) {
                verified = ", not verified: " + (signature == null ? "the document" : "the probe") + " has no signature";
            } else {
                byte[] docSignature = Arrays.copyOfRange(signature.bytes, signature.offset, signature.offset + signature.length);
                double similarity = Signature.similarity(query.signatures[closestIndex], docSignature);
                verified = ", verified: signature similarity "
                    + String.format(java.util.Locale.ROOT, "%.3f", similarity)
                    + " >= "
                    + query.verification.minSimilarity();
            }
        }
        if (query.scan == false && sharesKey(value, closest) == false) {
            // cannot happen for a consistent index (pigeonhole), reported rather than hidden
            return Explanation.noMatch(
                "no block key shared with the probe although hamming distance " + distance + " <= " + query.maxDistance
            );
        }
        float closeness = SimHashQuery.closeness(distance);
        return Explanation.match(
            boost * closeness,
            "near_duplicate: hamming distance "
                + distance
                + " <= "
                + query.maxDistance
                + " between "
                + pair
                + (query.scan ? " (doc-values scan)" : " (block keys " + query.layout.id() + ")")
                + verified
                + (query.chanceNote == null ? "" : "; " + query.chanceNote)
                + ", score = boost * 1 / (1 + distance), product of:",
            Explanation.match(boost, "boost"),
            Explanation.match(closeness, "1 / (1 + " + distance + ")")
        );
    }

    /** Explains a document of a segment answered by candidate keys: the keys it shares, then the verified rule. */
    private Explanation explainCandidateKeys(SharedKeyPostings found, LeafReaderContext context, int doc, long value) throws IOException {
        SimHashQuery.CandidateKeyPath path = query.candidateKeys;
        int minShared = path.minSharedKeys();
        int[] shared = found == null ? new int[query.fingerprints.length] : found.sharedPerProbe(doc);
        int[] eligible = new int[shared.length];
        int count = 0, most = 0;
        for (int p = 0; p < shared.length; p++) {
            most = Math.max(most, shared[p]);
            if (shared[p] >= minShared) eligible[count++] = p;
        }
        String keys = "candidate keys " + path.layout().id() + " in field [" + path.keysField() + "]";
        if (count == 0) {
            return Explanation.noMatch(
                "shares at most " + most + " of the " + keys + " with a probe, fewer than the " + minShared + " required"
            );
        }
        BinaryDocValues signatureValues = context.reader().getBinaryDocValues(query.verification.signatureField());
        BytesRef signature = signatureValues != null && signatureValues.advanceExact(doc) ? signatureValues.binaryValue() : null;
        if (signature != null && signature.length != Signature.BYTES) signature = null;
        int minAgreeing = query.verification.minAgreeing();
        int distance = query.matchDistance(value, signature, minAgreeing, eligible, count);
        if (distance > query.maxDistance) {
            return Explanation.noMatch(
                "shares at least "
                    + minShared
                    + " of the "
                    + keys
                    + " with "
                    + count
                    + " probe(s), but none of them is within hamming distance "
                    + query.maxDistance
                    + " with a signature similarity >= "
                    + query.verification.minSimilarity()
            );
        }
        int closest = eligible[0];
        for (int j = 0; j < count; j++) {
            int p = eligible[j];
            if (Long.bitCount(value ^ query.fingerprints[p]) == distance
                && (signature == null
                    || query.signatures[p] == null
                    || Signature.agreesOnAtLeast(query.signatures[p], signature.bytes, signature.offset, minAgreeing))) {
                closest = p;
                break;
            }
        }
        String verified;
        if (signature == null || query.signatures[closest] == null) {
            verified = ", not verified: " + (signature == null ? "the document" : "the probe") + " has no signature";
        } else {
            byte[] docSignature = Arrays.copyOfRange(signature.bytes, signature.offset, signature.offset + signature.length);
            verified = ", verified: signature similarity "
                + String.format(java.util.Locale.ROOT, "%.3f", Signature.similarity(query.signatures[closest], docSignature))
                + " >= "
                + query.verification.minSimilarity();
        }
        float closeness = SimHashQuery.closeness(distance);
        return Explanation.match(
            boost * closeness,
            "near_duplicate: hamming distance "
                + distance
                + " <= "
                + query.maxDistance
                + " between "
                + pair(query.fingerprints[closest], value)
                + " ("
                + shared[closest]
                + " "
                + keys
                + " shared, >= "
                + minShared
                + "; candidates from "
                + found.cost()
                + " postings of the probes' keys in the segment)"
                + verified
                + (query.chanceNote == null ? "" : "; " + query.chanceNote)
                + ", score = boost * 1 / (1 + distance), product of:",
            Explanation.match(boost, "boost"),
            Explanation.match(closeness, "1 / (1 + " + distance + ")")
        );
    }

    /** "probe P and fingerprint F in field [name]", as an explanation names a compared pair. */
    private String pair(long probe, long value) {
        return "probe " + Fingerprints.toHex(probe) + " and fingerprint " + Fingerprints.toHex(value) + " in field [" + query.field + "]";
    }

    private boolean sharesKey(long value, long probe) {
        int[] thresholds = query.layout.probeThresholds(query.maxDistance);
        for (int c = 0; c < query.layout.keyCount(); c++) {
            if (Long.bitCount((value ^ probe) & query.layout.keptMask(c)) <= thresholds[c]) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean isCacheable(LeafReaderContext ctx) {
        return DocValues.isCacheable(ctx, query.field);
    }
}
