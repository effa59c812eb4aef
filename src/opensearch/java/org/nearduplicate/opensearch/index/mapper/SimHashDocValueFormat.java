package org.nearduplicate.opensearch.index.mapper;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.search.DocValueFormat;

import java.util.function.LongSupplier;

import org.nearduplicate.core.sketch.Fingerprints;

/** Shows {@code simhash} doc values (docvalue_fields, sort values) as 16 lower-case hex digits. */
public final class SimHashDocValueFormat implements DocValueFormat {
    public static final String NAME = "simhash";
    public static final SimHashDocValueFormat INSTANCE = new SimHashDocValueFormat();

    private SimHashDocValueFormat() {}

    /** Reads the (stateless) format from the transport. */
    public static SimHashDocValueFormat readFrom(StreamInput in) {
        return INSTANCE;
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    public void writeTo(StreamOutput out) {}

    @Override
    public Object format(long value) {
        return Fingerprints.toHex(value);
    }

    @Override
    public long parseLong(String value, boolean roundUp, LongSupplier now) {
        return Fingerprints.parse(value);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
