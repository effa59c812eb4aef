package org.nearduplicate;

import org.apache.lucene.search.TopDocs;

import java.io.IOException;

import org.elasticsearch.common.Strings;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.IndexVersion;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.xcontent.ToXContent;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.json.JsonXContent;

/**
 * The randomized test base of the tests that run on both platforms, in the Elasticsearch build (Lucene 9); its twin
 * in {@code src/test-opensearch} extends OpenSearchTestCase.
 */
public abstract class PlatformTestCase extends ESTestCase {
    /** The hit count of {@code topDocs} (Lucene 9: a public field). */
    protected static long totalHits(TopDocs topDocs) {
        return topDocs.totalHits.value;
    }

    /** {@code value} as compact JSON. */
    protected static String json(ToXContent value) {
        return Strings.toString(value);
    }

    /** A parser over {@code json}, with the test's named content. */
    protected XContentParser jsonParser(String json) throws IOException {
        return createParser(JsonXContent.jsonXContent, json);
    }

    /** The settings of an index created by this version, with one shard and no replica. */
    protected static Settings.Builder oneShardIndexSettings() {
        return indexSettings(IndexVersion.current(), 1, 0);
    }
}
