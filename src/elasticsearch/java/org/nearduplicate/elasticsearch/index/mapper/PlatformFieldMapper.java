package org.nearduplicate.elasticsearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import org.elasticsearch.common.TriFunction;
import org.elasticsearch.common.lucene.Lucene;
import org.elasticsearch.core.Nullable;
import org.elasticsearch.index.analysis.NamedAnalyzer;
import org.elasticsearch.index.fielddata.FieldDataContext;
import org.elasticsearch.index.fielddata.IndexFieldData;
import org.elasticsearch.index.fielddata.IndexNumericFieldData.NumericType;
import org.elasticsearch.index.fielddata.plain.SortedNumericIndexFieldData;
import org.elasticsearch.index.mapper.DocumentParserContext;
import org.elasticsearch.index.mapper.FieldMapper;
import org.elasticsearch.index.mapper.LuceneDocument;
import org.elasticsearch.index.mapper.MapperBuilderContext;
import org.elasticsearch.index.mapper.MappingParserContext;
import org.elasticsearch.index.mapper.SourceValueFetcher;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.index.query.QueryShardException;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.script.field.LongDocValuesField;
import org.elasticsearch.xcontent.XContentBuilder;
import org.nearduplicate.elasticsearch.common.XContentValueReader;
import org.nearduplicate.elasticsearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.SketchField;

/**
 * The field mapper calls whose signatures differ between the platforms, under {@link SketchFieldMapper}: the parts a
 * builder hands a new mapper, fixed parameters, building with the leaf and full names, the value fetcher, field data
 * and term query of the field type, the document parser, the merge builder and the index analyzer. Each adapter has
 * its own class of this name.
 */
public abstract class PlatformFieldMapper extends FieldMapper {
    /** What the platform's builder hands a new mapper besides its name and field type. */
    public record Parts(BuilderParams params) {
    }

    /** The builder's platform calls: fixed parameters, the parameters' array and building a mapper. */
    public abstract static class PlatformBuilder extends FieldMapper.Builder {
        protected PlatformBuilder(String name) {
            super(name);
        }

        /** A string parameter that cannot change once the index exists and is always written into the mapping. */
        protected static Parameter<String> fixedString(
            String name,
            Supplier<String> defaultValue,
            TriFunction<String, MappingParserContext, Object, String> parser,
            Function<FieldMapper, String> initializer
        ) {
            return new Parameter<>(name, false, defaultValue, parser, initializer, XContentBuilder::field, Objects::toString)
                .alwaysSerialize();
        }

        /** The parameters, in the order they are serialized. */
        protected abstract List<Parameter<?>> parameters();

        /** The mapper named {@code leafName} ({@code fullName} with its parents' names). */
        protected abstract PlatformFieldMapper build(String leafName, String fullName, Parts parts);

        @Override
        public final PlatformFieldMapper build(MapperBuilderContext context) {
            return build(leafName(), context.buildFullName(leafName()), new Parts(builderParams(this, context)));
        }

        @Override
        protected final Parameter<?>[] getParameters() {
            return parameters().toArray(new Parameter<?>[0]);
        }
    }

    /** What the field type of both methods answers through the platform's own signatures. */
    public abstract static class PlatformFieldType<S> extends SketchFieldType<S> {
        protected PlatformFieldType(SketchField<S, ?, ?> field, Map<String, String> meta, @Nullable SketchingService sketching) {
            super(field, meta, sketching);
        }

        @Override
        public ValueFetcher valueFetcher(SearchExecutionContext context, String format) {
            field().checkNoFetchFormat(format);
            return new SourceValueFetcher(name(), context) {
                @Override
                protected Object parseSourceValue(Object value) {
                    return field().fetched(value);
                }
            };
        }

        /** The fingerprints' field data, read as longs (sort, scripts); none for other doc values. */
        @Override
        public IndexFieldData.Builder fielddataBuilder(FieldDataContext fieldDataContext) {
            if (field().fingerprintDocValues() == false) {
                return super.fielddataBuilder(fieldDataContext);
            }
            // indexed = false: the field has terms, no points
            return new SortedNumericIndexFieldData.Builder(name(), NumericType.LONG, LongDocValuesField::new, false);
        }

        /**
         * A term query: the field's query of the identical value, or a 400 naming the field (Elasticsearch field types
         * have no index-time boost; OpenSearch's is always 1 for these fields: no [boost] parameter).
         */
        @Override
        public Query termQuery(Object value, @Nullable SearchExecutionContext context) {
            try {
                return field().termQuery(value);
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, "field [" + name() + "]: " + e.getMessage(), e);
            }
        }

    }

    protected PlatformFieldMapper(String simpleName, PlatformFieldType<?> mappedFieldType, Parts parts) {
        super(simpleName, mappedFieldType, parts.params());
    }

    @Override
    public PlatformFieldType<?> fieldType() {
        return (PlatformFieldType<?>) super.fieldType();
    }

    /** A builder of the same kind for merges. */
    protected abstract PlatformBuilder newBuilder(String simpleName, SketchingService sketching);

    @Override
    protected final void parseCreateField(DocumentParserContext context) throws IOException {
        // errors surface as "failed to parse field [..] of type [..]" with the reason as the cause
        LuceneDocument doc = context.doc();
        List<IndexableField> fields = fieldType().field()
            .parseFields(new XContentValueReader(context.parser()), n -> doc.getField(n) != null);
        fields.forEach(doc::add);
    }

    @Override
    public final FieldMapper.Builder getMergeBuilder() {
        return newBuilder(leafName(), fieldType().sketching()).init(this);
    }

    /**
     * The block keys with check bits are a tokenized field with its own token stream; Elasticsearch's indexing still
     * asks the field's index analyzer (for gaps between values), so the field names the keyword analyzer, which never
     * analyses anything here.
     */
    @Override
    public Map<String, NamedAnalyzer> indexAnalyzers() {
        return Map.of(fullPath(), Lucene.KEYWORD_ANALYZER);
    }
}
