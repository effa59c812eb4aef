package org.nearduplicate.opensearch.search.rescore;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.nearduplicate.lucene.MinHashQuery;
import org.opensearch.search.rescore.RescoreContext;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

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

        Context(int windowSize, String field, int[] signature, double minSimilarity, RescoreScoreMode scoreMode, float queryWeight,
            float rescoreWeight) {
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
    }

    private MinHashRescorer() {}

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
                "product of: (outside the minhash_similar rescore window)",
                sourceExplanation,
                Explanation.match(ctx.queryWeight, "query_weight")
            );
        }
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(topLevelDocId, leaves));
        BinaryDocValues values = leaf.reader().getBinaryDocValues(ctx.field);
        boolean has = values != null && values.advanceExact(topLevelDocId - leaf.docBase);
        int same = has ? MinHashQuery.countMatches(ctx.signature, values.binaryValue()) : -1;
        boolean within = has && same >= ctx.minMatches;
        float similarity = has ? (float) same / ctx.signature.length : 0f;
        String describe = has
            ? String.format(Locale.ROOT, "%d of %d values agree, estimated jaccard %.4f %s %s", same, ctx.signature.length, similarity,
                within ? ">=" : "<", ctx.minSimilarity)
            : "no signature in field [" + ctx.field + "]";
        if (ctx.scoreMode == RescoreScoreMode.FILTER) {
            return within
                ? Explanation.match(sourceExplanation.getValue(), "minhash_similar rescore filter kept the hit: " + describe, sourceExplanation)
                : Explanation.noMatch("minhash_similar rescore filter dropped the hit: " + describe, sourceExplanation);
        }
        Explanation primary = Explanation.match(
            sourceExplanation.getValue().floatValue() * ctx.queryWeight,
            "product of:",
            sourceExplanation,
            Explanation.match(ctx.queryWeight, "query_weight")
        );
        if (within == false) {
            return Explanation.match(primary.getValue(), "minhash_similar similarity not added: " + describe, primary);
        }
        Explanation secondary = Explanation.match(
            similarity * ctx.rescoreWeight,
            "product of: similarity, " + describe,
            Explanation.match(similarity, "similarity"),
            Explanation.match(ctx.rescoreWeight, "rescore_weight")
        );
        return Explanation.match(primary.getValue().floatValue() + secondary.getValue().floatValue(), "sum of:", primary, secondary);
    }
}
