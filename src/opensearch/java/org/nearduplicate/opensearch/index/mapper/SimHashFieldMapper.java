package org.nearduplicate.opensearch.index.mapper;

import java.util.List;
import java.util.Map;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.SegmentPathStats;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.SimHashField;

/**
 * The {@code simhash} field mapper: the platform glue of a {@link SimHashField}, which says what a value is and how it
 * is indexed. Its layout parameters, and its field type with the node's engine, stats and column cache.
 */
public class SimHashFieldMapper extends SketchFieldMapper {

    public static final String CONTENT_TYPE = SimHashField.TYPE;
    /** The engine's default algorithm, pinned into each new mapping. */
    public static final String DEFAULT_ALGORITHM = SimHashField.DEFAULT_ALGORITHM;
    public static final int DEFAULT_BLOCKS = SimHashField.DEFAULT_BLOCKS;
    public static final int DEFAULT_MAX_DISTANCE = SimHashField.DEFAULT_MAX_DISTANCE;
    public static final String OBJECT_FINGERPRINT = SimHashField.OBJECT_FINGERPRINT;
    public static final String OBJECT_SIGNATURE = SimHashField.OBJECT_SIGNATURE;
    /** The Lucene field of the signatures: {@link SketchFields#SIGNATURE_FIELD_SUFFIX}. */
    public static final String SIGNATURE_FIELD_SUFFIX = SketchFields.SIGNATURE_FIELD_SUFFIX;

    private static BlockLayout layout(Object in) {
        return ((SimHashFieldMapper) in).fieldType().layout();
    }

    /** Builder: the three layout parameters are fixed once the index exists. */
    public static class Builder extends SketchFieldMapper.Builder<SimHashSettings> {
        // the layout is always written into the mapping, as the algorithm is
        private final Parameter<Integer> blocks = Parameter.intParam(
            SimHashField.BLOCKS,
            false,
            m -> layout(m).blocks(),
            SimHashField.DEFAULT_BLOCKS
        ).alwaysSerialize();
        private final Parameter<Integer> maxDistance = Parameter.intParam(
            SimHashField.MAX_DISTANCE,
            false,
            m -> layout(m).maxDistance(),
            SimHashField.DEFAULT_MAX_DISTANCE
        ).alwaysSerialize();
        private final Parameter<Integer> checkBits = Parameter.intParam(
            SimHashField.CHECK_BITS,
            false,
            m -> layout(m).checkBits(),
            SimHashField.DEFAULT_CHECK_BITS
        ).alwaysSerialize();
        private final FingerprintColumns scanColumns;

        /** A field whose text probes cannot be fingerprinted (no engine): for tests and tools. */
        public Builder(String name) {
            this(name, null);
        }

        /** {@code engine}: the node's gateway that fingerprints this field's text probes (null: none). */
        public Builder(String name, SketchingService sketching) {
            this(name, sketching, null);
        }

        /** {@code scanColumns}: the node's column cache its queries scan (null: keys and doc-values scan only). */
        public Builder(String name, SketchingService sketching, FingerprintColumns scanColumns) {
            super(name, sketching, SimHashField.ALGORITHMS);
            this.scanColumns = scanColumns;
        }

        @Override
        protected List<Parameter<?>> layoutParameters() {
            return List.of(blocks, maxDistance, checkBits);
        }

        @Override
        protected SimHashFieldType buildFieldType(String leafName, String fullName) {
            BlockLayout layout = SimHashField.layout(leafName, blocks.getValue(), maxDistance.getValue(), checkBits.getValue());
            return new SimHashFieldType(new SimHashField(fullName, algorithm.getValue(), layout), meta.getValue(), sketching, scanColumns);
        }

        @Override
        protected SimHashFieldMapper buildMapper(String leafName, PlatformFieldType<SimHashSettings> fieldType, Parts parts) {
            return new SimHashFieldMapper(leafName, (SimHashFieldType) fieldType, parts);
        }
    }

    /** See {@link SimHashField#layoutOf}. */
    public static BlockLayout layoutOf(Map<String, ?> options) {
        return SimHashField.layoutOf(options);
    }

    /** The mapping parser of the plugin instance: its fields fingerprint text probes through {@code engine}. */
    public static TypeParser parser(SketchingService sketching) {
        return parser(sketching, null);
    }

    /** As {@link #parser(SketchingService)}; its fields' queries scan the node's column cache {@code scanColumns}. */
    public static TypeParser parser(SketchingService sketching, FingerprintColumns scanColumns) {
        return new TypeParser((n, c) -> new Builder(n, sketching, scanColumns));
    }

    /** The field type: a {@link SimHashField} with the node's engine, stats and column cache. */
    public static final class SimHashFieldType extends PlatformFieldType<SimHashSettings> {
        private final SimHashField field;
        private final FingerprintColumns scanColumns;
        private final SimHashQuery.Listener queryListener;

        public SimHashFieldType(String name) {
            this(new SimHashField(name), Map.of(), null, null);
        }

        public SimHashFieldType(String name, BlockLayout layout, String algorithm, Map<String, String> meta) {
            this(new SimHashField(name, algorithm, layout), meta, null, null);
        }

        public SimHashFieldType(String name, BlockLayout layout, String algorithm, Map<String, String> meta, SketchingService sketching) {
            this(new SimHashField(name, algorithm, layout), meta, sketching, null);
        }

        public SimHashFieldType(SimHashField field, Map<String, String> meta, SketchingService sketching, FingerprintColumns scanColumns) {
            super(field, meta, sketching);
            this.field = field;
            this.scanColumns = scanColumns;
            this.queryListener = sketching == null ? null : new SegmentPathStats(sketching.stats());
        }

        public SimHashField field() {
            return field;
        }

        /** Reports this field's queries' segment paths to the node's stats; null for a field built outside a node. */
        public SimHashQuery.Listener queryListener() {
            return queryListener;
        }

        /** The node's stats; null for a field built outside a node. */
        public NearDuplicateStats stats() {
            return sketching() == null ? null : sketching().stats();
        }

        /** The node's column cache that this field's queries scan; null when the node has none (the column path is off). */
        public FingerprintColumns scanColumns() {
            // near_duplicate.scan_cache.size is dynamic: 0 turns the column scan off until it is raised again
            return scanColumns == null || scanColumns.maxBytes() == 0 ? null : scanColumns;
        }

        /**
         * The fingerprint of a {@code text}/{@code html} probe, made with this field's algorithm by the node's engine
         * (its limits and breaker apply), so that it compares with the indexed fingerprints.
         *
         * @throws IllegalArgumentException if the probe cannot be fingerprinted
         */
        public SimHash probeFingerprint(String content, SketchingService.ProbeContent type) {
            return SketchingService.forProbe(sketching(), name(), type, "a [fingerprint] or a [like] document")
                .simHashProbe(algorithm(), content, type);
        }

        public BlockLayout layout() {
            return field.layout();
        }

        public boolean verifies() {
            return field.verifies();
        }

        public String signatureField() {
            return field.signatureField();
        }

        public double recommendedMinSimilarity() {
            return field.recommendedMinSimilarity();
        }

        public int indexedMaxDistance() {
            return field.indexedMaxDistance();
        }

    }

    protected SimHashFieldMapper(String simpleName, SimHashFieldType mappedFieldType, Parts parts) {
        super(simpleName, mappedFieldType, parts);
    }

    @Override
    public SimHashFieldType fieldType() {
        return (SimHashFieldType) super.fieldType();
    }

    @Override
    protected Builder newBuilder(String simpleName, SketchingService sketching) {
        return new Builder(simpleName, sketching, fieldType().scanColumns);
    }
}
