package org.nearduplicate.elasticsearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;

import java.io.IOException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.elasticsearch.core.Nullable;
import org.elasticsearch.index.fielddata.FieldDataContext;
import org.elasticsearch.index.fielddata.IndexFieldData;
import org.elasticsearch.index.fielddata.IndexNumericFieldData.NumericType;
import org.elasticsearch.index.fielddata.plain.SortedNumericIndexFieldData;
import org.elasticsearch.index.mapper.MapperBuilderContext;
import org.elasticsearch.index.query.QueryShardException;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.script.field.LongDocValuesField;
import org.elasticsearch.search.DocValueFormat;
import org.elasticsearch.xcontent.XContentParser;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.options.OptionValues;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.elasticsearch.common.FingerprintValues;
import org.nearduplicate.elasticsearch.sketching.SketchingService;
import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.SegmentPathStats;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;

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
public class SimHashFieldMapper extends SketchFieldMapper<Long, SimHash> {

    public static final String CONTENT_TYPE = "simhash";
    /** The engine's default algorithm, pinned into each new mapping. */
    public static final String DEFAULT_ALGORITHM = SimHashSettings.DEFAULT.algorithmId();
    public static final int DEFAULT_BLOCKS = 4;
    /** Any k up to 16 from the index (multi-probe of the 4 block keys); indices made by 0.1.0 pinned 3. */
    public static final int DEFAULT_MAX_DISTANCE = BlockLayout.MAX_DISTANCE;

    public static final String OBJECT_FINGERPRINT = "fingerprint";
    /** The processor object's key of the verification signature ({@code simhash-v4} and later). */
    public static final String OBJECT_SIGNATURE = SketchValues.SIGNATURE;
    /** The Lucene field of the signatures: {@link SketchFields#SIGNATURE_FIELD_SUFFIX}. */
    public static final String SIGNATURE_FIELD_SUFFIX = SketchFields.SIGNATURE_FIELD_SUFFIX;

    /**
     * This engine's ids ({@code simhash-v1...}) are stored canonically; other names are kept as given, so that
     * fingerprints made outside the plugin can be indexed and compared with each other.
     */
    static final Algorithms<SimHashSettings> ALGORITHMS = new Algorithms<>(
        CONTENT_TYPE,
        OBJECT_FINGERPRINT,
        DEFAULT_ALGORITHM,
        id -> id.startsWith(SimHashSettings.NAME + "-"),
        SimHashSettings::fromAlgorithmId,
        SimHashSettings::algorithmId,
        SimHashSettings::version
    );

    private static SimHashFieldMapper toType(org.elasticsearch.index.mapper.FieldMapper in) {
        return (SimHashFieldMapper) in;
    }

    /** Builder: the three layout parameters are fixed once the index exists. */
    public static class Builder extends SketchFieldMapper.Builder<SimHashSettings> {
        // the layout is always written into the mapping, as the algorithm is
        private final Parameter<Integer> blocks = Parameter.intParam("blocks", false, m -> toType(m).layout.blocks(), DEFAULT_BLOCKS)
            .alwaysSerialize();
        private final Parameter<Integer> maxDistance = Parameter.intParam(
            "max_distance",
            false,
            m -> toType(m).layout.maxDistance(),
            DEFAULT_MAX_DISTANCE
        ).alwaysSerialize();
        // -1 until resolved: the default depends on blocks and max_distance (BlockLayout.defaultCheckBits)
        private final Parameter<Integer> checkBits = Parameter.intParam("check_bits", false, m -> toType(m).layout.checkBits(), -1)
            .alwaysSerialize();

        /** A field whose text probes cannot be fingerprinted (no engine): for tests and tools. */
        public Builder(String name) {
            this(name, null);
        }

        /** {@code engine}: the node's gateway that fingerprints this field's text probes (null: none). */
        public Builder(String name, SketchingService engine) {
            this(name, engine, null);
        }

        /** {@code scanColumns}: the node's column cache its queries scan (null: keys and doc-values scan only). */
        public Builder(String name, SketchingService engine, FingerprintColumns scanColumns) {
            super(name, engine, ALGORITHMS);
            this.scanColumns = scanColumns;
        }

        private final FingerprintColumns scanColumns;

        @Override
        protected List<Parameter<?>> layoutParameters() {
            return List.of(blocks, maxDistance, checkBits);
        }

        @Override
        public SimHashFieldMapper build(MapperBuilderContext context) {
            BlockLayout layout;
            try {
                layout = new BlockLayout(blocks.getValue(), maxDistance.getValue(), checkBits.getValue());
            } catch (IllegalArgumentException e) {
                throw invalid(e);
            }
            SimHashFieldType ft = new SimHashFieldType(
                context.buildFullName(leafName()),
                layout,
                algorithm.getValue(),
                meta.getValue(),
                engine,
                scanColumns
            );
            return new SimHashFieldMapper(leafName(), ft, builderParams(this, context), layout);
        }
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
        return OptionValues.integer(name, value);
    }

    /** The mapping parser of the plugin instance: its fields fingerprint text probes through {@code engine}. */
    public static TypeParser parser(SketchingService engine) {
        return parser(engine, null);
    }

    /** As {@link #parser(SketchingService)}; its fields' queries scan the node's column cache {@code scanColumns}. */
    public static TypeParser parser(SketchingService engine, FingerprintColumns scanColumns) {
        return new TypeParser((n, c) -> new Builder(n, engine, scanColumns));
    }

    /**
     * The field type: knows the block layout and the algorithm the indexed fingerprints were made with, and that
     * algorithm's settings (null for fingerprints made outside the plugin), whose default k the queries use.
     */
    public static final class SimHashFieldType extends SketchFieldType<SimHashSettings> {
        private final BlockLayout layout;
        private final FingerprintColumns scanColumns;
        private final SimHashQuery.Listener queryListener;

        public SimHashFieldType(String name, BlockLayout layout, String algorithm, Map<String, String> meta) {
            this(name, layout, algorithm, meta, null);
        }

        public SimHashFieldType(String name, BlockLayout layout, String algorithm, Map<String, String> meta, SketchingService engine) {
            this(name, layout, algorithm, meta, engine, null);
        }

        public SimHashFieldType(
            String name,
            BlockLayout layout,
            String algorithm,
            Map<String, String> meta,
            SketchingService engine,
            @Nullable FingerprintColumns scanColumns
        ) {
            super(name, ALGORITHMS, algorithm, settingsOf(algorithm), meta, engine);
            this.layout = Objects.requireNonNull(layout);
            this.scanColumns = scanColumns;
            this.queryListener = engine == null ? null : new SegmentPathStats(engine.stats());
        }

        /** Reports this field's queries' segment paths to the node's stats; null for a field built outside a node. */
        @Nullable
        public SimHashQuery.Listener queryListener() {
            return queryListener;
        }

        /** The node's stats; null for a field built outside a node. */
        @Nullable
        public NearDuplicateStats stats() {
            return engine() == null ? null : engine().stats();
        }

        /** The node's column cache that this field's queries scan; null when the node has none (the column path is off). */
        @Nullable
        public FingerprintColumns scanColumns() {
            // near_duplicate.scan_cache.size is dynamic: 0 turns the column scan off until it is raised again
            return scanColumns == null || scanColumns.maxBytes() == 0 ? null : scanColumns;
        }

        /** The node's column cache whatever its current size (what a merged mapping keeps). */
        FingerprintColumns nodeScanColumns() {
            return scanColumns;
        }

        public SimHashFieldType(String name) {
            this(name, new BlockLayout(DEFAULT_BLOCKS, DEFAULT_MAX_DISTANCE), DEFAULT_ALGORITHM, Map.of());
        }

        /**
         * The settings of one of this engine's ids, parsed once per field type; null for an id it did not make. A
         * mapping refuses a {@code simhash-} id it cannot read; a field type built directly (tests, tools) treats one
         * as foreign, as {@link org.nearduplicate.core.MaxDistance#recommended(String)} does.
         */
        private static SimHashSettings settingsOf(String algorithm) {
            if (algorithm == null || ALGORITHMS.owns().test(algorithm) == false) {
                return null;
            }
            try {
                return SimHashSettings.fromAlgorithmId(algorithm);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        /**
         * The fingerprint of a {@code text}/{@code html} probe, made with this field's algorithm by the node's engine
         * (its limits and breaker apply), so that it compares with the indexed fingerprints.
         *
         * @throws IllegalArgumentException if the probe cannot be fingerprinted
         */
        public SimHash probeFingerprint(String content, SketchingService.ProbeContent type) {
            return SketchingService.forProbe(engine(), name(), type, "a [fingerprint] or a [like] document")
                .simHashProbe(algorithm(), content, type);
        }

        public BlockLayout layout() {
            return layout;
        }

        /** Whether this field's values carry a verification signature, which every match must then pass. */
        public boolean verifies() {
            return settings() != null && settings().hasSignature();
        }

        /** The Lucene field holding the signatures (see {@link #verifies()}). */
        public String signatureField() {
            return name() + SIGNATURE_FIELD_SUFFIX;
        }

        /** The default {@code min_similarity} of this field's verified matches (NaN when it has no signature). */
        public double recommendedMinSimilarity() {
            return verifies() ? settings().recommendedMinSimilarity() : Double.NaN;
        }

        /** The largest distance the index answers by key lookup (the mapping's {@code max_distance}). */
        public int indexedMaxDistance() {
            return layout.maxDistance();
        }

        @Override
        protected Object fetchedValue(Object sourceValue) {
            return Fingerprints.toHex(FingerprintValues.parse(sourceValue));
        }

        @Override
        public IndexFieldData.Builder fielddataBuilder(FieldDataContext fieldDataContext) {
            // the fingerprint doc values, read as longs (sort, scripts); indexed = false: the field has terms, no points
            return new SortedNumericIndexFieldData.Builder(name(), NumericType.LONG, LongDocValuesField::new, false);
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
        public Query termQuery(Object value, @Nullable SearchExecutionContext context) {
            long fingerprint;
            try {
                fingerprint = FingerprintValues.parse(value);
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, "field [" + name() + "]: " + e.getMessage(), e);
            }
            // Elasticsearch field types have no index-time boost (OpenSearch's is always 1 for this field: no [boost] parameter)
            return new SimHashQuery(name(), fingerprint, 0, layout, false);
        }
    }

    private final BlockLayout layout;

    protected SimHashFieldMapper(String simpleName, SimHashFieldType mappedFieldType, BuilderParams params, BlockLayout layout) {
        super(simpleName, mappedFieldType, params);
        this.layout = layout;
    }

    @Override
    public SimHashFieldType fieldType() {
        return (SimHashFieldType) super.fieldType();
    }

    @Override
    protected SimHash parseValue(XContentParser parser) throws IOException {
        return SimHash.of(FingerprintValues.parseToken(parser));
    }

    @Override
    protected Set<String> extraKeys() {
        return Set.of(OBJECT_SIGNATURE);
    }

    @Override
    protected SimHash decode(Long fingerprint, Map<String, String> extras) {
        String signature = extras.get(OBJECT_SIGNATURE);
        if (signature == null) {
            return SimHash.of(fingerprint); // compared on the fingerprint alone, as a bare value
        }
        if (fieldType().verifies() == false) {
            throw new IllegalArgumentException(
                "["
                    + OBJECT_SIGNATURE
                    + "] given, but field ["
                    + fieldType().name()
                    + "]'s algorithm ["
                    + fieldType().algorithm()
                    + "] has no signatures"
            );
        }
        return new SimHash(fingerprint, Signature.parse(signature));
    }

    @Override
    protected Long parseObjectValue(XContentParser parser, XContentParser.Token token) throws IOException {
        if (token == XContentParser.Token.VALUE_NULL) {
            throw new IllegalArgumentException("[" + OBJECT_FINGERPRINT + "] must not be null");
        }
        return FingerprintValues.parseToken(parser);
    }

    @Override
    protected IllegalArgumentException unexpectedKey(String key, XContentParser.Token token) {
        if (OBJECT_ALGORITHM.equals(key) || OBJECT_SIGNATURE.equals(key)) {
            return new IllegalArgumentException("[" + key + "] must be a string");
        }
        return new IllegalArgumentException(
            "unknown key ["
                + key
                + "]; expected ["
                + OBJECT_FINGERPRINT
                + "] and optionally ["
                + OBJECT_SIGNATURE
                + "] and ["
                + OBJECT_ALGORITHM
                + "]"
        );
    }

    @Override
    protected SimHash decode(Long fingerprint) {
        return SimHash.of(fingerprint);
    }

    @Override
    protected List<IndexableField> indexableFields(String name, SimHash value) {
        return SketchFields.simHashFields(name, layout, value);
    }

    @Override
    protected Builder newBuilder(String simpleName, SketchingService engine) {
        return new Builder(simpleName, engine, fieldType().nodeScanColumns());
    }
}
