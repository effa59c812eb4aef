package org.nearduplicate.lucene;

import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.util.IOSupplier;

import java.io.IOException;

/** A {@link ScorerSupplier} whose scorer is built only when asked for, with a cost known up front. */
final class LazyScorerSupplier extends ScorerSupplier {
    private final long cost;
    private final IOSupplier<Scorer> scorer;

    private LazyScorerSupplier(long cost, IOSupplier<Scorer> scorer) {
        this.cost = cost;
        this.scorer = scorer;
    }

    static ScorerSupplier of(long cost, IOSupplier<Scorer> scorer) {
        return new LazyScorerSupplier(cost, scorer);
    }

    @Override
    public Scorer get(long leadCost) throws IOException {
        return scorer.get();
    }

    @Override
    public long cost() {
        return cost;
    }
}
