package org.nearduplicate.lucene;

import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

import java.io.IOException;

/**
 * The scorers of the column path of {@link SimHashQuery}. Led by the query itself (or by a clause that matches most
 * documents), the column is scanned block by block as the scorer advances ({@link ColumnScan.Cursor}) and the scorer
 * reads only the matches' precomputed distances. Led by a selective clause of a conjunction, the column is read at the documents
 * that clause proposes (random access into the array), as the doc-values scan would but without decoding.
 */
final class ColumnScorer {
    /**
     * A conjunction whose lead proposes fewer than one document in this many of the column reads them one by one
     * instead of scanning the whole column.
     */
    static final int RANDOM_ACCESS_RATIO = 64;

    private ColumnScorer() {}

    /**
     * The second look of a verified query ({@code simhash-v4}) at a document within the distance of some probe: the
     * distance of the closest probe it also passes the signature check with, or {@code Integer.MAX_VALUE}.
     */
    interface Verifier {
        int verifiedDistance(int doc, long value) throws IOException;
    }

    /** The distance alone decides, nobody is told when the candidates run out, and passes are not shared. */
    static ScorerSupplier supplier(Weight weight, FingerprintColumn column, long[] probes, int k, float boost) {
        return supplier(weight, column, probes, k, boost, null, null, null);
    }

    /**
     * {@code verifier}: null when the distance alone decides. {@code exhausted}: run once when the scorer's candidates
     * run out (the stats' segment time); null: none. {@code sharing}: the cache whose setting says whether the column's
     * passes are shared with concurrent searches ({@link SharedColumnScan}) and which counts the shared ones; null:
     * never shared.
     */
    static ScorerSupplier supplier(
        Weight weight,
        FingerprintColumn column,
        long[] probes,
        int k,
        float boost,
        Verifier verifier,
        Runnable exhausted,
        FingerprintColumns sharing
    ) {
        return new ScorerSupplier() {
            @Override
            public Scorer get(long leadCost) {
                if (leadCost < column.count() / RANDOM_ACCESS_RATIO) {
                    return new RandomAccess(weight, column.iterator(), column, probes, k, boost, verifier, exhausted);
                }
                if (sharing != null
                    && sharing.sharePasses()
                    && leadCost >= column.count()
                    && SharedColumnScan.worthSharing(column, probes.length, k)) {
                    // led by this query: every block is read, so the pass can be shared with concurrent searches
                    SharedColumnScan.Result result = column.shared().scan(probes, k);
                    if (result.matches() != null) {
                        if (result.shared()) sharing.countSharedPass();
                        ColumnScan.DistanceIterator matches = new ColumnScan.MatchesIterator(result.matches(), column.count());
                        return new Listed(weight, matches, boost, column, verifier, exhausted);
                    }
                }
                return new Listed(weight, new ColumnScan.Cursor(column, probes, k), boost, column, verifier, exhausted);
            }

            @Override
            public long cost() {
                return column.count();
            }
        };
    }

    /** The matches of a whole-column scan, with their distances. */
    static final class Listed extends VerifyingScorer {
        private final ColumnScan.DistanceIterator matches;
        private final FingerprintColumn column;
        private final Verifier verifier;
        private int distance;

        Listed(Weight weight, ColumnScan.DistanceIterator matches, float boost, FingerprintColumn column, Verifier verifier) {
            this(weight, matches, boost, column, verifier, null);
        }

        Listed(
            Weight weight,
            ColumnScan.DistanceIterator matches,
            float boost,
            FingerprintColumn column,
            Verifier verifier,
            Runnable exhausted
        ) {
            super(weight, matches, true, boost, verifier == null ? 0 : 4, exhausted);
            this.matches = matches;
            this.column = column;
            this.verifier = verifier;
        }

        @Override
        protected boolean verify(int doc, boolean positioned) throws IOException {
            if (verifier == null) {
                distance = matches.distance();
                return true;
            }
            distance = verifier.verifiedDistance(doc, column.get(doc));
            return distance != Integer.MAX_VALUE;
        }

        @Override
        protected float closeness() {
            return SimHashQuery.closeness(distance);
        }
    }

    /** Every document with a value is a candidate, verified from the column at the document. */
    static final class RandomAccess extends VerifyingScorer {
        private final FingerprintColumn column;
        private final long[] probes;
        private final int k;
        private final Verifier verifier;
        private int distance;

        RandomAccess(Weight weight, FingerprintColumn column, long[] probes, int k, float boost, Verifier verifier) {
            this(weight, column.iterator(), column, probes, k, boost, verifier, null);
        }

        private RandomAccess(
            Weight weight,
            DocIdSetIterator candidates,
            FingerprintColumn column,
            long[] probes,
            int k,
            float boost,
            Verifier verifier,
            Runnable exhausted
        ) {
            super(weight, candidates, true, boost, probes.length, exhausted);
            this.column = column;
            this.probes = probes;
            this.k = k;
            this.verifier = verifier;
        }

        @Override
        protected boolean verify(int doc, boolean positioned) throws IOException {
            long value = column.get(doc);
            int best = Integer.MAX_VALUE;
            for (long probe : probes) {
                best = Math.min(best, Long.bitCount(value ^ probe));
            }
            if (best <= k && verifier != null) {
                best = verifier.verifiedDistance(doc, value);
            }
            distance = best;
            return best <= k;
        }

        @Override
        protected float closeness() {
            return SimHashQuery.closeness(distance);
        }
    }
}
