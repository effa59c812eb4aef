package org.nearduplicate;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.tests.util.LuceneTestCase.ThrowingRunnable;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.index.mapper.DocumentMapper;
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
    @Override
    protected Collection<? extends Plugin> getPlugins() {
        return List.of(new NearDuplicatePlugin(Settings.EMPTY));
    }

    /** Parameters added to a field's mapping. */
    protected interface MappingParams extends CheckedConsumer<XContentBuilder, IOException> {}

    /** A document mapper of one field {@code field} of {@code type}, with {@code params} added to its mapping. */
    protected DocumentMapper fieldMapper(String type, MappingParams params) throws IOException {
        return createDocumentMapper(fieldMapping(b -> {
            b.field("type", type);
            params.accept(b);
        }));
    }

    /** The indexed fields named {@code name} of {@code doc}'s root document. */
    protected static List<IndexableField> fields(ParsedDocument doc, String name) {
        return doc.rootDoc().getFields(name);
    }

    /** The failure of parsing a document (Elasticsearch: a DocumentParsingException). */
    protected static Exception expectDocumentFailure(ThrowingRunnable parse) {
        return expectThrows(DocumentParsingException.class, parse);
    }
}
