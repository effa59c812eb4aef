package org.nearduplicate.lucene.compat;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

import java.io.IOException;

/**
 * The base of this plugin's weights on Lucene 9 (Elasticsearch 8.19): subclasses implement {@code scorerSupplier}
 * as on Lucene 10, and {@code scorer}, abstract in Lucene 9, is derived from it as Lucene 10 does.
 */
public abstract class PlatformWeight extends Weight {
    protected PlatformWeight(Query query) {
        super(query);
    }

    @Override
    public final Scorer scorer(LeafReaderContext context) throws IOException {
        ScorerSupplier supplier = scorerSupplier(context);
        return supplier == null ? null : supplier.get(Long.MAX_VALUE);
    }
}
