package org.nearduplicate.opensearch.search.rescore;

import org.nearduplicate.lucene.NearDuplicateQuery;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.nearduplicate.core.sketch.Fingerprints;
import org.opensearch.search.rescore.RescoreContext;
import org.opensearch.search.rescore.Rescorer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Re-ranks the top {@code window_size} hits of each shard by their fingerprint's distance to a probe, read from the
 * doc values (no index lookup, so any distance 0..64 works). See {@link NearDuplicateRescorerBuilder} for the modes.
 */
public final class NearDuplicateRescorer implements Rescorer {
    public static final NearDuplicateRescorer INSTANCE = new NearDuplicateRescorer();

    /** Distance marker: the document has no fingerprint. */
    static final int NO_VALUE = -1;

    /** What to do with the window. */
    public enum ScoreMode {
        /** Drop window hits farther than max_distance (or without a fingerprint); keep the others' scores and order. */
        FILTER,
        /** score = query_weight * score + rescore_weight * 1 / (1 + distance) for window hits within max_distance. */
        CLOSENESS;

        public static ScoreMode fromString(String value) {
            for (ScoreMode mode : values()) {
                if (mode.name().equalsIgnoreCase(value)) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("[score_mode] must be one of [filter, closeness], got [" + value + "]");
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The per-shard context: field, resolved probe fingerprint and mode. */
    public static final class Context extends RescoreContext {
        final String field;
        final long fingerprint;
        final int maxDistance;
        final ScoreMode scoreMode;
        final float queryWeight;
        final float rescoreWeight;

        Context(int windowSize, String field, long fingerprint, int maxDistance, ScoreMode scoreMode, float queryWeight, float rescoreWeight) {
            super(windowSize, INSTANCE);
            this.field = field;
            this.fingerprint = fingerprint;
            this.maxDistance = maxDistance;
            this.scoreMode = scoreMode;
            this.queryWeight = queryWeight;
            this.rescoreWeight = rescoreWeight;
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
    }

    private NearDuplicateRescorer() {}

    @Override
    public TopDocs rescore(TopDocs topDocs, IndexSearcher searcher, RescoreContext rescoreContext) throws IOException {
        if (topDocs == null || topDocs.scoreDocs.length == 0) {
            return topDocs;
        }
        Context ctx = (Context) rescoreContext;
        ScoreDoc[] all = topDocs.scoreDocs;
        int window = Math.min(ctx.getWindowSize(), all.length);
        int[] distances = distances(all, window, searcher, ctx);
        Set<Integer> rescored = new HashSet<>();
        for (int i = 0; i < window; i++) {
            rescored.add(all[i].doc);
        }
        ctx.setRescoredDocs(rescored);

        if (ctx.scoreMode == ScoreMode.FILTER) {
            List<ScoreDoc> kept = new ArrayList<>(all.length);
            for (int i = 0; i < window; i++) {
                if (distances[i] != NO_VALUE && distances[i] <= ctx.maxDistance) {
                    kept.add(all[i]);
                }
            }
            kept.addAll(Arrays.asList(all).subList(window, all.length));
            if (kept.isEmpty()) {
                // OpenSearch's rescore phase reads the top hit of every rescored shard, so a shard cannot answer with
                // no hits at all: keep the first hit as a placeholder with score 0. It carries no distance field.
                kept.add(new ScoreDoc(all[0].doc, 0f, all[0].shardIndex));
            }
            return new TopDocs(topDocs.totalHits, kept.toArray(new ScoreDoc[0]));
        }
        ScoreDoc[] out = new ScoreDoc[all.length];
        for (int i = 0; i < all.length; i++) {
            ScoreDoc in = all[i];
            float score = in.score * ctx.queryWeight;
            if (i < window && distances[i] != NO_VALUE && distances[i] <= ctx.maxDistance) {
                score += ctx.rescoreWeight * NearDuplicateQuery.closeness(distances[i]);
            }
            out[i] = new ScoreDoc(in.doc, score, in.shardIndex);
        }
        Arrays.sort(out, Comparator.comparingDouble((ScoreDoc d) -> -d.score).thenComparingInt(d -> d.doc));
        return new TopDocs(topDocs.totalHits, out);
    }

    /** Distances of the first {@code window} hits, read in doc id order (doc values are forward-only). */
    private static int[] distances(ScoreDoc[] hits, int window, IndexSearcher searcher, Context ctx) throws IOException {
        Integer[] order = new Integer[window];
        for (int i = 0; i < window; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt(i -> hits[i].doc));
        int[] distances = new int[window];
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        int currentLeaf = -1;
        NumericDocValues values = null;
        for (int i : order) {
            int doc = hits[i].doc;
            int leaf = ReaderUtil.subIndex(doc, leaves);
            if (leaf != currentLeaf) {
                currentLeaf = leaf;
                values = leaves.get(leaf).reader().getNumericDocValues(ctx.field);
            }
            int segmentDoc = doc - leaves.get(leaf).docBase;
            distances[i] = values != null && values.advanceExact(segmentDoc)
                ? Fingerprints.distance(values.longValue(), ctx.fingerprint)
                : NO_VALUE;
        }
        return distances;
    }

    @Override
    public Explanation explain(int topLevelDocId, IndexSearcher searcher, RescoreContext rescoreContext, Explanation sourceExplanation)
        throws IOException {
        Context ctx = (Context) rescoreContext;
        if (sourceExplanation == null) {
            return Explanation.noMatch("nothing matched");
        }
        if (ctx.isRescored(topLevelDocId) == false) {
            if (ctx.scoreMode == ScoreMode.FILTER) {
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
        int distance = has ? Fingerprints.distance(values.longValue(), ctx.fingerprint) : NO_VALUE;
        boolean within = has && distance <= ctx.maxDistance;
        String describe = has
            ? "hamming distance " + distance + (within ? " <= " : " > ") + ctx.maxDistance + " to probe " + Fingerprints.toHex(ctx.fingerprint)
            : "no fingerprint in field [" + ctx.field + "]";
        if (ctx.scoreMode == ScoreMode.FILTER) {
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
