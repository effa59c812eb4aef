package org.nearduplicate.lucene;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;

/** Verifies each candidate against its doc-value fingerprint (and signature), scoring by the closest probe. */
final class DistanceScorer extends VerifyingScorer {
    private final SimHashQuery query;
    private final long fingerprint;
    private final long[] fingerprints;
    private final int maxDistance;
    private final boolean verified;
    private final NumericDocValues values;
    private final BinaryDocValues signatureValues;
    private final int minAgreeing;
    private int distance;

    DistanceScorer(
        SimHashQuery query,
        Weight weight,
        DocIdSetIterator approximation,
        NumericDocValues values,
        BinaryDocValues signatureValues,
        float boost,
        Runnable exhausted
    ) {
        super(weight, approximation, approximation == values, boost, approximation == values ? 1 : 4, exhausted);
        this.values = values;
        this.signatureValues = signatureValues;
        this.query = query;
        this.fingerprint = query.fingerprint;
        this.fingerprints = query.fingerprints;
        this.maxDistance = query.maxDistance;
        this.verified = query.verification != null;
        this.minAgreeing = verified ? query.verification.minAgreeing() : 0;
    }

    @Override
    protected boolean verify(int doc, boolean positioned) throws IOException {
        if (positioned == false && values.advanceExact(doc) == false) {
            return false;
        }
        long value = values.longValue();
        if (verified == false) {
            distance = fingerprints.length == 1 ? Long.bitCount(value ^ fingerprint) : query.distanceToClosest(value);
            return distance <= maxDistance;
        }
        // the signature is read only for a fingerprint within the distance of some probe
        if (fingerprints.length == 1 && Long.bitCount(value ^ fingerprint) > maxDistance) {
            return false;
        }
        BytesRef signature = signatureValues != null && signatureValues.advanceExact(doc) ? signatureValues.binaryValue() : null;
        distance = query.matchDistance(value, signature, minAgreeing);
        return distance <= maxDistance;
    }

    @Override
    protected float closeness() {
        return SimHashQuery.closeness(distance);
    }
}
