package org.nearduplicate.opensearch.index.mapper;

import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.lucene.SimHashQuery;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Fingerprints;
import org.opensearch.common.Nullable;
import org.opensearch.core.xcontent.XContentParser;
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
import java.math.BigInteger;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@code simhash} field: one 64-bit fingerprint per document, indexed for near-duplicate lookups.
 *
 * <p>Index layout: the fingerprint's pigeonhole block keys ({@link BlockLayout}) are indexed as binary terms
 * directly under the field's own name (no norms, no positions), each posting carrying the key's check bits as its
 * term frequency ({@code check + 1}; docs only when {@code check_bits} is 0), and the fingerprint itself is kept as a
 * numeric doc value under the same name. One Lucene field carries both because nothing else is indexed for it: the
 * terms dictionary only ever holds keys, so no sub-field is needed, and {@code exists} queries use the doc values.
 *
 * <p>Accepted document values: a fingerprint string (16 hex digits, {@code 0x}-prefixed hex, or decimal), a JSON
 * integer, or an object {@code {"fingerprint": ..., "algorithm": ...}} as written by the ingest processor. An
 * object whose {@code algorithm} differs from the mapping's is rejected. {@code null} means no value. One value per
 * document: arrays with more than one fingerprint are rejected.
 */
public class SimHashFieldMapper extends ParametrizedFieldMapper {

    public static final String CONTENT_TYPE = "simhash";
    /** The engine's default algorithm, pinned into each new mapping. */
    public static final String DEFAULT_ALGORITHM = SimHashSettings.DEFAULT.algorithmId();
    public static final int DEFAULT_BLOCKS = 4;
    /** Any k up to 16 from the index (multi-probe of the 4 block keys); indices made by 0.1.0 pinned 3. */
    public static final int DEFAULT_MAX_DISTANCE = BlockLayout.MAX_DISTANCE;

    public static final String OBJECT_FINGERPRINT = "fingerprint";
    public static final String OBJECT_ALGORITHM = "algorithm";

    /** Keys without check bits: docs only. */
    static final FieldType KEY_FIELD_TYPE = new FieldType();
    /**
     * Keys with check bits: the check is the posting's term frequency, as Lucene's {@code FeatureField} stores its
     * values. Frequencies live in the postings file (memory-mapped by OpenSearch's default store, unlike positions
     * and payloads) and are decoded in blocks, so filtering candidates costs no random reads.
     */
    static final FieldType CHECKED_KEY_FIELD_TYPE = new FieldType();

    static {
        KEY_FIELD_TYPE.setIndexOptions(IndexOptions.DOCS);
        KEY_FIELD_TYPE.setOmitNorms(true);
        KEY_FIELD_TYPE.setTokenized(false);
        KEY_FIELD_TYPE.setStored(false);
        KEY_FIELD_TYPE.freeze();
        CHECKED_KEY_FIELD_TYPE.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        CHECKED_KEY_FIELD_TYPE.setOmitNorms(true);
        CHECKED_KEY_FIELD_TYPE.setTokenized(true);
        CHECKED_KEY_FIELD_TYPE.setStored(false);
        CHECKED_KEY_FIELD_TYPE.freeze();
    }

    private static SimHashFieldMapper toType(org.opensearch.index.mapper.FieldMapper in) {
        return (SimHashFieldMapper) in;
    }

    /** Builder: the three layout parameters are fixed once the index exists. */
    public static class Builder extends ParametrizedFieldMapper.Builder {
        // Layout and algorithm are always written into the mapping, so that a later release with other defaults
        // never reinterprets an existing index.
        private final Parameter<Integer> blocks = Parameter.intParam("blocks", false, m -> toType(m).layout.blocks(), DEFAULT_BLOCKS)
            .alwaysSerialize();
        private final Parameter<Integer> maxDistance = Parameter.intParam(
            "max_distance",
            false,
            m -> toType(m).layout.maxDistance(),
            DEFAULT_MAX_DISTANCE
        ).alwaysSerialize();
        private final Parameter<String> algorithm = new Parameter<>(
            "algorithm",
            false,
            () -> DEFAULT_ALGORITHM,
            (n, c, o) -> canonicalAlgorithm(o),
            m -> toType(m).fieldType().algorithm()
        ).alwaysSerialize();
        // -1 until resolved: the default depends on blocks and max_distance (BlockLayout.defaultCheckBits)
        private final Parameter<Integer> checkBits = Parameter.intParam("check_bits", false, m -> toType(m).layout.checkBits(), -1)
            .alwaysSerialize();
        private final Parameter<Map<String, String>> meta = Parameter.metaParam();
        private final SketchingService engine;

        /** A field whose text probes cannot be fingerprinted (no engine): for tests and tools. */
        public Builder(String name) {
            this(name, null);
        }

        /** {@code engine}: the node's gateway that fingerprints this field's text probes (null: none). */
        public Builder(String name, SketchingService engine) {
            super(name);
            this.engine = engine;
        }

        @Override
        protected List<Parameter<?>> getParameters() {
            return List.of(blocks, maxDistance, checkBits, algorithm, meta);
        }

        @Override
        public SimHashFieldMapper build(BuilderContext context) {
            BlockLayout layout;
            try {
                layout = new BlockLayout(blocks.getValue(), maxDistance.getValue(), checkBits.getValue());
            } catch (IllegalArgumentException e) {
                throw new MapperParsingException("invalid [" + CONTENT_TYPE + "] field [" + name + "]: " + e.getMessage(), e);
            }
            SimHashFieldType ft = new SimHashFieldType(buildFullName(context), layout, algorithm.getValue(), meta.getValue(), engine);
            return new SimHashFieldMapper(name, ft, multiFieldsBuilder.build(this, context), copyTo.build(), layout);
        }
    }

    /**
     * Algorithms of this plugin's engine ({@code simhash-v1...}) are stored in their canonical, complete form, so that
     * a short form such as {@code simhash-v1} pins today's defaults and equal algorithms compare equal. Other names
     * are kept as given: fingerprints made outside the plugin can be indexed and compared with each other.
     */
    static String canonicalAlgorithm(Object value) {
        if (value instanceof String == false || ((String) value).trim().isEmpty()) {
            throw new MapperParsingException("[algorithm] must be a non-empty string, got [" + value + "]");
        }
        String algorithm = ((String) value).trim();
        if (algorithm.startsWith("simhash-")) {
            try {
                return SimHashSettings.fromAlgorithmId(algorithm).algorithmId();
            } catch (IllegalArgumentException e) {
                throw new MapperParsingException("[algorithm] " + e.getMessage(), e);
            }
        }
        return algorithm;
    }

    /**
     * The one reader of a layout given as a map, e.g. a field's mapping as {@code GET _mapping} returns it or the
     * {@code _simhash} API's options: {@code blocks}, {@code max_distance} and {@code check_bits} default as in a new
     * mapping and are validated by {@link BlockLayout}.
     *
     * @throws IllegalArgumentException naming the bad option
     */
    public static BlockLayout layoutOf(Map<String, ?> options) {
        return new BlockLayout(
            intOption(options, "blocks", DEFAULT_BLOCKS),
            intOption(options, "max_distance", DEFAULT_MAX_DISTANCE),
            intOption(options, "check_bits", -1)
        );
    }

    private static int intOption(Map<String, ?> options, String name, int defaultValue) {
        Object value = options.get(name);
        if (value == null) return defaultValue;
        if (value instanceof Integer i) return i;
        if (value instanceof String s) {
            try {
                return Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + value + "]");
    }

    /** The mapping parser of the plugin instance: its fields fingerprint text probes through {@code engine}. */
    public static TypeParser parser(SketchingService engine) {
        return new TypeParser((n, c) -> new Builder(n, engine));
    }

    /** The field type: knows the block layout and the algorithm the indexed fingerprints were made with. */
    public static final class SimHashFieldType extends MappedFieldType {
        private final BlockLayout layout;
        private final String algorithm;
        private final SketchingService engine;

        public SimHashFieldType(String name, BlockLayout layout, String algorithm, Map<String, String> meta) {
            this(name, layout, algorithm, meta, null);
        }

        public SimHashFieldType(String name, BlockLayout layout, String algorithm, Map<String, String> meta, SketchingService engine) {
            super(name, true, false, true, TextSearchInfo.NONE, meta);
            this.layout = Objects.requireNonNull(layout);
            this.algorithm = Objects.requireNonNull(algorithm);
            this.engine = engine;
        }

        /**
         * The fingerprint of a {@code text}/{@code html} probe, made with this field's algorithm by the node's engine
         * (its limits and breaker apply), so that it compares with the indexed fingerprints.
         *
         * @throws IllegalArgumentException if the probe cannot be fingerprinted
         */
        public long probeFingerprint(String content, SketchingService.ProbeContent type) {
            return SketchingService.forProbe(engine, name(), type, "a [fingerprint] or a [like] document")
                .simHashProbe(algorithm, content, type);
        }

        public SimHashFieldType(String name) {
            this(name, new BlockLayout(DEFAULT_BLOCKS, DEFAULT_MAX_DISTANCE), DEFAULT_ALGORITHM, Map.of());
        }

        public BlockLayout layout() {
            return layout;
        }

        /** The largest distance the index answers by key lookup (the mapping's {@code max_distance}). */
        public int indexedMaxDistance() {
            return layout.maxDistance();
        }

        public String algorithm() {
            return algorithm;
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
                    if (value instanceof Map<?, ?> map) {
                        value = map.get(OBJECT_FINGERPRINT);
                    }
                    return value == null ? null : Fingerprints.toHex(FingerprintValues.parse(value));
                }
            };
        }

        @Override
        public IndexFieldData.Builder fielddataBuilder(String fullyQualifiedIndexName, Supplier<SearchLookup> searchLookup) {
            return new SortedNumericIndexFieldData.Builder(name(), NumericType.LONG);
        }

        @Override
        public DocValueFormat docValueFormat(@Nullable String format, ZoneId timeZone) {
            if (format != null) {
                throw new IllegalArgumentException("Field [" + name() + "] of type [" + typeName() + "] does not support custom formats");
            }
            if (timeZone != null) {
                throw new IllegalArgumentException(
                    "Field [" + name() + "] of type [" + typeName() + "] does not support custom time zones"
                );
            }
            return SimHashDocValueFormat.INSTANCE;
        }

        @Override
        public Object valueForDisplay(Object value) {
            if (value instanceof Number n) {
                return Fingerprints.toHex(n.longValue());
            }
            return value;
        }

        /** A term query is a near-duplicate query with distance 0: the exact fingerprint. */
        @Override
        public Query termQuery(Object value, @Nullable QueryShardContext context) {
            long fingerprint;
            try {
                fingerprint = FingerprintValues.parse(value);
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, "field [" + name() + "]: " + e.getMessage(), e);
            }
            Query query = new SimHashQuery(name(), fingerprint, 0, layout, false);
            return boost() == 1f ? query : new BoostQuery(query, boost());
        }
    }

    private final BlockLayout layout;

    protected SimHashFieldMapper(String simpleName, SimHashFieldType mappedFieldType, MultiFields multiFields, CopyTo copyTo, BlockLayout layout) {
        super(simpleName, mappedFieldType, multiFields, copyTo);
        this.layout = layout;
    }

    @Override
    public SimHashFieldType fieldType() {
        return (SimHashFieldType) super.fieldType();
    }

    @Override
    protected void parseCreateField(ParseContext context) throws IOException {
        XContentParser parser = context.parser();
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NULL) {
            return;
        }
        // errors surface as "failed to parse field [..] of type [simhash]" with the reason below as the cause
        long fingerprint = token == XContentParser.Token.START_OBJECT ? parseObject(parser) : FingerprintValues.parseToken(parser);
        String name = fieldType().name();
        if (context.doc().getField(name) != null) {
            throw new IllegalArgumentException(
                "field [" + name + "] of type [" + CONTENT_TYPE + "] takes a single fingerprint per document, got several"
            );
        }
        for (IndexableField field : createFields(name, layout, fingerprint)) {
            context.doc().add(field);
        }
    }

    /**
     * The Lucene fields of one fingerprint: its block keys as terms (with their check bits as term frequencies when
     * the layout has check bits) and the fingerprint as a numeric doc value.
     */
    public static List<IndexableField> createFields(String name, BlockLayout layout, long fingerprint) {
        List<IndexableField> fields = new ArrayList<>(layout.keyCount() + 1);
        if (layout.checkBits() > 0) {
            fields.add(new Field(name, new CheckedKeysTokenStream(layout, fingerprint), CHECKED_KEY_FIELD_TYPE));
        } else {
            byte[] keys = new byte[layout.keyCount() * layout.keyBytes()];
            for (int c = 0; c < layout.keyCount(); c++) {
                layout.key(fingerprint, c, keys, c * layout.keyBytes());
                fields.add(new Field(name, new BytesRef(keys, c * layout.keyBytes(), layout.keyBytes()), KEY_FIELD_TYPE));
            }
        }
        fields.add(new NumericDocValuesField(name, fingerprint));
        return fields;
    }

    /** One token per block key: the binary key as term, {@code check + 1} as its term frequency. */
    static final class CheckedKeysTokenStream extends TokenStream {
        private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
        private final TermFrequencyAttribute frequency = addAttribute(TermFrequencyAttribute.class);
        private final BlockLayout layout;
        private final long fingerprint;
        private int next;

        CheckedKeysTokenStream(BlockLayout layout, long fingerprint) {
            this.layout = layout;
            this.fingerprint = fingerprint;
        }

        @Override
        public boolean incrementToken() {
            if (next == layout.keyCount()) {
                return false;
            }
            clearAttributes();
            byte[] key = new byte[layout.keyBytes()];
            layout.key(fingerprint, next, key, 0);
            term.setBytesRef(new BytesRef(key));
            frequency.setTermFrequency(Math.toIntExact(layout.check(fingerprint, next) + 1));
            next++;
            return true;
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            next = 0;
        }
    }

    private long parseObject(XContentParser parser) throws IOException {
        Long fingerprint = null;
        String algorithm = null;
        XContentParser.Token token;
        String current = null;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (OBJECT_FINGERPRINT.equals(current)) {
                if (token == XContentParser.Token.VALUE_NULL) {
                    throw new IllegalArgumentException("[" + OBJECT_FINGERPRINT + "] must not be null");
                }
                fingerprint = FingerprintValues.parseToken(parser);
            } else if (OBJECT_ALGORITHM.equals(current)) {
                if (token != XContentParser.Token.VALUE_STRING) {
                    throw new IllegalArgumentException("[" + OBJECT_ALGORITHM + "] must be a string");
                }
                algorithm = parser.text();
            } else {
                throw new IllegalArgumentException(
                    "unknown key [" + current + "]; expected [" + OBJECT_FINGERPRINT + "] and optionally [" + OBJECT_ALGORITHM + "]"
                );
            }
        }
        if (fingerprint == null) {
            throw new IllegalArgumentException("object value is missing [" + OBJECT_FINGERPRINT + "]");
        }
        if (algorithm != null && algorithm.equals(fieldType().algorithm()) == false) {
            throw new IllegalArgumentException(
                "fingerprint was made with algorithm [" + algorithm + "] but the field is mapped with algorithm ["
                    + fieldType().algorithm() + "]; fingerprints made differently cannot be compared. "
                    + howToMatch(fieldType().algorithm()) + ", or reindex into a field mapped with algorithm [" + algorithm + "]"
            );
        }
        return fingerprint;
    }

    /**
     * The pipeline change that makes a field's algorithm. After an upgrade that changes the default version, a pipeline
     * without {@code version} makes the new one, while indices of the earlier release keep theirs (README "Upgrades").
     */
    private static String howToMatch(String fieldAlgorithm) {
        try {
            int version = SimHashSettings.fromAlgorithmId(fieldAlgorithm).version();
            return "Set [version] to " + version + " (and the field's other options) on the simhash processor that feeds it";
        } catch (IllegalArgumentException e) {
            return "Make the fingerprints with the field's algorithm"; // not one of this plugin's ids: made outside
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
