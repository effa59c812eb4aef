package org.nearduplicate.opensearch.search.rescore;

import org.nearduplicate.opensearch.common.MaxDistance;
import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.opensearch.common.OptionValues;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.NearDuplicateProbe;
import org.nearduplicate.opensearch.index.query.NearDuplicateQueryBuilder;
import org.nearduplicate.core.keys.BlockLayout;
import org.opensearch.common.SetOnce;
import org.opensearch.core.ParseField;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.rescore.RescoreContext;
import org.opensearch.search.rescore.RescorerBuilder;

import java.io.IOException;
import java.util.Objects;
import java.util.function.Supplier;

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
public class NearDuplicateRescorerBuilder extends RescorerBuilder<NearDuplicateRescorerBuilder> {
    public static final String NAME = "near_duplicate";
    public static final ParseField FIELD_FIELD = new ParseField("field");
    public static final ParseField MAX_DISTANCE_FIELD = MaxDistance.FIELD;
    public static final ParseField SCORE_MODE_FIELD = new ParseField("score_mode");
    public static final ParseField QUERY_WEIGHT_FIELD = new ParseField("query_weight");
    public static final ParseField RESCORE_WEIGHT_FIELD = new ParseField("rescore_weight");

    private final String fieldName;
    private final NearDuplicateProbe probe;
    private final Supplier<NearDuplicateProbe> fetchedProbe;
    private Integer maxDistance;
    private RescoreScoreMode scoreMode = RescoreScoreMode.CLOSENESS;
    private float queryWeight = 1f;
    private float rescoreWeight = 1f;
    /** The node's engine, where the rescorer was parsed or received: fingerprints a text probe once on the coordinator. */
    private NearDuplicateEngine engine;
    /** True once the coordinator decided to leave a text probe to the shards (several algorithms); not sent. */
    private boolean contentProbeLeftToShards;

    public NearDuplicateRescorerBuilder(String fieldName, NearDuplicateProbe probe) {
        if (fieldName == null || fieldName.isEmpty()) {
            throw new IllegalArgumentException("[" + NAME + "] rescorer requires [field]");
        }
        this.fieldName = fieldName;
        this.probe = Objects.requireNonNull(probe, "probe");
        this.fetchedProbe = null;
    }

    private NearDuplicateRescorerBuilder(NearDuplicateRescorerBuilder original, NearDuplicateProbe probe, Supplier<NearDuplicateProbe> fetched) {
        this.fieldName = original.fieldName;
        this.probe = probe;
        this.fetchedProbe = fetched;
        this.maxDistance = original.maxDistance;
        this.scoreMode = original.scoreMode;
        this.queryWeight = original.queryWeight;
        this.rescoreWeight = original.rescoreWeight;
        this.engine = original.engine;
        if (original.windowSize() != null) {
            windowSize(original.windowSize());
        }
    }

    public NearDuplicateRescorerBuilder(StreamInput in) throws IOException {
        super(in);
        this.fieldName = in.readString();
        this.probe = new NearDuplicateProbe(in);
        this.fetchedProbe = null;
        this.maxDistance = in.readOptionalVInt();
        this.scoreMode = in.readEnum(RescoreScoreMode.class);
        this.queryWeight = in.readFloat();
        this.rescoreWeight = in.readFloat();
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (fetchedProbe != null) {
            throw new IllegalStateException("[" + NAME + "] rescorer [like] document not fetched yet; rewrite before sending");
        }
        out.writeString(fieldName);
        probe.writeTo(out);
        out.writeOptionalVInt(maxDistance);
        out.writeEnum(scoreMode);
        out.writeFloat(queryWeight);
        out.writeFloat(rescoreWeight);
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    public String fieldName() {
        return fieldName;
    }

    public NearDuplicateProbe probe() {
        return probe;
    }

    public Integer maxDistance() {
        return maxDistance;
    }

    /** Null: the mapping's {@code max_distance}. Any value 0..64 works (the rescorer reads doc values). */
    public NearDuplicateRescorerBuilder maxDistance(Integer maxDistance) {
        this.maxDistance = MaxDistance.checkOptional(maxDistance, NAME);
        return this;
    }

    public RescoreScoreMode scoreMode() {
        return scoreMode;
    }

    public NearDuplicateRescorerBuilder scoreMode(RescoreScoreMode scoreMode) {
        this.scoreMode = Objects.requireNonNull(scoreMode);
        return this;
    }

    public float queryWeight() {
        return queryWeight;
    }

    public NearDuplicateRescorerBuilder queryWeight(float queryWeight) {
        this.queryWeight = queryWeight;
        return this;
    }

    public float rescoreWeight() {
        return rescoreWeight;
    }

    public NearDuplicateRescorerBuilder rescoreWeight(float rescoreWeight) {
        this.rescoreWeight = rescoreWeight;
        return this;
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field(FIELD_FIELD.getPreferredName(), fieldName);
        probe.toXContentFields(builder);
        if (maxDistance != null) {
            builder.field(MAX_DISTANCE_FIELD.getPreferredName(), maxDistance);
        }
        builder.field(SCORE_MODE_FIELD.getPreferredName(), scoreMode.toString());
        builder.field(QUERY_WEIGHT_FIELD.getPreferredName(), queryWeight);
        builder.field(RESCORE_WEIGHT_FIELD.getPreferredName(), rescoreWeight);
        builder.endObject();
    }

    public static NearDuplicateRescorerBuilder fromXContent(XContentParser parser) throws IOException {
        String field = null;
        Integer maxDistance = null;
        RescoreScoreMode scoreMode = RescoreScoreMode.CLOSENESS;
        float queryWeight = 1f;
        float rescoreWeight = 1f;
        NearDuplicateProbe.Parser probeParser = new NearDuplicateProbe.Parser();
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (probeParser.parse(current, parser)) {
                // consumed
            } else if (token.isValue() == false) {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer does not support [" + current + "] with an object or array value");
            } else if (FIELD_FIELD.match(current, parser.getDeprecationHandler())) {
                field = parser.text();
            } else if (MAX_DISTANCE_FIELD.match(current, parser.getDeprecationHandler())) {
                maxDistance = MaxDistance.parse(parser, NAME);
            } else if (SCORE_MODE_FIELD.match(current, parser.getDeprecationHandler())) {
                try {
                    scoreMode = RescoreScoreMode.fromString(parser.text());
                } catch (IllegalArgumentException e) {
                    throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] " + e.getMessage());
                }
            } else if (QUERY_WEIGHT_FIELD.match(current, parser.getDeprecationHandler())) {
                queryWeight = OptionValues.floatValue(parser, NAME, current);
            } else if (RESCORE_WEIGHT_FIELD.match(current, parser.getDeprecationHandler())) {
                rescoreWeight = OptionValues.floatValue(parser, NAME, current);
            } else {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer does not support [" + current + "]");
            }
        }
        if (field == null) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer requires [field]");
        }
        NearDuplicateRescorerBuilder builder = new NearDuplicateRescorerBuilder(field, probeParser.build(parser, NAME));
        try {
            builder.maxDistance(maxDistance);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage());
        }
        return builder.scoreMode(scoreMode).queryWeight(queryWeight).rescoreWeight(rescoreWeight);
    }

    @Override
    public RescorerBuilder<NearDuplicateRescorerBuilder> rewrite(QueryRewriteContext ctx) throws IOException {
        if (fetchedProbe != null) {
            NearDuplicateProbe fetched = fetchedProbe.get();
            if (fetched == null) return this;
            NearDuplicateRescorerBuilder resolved = new NearDuplicateRescorerBuilder(this, fetched, null);
            resolved.contentProbeLeftToShards = fetched.isContent();
            return resolved;
        }
        if (probe.needsFetch()) {
            return new NearDuplicateRescorerBuilder(this, probe, probe.fetchOnRewrite(ctx, fieldName));
        }
        if (probe.isContent() && contentProbeLeftToShards == false) {
            Supplier<NearDuplicateProbe> rewritten = probe.fingerprintOnCoordinator(ctx, fieldName, engine, "[" + NAME + "] rescorer");
            if (rewritten != null) {
                return new NearDuplicateRescorerBuilder(this, probe, rewritten);
            }
        }
        return this;
    }

    /** The engine that fingerprints a {@code text}/{@code html} probe on the coordinating node (see {@link #rewrite}). */
    public NearDuplicateRescorerBuilder engine(NearDuplicateEngine engine) {
        this.engine = engine;
        return this;
    }

    @Override
    protected RescoreContext innerBuildContext(int windowSize, QueryShardContext context) {
        if (fetchedProbe != null || probe.needsFetch()) {
            throw new IllegalStateException("[" + NAME + "] rescorer must be rewritten first to fetch its [like] document");
        }
        String owner = "[" + NAME + "] rescorer";
        SimHashFieldMapper.SimHashFieldType fieldType = NearDuplicateProbe.simHashField(context, fieldName, owner);
        if (fieldType == null) {
            throw new QueryShardException(
                context,
                owner + " requires a field of type [" + SimHashFieldMapper.CONTENT_TYPE + "], but field [" + fieldName + "] is not mapped"
            );
        }
        long fingerprint = probe.resolve(context, "[" + NAME + "]", fieldType);
        int k = MaxDistance.orField(maxDistance, fieldType.indexedMaxDistance(), fieldType.algorithm());
        return new NearDuplicateRescorer.Context(windowSize, fieldType.name(), fingerprint, k, scoreMode, queryWeight, rescoreWeight);
    }

    @Override
    public boolean equals(Object obj) {
        if (super.equals(obj) == false) {
            return false;
        }
        NearDuplicateRescorerBuilder other = (NearDuplicateRescorerBuilder) obj;
        return fieldName.equals(other.fieldName)
            && probe.equals(other.probe)
            && Objects.equals(fetchedProbe, other.fetchedProbe)
            && Objects.equals(maxDistance, other.maxDistance)
            && scoreMode == other.scoreMode
            && Float.compare(queryWeight, other.queryWeight) == 0
            && Float.compare(rescoreWeight, other.rescoreWeight) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), fieldName, probe, fetchedProbe, maxDistance, scoreMode, queryWeight, rescoreWeight);
    }
}
