package org.nearduplicate.lucene;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;

/**
 * The candidate-key path's scorer: each document sharing the minimum of keys with some probe
 * ({@link SharedKeyPostings.Candidates}) is verified against those probes only (distance and signature, as
 * {@link DistanceScorer}), scored by the closest of them that it passes.
 */
final class CandidateKeyScorer extends VerifyingScorer {
    private final SimHashQuery query;
    private final SharedKeyPostings.Candidates candidates;
    private final NumericDocValues values;
    private final BinaryDocValues signatureValues;
    private final int minAgreeing;
    private int distance;

    CandidateKeyScorer(
        SimHashQuery query,
        Weight weight,
        SharedKeyPostings.Candidates candidates,
        NumericDocValues values,
        BinaryDocValues signatureValues,
        float boost,
        Runnable exhausted
    ) throws IOException {
        super(weight, candidates, false, boost, 4, exhausted);
        // the fingerprints of all candidates first, in one pass: only those near a probe they share keys with remain
        candidates.retainNear(values, query.fingerprints, query.maxDistance);
        this.query = query;
        this.candidates = candidates;
        this.values = values;
        this.signatureValues = signatureValues;
        this.minAgreeing = query.verification.minAgreeing();
    }

    @Override
    protected boolean verify(int doc, boolean positioned) throws IOException {
        long value;
        if (candidates.hasValues()) {
            value = candidates.value();
        } else {
            if (values.advanceExact(doc) == false) return false;
            value = values.longValue();
        }
        int[] probes = candidates.eligible();
        int count = candidates.eligibleCount();
        // the signature is read only for a fingerprint within the distance of an eligible probe
        boolean near = false;
        for (int j = 0; j < count && near == false; j++)
            near = Long.bitCount(value ^ query.fingerprints[probes[j]]) <= query.maxDistance;
        if (near == false) return false;
        BytesRef signature = signatureValues != null && signatureValues.advanceExact(doc) ? signatureValues.binaryValue() : null;
        distance = query.matchDistance(value, signature, minAgreeing, probes, count);
        return distance <= query.maxDistance;
    }

    @Override
    protected float closeness() {
        return SimHashQuery.closeness(distance);
    }
}
