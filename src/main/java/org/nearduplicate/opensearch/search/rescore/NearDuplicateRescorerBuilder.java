package org.nearduplicate.opensearch.search.rescore;

import org.nearduplicate.opensearch.common.MaxDistance;
import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
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
public class NearDuplicateRescorerBuilder extends ProbeRescorerBuilder<NearDuplicateRescorerBuilder> {
    public static final String NAME = "near_duplicate";
    public static final ParseField MAX_DISTANCE_FIELD = MaxDistance.FIELD;

    private final NearDuplicateProbe probe;
    private final Supplier<NearDuplicateProbe> fetchedProbe;
    private Integer maxDistance;
    /** The node's engine, where the rescorer was parsed or received: fingerprints a text probe once on the coordinator. */
    private NearDuplicateEngine engine;
    /** True once the coordinator decided to leave a text probe to the shards (several algorithms); not sent. */
    private boolean contentProbeLeftToShards;

    public NearDuplicateRescorerBuilder(String fieldName, NearDuplicateProbe probe) {
        super(NAME, fieldName);
        this.probe = Objects.requireNonNull(probe, "probe");
        this.fetchedProbe = null;
    }

    private NearDuplicateRescorerBuilder(NearDuplicateRescorerBuilder original, NearDuplicateProbe probe, Supplier<NearDuplicateProbe> fetched) {
        super(original);
        this.probe = probe;
        this.fetchedProbe = fetched;
        this.maxDistance = original.maxDistance;
        this.engine = original.engine;
    }

    public NearDuplicateRescorerBuilder(StreamInput in) throws IOException {
        super(in);
        this.probe = new NearDuplicateProbe(in);
        this.fetchedProbe = null;
        this.maxDistance = in.readOptionalVInt();
        readScoring(in);
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (fetchedProbe != null) {
            throw new IllegalStateException("[" + NAME + "] rescorer [like] document not fetched yet; rewrite before sending");
        }
        out.writeString(fieldName);
        probe.writeTo(out);
        out.writeOptionalVInt(maxDistance);
        writeScoring(out);
    }

    @Override
    public String getWriteableName() {
        return NAME;
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

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field(FIELD_FIELD.getPreferredName(), fieldName);
        probe.toXContentFields(builder);
        if (maxDistance != null) {
            builder.field(MAX_DISTANCE_FIELD.getPreferredName(), maxDistance);
        }
        scoringToXContent(builder);
        builder.endObject();
    }

    public static NearDuplicateRescorerBuilder fromXContent(XContentParser parser) throws IOException {
        CommonOptions common = new CommonOptions(NAME);
        Integer maxDistance = null;
        NearDuplicateProbe.Parser probeParser = new NearDuplicateProbe.Parser();
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (probeParser.parse(current, parser)) {
                // consumed
            } else if (MAX_DISTANCE_FIELD.match(current, parser.getDeprecationHandler())) {
                // before the value check: null, an object or an array is a 400 that names max_distance's values
                maxDistance = MaxDistance.parse(parser, NAME);
            } else if (token.isValue() == false) {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer does not support [" + current + "] with an object or array value");
            } else if (common.parse(current, parser)) {
                // consumed
            } else {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer does not support [" + current + "]");
            }
        }
        NearDuplicateRescorerBuilder builder = new NearDuplicateRescorerBuilder(common.field(parser), probeParser.build(parser, NAME));
        try {
            builder.maxDistance(maxDistance);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage());
        }
        return common.applyTo(builder);
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
        return new NearDuplicateRescorer.Context(windowSize, fieldType.name(), fingerprint, k, scoreMode(), queryWeight(), rescoreWeight());
    }

    @Override
    public boolean equals(Object obj) {
        if (super.equals(obj) == false) {
            return false;
        }
        NearDuplicateRescorerBuilder other = (NearDuplicateRescorerBuilder) obj;
        return sameFieldAndScoring(other)
            && probe.equals(other.probe)
            && Objects.equals(fetchedProbe, other.fetchedProbe)
            && Objects.equals(maxDistance, other.maxDistance);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), fieldAndScoringHash(), probe, fetchedProbe, maxDistance);
    }
}
