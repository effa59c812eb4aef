package org.nearduplicate.opensearch.search.rescore;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Explanation;

import java.io.IOException;
import java.util.Locale;

import org.nearduplicate.lucene.MinHashQuery;

/**
 * Re-ranks (or filters) the hits of each shard by their MinHash signature's estimated Jaccard similarity to a probe,
 * read from the doc values (no LSH lookup, so every threshold is exact). See {@link MinHashRescorerBuilder} for the
 * options and {@link ProbeRescorer} for the modes.
 */
public final class MinHashRescorer extends ProbeRescorer {
    public static final MinHashRescorer INSTANCE = new MinHashRescorer();

    /** The per-shard context: field, resolved probe signature and mode. */
    public static final class Context extends ProbeRescorer.Context {
        final String field;
        final int[] signature;
        final double minSimilarity;
        final int minMatches;

        Context(
            int windowSize,
            String field,
            int[] signature,
            double minSimilarity,
            RescoreScoreMode scoreMode,
            float queryWeight,
            float rescoreWeight
        ) {
            super(windowSize, INSTANCE, scoreMode, queryWeight, rescoreWeight);
            this.field = field;
            this.signature = signature;
            this.minSimilarity = minSimilarity;
            this.minMatches = MinHashQuery.minMatches(minSimilarity, signature.length);
        }

        public String field() {
            return field;
        }

        public double minSimilarity() {
            return minSimilarity;
        }

        /** The estimated Jaccard similarity, at least min_similarity. */
        @Override
        public LeafCloseness leaf(LeafReaderContext leaf) throws IOException {
            BinaryDocValues values = leaf.reader().getBinaryDocValues(field);
            return doc -> {
                if (values == null || values.advanceExact(doc) == false) {
                    return Float.NaN;
                }
                int same = MinHashQuery.countMatches(signature, values.binaryValue());
                return same >= minMatches ? (float) same / signature.length : Float.NaN;
            };
        }

        @Override
        protected HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException {
            BinaryDocValues values = leaf.reader().getBinaryDocValues(field);
            if (values == null || values.advanceExact(segmentDoc) == false) {
                return new HitCheck(false, null, null, "no signature in field [" + field + "]");
            }
            int same = MinHashQuery.countMatches(signature, values.binaryValue());
            boolean within = same >= minMatches;
            float similarity = (float) same / signature.length;
            return new HitCheck(
                within,
                Explanation.match(similarity, "similarity"),
                "similarity",
                String.format(
                    Locale.ROOT,
                    "%d of %d values agree, estimated jaccard %.4f %s %s",
                    same,
                    signature.length,
                    similarity,
                    within ? ">=" : "<",
                    minSimilarity
                )
            );
        }
    }

    private MinHashRescorer() {}

    @Override
    protected String name() {
        return MinHashRescorerBuilder.NAME;
    }

    @Override
    protected String closenessName() {
        return "similarity";
    }
}
