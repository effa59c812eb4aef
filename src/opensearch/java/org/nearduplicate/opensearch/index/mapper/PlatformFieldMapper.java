package org.nearduplicate.opensearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;

import org.opensearch.common.Nullable;
import org.opensearch.common.TriFunction;
import org.opensearch.index.fielddata.IndexFieldData;
import org.opensearch.index.fielddata.IndexNumericFieldData.NumericType;
import org.opensearch.index.fielddata.plain.SortedNumericIndexFieldData;
import org.opensearch.index.mapper.FieldMapper;
import org.opensearch.index.mapper.Mapper.TypeParser.ParserContext;
import org.opensearch.index.mapper.ParametrizedFieldMapper;
import org.opensearch.index.mapper.ParseContext;
import org.opensearch.index.mapper.SourceValueFetcher;
import org.opensearch.index.mapper.ValueFetcher;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.lookup.SearchLookup;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import org.nearduplicate.opensearch.common.XContentValueReader;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.SketchField;

/**
 * The field mapper calls whose signatures differ between the platforms, under {@link SketchFieldMapper}: the parts a
 * builder hands a new mapper, fixed parameters, building with the leaf and full names, the value fetcher, field data
 * and term query of the field type, the document parser and the merge builder. Each adapter has its own class of this
 * name.
 */
public abstract class PlatformFieldMapper extends ParametrizedFieldMapper {
    /** What the platform's builder hands a new mapper besides its name and field type. */
    public record Parts(MultiFields multiFields, CopyTo copyTo) {
    }

    /** The builder's platform calls: fixed parameters, the parameters' list and building a mapper. */
    public abstract static class PlatformBuilder extends ParametrizedFieldMapper.Builder {
        protected PlatformBuilder(String name) {
            super(name);
        }

        /** A string parameter that cannot change once the index exists and is always written into the mapping. */
        protected static Parameter<String> fixedString(
            String name,
            Supplier<String> defaultValue,
            TriFunction<String, ParserContext, Object, String> parser,
            Function<FieldMapper, String> initializer
        ) {
            return new Parameter<>(name, false, defaultValue, parser, initializer).alwaysSerialize();
        }

        /** The parameters, in the order they are serialized. */
        protected abstract List<Parameter<?>> parameters();

        /** The mapper named {@code leafName} ({@code fullName} with its parents' names). */
        protected abstract PlatformFieldMapper build(String leafName, String fullName, Parts parts);

        @Override
        public final PlatformFieldMapper build(BuilderContext context) {
            return build(name, buildFullName(context), new Parts(multiFieldsBuilder.build(this, context), copyTo.build()));
        }

        @Override
        protected final List<Parameter<?>> getParameters() {
            return parameters();
        }
    }

    /** What the field type of both methods answers through the platform's own signatures. */
    public abstract static class PlatformFieldType<S> extends SketchFieldType<S> {
        protected PlatformFieldType(SketchField<S, ?, ?> field, Map<String, String> meta, @Nullable SketchingService sketching) {
            super(field, meta, sketching);
        }

        @Override
        public ValueFetcher valueFetcher(QueryShardContext context, SearchLookup searchLookup, String format) {
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
        public IndexFieldData.Builder fielddataBuilder(String fullyQualifiedIndexName, Supplier<SearchLookup> searchLookup) {
            if (field().fingerprintDocValues() == false) {
                return super.fielddataBuilder(fullyQualifiedIndexName, searchLookup);
            }
            return new SortedNumericIndexFieldData.Builder(name(), NumericType.LONG);
        }

        /** A term query: the field's query of the identical value, or a 400 naming the field. */
        @Override
        public Query termQuery(Object value, @Nullable QueryShardContext context) {
            Query query;
            try {
                query = field().termQuery(value);
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, "field [" + name() + "]: " + e.getMessage(), e);
            }
            return boost() == 1f ? query : new BoostQuery(query, boost());
        }

    }

    protected PlatformFieldMapper(String simpleName, PlatformFieldType<?> mappedFieldType, Parts parts) {
        super(simpleName, mappedFieldType, parts.multiFields(), parts.copyTo());
    }

    @Override
    public PlatformFieldType<?> fieldType() {
        return (PlatformFieldType<?>) super.fieldType();
    }

    /** A builder of the same kind for merges. */
    protected abstract PlatformBuilder newBuilder(String simpleName, SketchingService sketching);

    @Override
    protected final void parseCreateField(ParseContext context) throws IOException {
        // errors surface as "failed to parse field [..] of type [..]" with the reason as the cause
        ParseContext.Document doc = context.doc();
        List<IndexableField> fields = fieldType().field()
            .parseFields(new XContentValueReader(context.parser()), n -> doc.getField(n) != null);
        fields.forEach(doc::add);
    }

    @Override
    public final ParametrizedFieldMapper.Builder getMergeBuilder() {
        return newBuilder(simpleName(), fieldType().sketching()).init(this);
    }
}
