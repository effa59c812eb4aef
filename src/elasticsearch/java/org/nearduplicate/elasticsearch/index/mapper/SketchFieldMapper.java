package org.nearduplicate.elasticsearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
import org.elasticsearch.index.mapper.MapperParsingException;
import org.elasticsearch.index.mapper.SourceValueFetcher;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.index.query.QueryShardException;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.script.field.LongDocValuesField;
import org.elasticsearch.xcontent.XContentBuilder;
import org.nearduplicate.elasticsearch.common.XContentValueReader;
import org.nearduplicate.elasticsearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.MappingException;
import org.nearduplicate.orchestration.field.SketchAlgorithms;
import org.nearduplicate.orchestration.field.SketchField;

/**
 * The platform glue of the fields of every method ({@link SketchField} is the field itself): the {@code algorithm}
 * and {@code meta} mapping parameters, building a mapper, the document parser, value fetcher, field data and term
 * query handed to the field, and the merge builder (the parameters are fixed once the index exists). Each method adds
 * its layout parameters and its field type, in code that reads the same on every platform.
 */
public abstract class SketchFieldMapper extends FieldMapper {
    /** What the platform's builder hands a new mapper besides its name and field type. */
    public record Parts(BuilderParams params) {
    }

    /** The mapping parameter and the key of object values naming the algorithm that made a value. */
    public static final String OBJECT_ALGORITHM = SketchField.OBJECT_ALGORITHM;

    /** The platform's error for a mapping the field refuses. */
    static MapperParsingException refused(MappingException e) {
        return new MapperParsingException(e.getMessage(), e.getCause());
    }

    /** The builder of both methods: their layout parameters first, then {@code algorithm} and {@code meta}. */
    public abstract static class Builder<S> extends FieldMapper.Builder {
        // always written into the mapping, so that a later release with other defaults never reinterprets an existing index
        protected final Parameter<String> algorithm;
        protected final Parameter<Map<String, String>> meta = Parameter.metaParam();
        protected final SketchingService sketching;

        /** {@code engine}: the node's gateway that sketches this field's text probes (null: none). */
        protected Builder(String name, SketchingService sketching, SketchAlgorithms<S> algorithms) {
            super(name);
            this.sketching = sketching;
            this.algorithm = new Parameter<>(SketchField.OBJECT_ALGORITHM, false, algorithms::defaultId, (n, c, o) -> {
                try {
                    return algorithms.canonical(o);
                } catch (MappingException e) {
                    throw refused(e);
                }
            }, m -> ((SketchFieldMapper) m).fieldType().algorithm(), XContentBuilder::field, Objects::toString).alwaysSerialize();
        }

        /** The method's own parameters, serialized before {@code algorithm} and {@code meta}. */
        protected abstract List<Parameter<?>> layoutParameters();

        /**
         * The field type of the parameters' values.
         *
         * @throws MappingException if they do not make a field
         */
        protected abstract PlatformFieldType<S> buildFieldType(String leafName, String fullName);

        /** The mapper of a field type {@link #buildFieldType} built. */
        protected abstract SketchFieldMapper buildMapper(String leafName, PlatformFieldType<S> fieldType, Parts parts);

        @Override
        public final SketchFieldMapper build(MapperBuilderContext context) {
            PlatformFieldType<S> fieldType;
            try {
                fieldType = buildFieldType(leafName(), context.buildFullName(leafName()));
            } catch (MappingException e) {
                throw refused(e);
            }
            return buildMapper(leafName(), fieldType, new Parts(builderParams(this, context)));
        }

        @Override
        protected final Parameter<?>[] getParameters() {
            List<Parameter<?>> parameters = new ArrayList<>(layoutParameters());
            parameters.add(algorithm);
            parameters.add(meta);
            return parameters.toArray(new Parameter<?>[0]);
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

    protected SketchFieldMapper(String simpleName, PlatformFieldType<?> mappedFieldType, Parts parts) {
        super(simpleName, mappedFieldType, parts.params());
    }

    @Override
    public PlatformFieldType<?> fieldType() {
        return (PlatformFieldType<?>) super.fieldType();
    }

    /** A builder of the same kind for merges: the parameters are not updateable, so every change is a conflict. */
    protected abstract Builder<?> newBuilder(String simpleName, SketchingService sketching);

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

    @Override
    protected final String contentType() {
        return fieldType().typeName();
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
