package org.nearduplicate;

import org.apache.lucene.search.TopDocs;

import org.opensearch.Version;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.Strings;
import org.opensearch.core.xcontent.MediaTypeRegistry;
import org.opensearch.core.xcontent.ToXContent;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;

/**
 * The randomized test base of the tests that run on both platforms: the platform-free tests (core, lucene, tools) and
 * the adapter tests of {@code src/test-adapters}, which the Elasticsearch build ports. Its twin in
 * {@code src/test-elasticsearch} extends ESTestCase; the helpers below hide the calls that differ.
 */
public abstract class PlatformTestCase extends OpenSearchTestCase {
    /** The hit count of {@code topDocs} (Lucene 10: a record accessor). */
    protected static long totalHits(TopDocs topDocs) {
        return topDocs.totalHits.value();
    }

    /** {@code value} as compact JSON. */
    protected static String json(ToXContent value) {
        return Strings.toString(MediaTypeRegistry.JSON, value);
    }

    /** A parser over {@code json}, with the test's named content. */
    protected XContentParser jsonParser(String json) throws IOException {
        return createParser(JsonXContent.jsonXContent, json);
    }

    /** The settings of an index created by this version, with one shard and no replica. */
    protected static Settings.Builder oneShardIndexSettings() {
        return Settings.builder()
            .put(IndexMetadata.SETTING_VERSION_CREATED, Version.CURRENT)
            .put(IndexMetadata.SETTING_NUMBER_OF_SHARDS, 1)
            .put(IndexMetadata.SETTING_NUMBER_OF_REPLICAS, 0);
    }
}
