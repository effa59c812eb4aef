package org.nearduplicate.opensearch.index.mapper;

import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.lucene.MinHashQuery;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.keys.MinHashDefaults;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.opensearch.common.Nullable;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.index.mapper.ParametrizedFieldMapper;
import org.opensearch.index.mapper.ParseContext;
import org.opensearch.index.mapper.SourceValueFetcher;
import org.opensearch.index.mapper.TextSearchInfo;
import org.opensearch.index.mapper.ValueFetcher;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.lookup.SearchLookup;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code minhash} field: one MinHash signature per document. The signature (m values) is kept as a binary doc
 * value (4m bytes, big-endian ints), and its LSH band keys ({@code bands} bands of {@code rows} values, see
 * {@link Lsh}) are indexed as terms under the field's name. {@code bands}, {@code rows} and {@code algorithm} are
 * fixed when the index is created; {@code bands × rows} must fit the algorithm's {@code hashes}.
 *
 * <p>Values: the {@code minhash} processor's object {@code {"signature": "<base64>", "algorithm": "minhash-v1:..."}}
 * (an algorithm other than the mapping's is rejected) or the base64 string alone. One signature per document.
 */
public class MinHashFieldMapper extends ParametrizedFieldMapper {
    public static final String CONTENT_TYPE = "minhash";
    public static final String DEFAULT_ALGORITHM = MinHashSettings.DEFAULT.algorithmId();
    public static final String OBJECT_SIGNATURE = "signature";
    public static final String OBJECT_ALGORITHM = "algorithm";

    private static MinHashFieldMapper toType(org.opensearch.index.mapper.FieldMapper in) {
        return (MinHashFieldMapper) in;
    }

    public static class Builder extends ParametrizedFieldMapper.Builder {
        private final Parameter<Integer> bands = Parameter.intParam("bands", false, m -> toType(m).fieldType().lsh().bands(),
            MinHashDefaults.BANDS).alwaysSerialize();
        private final Parameter<Integer> rows = Parameter.intParam("rows", false, m -> toType(m).fieldType().lsh().rows(),
            MinHashDefaults.ROWS).alwaysSerialize();
        private final Parameter<String> algorithm = new Parameter<>(
            "algorithm",
            false,
            () -> DEFAULT_ALGORITHM,
            (n, c, o) -> canonicalAlgorithm(o),
            m -> toType(m).fieldType().algorithm()
        ).alwaysSerialize();
        private final Parameter<Map<String, String>> meta = Parameter.metaParam();
        private final SketchingService engine;

        /** A field whose text probes cannot be signed (no engine): for tests and tools. */
        public Builder(String name) {
            this(name, null);
        }

        /** {@code engine}: the node's gateway that signs this field's text probes (null: none). */
        public Builder(String name, SketchingService engine) {
            super(name);
            this.engine = engine;
        }

        @Override
        protected List<Parameter<?>> getParameters() {
            return List.of(bands, rows, algorithm, meta);
        }

        @Override
        public MinHashFieldMapper build(BuilderContext context) {
            Lsh lsh;
            try {
                lsh = new Lsh(bands.getValue(), rows.getValue());
                lsh.checkFits(MinHashSettings.fromAlgorithmId(algorithm.getValue()).hashes());
            } catch (IllegalArgumentException e) {
                throw new MapperParsingException("invalid [" + CONTENT_TYPE + "] field [" + name + "]: " + e.getMessage(), e);
            }
            MinHashFieldType ft = new MinHashFieldType(buildFullName(context), lsh, algorithm.getValue(), meta.getValue(), engine);
            return new MinHashFieldMapper(name, ft, multiFieldsBuilder.build(this, context), copyTo.build());
        }
    }

    /** {@code minhash-v1...} ids are stored canonically (so {@code minhash-v1} pins today's defaults); others are rejected. */
    static String canonicalAlgorithm(Object value) {
        if (value instanceof String == false || ((String) value).trim().isEmpty()) {
            throw new MapperParsingException("[algorithm] must be a non-empty string, got [" + value + "]");
        }
        try {
            return MinHashSettings.fromAlgorithmId(((String) value).trim()).algorithmId();
        } catch (IllegalArgumentException e) {
            throw new MapperParsingException("[algorithm] " + e.getMessage(), e);
        }
    }

    /** The mapping parser of the plugin instance: its fields sign text probes through {@code engine}. */
    public static TypeParser parser(SketchingService engine) {
        return new TypeParser((n, c) -> new Builder(n, engine));
    }

    public static final class MinHashFieldType extends MappedFieldType {
        private final Lsh lsh;
        private final String algorithm;
        private final int hashes;
        private final SketchingService engine;

        public MinHashFieldType(String name, Lsh lsh, String algorithm, Map<String, String> meta) {
            this(name, lsh, algorithm, meta, null);
        }

        public MinHashFieldType(String name, Lsh lsh, String algorithm, Map<String, String> meta, SketchingService engine) {
            super(name, true, false, true, TextSearchInfo.NONE, meta);
            this.lsh = Objects.requireNonNull(lsh);
            this.algorithm = Objects.requireNonNull(algorithm);
            this.hashes = MinHashSettings.fromAlgorithmId(algorithm).hashes();
            this.engine = engine;
        }

        /**
         * The signature of a {@code text}/{@code html} probe, made with this field's algorithm by the node's engine
         * (its limits and breaker apply).
         *
         * @throws IllegalArgumentException if the probe cannot be signed
         */
        public int[] probeSignature(String content, SketchingService.ProbeContent type) {
            return SketchingService.forProbe(engine, name(), type, "a [signature]").minHashProbe(algorithm, content, type);
        }

        public MinHashFieldType(String name) {
            this(name, new Lsh(MinHashDefaults.BANDS, MinHashDefaults.ROWS), DEFAULT_ALGORITHM, Map.of());
        }

        public Lsh lsh() {
            return lsh;
        }

        public String algorithm() {
            return algorithm;
        }

        /** The number of values (m) of the signatures in this field. */
        public int hashes() {
            return hashes;
        }

        @Override
        public String typeName() {
            return CONTENT_TYPE;
        }

        @Override
        public ValueFetcher valueFetcher(QueryShardContext context, SearchLookup searchLookup, String format) {
            if (format != null) {
                throw new IllegalArgumentException("Field [" + name() + "] of type [" + typeName() + "] doesn't support formats.");
            }
            return new SourceValueFetcher(name(), context) {
                @Override
                protected Object parseSourceValue(Object value) {
                    if (value instanceof Map<?, ?> map) value = map.get(OBJECT_SIGNATURE);
                    return value == null ? null : value.toString();
                }
            };
        }

        /** A term query matches the identical signature: a {@code minhash_similar} query with min_similarity 1. */
        @Override
        public Query termQuery(Object value, @Nullable QueryShardContext context) {
            int[] signature;
            try {
                signature = parseSignature(value instanceof BytesRef b ? b.utf8ToString() : String.valueOf(value), hashes);
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

    protected MinHashFieldMapper(String simpleName, MinHashFieldType type, MultiFields multiFields, CopyTo copyTo) {
        super(simpleName, type, multiFields, copyTo);
    }

    @Override
    public MinHashFieldType fieldType() {
        return (MinHashFieldType) super.fieldType();
    }

    @Override
    protected void parseCreateField(ParseContext context) throws IOException {
        XContentParser parser = context.parser();
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NULL) return;
        String base64;
        if (token == XContentParser.Token.START_OBJECT) {
            base64 = parseObject(parser);
        } else if (token == XContentParser.Token.VALUE_STRING) {
            base64 = parser.text();
        } else {
            throw new IllegalArgumentException("expected a base64 signature or an object with [" + OBJECT_SIGNATURE + "], got [" + token + "]");
        }
        int[] signature = parseSignature(base64, fieldType().hashes());
        String name = fieldType().name();
        if (context.doc().getField(name) != null) {
            throw new IllegalArgumentException("field [" + name + "] of type [" + CONTENT_TYPE + "] takes a single signature per document, got several");
        }
        for (IndexableField f : createFields(name, fieldType().lsh(), signature)) context.doc().add(f);
    }

    /** The Lucene fields of one signature: its band keys as terms, the signature as a binary doc value. */
    public static List<IndexableField> createFields(String name, Lsh lsh, int[] signature) {
        List<IndexableField> fields = new ArrayList<>(lsh.bands() + 1);
        for (byte[] key : lsh.keys(signature)) {
            fields.add(new Field(name, new BytesRef(key), SimHashFieldMapper.KEY_FIELD_TYPE));
        }
        fields.add(new BinaryDocValuesField(name, new BytesRef(MinHashSignatures.toBytes(signature))));
        return fields;
    }

    private String parseObject(XContentParser parser) throws IOException {
        String signature = null, algorithm = null, current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (OBJECT_SIGNATURE.equals(current) && token == XContentParser.Token.VALUE_STRING) {
                signature = parser.text();
            } else if (OBJECT_ALGORITHM.equals(current) && token == XContentParser.Token.VALUE_STRING) {
                algorithm = parser.text();
            } else {
                throw new IllegalArgumentException("unexpected [" + current + "]; expected string [" + OBJECT_SIGNATURE
                    + "] and optionally string [" + OBJECT_ALGORITHM + "]");
            }
        }
        if (signature == null) throw new IllegalArgumentException("object value is missing [" + OBJECT_SIGNATURE + "]");
        if (algorithm != null && algorithm.equals(fieldType().algorithm()) == false) {
            throw new IllegalArgumentException("signature was made with algorithm [" + algorithm + "] but the field is mapped with algorithm ["
                + fieldType().algorithm() + "]; signatures made differently cannot be compared. " + howToMatch(fieldType().algorithm())
                + ", or reindex into a field mapped with algorithm [" + algorithm + "]");
        }
        return signature;
    }

    /** The pipeline change that makes a field's algorithm (as for simhash fields: README "Upgrades"). */
    private static String howToMatch(String fieldAlgorithm) {
        try {
            int version = MinHashSettings.fromAlgorithmId(fieldAlgorithm).version();
            return "Set [version] to " + version + " (and the field's other options) on the minhash processor that feeds it";
        } catch (IllegalArgumentException e) {
            return "Make the signatures with the field's algorithm";
        }
    }

    @Override
    public ParametrizedFieldMapper.Builder getMergeBuilder() {
        return new Builder(simpleName(), fieldType().engine).init(this);
    }

    @Override
    protected String contentType() {
        return CONTENT_TYPE;
    }
}
