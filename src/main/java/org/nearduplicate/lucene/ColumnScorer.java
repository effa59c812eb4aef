package org.nearduplicate.lucene;

import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;

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

    static ScorerSupplier supplier(FingerprintColumn column, long[] probes, int k, float boost) {
        return new ScorerSupplier() {
            @Override
            public Scorer get(long leadCost) {
                if (leadCost < column.count() / RANDOM_ACCESS_RATIO) {
                    return new RandomAccess(column, probes, k, boost);
                }
                return new Listed(new ColumnScan.Cursor(column, probes, k), boost);
            }

            @Override
            public long cost() {
                return column.count();
            }
        };
    }

    /** The matches of a whole-column scan, with their distances. */
    static final class Listed extends VerifyingScorer {
        private final ColumnScan.Cursor matches;
        private int distance;

        Listed(ColumnScan.Cursor matches, float boost) {
            super(matches, true, boost, 0);
            this.matches = matches;
        }

        @Override
        protected boolean verify(int doc, boolean positioned) {
            distance = matches.distance();
            return true;
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
        private int distance;

        RandomAccess(FingerprintColumn column, long[] probes, int k, float boost) {
            this(column.iterator(), column, probes, k, boost);
        }

        private RandomAccess(DocIdSetIterator candidates, FingerprintColumn column, long[] probes, int k, float boost) {
            super(candidates, true, boost, probes.length);
            this.column = column;
            this.probes = probes;
            this.k = k;
        }

        @Override
        protected boolean verify(int doc, boolean positioned) {
            long value = column.get(doc);
            int best = Integer.MAX_VALUE;
            for (long probe : probes) {
                best = Math.min(best, Long.bitCount(value ^ probe));
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
