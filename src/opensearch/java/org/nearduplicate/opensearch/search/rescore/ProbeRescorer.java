package org.nearduplicate.opensearch.search.rescore;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;

import org.opensearch.search.rescore.RescoreContext;
import org.opensearch.search.rescore.Rescorer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.nearduplicate.opensearch.index.query.ProbeRescoring;

/**
 * The rescoring shared by every probe rescorer ({@code near_duplicate}, {@code minhash_similar}): each hit's closeness
 * to the probe (from doc values, compared by the method's {@link ProbeRescoring.Closeness}) is either added to its score ({@link RescoreScoreMode#CLOSENESS}, window hits only) or
 * decides whether it stays ({@link RescoreScoreMode#FILTER}, every hit the shard returns).
 *
 * <p>The rescore phase ({@code RescoreProcessor} on one platform, {@code RescorePhase} on the other) reads
 * {@code scoreDocs[0]} of what the rescorers return, so a shard cannot answer with no hit at all: a filter that keeps nothing keeps one placeholder,
 * the shard's first hit with score 0. The fetch phase marks it with {@value #FILTERED_OUT_FIELD} and the plugin's
 * action filter on the search action removes it from the response (see docs/query.md).
 */
public final class ProbeRescorer implements Rescorer {
    /** Hit field on a placeholder: a hit the filter rejected, returned only because a shard must return one. */
    public static final String FILTERED_OUT_FIELD = "_near_duplicate_filtered_out";

    /** The one rescorer: what differs between methods is the context's {@link ProbeRescoring.Closeness}. */
    public static final ProbeRescorer INSTANCE = new ProbeRescorer();

    /** The per-shard context: the method's comparison with the resolved probe, the mode and the weights. */
    public static final class Context extends RescoreContext {
        final ProbeRescoring.Closeness closeness;
        final RescoreScoreMode scoreMode;
        final float queryWeight;
        final float rescoreWeight;
        /** What matches the {@code like} document {@code include_like: false} excludes on this shard, or null. */
        final Query excluded;

        public Context(
            int windowSize,
            ProbeRescoring.Closeness closeness,
            RescoreScoreMode scoreMode,
            float queryWeight,
            float rescoreWeight
        ) {
            this(windowSize, closeness, scoreMode, queryWeight, rescoreWeight, null);
        }

        public Context(
            int windowSize,
            ProbeRescoring.Closeness closeness,
            RescoreScoreMode scoreMode,
            float queryWeight,
            float rescoreWeight,
            Query excluded
        ) {
            super(windowSize, INSTANCE);
            this.closeness = closeness;
            this.scoreMode = scoreMode;
            this.queryWeight = queryWeight;
            this.rescoreWeight = rescoreWeight;
            this.excluded = excluded;
        }

        public RescoreScoreMode scoreMode() {
            return scoreMode;
        }

        /** The method's comparison of the hits with the probe. */
        public ProbeRescoring.Closeness closeness() {
            return closeness;
        }

        /** Reads the values of one leaf forward only (doc ids must not go down). */
        public ProbeRescoring.LeafCloseness leaf(LeafReaderContext leaf) throws IOException {
            ProbeRescoring.LeafCloseness inner = closeness.leaf(leaf);
            int[] docs = excludedDocs(leaf);
            if (docs.length == 0) {
                return inner;
            }
            // the excluded document is never close: NaN, as a hit out of range (dropped by the filter, not boosted)
            return doc -> Arrays.binarySearch(docs, doc) >= 0 ? Float.NaN : inner.closeness(doc);
        }

        /** {@link ProbeRescoring.Closeness#check}, or the excluded {@code like} document's own answer. */
        ProbeRescoring.HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException {
            if (Arrays.binarySearch(excludedDocs(leaf), segmentDoc) >= 0) {
                return new ProbeRescoring.HitCheck(false, null, null, "the [like] document itself, excluded by [include_like: false]");
            }
            return closeness.check(leaf, segmentDoc);
        }

        /** The segment documents {@link #excluded} matches (a document's _id: at most a few, deleted copies included), sorted. */
        private int[] excludedDocs(LeafReaderContext leaf) throws IOException {
            if (excluded == null) {
                return new int[0];
            }
            IndexSearcher searcher = new IndexSearcher(leaf.reader());
            searcher.setQueryCache(null);
            Weight weight = searcher.createWeight(searcher.rewrite(excluded), ScoreMode.COMPLETE_NO_SCORES, 1f);
            Scorer scorer = weight.scorer(searcher.getIndexReader().leaves().get(0));
            if (scorer == null) {
                return new int[0];
            }
            int[] docs = new int[0];
            DocIdSetIterator it = scorer.iterator();
            for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                docs = Arrays.copyOf(docs, docs.length + 1);
                docs[docs.length - 1] = doc;
            }
            return docs;
        }
    }

    private ProbeRescorer() {}

    @Override
    public Explanation explain(int topLevelDocId, IndexSearcher searcher, RescoreContext rescoreContext, Explanation sourceExplanation)
        throws IOException {
        Context ctx = (Context) rescoreContext;
        String name = ctx.closeness.rescorer();
        if (sourceExplanation == null) {
            return Explanation.noMatch("nothing matched");
        }
        if (ctx.isRescored(topLevelDocId) == false) {
            if (ctx.scoreMode == RescoreScoreMode.FILTER) {
                return sourceExplanation;
            }
            return Explanation.match(
                sourceExplanation.getValue().floatValue() * ctx.queryWeight,
                "product of: (outside the " + name + " rescore window)",
                sourceExplanation,
                Explanation.match(ctx.queryWeight, "query_weight")
            );
        }
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(topLevelDocId, leaves));
        ProbeRescoring.HitCheck hit = ctx.check(leaf, topLevelDocId - leaf.docBase);
        if (ctx.scoreMode == RescoreScoreMode.FILTER) {
            return hit.within()
                ? Explanation.match(
                    sourceExplanation.getValue(),
                    name + " rescore filter kept the hit: " + hit.description(),
                    sourceExplanation
                )
                : Explanation.noMatch(name + " rescore filter dropped the hit: " + hit.description(), sourceExplanation);
        }
        Explanation primary = Explanation.match(
            sourceExplanation.getValue().floatValue() * ctx.queryWeight,
            "product of:",
            sourceExplanation,
            Explanation.match(ctx.queryWeight, "query_weight")
        );
        if (hit.within() == false) {
            return Explanation.match(
                primary.getValue(),
                name + " " + ctx.closeness.closenessName() + " not added: " + hit.description(),
                primary
            );
        }
        Explanation secondary = Explanation.match(
            hit.closeness().getValue().floatValue() * ctx.rescoreWeight,
            "product of: " + hit.formula() + ", " + hit.description(),
            hit.closeness(),
            Explanation.match(ctx.rescoreWeight, "rescore_weight")
        );
        return Explanation.match(primary.getValue().floatValue() + secondary.getValue().floatValue(), "sum of:", primary, secondary);
    }

    @Override
    public TopDocs rescore(TopDocs topDocs, IndexSearcher searcher, RescoreContext rescoreContext) throws IOException {
        if (topDocs == null || topDocs.scoreDocs.length == 0) {
            return topDocs;
        }
        Context ctx = (Context) rescoreContext;
        ScoreDoc[] all = topDocs.scoreDocs;
        boolean filter = ctx.scoreMode == RescoreScoreMode.FILTER;
        // the filter checks every hit the shard returns (window_size or from + size, whichever is larger), so no hit
        // outside the filter is returned; closeness re-ranks the window only, as rescorers do
        int checked = filter ? all.length : Math.min(ctx.getWindowSize(), all.length);
        float[] closeness = closeness(all, checked, searcher, ctx);
        Set<Integer> rescored = new HashSet<>();
        for (int i = 0; i < checked; i++) {
            rescored.add(all[i].doc);
        }
        ctx.setRescoredDocs(rescored);

        if (filter) {
            List<ScoreDoc> kept = new ArrayList<>(all.length);
            for (int i = 0; i < all.length; i++) {
                if (Float.isNaN(closeness[i]) == false) {
                    kept.add(all[i]);
                }
            }
            if (kept.isEmpty()) {
                kept.add(new ScoreDoc(all[0].doc, 0f, all[0].shardIndex)); // the placeholder, see the class comment
            }
            return new TopDocs(topDocs.totalHits, kept.toArray(new ScoreDoc[0]));
        }
        ScoreDoc[] out = new ScoreDoc[all.length];
        for (int i = 0; i < all.length; i++) {
            float score = all[i].score * ctx.queryWeight;
            if (i < checked && Float.isNaN(closeness[i]) == false) {
                score += ctx.rescoreWeight * closeness[i];
            }
            out[i] = new ScoreDoc(all[i].doc, score, all[i].shardIndex);
        }
        Arrays.sort(out, Comparator.comparingDouble((ScoreDoc d) -> -d.score).thenComparingInt(d -> d.doc));
        return new TopDocs(topDocs.totalHits, out);
    }

    /** Closeness of the first {@code count} hits, read in doc id order (doc values are forward-only). */
    private static float[] closeness(ScoreDoc[] hits, int count, IndexSearcher searcher, Context ctx) throws IOException {
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt(i -> hits[i].doc));
        float[] closeness = new float[count];
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        int currentLeaf = -1;
        ProbeRescoring.LeafCloseness values = null;
        for (int i : order) {
            int doc = hits[i].doc;
            int leaf = ReaderUtil.subIndex(doc, leaves);
            if (leaf != currentLeaf) {
                currentLeaf = leaf;
                values = ctx.leaf(leaves.get(leaf));
            }
            closeness[i] = values.closeness(doc - leaves.get(leaf).docBase);
        }
        return closeness;
    }
}
