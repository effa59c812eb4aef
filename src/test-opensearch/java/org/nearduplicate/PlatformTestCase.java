package org.nearduplicate;

import org.apache.lucene.search.TopDocs;

import org.opensearch.test.OpenSearchTestCase;

/**
 * The randomized test base of the platform-free tests (core, lucene, tools) in the OpenSearch build: the same tests
 * run on Lucene 10 here and on Lucene 9 in the Elasticsearch build, whose twin in {@code src/test-elasticsearch}
 * extends ESTestCase.
 */
public abstract class PlatformTestCase extends OpenSearchTestCase {
    /** The hit count of {@code topDocs} (Lucene 10: a record accessor). */
    protected static long totalHits(TopDocs topDocs) {
        return topDocs.totalHits.value();
    }
}
