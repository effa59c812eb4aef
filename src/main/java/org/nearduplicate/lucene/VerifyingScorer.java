package org.nearduplicate.lucene;

import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;

import java.io.IOException;

import org.nearduplicate.lucene.compat.PlatformScorer;

/**
 * A scorer whose candidates (the postings of the probe's index keys, or every document with a value in scan mode)
 * are confirmed one by one against the stored fingerprint or signature: the two-phase shape shared by
 * {@code near_duplicate} and {@code minhash_similar}. Scores are {@code boost * closeness}, closeness in [0, 1].
 */
abstract class VerifyingScorer extends PlatformScorer {
    private final DocIdSetIterator approximation;
    private final TwoPhaseIterator twoPhase;
    private final float boost;

    /**
     * @param candidatesAreValues the approximation is the doc-values iterator itself (scan mode): it is already
     *                            positioned on each candidate's value
     */
    VerifyingScorer(Weight weight, DocIdSetIterator approximation, boolean candidatesAreValues, float boost, float matchCost) {
        this(weight, approximation, candidatesAreValues, boost, matchCost, null);
    }

    /** {@code exhausted}: run once when the candidates run out (the end of the segment's work, for the stats); null: none. */
    VerifyingScorer(
        Weight weight,
        DocIdSetIterator candidates,
        boolean candidatesAreValues,
        float boost,
        float matchCost,
        Runnable exhausted
    ) {
        super(weight);
        DocIdSetIterator approximation = exhausted == null ? candidates : new Exhausting(candidates, exhausted);
        this.approximation = approximation;
        this.boost = boost;
        this.twoPhase = new TwoPhaseIterator(approximation) {
            @Override
            public boolean matches() throws IOException {
                return verify(approximation.docID(), candidatesAreValues);
            }

            @Override
            public float matchCost() {
                return matchCost;
            }
        };
    }

    /**
     * Whether candidate {@code doc} matches; remembers what {@link #closeness()} needs.
     *
     * @param positioned the doc values are already on {@code doc}; otherwise advance them there first
     */
    protected abstract boolean verify(int doc, boolean positioned) throws IOException;

    /** Closeness of the last verified match, in [0, 1]. */
    protected abstract float closeness();

    @Override
    public final int docID() {
        return approximation.docID();
    }

    @Override
    public final DocIdSetIterator iterator() {
        return TwoPhaseIterator.asDocIdSetIterator(twoPhase);
    }

    @Override
    public final TwoPhaseIterator twoPhaseIterator() {
        return twoPhase;
    }

    @Override
    public final float getMaxScore(int upTo) {
        return boost;
    }

    @Override
    public final float score() {
        return boost * closeness();
    }

    /** Forwards to the candidates; runs {@code exhausted} once when they return {@code NO_MORE_DOCS}. */
    private static final class Exhausting extends DocIdSetIterator {
        private final DocIdSetIterator in;
        private Runnable exhausted;

        Exhausting(DocIdSetIterator in, Runnable exhausted) {
            this.in = in;
            this.exhausted = exhausted;
        }

        private int ended(int doc) {
            if (doc == NO_MORE_DOCS && exhausted != null) {
                Runnable r = exhausted;
                exhausted = null;
                r.run();
            }
            return doc;
        }

        @Override
        public int docID() {
            return in.docID();
        }

        @Override
        public int nextDoc() throws IOException {
            return ended(in.nextDoc());
        }

        @Override
        public int advance(int target) throws IOException {
            return ended(in.advance(target));
        }

        @Override
        public long cost() {
            return in.cost();
        }
    }
}
