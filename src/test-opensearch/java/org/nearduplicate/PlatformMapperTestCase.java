package org.nearduplicate;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.tests.util.LuceneTestCase.ThrowingRunnable;

import org.opensearch.common.CheckedConsumer;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.index.mapper.MapperServiceTestCase;
import org.opensearch.index.mapper.ParsedDocument;
import org.opensearch.plugins.Plugin;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import org.nearduplicate.opensearch.NearDuplicatePlugin;

/**
 * The mapper test base of the field tests that run on both platforms ({@code src/test-adapters}): the plugin's
 * mappers registered, and helpers hiding the calls that differ. Its twin in {@code src/test-elasticsearch} extends
 * Elasticsearch's MapperServiceTestCase.
 */
public abstract class PlatformMapperTestCase extends MapperServiceTestCase {
    /** Parameters added to a field's mapping ({@code CheckedConsumer}'s package differs). */
    protected interface MappingParams extends CheckedConsumer<XContentBuilder, IOException> {}

    /** The indexed fields named {@code name} of {@code doc}'s root document. */
    protected static List<IndexableField> fields(ParsedDocument doc, String name) {
        return Arrays.asList(doc.rootDoc().getFields(name));
    }

    /** The failure of parsing a document (OpenSearch: a MapperParsingException). */
    protected static Exception expectDocumentFailure(ThrowingRunnable parse) {
        return expectThrows(MapperParsingException.class, parse);
    }

    /** The plugin whose mappers the tests use. */
    @Override
    protected Collection<? extends Plugin> getPlugins() {
        return List.of(new NearDuplicatePlugin(Settings.EMPTY));
    }
}
