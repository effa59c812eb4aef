package org.nearduplicate.opensearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;

import org.opensearch.common.Nullable;
import org.opensearch.index.fielddata.IndexFieldData;
import org.opensearch.index.fielddata.IndexNumericFieldData.NumericType;
import org.opensearch.index.fielddata.plain.SortedNumericIndexFieldData;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.index.mapper.ParametrizedFieldMapper;
import org.opensearch.index.mapper.ParseContext;
import org.opensearch.index.mapper.SourceValueFetcher;
import org.opensearch.index.mapper.ValueFetcher;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.lookup.SearchLookup;

import java.io.IOException;
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
 * and {@code meta} mapping parameters, building a mapper, the document parser, value fetcher, field data and term
 * query handed to the field, and the merge builder (the parameters are fixed once the index exists). Each method adds
 * its layout parameters and its field type, in code that reads the same on every platform.
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
            }, m -> ((SketchFieldMapper) m).fieldType().algorithm()).alwaysSerialize();
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
        public final SketchFieldMapper build(BuilderContext context) {
            PlatformFieldType<S> fieldType;
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

    protected SketchFieldMapper(String simpleName, PlatformFieldType<?> mappedFieldType, Parts parts) {
        super(simpleName, mappedFieldType, parts.multiFields(), parts.copyTo());
    }

    @Override
    public PlatformFieldType<?> fieldType() {
        return (PlatformFieldType<?>) super.fieldType();
    }

    /** A builder of the same kind for merges: the parameters are not updateable, so every change is a conflict. */
    protected abstract Builder<?> newBuilder(String simpleName, SketchingService sketching);

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

    @Override
    protected final String contentType() {
        return fieldType().typeName();
    }
}
