package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.search.rescore.RescorerBuilder;

import java.io.IOException;
import java.util.Objects;

import org.nearduplicate.opensearch.common.OptionValues;
import org.nearduplicate.opensearch.index.query.Probe;
import org.nearduplicate.opensearch.index.query.ProbeRewrite;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * What the {@code near_duplicate} and {@code minhash_similar} rescorer builders share: the field, the probe and its
 * rewrite ({@link ProbeRewrite}, with the node's engine, so a text probe is sketched once on the coordinating node), the
 * {@link ProbeRescorer} mode and weights, with one parser, one serialization and one rendering for each of them.
 * Subclasses add their threshold ({@code max_distance} or {@code min_similarity}) and their rescore context.
 */
public abstract class ProbeRescorerBuilder<B extends ProbeRescorerBuilder<B, P>, P extends Probe<?, P>> extends RescorerBuilder<B> {
    public static final ParseField FIELD_FIELD = new ParseField("field");
    public static final ParseField SCORE_MODE_FIELD = new ParseField("score_mode");
    public static final ParseField QUERY_WEIGHT_FIELD = new ParseField("query_weight");
    public static final ParseField RESCORE_WEIGHT_FIELD = new ParseField("rescore_weight");

    protected final String fieldName;
    private final ProbeRewrite<P> probe;
    /** The node's engine, where the rescorer was parsed or received: sketches a text probe once on the coordinator; not sent. */
    private SketchingService engine;
    private RescoreScoreMode scoreMode = RescoreScoreMode.CLOSENESS;
    private float queryWeight = 1f;
    private float rescoreWeight = 1f;

    protected ProbeRescorerBuilder(String name, String fieldName, P probe) {
        if (fieldName == null || fieldName.isEmpty()) {
            throw new IllegalArgumentException("[" + name + "] rescorer requires [field]");
        }
        this.fieldName = fieldName;
        this.probe = ProbeRewrite.of(Objects.requireNonNull(probe, "probe"));
    }

    /** A copy of {@code original}'s field, engine, mode, weights and window, with the next step of the probe's rewrite. */
    protected ProbeRescorerBuilder(ProbeRescorerBuilder<B, P> original, ProbeRewrite<P> probe) {
        this.fieldName = original.fieldName;
        this.probe = probe;
        this.engine = original.engine;
        this.scoreMode = original.scoreMode;
        this.queryWeight = original.queryWeight;
        this.rescoreWeight = original.rescoreWeight;
        if (original.windowSize() != null) {
            windowSize(original.windowSize());
        }
    }

    /** Reads the field and the probe; the subclass reads its threshold, then {@link #readScoring}. */
    protected ProbeRescorerBuilder(StreamInput in, Writeable.Reader<P> probeReader) throws IOException {
        super(in);
        this.fieldName = in.readString();
        this.probe = ProbeRewrite.of(probeReader.read(in));
    }

    /** Writes the field and the probe, before the threshold and {@link #writeScoring}. */
    protected final void writeFieldAndProbe(StreamOutput out) throws IOException {
        if (probe.isPending()) {
            throw new IllegalStateException(
                "[" + getWriteableName() + "] rescorer [like] document not fetched yet; rewrite before sending"
            );
        }
        out.writeString(fieldName);
        probe.probe().writeTo(out);
    }

    /** Renders the field and the probe, before the threshold and {@link #scoringToXContent}. */
    protected final void fieldAndProbeToXContent(XContentBuilder builder) throws IOException {
        builder.field(FIELD_FIELD.getPreferredName(), fieldName);
        probe.probe().toXContentFields(builder);
    }

    /** A copy of this builder with the next step of the probe's rewrite (see {@link #rewrite}). */
    protected abstract B withProbe(ProbeRewrite<P> next);

    /** The probe's rewrite, the same as the queries': see {@link ProbeRewrite}. */
    @Override
    public final RescorerBuilder<B> rewrite(QueryRewriteContext ctx) throws IOException {
        ProbeRewrite<P> next = probe.rewrite(ctx, fieldName, engine, "[" + getWriteableName() + "] rescorer");
        return next == probe ? this : withProbe(next);
    }

    /**
     * The probe, resolved by the rewrite, for the shard's rescore context.
     *
     * @throws IllegalStateException if the rescorer was not rewritten
     */
    protected final P rewrittenProbe() {
        if (probe.mustRewrite()) {
            throw new IllegalStateException("[" + getWriteableName() + "] rescorer must be rewritten first to fetch its [like] document");
        }
        return probe.probe();
    }

    /** Reads what {@link #writeScoring} wrote. */
    protected final void readScoring(StreamInput in) throws IOException {
        this.scoreMode = in.readEnum(RescoreScoreMode.class);
        this.queryWeight = in.readFloat();
        this.rescoreWeight = in.readFloat();
    }

    /** Writes the mode and the weights, after the field, the probe and the threshold. */
    protected final void writeScoring(StreamOutput out) throws IOException {
        out.writeEnum(scoreMode);
        out.writeFloat(queryWeight);
        out.writeFloat(rescoreWeight);
    }

    /** Renders the mode and the weights, after the field, the probe and the threshold. */
    protected final void scoringToXContent(XContentBuilder builder) throws IOException {
        builder.field(SCORE_MODE_FIELD.getPreferredName(), scoreMode.toString());
        builder.field(QUERY_WEIGHT_FIELD.getPreferredName(), queryWeight);
        builder.field(RESCORE_WEIGHT_FIELD.getPreferredName(), rescoreWeight);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    public String fieldName() {
        return fieldName;
    }

    public P probe() {
        return probe.probe();
    }

    /** The engine that sketches a {@code text}/{@code html} probe on the coordinating node (see {@link #rewrite}). */
    public B engine(SketchingService engine) {
        this.engine = engine;
        return self();
    }

    public RescoreScoreMode scoreMode() {
        return scoreMode;
    }

    public B scoreMode(RescoreScoreMode scoreMode) {
        this.scoreMode = Objects.requireNonNull(scoreMode);
        return self();
    }

    public float queryWeight() {
        return queryWeight;
    }

    public B queryWeight(float queryWeight) {
        this.queryWeight = queryWeight;
        return self();
    }

    public float rescoreWeight() {
        return rescoreWeight;
    }

    public B rescoreWeight(float rescoreWeight) {
        this.rescoreWeight = rescoreWeight;
        return self();
    }

    /**
     * The options every probe rescorer takes, read from the rescorer's object: the parser of each lives here, so
     * both rescorers accept the same values and answer the same 400s.
     */
    protected static final class CommonOptions {
        private final String name;
        private String field;
        private RescoreScoreMode scoreMode = RescoreScoreMode.CLOSENESS;
        private float queryWeight = 1f;
        private float rescoreWeight = 1f;

        protected CommonOptions(String name) {
            this.name = name;
        }

        /** Reads the value of option {@code current} if it is one of the common options; false otherwise. */
        protected boolean parse(String current, XContentParser parser) throws IOException {
            if (FIELD_FIELD.match(current, parser.getDeprecationHandler())) {
                field = parser.text();
            } else if (SCORE_MODE_FIELD.match(current, parser.getDeprecationHandler())) {
                try {
                    scoreMode = RescoreScoreMode.fromString(parser.text());
                } catch (IllegalArgumentException e) {
                    throw new ParsingException(parser.getTokenLocation(), "[" + name + "] " + e.getMessage());
                }
            } else if (QUERY_WEIGHT_FIELD.match(current, parser.getDeprecationHandler())) {
                queryWeight = OptionValues.floatValue(parser, name, current);
            } else if (RESCORE_WEIGHT_FIELD.match(current, parser.getDeprecationHandler())) {
                rescoreWeight = OptionValues.floatValue(parser, name, current);
            } else {
                return false;
            }
            return true;
        }

        /** The field, required. */
        protected String field(XContentParser parser) {
            if (field == null) {
                throw new ParsingException(parser.getTokenLocation(), "[" + name + "] rescorer requires [field]");
            }
            return field;
        }

        protected <T extends ProbeRescorerBuilder<T, ?>> T applyTo(T builder) {
            return builder.scoreMode(scoreMode).queryWeight(queryWeight).rescoreWeight(rescoreWeight);
        }
    }

    /** The shared part of {@code equals}: field, probe, mode and weights (the window is {@link RescorerBuilder}'s). */
    protected final boolean sameProbeAndScoring(ProbeRescorerBuilder<?, ?> other) {
        return fieldName.equals(other.fieldName)
            && probe.equals(other.probe)
            && scoreMode == other.scoreMode
            && Float.compare(queryWeight, other.queryWeight) == 0
            && Float.compare(rescoreWeight, other.rescoreWeight) == 0;
    }

    /** The shared part of {@code hashCode}: field, probe, mode and weights. */
    protected final int probeAndScoringHash() {
        return Objects.hash(fieldName, probe, scoreMode, queryWeight, rescoreWeight);
    }
}
