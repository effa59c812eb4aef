package org.nearduplicate.opensearch.index.mapper;

import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.TextSearchInfo;
import org.opensearch.search.DocValueFormat;

import java.time.ZoneId;
import java.util.Map;

import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.field.SketchField;

/**
 * The field type of both methods: a {@link SketchField} with the node's engine, answering what reads the same on every
 * platform (each adapter's {@link SketchFieldMapper.PlatformFieldType} adds what does not: value fetcher, field data and
 * term query).
 */
public abstract class SketchFieldType<S> extends MappedFieldType {
    private final SketchField<S, ?, ?> field;
    private final SketchingService sketching;

    /** {@code engine}: the node's gateway that sketches text probes for this field (null: none). */
    protected SketchFieldType(SketchField<S, ?, ?> field, Map<String, String> meta, SketchingService sketching) {
        super(field.name(), true, false, true, TextSearchInfo.NONE, meta);
        this.field = field;
        this.sketching = sketching;
    }

    /** The field as mapped. */
    public SketchField<S, ?, ?> field() {
        return field;
    }

    /** The mapped algorithm id, canonical for this engine's ids. */
    public final String algorithm() {
        return field.algorithm();
    }

    /** The settings {@link #algorithm()} names, parsed when the mapping was built; null for an id this engine did not make. */
    public final S settings() {
        return field.settings();
    }

    /** The node's gateway that sketches text probes for this field; null for a field built outside a node. */
    protected final SketchingService sketching() {
        return sketching;
    }

    @Override
    public final String typeName() {
        return field.type();
    }

    @Override
    public Object valueForDisplay(Object value) {
        return field.displayed(value);
    }

    /** Fingerprints are shown as 16 hex digits; other doc values as the platform shows them. */
    @Override
    public DocValueFormat docValueFormat(String format, ZoneId timeZone) {
        if (field.fingerprintDocValues() == false) {
            return super.docValueFormat(format, timeZone);
        }
        field.checkNoDocValueFormat(format, timeZone);
        return SimHashDocValueFormat.INSTANCE;
    }

    /** Aggregatable when the doc values are fingerprints: the other doc values have no field data. */
    @Override
    public boolean isAggregatable() {
        return field.fingerprintDocValues();
    }
}
