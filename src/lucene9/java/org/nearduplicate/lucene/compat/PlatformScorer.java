package org.nearduplicate.lucene.compat;

import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * The base of this plugin's scorers on Lucene 9 (Elasticsearch 8.19), whose {@link Scorer} requires its weight.
 * Its Lucene 10 twin in {@code src/lucene10} (OpenSearch 3.x) drops it.
 */
public abstract class PlatformScorer extends Scorer {
    protected PlatformScorer(Weight weight) {
        super(weight);
    }
}
