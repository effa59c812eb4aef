package org.nearduplicate;

import org.apache.lucene.search.TopDocs;

import org.elasticsearch.test.ESTestCase;

/**
 * The randomized test base of the platform-free tests (core, lucene, tools) in the Elasticsearch build (Lucene 9);
 * its twin in {@code src/test-opensearch} extends OpenSearchTestCase.
 */
public abstract class PlatformTestCase extends ESTestCase {
    /** The hit count of {@code topDocs} (Lucene 9: a public field). */
    protected static long totalHits(TopDocs topDocs) {
        return topDocs.totalHits.value;
    }
}
