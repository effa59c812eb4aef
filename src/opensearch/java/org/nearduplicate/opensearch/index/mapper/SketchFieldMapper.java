package org.nearduplicate.opensearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;

import org.opensearch.common.Nullable;
import org.opensearch.index.fielddata.IndexFieldData;
import org.opensearch.index.fielddata.IndexNumericFieldData.NumericType;
import org.opensearch.index.fielddata.plain.SortedNumericIndexFieldData;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.index.mapper.ParametrizedFieldMapper;
import org.opensearch.index.mapper.ParseContext;
import org.opensearch.index.mapper.SourceValueFetcher;
import org.opensearch.index.mapper.TextSearchInfo;
import org.opensearch.index.mapper.ValueFetcher;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.DocValueFormat;
import org.opensearch.search.lookup.SearchLookup;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.nearduplicate.opensearch.common.XContentValueReader;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.MappingException;
import org.nearduplicate.orchestration.field.SketchAlgorithms;
import org.nearduplicate.orchestration.field.SketchField;

/**
 * The platform glue of the fields of every method ({@link SketchField} is the field itself): the {@code algorithm}
 * and {@code meta} mapping parameters, building a mapper, the document parser, the value fetcher, field data and doc
 * value format handed to the field, and the merge builder (the parameters are fixed once the index exists). Each method
 * adds its layout parameters and its field type's accessors, in code that reads the same on every platform.
 */
public abstract class SketchFieldMapper extends ParametrizedFieldMapper {
    /** What the platform's builder hands a new mapper besides its name and field type. */
    public record Parts(MultiFields multiFields, CopyTo copyTo) {
    }

    /** The mapping parameter and the key of object values naming the algorithm that made a value. */
    public static final String OBJECT_ALGORITHM = SketchField.OBJECT_ALGORITHM;

    /** The platform's error for a mapping the field refuses. */
    static MapperParsingException refused(MappingException e) {
        return new MapperParsingException(e.getMessage(), e.getCause());
    }

    /** The builder of both methods: their layout parameters first, then {@code algorithm} and {@code meta}. */
    public abstract static class Builder<S> extends ParametrizedFieldMapper.Builder {
        // always written into the mapping, so that a later release with other defaults never reinterprets an existing index
        protected final Parameter<String> algorithm;
        protected final Parameter<Map<String, String>> meta = Parameter.metaParam();
        protected final SketchingService engine;

        /** {@code engine}: the node's gateway that sketches this field's text probes (null: none). */
        protected Builder(String name, SketchingService engine, SketchAlgorithms<S> algorithms) {
            super(name);
            this.engine = engine;
            this.algorithm = new Parameter<>(SketchField.OBJECT_ALGORITHM, false, algorithms::defaultId, (n, c, o) -> {
                try {
                    return algorithms.canonical(o);
                } catch (MappingException e) {
                    throw refused(e);
                }
            }, m -> ((SketchFieldMapper) m).fieldType().algorithm()).alwaysSerialize();
        }

        /** The method's own parameters, serialized before {@code algorithm} and {@code meta}. */
        protected abstract List<Parameter<?>> layoutParameters();

        /**
         * The field type of the parameters' values.
         *
         * @throws MappingException if they do not make a field
         */
        protected abstract SketchFieldType<S> buildFieldType(String leafName, String fullName);

        /** The mapper of a field type {@link #buildFieldType} built. */
        protected abstract SketchFieldMapper buildMapper(String leafName, SketchFieldType<S> fieldType, Parts parts);

        @Override
        public final SketchFieldMapper build(BuilderContext context) {
            SketchFieldType<S> fieldType;
            try {
                fieldType = buildFieldType(name, buildFullName(context));
            } catch (MappingException e) {
                throw refused(e);
            }
            return buildMapper(name, fieldType, new Parts(multiFieldsBuilder.build(this, context), copyTo.build()));
        }

        @Override
        protected final List<Parameter<?>> getParameters() {
            List<Parameter<?>> parameters = new ArrayList<>(layoutParameters());
            parameters.add(algorithm);
            parameters.add(meta);
            return parameters;
        }
    }

    /** The field type of both methods: the platform's view of a {@link SketchField}. */
    public abstract static class SketchFieldType<S> extends MappedFieldType {
        private final SketchField<S, ?, ?> field;
        private final SketchingService engine;

        protected SketchFieldType(SketchField<S, ?, ?> field, Map<String, String> meta, @Nullable SketchingService engine) {
            super(field.name(), true, false, true, TextSearchInfo.NONE, meta);
            this.field = field;
            this.engine = engine;
        }

        /** The mapped algorithm id, canonical for this engine's ids. */
        public final String algorithm() {
            return field.algorithm();
        }

        /** The settings {@link #algorithm()} names, parsed when the mapping was built; null for an id this engine did not make. */
        @Nullable
        public final S settings() {
            return field.settings();
        }

        /** The node's gateway that sketches text probes for this field; null for a field built outside a node. */
        @Nullable
        protected final SketchingService engine() {
            return engine;
        }

        @Override
        public final String typeName() {
            return field.type();
        }

        @Override
        public ValueFetcher valueFetcher(QueryShardContext context, SearchLookup searchLookup, String format) {
            field.checkNoFetchFormat(format);
            return new SourceValueFetcher(name(), context) {
                @Override
                protected Object parseSourceValue(Object value) {
                    return field.fetched(value);
                }
            };
        }

        /** The fingerprints' field data, read as longs (sort, scripts); none for other doc values. */
        @Override
        public IndexFieldData.Builder fielddataBuilder(String fullyQualifiedIndexName, Supplier<SearchLookup> searchLookup) {
            if (field.fingerprintDocValues() == false) {
                return super.fielddataBuilder(fullyQualifiedIndexName, searchLookup);
            }
            return new SortedNumericIndexFieldData.Builder(name(), NumericType.LONG);
        }

        @Override
        public DocValueFormat docValueFormat(@Nullable String format, ZoneId timeZone) {
            if (field.fingerprintDocValues() == false) {
                return super.docValueFormat(format, timeZone);
            }
            field.checkNoDocValueFormat(format, timeZone);
            return SimHashDocValueFormat.INSTANCE;
        }

        @Override
        public Object valueForDisplay(Object value) {
            return field.displayed(value);
        }

        /** A term query: the field's query of the identical value, or a 400 naming the field. */
        @Override
        public Query termQuery(Object value, @Nullable QueryShardContext context) {
            Query query;
            try {
                query = field.termQuery(value);
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, "field [" + name() + "]: " + e.getMessage(), e);
            }
            return boost() == 1f ? query : new BoostQuery(query, boost());
        }
    }

    protected SketchFieldMapper(String simpleName, SketchFieldType<?> mappedFieldType, Parts parts) {
        super(simpleName, mappedFieldType, parts.multiFields(), parts.copyTo());
    }

    @Override
    public SketchFieldType<?> fieldType() {
        return (SketchFieldType<?>) super.fieldType();
    }

    /** A builder of the same kind for merges: the parameters are not updateable, so every change is a conflict. */
    protected abstract Builder<?> newBuilder(String simpleName, SketchingService engine);

    @Override
    protected final void parseCreateField(ParseContext context) throws IOException {
        // errors surface as "failed to parse field [..] of type [..]" with the reason as the cause
        XContentValueReader reader = new XContentValueReader(context.parser());
        for (IndexableField field : fieldType().field.parseFields(reader, name -> context.doc().getField(name) != null)) {
            context.doc().add(field);
        }
    }

    @Override
    public final ParametrizedFieldMapper.Builder getMergeBuilder() {
        return newBuilder(simpleName(), fieldType().engine()).init(this);
    }

    @Override
    protected final String contentType() {
        return fieldType().typeName();
    }
}
