package org.nearduplicate.opensearch.search.rescore;

import org.nearduplicate.lucene.NearDuplicateQuery;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.nearduplicate.core.sketch.Fingerprints;
import org.opensearch.search.rescore.RescoreContext;

import java.io.IOException;
import java.util.List;

/**
 * Re-ranks (or filters) the hits of each shard by their fingerprint's Hamming distance to a probe, read from the
 * doc values (no index lookup, so any distance 0..64 works). See {@link NearDuplicateRescorerBuilder} for the options
 * and {@link ProbeRescorer} for the modes.
 */
public final class NearDuplicateRescorer extends ProbeRescorer {
    public static final NearDuplicateRescorer INSTANCE = new NearDuplicateRescorer();

    /** The per-shard context: field, resolved probe fingerprint and mode. */
    public static final class Context extends ProbeRescorer.Context {
        final String field;
        final long fingerprint;
        final int maxDistance;

        Context(int windowSize, String field, long fingerprint, int maxDistance, RescoreScoreMode scoreMode, float queryWeight, float rescoreWeight) {
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
                return distance <= maxDistance ? NearDuplicateQuery.closeness(distance) : Float.NaN;
            };
        }
    }

    private NearDuplicateRescorer() {}

    @Override
    public Explanation explain(int topLevelDocId, IndexSearcher searcher, RescoreContext rescoreContext, Explanation sourceExplanation)
        throws IOException {
        Context ctx = (Context) rescoreContext;
        if (sourceExplanation == null) {
            return Explanation.noMatch("nothing matched");
        }
        if (ctx.isRescored(topLevelDocId) == false) {
            if (ctx.scoreMode == RescoreScoreMode.FILTER) {
                return sourceExplanation;
            }
            return Explanation.match(
                sourceExplanation.getValue().floatValue() * ctx.queryWeight,
                "product of: (outside the near_duplicate rescore window)",
                sourceExplanation,
                Explanation.match(ctx.queryWeight, "query_weight")
            );
        }
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(topLevelDocId, leaves));
        NumericDocValues values = leaf.reader().getNumericDocValues(ctx.field);
        boolean has = values != null && values.advanceExact(topLevelDocId - leaf.docBase);
        int distance = has ? Fingerprints.distance(values.longValue(), ctx.fingerprint) : -1;
        boolean within = has && distance <= ctx.maxDistance;
        String describe = has
            ? "hamming distance " + distance + (within ? " <= " : " > ") + ctx.maxDistance + " to probe " + Fingerprints.toHex(ctx.fingerprint)
            : "no fingerprint in field [" + ctx.field + "]";
        if (ctx.scoreMode == RescoreScoreMode.FILTER) {
            return within
                ? Explanation.match(sourceExplanation.getValue(), "near_duplicate rescore filter kept the hit: " + describe, sourceExplanation)
                : Explanation.noMatch("near_duplicate rescore filter dropped the hit: " + describe, sourceExplanation);
        }
        Explanation primary = Explanation.match(
            sourceExplanation.getValue().floatValue() * ctx.queryWeight,
            "product of:",
            sourceExplanation,
            Explanation.match(ctx.queryWeight, "query_weight")
        );
        if (within == false) {
            return Explanation.match(primary.getValue(), "near_duplicate closeness not added: " + describe, primary);
        }
        float closeness = NearDuplicateQuery.closeness(distance);
        Explanation secondary = Explanation.match(
            closeness * ctx.rescoreWeight,
            "product of: 1 / (1 + distance), " + describe,
            Explanation.match(closeness, "1 / (1 + " + distance + ")"),
            Explanation.match(ctx.rescoreWeight, "rescore_weight")
        );
        return Explanation.match(primary.getValue().floatValue() + secondary.getValue().floatValue(), "sum of:", primary, secondary);
    }
}
