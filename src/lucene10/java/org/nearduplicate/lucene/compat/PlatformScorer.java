package org.nearduplicate.lucene.compat;

import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * The base of this plugin's scorers on Lucene 10 (OpenSearch 3.x), whose {@link Scorer} no longer knows its weight.
 * Its Lucene 9 twin in {@code src/lucene9} (Elasticsearch 8.19) passes the weight on; the two files are the only
 * place the plugin's Lucene code differs between the versions.
 */
public abstract class PlatformScorer extends Scorer {
    protected PlatformScorer(Weight weight) {}
}
