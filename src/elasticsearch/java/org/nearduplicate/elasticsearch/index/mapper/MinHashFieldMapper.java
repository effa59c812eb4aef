package org.nearduplicate.elasticsearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.elasticsearch.core.Nullable;
import org.elasticsearch.index.mapper.MapperBuilderContext;
import org.elasticsearch.index.query.QueryShardException;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.xcontent.XContentParser;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.keys.MinHashDefaults;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.elasticsearch.sketching.SketchingService;
import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.lucene.SketchFields;

/**
 * The {@code minhash} field: one MinHash signature per document. The signature (m values) is kept as a binary doc
 * value (4m bytes, big-endian ints), and its LSH band keys ({@code bands} bands of {@code rows} values, see
 * {@link Lsh}) are indexed as terms under the field's name. {@code bands}, {@code rows} and {@code algorithm} are
 * fixed when the index is created; {@code bands × rows} must fit the algorithm's {@code hashes}.
 *
 * <p>Values: the {@code minhash} processor's object {@code {"signature": "<base64>", "algorithm": "minhash-v1:..."}}
 * (an algorithm other than the mapping's is rejected) or the base64 string alone. One signature per document.
 */
public class MinHashFieldMapper extends SketchFieldMapper<String, int[]> {
    public static final String CONTENT_TYPE = "minhash";
    public static final String DEFAULT_ALGORITHM = MinHashSettings.DEFAULT.algorithmId();
    public static final String OBJECT_SIGNATURE = "signature";

    /** {@code minhash-v1...} ids are stored canonically (so {@code minhash-v1} pins today's defaults); others are rejected. */
    static final Algorithms<MinHashSettings> ALGORITHMS = new Algorithms<>(
        CONTENT_TYPE,
        OBJECT_SIGNATURE,
        DEFAULT_ALGORITHM,
        id -> true,
        MinHashSettings::fromAlgorithmId,
        MinHashSettings::algorithmId,
        MinHashSettings::version
    );

    private static MinHashFieldMapper toType(org.elasticsearch.index.mapper.FieldMapper in) {
        return (MinHashFieldMapper) in;
    }

    /** Builder: the LSH layout and the algorithm are fixed once the index exists. */
    public static class Builder extends SketchFieldMapper.Builder<MinHashSettings> {
        private final Parameter<Integer> bands = Parameter.intParam(
            "bands",
            false,
            m -> toType(m).fieldType().lsh().bands(),
            MinHashDefaults.BANDS
        ).alwaysSerialize();
        private final Parameter<Integer> rows = Parameter.intParam(
            "rows",
            false,
            m -> toType(m).fieldType().lsh().rows(),
            MinHashDefaults.ROWS
        ).alwaysSerialize();

        /** A field whose text probes cannot be signed (no engine): for tests and tools. */
        public Builder(String name) {
            this(name, null);
        }

        /** {@code engine}: the node's gateway that signs this field's text probes (null: none). */
        public Builder(String name, SketchingService engine) {
            super(name, engine, ALGORITHMS);
        }

        @Override
        protected List<Parameter<?>> layoutParameters() {
            return List.of(bands, rows);
        }

        @Override
        public MinHashFieldMapper build(MapperBuilderContext context) {
            Lsh lsh;
            MinHashSettings settings;
            try {
                lsh = new Lsh(bands.getValue(), rows.getValue());
                settings = MinHashSettings.fromAlgorithmId(algorithm.getValue());
                lsh.checkFits(settings.hashes());
            } catch (IllegalArgumentException e) {
                throw invalid(e);
            }
            MinHashFieldType ft = new MinHashFieldType(
                context.buildFullName(leafName()),
                lsh,
                algorithm.getValue(),
                settings,
                meta.getValue(),
                engine
            );
            return new MinHashFieldMapper(leafName(), ft, builderParams(this, context));
        }
    }

    /** The mapping parser of the plugin instance: its fields sign text probes through {@code engine}. */
    public static TypeParser parser(SketchingService engine) {
        return new TypeParser((n, c) -> new Builder(n, engine));
    }

    /** The field type: knows the LSH layout and the algorithm's settings (parsed once), whose {@code hashes} every signature has. */
    public static final class MinHashFieldType extends SketchFieldType<MinHashSettings> {
        private final Lsh lsh;

        public MinHashFieldType(String name, Lsh lsh, String algorithm, Map<String, String> meta) {
            this(name, lsh, algorithm, meta, null);
        }

        public MinHashFieldType(String name, Lsh lsh, String algorithm, Map<String, String> meta, SketchingService engine) {
            this(name, lsh, algorithm, MinHashSettings.fromAlgorithmId(algorithm), meta, engine);
        }

        /** {@code settings}: what {@code algorithm} names, parsed by the caller. */
        MinHashFieldType(
            String name,
            Lsh lsh,
            String algorithm,
            MinHashSettings settings,
            Map<String, String> meta,
            SketchingService engine
        ) {
            super(name, ALGORITHMS, algorithm, Objects.requireNonNull(settings), meta, engine);
            this.lsh = Objects.requireNonNull(lsh);
        }

        public MinHashFieldType(String name) {
            this(name, new Lsh(MinHashDefaults.BANDS, MinHashDefaults.ROWS), DEFAULT_ALGORITHM, Map.of());
        }

        /**
         * The signature of a {@code text}/{@code html} probe, made with this field's algorithm by the node's engine
         * (its limits and breaker apply).
         *
         * @throws IllegalArgumentException if the probe cannot be signed
         */
        public int[] probeSignature(String content, SketchingService.ProbeContent type) {
            return SketchingService.forProbe(engine(), name(), type, "a [signature]").minHashProbe(algorithm(), content, type);
        }

        public Lsh lsh() {
            return lsh;
        }

        /** The number of values (m) of the signatures in this field. */
        public int hashes() {
            return settings().hashes();
        }

        @Override
        protected Object fetchedValue(Object sourceValue) {
            return sourceValue.toString();
        }

        /**
         * Not aggregatable: the signatures have no field data. Elasticsearch's default answers "has doc values" (true
         * here); OpenSearch asks the field data, so {@code _field_caps} says false on both.
         */
        @Override
        public boolean isAggregatable() {
            return false;
        }

        /** A term query matches the identical signature: a {@code minhash_similar} query with min_similarity 1. */
        @Override
        public Query termQuery(Object value, @Nullable SearchExecutionContext context) {
            int[] signature;
            try {
                signature = parseSignature(value instanceof BytesRef b ? b.utf8ToString() : String.valueOf(value), hashes());
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, "field [" + name() + "]: " + e.getMessage(), e);
            }
            return new MinHashQuery(name(), signature, 1.0, lsh, false);
        }
    }

    /** A base64 signature with exactly {@code hashes} values. */
    public static int[] parseSignature(String base64, int hashes) {
        int[] signature = MinHashSignatures.fromBase64(base64);
        if (signature.length != hashes) {
            throw new IllegalArgumentException("signature has " + signature.length + " values but the field's algorithm makes " + hashes);
        }
        return signature;
    }

    protected MinHashFieldMapper(String simpleName, MinHashFieldType type, BuilderParams params) {
        super(simpleName, type, params);
    }

    @Override
    public MinHashFieldType fieldType() {
        return (MinHashFieldType) super.fieldType();
    }

    @Override
    protected int[] parseValue(XContentParser parser) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token != XContentParser.Token.VALUE_STRING) {
            throw new IllegalArgumentException(
                "expected a base64 signature or an object with [" + OBJECT_SIGNATURE + "], got [" + token + "]"
            );
        }
        return decode(parser.text());
    }

    @Override
    protected String parseObjectValue(XContentParser parser, XContentParser.Token token) throws IOException {
        if (token != XContentParser.Token.VALUE_STRING) {
            throw unexpectedKey(OBJECT_SIGNATURE, token);
        }
        return parser.text();
    }

    @Override
    protected IllegalArgumentException unexpectedKey(String key, XContentParser.Token token) {
        return new IllegalArgumentException(
            "unexpected [" + key + "]; expected string [" + OBJECT_SIGNATURE + "] and optionally string [" + OBJECT_ALGORITHM + "]"
        );
    }

    /** The signature is checked against the field's {@code hashes} only once its algorithm is known to be the field's. */
    @Override
    protected int[] decode(String base64) {
        return parseSignature(base64, fieldType().hashes());
    }

    @Override
    protected List<IndexableField> indexableFields(String name, int[] signature) {
        return SketchFields.minHashFields(name, fieldType().lsh(), signature);
    }

    @Override
    protected Builder newBuilder(String simpleName, SketchingService engine) {
        return new Builder(simpleName, engine);
    }
}
