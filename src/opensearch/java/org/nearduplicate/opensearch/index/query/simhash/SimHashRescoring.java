package org.nearduplicate.opensearch.index.query.simhash;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.common.MaxDistanceParsing;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeKind;
import org.nearduplicate.opensearch.index.query.ProbeRescoring;

/**
 * The {@code near_duplicate} rescorer's part: its threshold {@code max_distance} (null: the mapping's) and the Hamming
 * distance of each hit to the probe ({@link SimHashCloseness}).
 */
public final class SimHashRescoring implements ProbeRescoring<SimHashProbe, Integer> {
    public static final SimHashRescoring INSTANCE = new SimHashRescoring();

    private SimHashRescoring() {}

    @Override
    public ProbeKind<SimHashProbe> kind() {
        return SimHashProbe.KIND;
    }

    @Override
    public Integer defaultThreshold() {
        return null;
    }

    /** Any value 0..64 works (the rescorer reads doc values). */
    @Override
    public Integer checkThreshold(Integer maxDistance) {
        return MaxDistance.checkOptional(maxDistance, SimHashProbe.NAME);
    }

    @Override
    public Integer readThreshold(StreamInput in) throws IOException {
        return in.readOptionalVInt();
    }

    @Override
    public void writeThreshold(StreamOutput out, Integer maxDistance) throws IOException {
        out.writeOptionalVInt(maxDistance);
    }

    @Override
    public void thresholdToXContent(XContentBuilder builder, Integer maxDistance) throws IOException {
        if (maxDistance != null) {
            builder.field(MaxDistanceParsing.FIELD.getPreferredName(), maxDistance);
        }
    }

    /** Any token: null, an object or an array is a 400 that names max_distance's values. */
    @Override
    public boolean isThreshold(String current, XContentParser parser) {
        return MaxDistanceParsing.FIELD.match(current, parser.getDeprecationHandler());
    }

    @Override
    public Integer parseThreshold(XContentParser parser) throws IOException {
        int maxDistance = MaxDistanceParsing.parse(parser, SimHashProbe.NAME);
        try {
            return checkThreshold(maxDistance);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage());
        }
    }

    @Override
    public ProbeRescoring.Closeness closeness(ShardContext context, String field, SimHashProbe probe, Integer maxDistance) {
        String owner = "[" + SimHashProbe.NAME + "] rescorer";
        SimHashFieldMapper.SimHashFieldType fieldType = SimHashProbe.simHashField(context, field, owner);
        if (fieldType == null) {
            throw context.failure(
                owner + " requires a field of type [" + SimHashFieldMapper.CONTENT_TYPE + "], but field [" + field + "] is not mapped"
            );
        }
        SimHash sketch = probe.resolve(context, "[" + SimHashProbe.NAME + "]", fieldType);
        int k = MaxDistance.orField(maxDistance, fieldType.indexedMaxDistance(), fieldType.settings());
        SimHashQuery.Verification verification = SimHashVerification.of(context, fieldType, null);
        // a probe without signature (a bare fingerprint) is compared on its fingerprint alone
        boolean verifying = verification != null && sketch.signature() != null;
        return new SimHashCloseness(
            fieldType.name(),
            sketch.fingerprint(),
            k,
            verifying ? verification : null,
            verifying ? sketch.signature() : null
        );
    }
}
