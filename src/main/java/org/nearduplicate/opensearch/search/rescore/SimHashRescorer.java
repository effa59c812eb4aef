package org.nearduplicate.opensearch.search.rescore;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.Explanation;

import java.io.IOException;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.lucene.SimHashQuery;

/**
 * Re-ranks (or filters) the hits of each shard by their fingerprint's Hamming distance to a probe, read from the
 * doc values (no index lookup, so any distance 0..64 works). See {@link SimHashRescorerBuilder} for the options
 * and {@link ProbeRescorer} for the modes.
 */
public final class SimHashRescorer extends ProbeRescorer {
    public static final SimHashRescorer INSTANCE = new SimHashRescorer();

    /** The per-shard context: field, resolved probe fingerprint and mode. */
    public static final class Context extends ProbeRescorer.Context {
        final String field;
        final long fingerprint;
        final int maxDistance;

        Context(
            int windowSize,
            String field,
            long fingerprint,
            int maxDistance,
            RescoreScoreMode scoreMode,
            float queryWeight,
            float rescoreWeight
        ) {
            super(windowSize, INSTANCE, scoreMode, queryWeight, rescoreWeight);
            this.field = field;
            this.fingerprint = fingerprint;
            this.maxDistance = maxDistance;
        }

        public String field() {
            return field;
        }

        public long fingerprint() {
            return fingerprint;
        }

        public int maxDistance() {
            return maxDistance;
        }

        /** 1 / (1 + distance) within max_distance. */
        @Override
        public LeafCloseness leaf(LeafReaderContext leaf) throws IOException {
            NumericDocValues values = leaf.reader().getNumericDocValues(field);
            return doc -> {
                if (values == null || values.advanceExact(doc) == false) {
                    return Float.NaN;
                }
                int distance = Fingerprints.distance(values.longValue(), fingerprint);
                return distance <= maxDistance ? SimHashQuery.closeness(distance) : Float.NaN;
            };
        }

        @Override
        protected HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException {
            NumericDocValues values = leaf.reader().getNumericDocValues(field);
            if (values == null || values.advanceExact(segmentDoc) == false) {
                return new HitCheck(false, null, null, "no fingerprint in field [" + field + "]");
            }
            int distance = Fingerprints.distance(values.longValue(), fingerprint);
            boolean within = distance <= maxDistance;
            return new HitCheck(
                within,
                Explanation.match(SimHashQuery.closeness(distance), "1 / (1 + " + distance + ")"),
                "1 / (1 + distance)",
                "hamming distance " + distance + (within ? " <= " : " > ") + maxDistance + " to probe " + Fingerprints.toHex(fingerprint)
            );
        }
    }

    private SimHashRescorer() {}

    @Override
    protected String name() {
        return SimHashRescorerBuilder.NAME;
    }

    @Override
    protected String closenessName() {
        return "closeness";
    }
}
