package org.nearduplicate;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.tests.util.LuceneTestCase.ThrowingRunnable;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.index.mapper.DocumentParsingException;
import org.elasticsearch.index.mapper.MapperServiceTestCase;
import org.elasticsearch.index.mapper.ParsedDocument;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.xcontent.XContentBuilder;
import org.nearduplicate.elasticsearch.NearDuplicatePlugin;

/**
 * The mapper test base of the field tests that run on both platforms, in the Elasticsearch build; its twin in
 * {@code src/test-opensearch} extends OpenSearch's MapperServiceTestCase.
 */
public abstract class PlatformMapperTestCase extends MapperServiceTestCase {
    /** Parameters added to a field's mapping ({@code CheckedConsumer}'s package differs). */
    protected interface MappingParams extends CheckedConsumer<XContentBuilder, IOException> {}

    /** The indexed fields named {@code name} of {@code doc}'s root document. */
    protected static List<IndexableField> fields(ParsedDocument doc, String name) {
        return doc.rootDoc().getFields(name);
    }

    /** The failure of parsing a document (Elasticsearch: a DocumentParsingException). */
    protected static Exception expectDocumentFailure(ThrowingRunnable parse) {
        return expectThrows(DocumentParsingException.class, parse);
    }

    /** The plugin whose mappers the tests use. */
    @Override
    protected Collection<? extends Plugin> getPlugins() {
        return List.of(new NearDuplicatePlugin(Settings.EMPTY));
    }
}
