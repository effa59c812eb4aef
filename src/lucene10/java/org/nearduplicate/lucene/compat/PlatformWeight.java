package org.nearduplicate.lucene.compat;

import org.apache.lucene.search.Query;
import org.apache.lucene.search.Weight;

/**
 * The base of this plugin's weights on Lucene 10 (OpenSearch 3.x): a weight implements only
 * {@code scorerSupplier}. Its Lucene 9 twin in {@code src/lucene9} (Elasticsearch 8.19) derives {@code scorer} from it.
 */
public abstract class PlatformWeight extends Weight {
    protected PlatformWeight(Query query) {
        super(query);
    }
}
