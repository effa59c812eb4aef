package org.nearduplicate.opensearch.index.query.simhash;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.index.query.ProbeRescoring;

/**
 * A shard's comparison of its hits with a resolved fingerprint: {@code 1 / (1 + distance)} within
 * {@code max_distance} and, for a field that verifies, with a signature similarity of at least the field's
 * {@code min_similarity}; read from the doc values (no index lookup, so any distance 0..64 works).
 */
public record SimHashCloseness(String field, long fingerprint, int maxDistance, SimHashQuery.Verification verification, byte[] signature)
    implements
        ProbeRescoring.Closeness {
    public SimHashCloseness(String field, long fingerprint, int maxDistance) {
        this(field, fingerprint, maxDistance, null, null);
    }

    @Override
    public String rescorer() {
        return SimHashProbe.NAME;
    }

    @Override
    public String closenessName() {
        return "closeness";
    }

    /** The hit's signature similarity to the probe's, or NaN when it has none (never verified). */
    private double similarity(BinaryDocValues signatures, int doc) throws IOException {
        if (signatures == null || signatures.advanceExact(doc) == false) {
            return Double.NaN;
        }
        BytesRef value = signatures.binaryValue();
        if (value.length != Signature.BYTES) {
            return Double.NaN;
        }
        return Signature.similarity(signature, Arrays.copyOfRange(value.bytes, value.offset, value.offset + value.length));
    }

    private BinaryDocValues signatures(LeafReaderContext leaf) throws IOException {
        return verification == null ? null : leaf.reader().getBinaryDocValues(verification.signatureField());
    }

    /** NaN: the hit has no signature, and is compared on its fingerprint alone. */
    private boolean verified(double similarity) {
        return verification == null
            || Double.isNaN(similarity)
            || Signature.similarity(Signature.minAgreeing(verification.minSimilarity())) <= similarity;
    }

    @Override
    public ProbeRescoring.LeafCloseness leaf(LeafReaderContext leaf) throws IOException {
        NumericDocValues values = leaf.reader().getNumericDocValues(field);
        BinaryDocValues signatures = signatures(leaf);
        return doc -> {
            if (values == null || values.advanceExact(doc) == false) {
                return Float.NaN;
            }
            int distance = Fingerprints.distance(values.longValue(), fingerprint);
            if (distance > maxDistance) {
                return Float.NaN;
            }
            if (verification != null && verified(similarity(signatures, doc)) == false) {
                return Float.NaN;
            }
            return SimHashQuery.closeness(distance);
        };
    }

    @Override
    public ProbeRescoring.HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException {
        NumericDocValues values = leaf.reader().getNumericDocValues(field);
        if (values == null || values.advanceExact(segmentDoc) == false) {
            return new ProbeRescoring.HitCheck(false, null, null, "no fingerprint in field [" + field + "]");
        }
        int distance = Fingerprints.distance(values.longValue(), fingerprint);
        boolean within = distance <= maxDistance;
        String why = "hamming distance "
            + distance
            + (within ? " <= " : " > ")
            + maxDistance
            + " to probe "
            + Fingerprints.toHex(fingerprint);
        if (within && verification != null) {
            double similarity = similarity(signatures(leaf), segmentDoc);
            within = verified(similarity);
            why += Double.isNaN(similarity)
                ? ", not verified: the hit has no signature"
                : String.format(
                    Locale.ROOT,
                    ", signature similarity %.3f %s %s",
                    similarity,
                    within ? ">=" : "<",
                    verification.minSimilarity()
                );
        }
        return new ProbeRescoring.HitCheck(
            within,
            Explanation.match(SimHashQuery.closeness(distance), "1 / (1 + " + distance + ")"),
            "1 / (1 + distance)",
            why
        );
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimHashCloseness c
            && c.field.equals(field)
            && c.fingerprint == fingerprint
            && c.maxDistance == maxDistance
            && Objects.equals(c.verification, verification)
            && Arrays.equals(c.signature, signature);
    }

    @Override
    public int hashCode() {
        return Objects.hash(field, fingerprint, maxDistance, verification, Arrays.hashCode(signature));
    }
}
