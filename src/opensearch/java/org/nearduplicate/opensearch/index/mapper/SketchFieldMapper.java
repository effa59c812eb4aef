package org.nearduplicate.opensearch.index.mapper;

import org.opensearch.index.mapper.MapperParsingException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.MappingException;
import org.nearduplicate.orchestration.field.SketchAlgorithms;
import org.nearduplicate.orchestration.field.SketchField;

/**
 * The mapper of the fields of every method ({@link SketchField} is the field itself): the {@code algorithm} and
 * {@code meta} mapping parameters and building a mapper from them, in code that reads the same on every platform
 * ({@link PlatformFieldMapper} holds the calls whose signatures differ). Each method adds its layout parameters and its
 * field type.
 */
public abstract class SketchFieldMapper extends PlatformFieldMapper {
    /** The mapping parameter and the key of object values naming the algorithm that made a value. */
    public static final String OBJECT_ALGORITHM = SketchField.OBJECT_ALGORITHM;

    /** The platform's error for a mapping the field refuses. */
    static MapperParsingException refused(MappingException e) {
        return new MapperParsingException(e.getMessage(), e.getCause());
    }

    /** The builder of both methods: their layout parameters first, then {@code algorithm} and {@code meta}. */
    public abstract static class Builder<S> extends PlatformBuilder {
        // always written into the mapping, so that a later release with other defaults never reinterprets an existing index
        protected final Parameter<String> algorithm;
        protected final Parameter<Map<String, String>> meta = Parameter.metaParam();
        protected final SketchingService sketching;

        /** {@code sketching}: the node's service that sketches this field's text probes (null: none). */
        protected Builder(String name, SketchingService sketching, SketchAlgorithms<S> algorithms) {
            super(name);
            this.sketching = sketching;
            this.algorithm = fixedString(OBJECT_ALGORITHM, algorithms::defaultId, (n, c, o) -> {
                try {
                    return algorithms.canonical(o);
                } catch (MappingException e) {
                    throw refused(e);
                }
            }, m -> ((SketchFieldMapper) m).fieldType().algorithm());
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
        protected final SketchFieldMapper build(String leafName, String fullName, Parts parts) {
            PlatformFieldType<S> fieldType;
            try {
                fieldType = buildFieldType(leafName, fullName);
            } catch (MappingException e) {
                throw refused(e);
            }
            return buildMapper(leafName, fieldType, parts);
        }

        @Override
        protected final List<Parameter<?>> parameters() {
            List<Parameter<?>> parameters = new ArrayList<>(layoutParameters());
            parameters.add(algorithm);
            parameters.add(meta);
            return parameters;
        }
    }

    protected SketchFieldMapper(String simpleName, PlatformFieldType<?> mappedFieldType, Parts parts) {
        super(simpleName, mappedFieldType, parts);
    }

    /** A builder of the same kind for merges: the parameters are not updateable, so every change is a conflict. */
    @Override
    protected abstract Builder<?> newBuilder(String simpleName, SketchingService sketching);

    @Override
    protected final String contentType() {
        return fieldType().typeName();
    }
}
