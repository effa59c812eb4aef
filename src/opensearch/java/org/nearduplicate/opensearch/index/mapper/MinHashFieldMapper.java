package org.nearduplicate.opensearch.index.mapper;

import java.util.List;
import java.util.Map;

import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.keys.MinHashDefaults;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.MinHashField;

/**
 * The {@code minhash} field mapper: the platform glue of a {@link MinHashField}, which says what a value is and how it
 * is indexed.
 */
public class MinHashFieldMapper extends SketchFieldMapper {
    public static final String CONTENT_TYPE = MinHashField.TYPE;
    public static final String DEFAULT_ALGORITHM = MinHashField.DEFAULT_ALGORITHM;
    public static final String OBJECT_SIGNATURE = MinHashField.OBJECT_SIGNATURE;

    private static Lsh lsh(Object in) {
        return ((MinHashFieldMapper) in).fieldType().lsh();
    }

    /** Builder: the LSH layout and the algorithm are fixed once the index exists. */
    public static class Builder extends SketchFieldMapper.Builder<MinHashSettings> {
        private final Parameter<Integer> bands = Parameter.intParam(MinHashField.BANDS, false, m -> lsh(m).bands(), MinHashDefaults.BANDS)
            .alwaysSerialize();
        private final Parameter<Integer> rows = Parameter.intParam(MinHashField.ROWS, false, m -> lsh(m).rows(), MinHashDefaults.ROWS)
            .alwaysSerialize();

        /** A field whose text probes cannot be signed (no engine): for tests and tools. */
        public Builder(String name) {
            this(name, null);
        }

        /** {@code engine}: the node's gateway that signs this field's text probes (null: none). */
        public Builder(String name, SketchingService sketching) {
            super(name, sketching, MinHashField.ALGORITHMS);
        }

        @Override
        protected List<Parameter<?>> layoutParameters() {
            return List.of(bands, rows);
        }

        @Override
        protected MinHashFieldType buildFieldType(String leafName, String fullName) {
            MinHashField field = MinHashField.of(leafName, fullName, bands.getValue(), rows.getValue(), algorithm.getValue());
            return new MinHashFieldType(field, meta.getValue(), sketching);
        }

        @Override
        protected MinHashFieldMapper buildMapper(String leafName, PlatformFieldType<MinHashSettings> fieldType, Parts parts) {
            return new MinHashFieldMapper(leafName, (MinHashFieldType) fieldType, parts);
        }
    }

    /** The mapping parser of the plugin instance: its fields sign text probes through {@code engine}. */
    public static TypeParser parser(SketchingService sketching) {
        return new TypeParser((n, c) -> new Builder(n, sketching));
    }

    /** The field type: a {@link MinHashField} with the node's engine. */
    public static final class MinHashFieldType extends PlatformFieldType<MinHashSettings> {
        private final MinHashField field;

        public MinHashFieldType(String name) {
            this(new MinHashField(name), Map.of(), null);
        }

        public MinHashFieldType(String name, Lsh lsh, String algorithm, Map<String, String> meta) {
            this(new MinHashField(name, lsh, algorithm), meta, null);
        }

        public MinHashFieldType(String name, Lsh lsh, String algorithm, Map<String, String> meta, SketchingService sketching) {
            this(new MinHashField(name, lsh, algorithm), meta, sketching);
        }

        public MinHashFieldType(MinHashField field, Map<String, String> meta, SketchingService sketching) {
            super(field, meta, sketching);
            this.field = field;
        }

        public MinHashField field() {
            return field;
        }

        /**
         * The signature of a {@code text}/{@code html} probe, made with this field's algorithm by the node's engine
         * (its limits and breaker apply).
         *
         * @throws IllegalArgumentException if the probe cannot be signed
         */
        public int[] probeSignature(String content, SketchingService.ProbeContent type) {
            return SketchingService.forProbe(sketching(), name(), type, "a [signature]").minHashProbe(algorithm(), content, type);
        }

        public Lsh lsh() {
            return field.lsh();
        }

        public int hashes() {
            return field.hashes();
        }
    }

    /** See {@link MinHashField#parseSignature}. */
    public static int[] parseSignature(String base64, int hashes) {
        return MinHashField.parseSignature(base64, hashes);
    }

    protected MinHashFieldMapper(String simpleName, MinHashFieldType type, Parts parts) {
        super(simpleName, type, parts);
    }

    @Override
    public MinHashFieldType fieldType() {
        return (MinHashFieldType) super.fieldType();
    }

    @Override
    protected Builder newBuilder(String simpleName, SketchingService sketching) {
        return new Builder(simpleName, sketching);
    }
}
