package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.rescore.RescoreContext;

import java.io.IOException;
import java.util.Objects;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.opensearch.common.MaxDistanceParsing;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeRewrite;
import org.nearduplicate.opensearch.index.query.SimHashProbe;

/**
 * {@code near_duplicate} rescorer: re-ranks the top {@code window_size} hits of every shard (or filters every hit a
 * shard returns) by their fingerprint's Hamming distance to a probe; the modes are {@link ProbeRescorer}'s.
 *
 * <pre>
 * "rescore": {"window_size": 100, "near_duplicate": {"field": "fp", "fingerprint": "...", "max_distance": 6,
 *             "score_mode": "closeness", "query_weight": 0.1, "rescore_weight": 1}}
 * </pre>
 *
 * The rescorer only sees the window; the {@code near_duplicate} query is the exact way to find all near-duplicates.
 */
public class SimHashRescorerBuilder extends ProbeRescorerBuilder<SimHashRescorerBuilder, SimHashProbe> {
    public static final String NAME = "near_duplicate";
    public static final ParseField MAX_DISTANCE_FIELD = MaxDistanceParsing.FIELD;

    private Integer maxDistance;

    public SimHashRescorerBuilder(String fieldName, SimHashProbe probe) {
        super(NAME, fieldName, probe);
    }

    private SimHashRescorerBuilder(SimHashRescorerBuilder original, ProbeRewrite<SimHashProbe> probe) {
        super(original, probe);
        this.maxDistance = original.maxDistance;
    }

    public SimHashRescorerBuilder(StreamInput in) throws IOException {
        super(in, SimHashProbe::new);
        this.maxDistance = in.readOptionalVInt();
        readScoring(in);
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        writeFieldAndProbe(out);
        out.writeOptionalVInt(maxDistance);
        writeScoring(out);
    }

    @Override
    protected SimHashRescorerBuilder withProbe(ProbeRewrite<SimHashProbe> next) {
        return new SimHashRescorerBuilder(this, next);
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    public Integer maxDistance() {
        return maxDistance;
    }

    /** Null: the mapping's {@code max_distance}. Any value 0..64 works (the rescorer reads doc values). */
    public SimHashRescorerBuilder maxDistance(Integer maxDistance) {
        this.maxDistance = MaxDistance.checkOptional(maxDistance, NAME);
        return this;
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        fieldAndProbeToXContent(builder);
        if (maxDistance != null) {
            builder.field(MAX_DISTANCE_FIELD.getPreferredName(), maxDistance);
        }
        scoringToXContent(builder);
        builder.endObject();
    }

    public static SimHashRescorerBuilder fromXContent(XContentParser parser) throws IOException {
        CommonOptions common = new CommonOptions(NAME);
        Integer maxDistance = null;
        SimHashProbe.Parser probeParser = new SimHashProbe.Parser();
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (probeParser.parse(current, parser)) {
                // consumed
            } else if (MAX_DISTANCE_FIELD.match(current, parser.getDeprecationHandler())) {
                // before the value check: null, an object or an array is a 400 that names max_distance's values
                maxDistance = MaxDistanceParsing.parse(parser, NAME);
            } else if (token.isValue() == false) {
                throw new ParsingException(
                    parser.getTokenLocation(),
                    "[" + NAME + "] rescorer does not support [" + current + "] with an object or array value"
                );
            } else if (common.parse(current, parser)) {
                // consumed
            } else {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer does not support [" + current + "]");
            }
        }
        SimHashRescorerBuilder builder = new SimHashRescorerBuilder(common.field(parser), probeParser.build(parser, NAME));
        try {
            builder.maxDistance(maxDistance);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage());
        }
        return common.applyTo(builder);
    }

    @Override
    protected RescoreContext innerBuildContext(int windowSize, QueryShardContext context) {
        SimHashProbe probe = rewrittenProbe();
        String owner = "[" + NAME + "] rescorer";
        SimHashFieldMapper.SimHashFieldType fieldType = SimHashProbe.simHashField(context, fieldName, owner);
        if (fieldType == null) {
            throw new QueryShardException(
                context,
                owner + " requires a field of type [" + SimHashFieldMapper.CONTENT_TYPE + "], but field [" + fieldName + "] is not mapped"
            );
        }
        long fingerprint = probe.resolve(context, "[" + NAME + "]", fieldType);
        int k = MaxDistance.orField(maxDistance, fieldType.indexedMaxDistance(), fieldType.settings());
        return new SimHashRescorer.Context(windowSize, fieldType.name(), fingerprint, k, scoreMode(), queryWeight(), rescoreWeight());
    }

    @Override
    public boolean equals(Object obj) {
        if (super.equals(obj) == false) {
            return false;
        }
        SimHashRescorerBuilder other = (SimHashRescorerBuilder) obj;
        return sameProbeAndScoring(other) && Objects.equals(maxDistance, other.maxDistance);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), probeAndScoringHash(), maxDistance);
    }
}
