package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.plugins.SearchPlugin;
import org.opensearch.search.rescore.RescoreContext;
import org.opensearch.search.rescore.RescorerBuilder;

import java.io.IOException;
import java.util.Objects;
import java.util.function.BiFunction;

import org.nearduplicate.opensearch.common.OptionTokens;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.query.Probe;
import org.nearduplicate.opensearch.index.query.ProbeRescoring;
import org.nearduplicate.opensearch.index.query.ProbeRewrite;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * A probe rescorer ({@code near_duplicate}, {@code minhash_similar}, any method's): the field, the probe and its rewrite
 * ({@link ProbeRewrite}, with the node's engine, so a text probe is sketched once on the coordinating node), the
 * method's threshold, the {@link ProbeRescorer} mode and weights, with one parser, one serialization and one rendering
 * for all of them. The method's part is its {@link ProbeRescoring}: its name, its threshold option and the comparison
 * of a hit with the probe. {@link Of} is the builder of a method that needs no Java API of its own;
 * {@link SimHashRescorerBuilder} and {@link MinHashRescorerBuilder} only name the threshold of theirs.
 *
 * <p>Wire format: the window, the field, the probe, the threshold (the method's), the mode and the weights.
 */
public abstract class ProbeRescorerBuilder<B extends ProbeRescorerBuilder<B, P, T>, P extends Probe<?, P>, T> extends
    PlatformRescorerBuilder<B> {
    public static final ParseField FIELD_FIELD = new ParseField("field");
    public static final ParseField SCORE_MODE_FIELD = new ParseField("score_mode");
    public static final ParseField QUERY_WEIGHT_FIELD = new ParseField("query_weight");
    public static final ParseField RESCORE_WEIGHT_FIELD = new ParseField("rescore_weight");

    private final ProbeRescoring<P, T> rescoring;
    protected final String fieldName;
    private final ProbeRewrite<P> probe;
    /** The node's engine, where the rescorer was parsed or received: sketches a text probe once on the coordinator; not sent. */
    private SketchingService sketching;
    private T threshold;
    private RescoreScoreMode scoreMode = RescoreScoreMode.CLOSENESS;
    private float queryWeight = 1f;
    private float rescoreWeight = 1f;

    protected ProbeRescorerBuilder(ProbeRescoring<P, T> rescoring, String fieldName, P probe) {
        if (fieldName == null || fieldName.isEmpty()) {
            throw new IllegalArgumentException("[" + rescoring.name() + "] rescorer requires [field]");
        }
        this.rescoring = rescoring;
        this.fieldName = fieldName;
        this.probe = ProbeRewrite.of(Objects.requireNonNull(probe, "probe"));
        this.threshold = rescoring.defaultThreshold();
    }

    /** A copy of {@code original}'s field, engine, threshold, mode, weights and window, with the next step of the probe's rewrite. */
    protected ProbeRescorerBuilder(ProbeRescorerBuilder<B, P, T> original, ProbeRewrite<P> probe) {
        this.rescoring = original.rescoring;
        this.fieldName = original.fieldName;
        this.probe = probe;
        this.sketching = original.sketching;
        this.threshold = original.threshold;
        this.scoreMode = original.scoreMode;
        this.queryWeight = original.queryWeight;
        this.rescoreWeight = original.rescoreWeight;
        if (original.windowSize() != null) {
            windowSize(original.windowSize());
        }
    }

    /** Reads what {@link #doWriteTo} wrote. */
    protected ProbeRescorerBuilder(ProbeRescoring<P, T> rescoring, StreamInput in) throws IOException {
        super(in);
        this.rescoring = rescoring;
        this.fieldName = in.readString();
        this.probe = ProbeRewrite.of(rescoring.readProbe(in));
        this.threshold = rescoring.readThreshold(in);
        this.scoreMode = in.readEnum(RescoreScoreMode.class);
        this.queryWeight = in.readFloat();
        this.rescoreWeight = in.readFloat();
    }

    @Override
    protected final void doWriteTo(StreamOutput out) throws IOException {
        if (probe.isPending()) {
            throw new IllegalStateException(
                "[" + getWriteableName() + "] rescorer [like] document not fetched yet; rewrite before sending"
            );
        }
        out.writeString(fieldName);
        probe.probe().writeTo(out);
        rescoring.writeThreshold(out, threshold);
        out.writeEnum(scoreMode);
        out.writeFloat(queryWeight);
        out.writeFloat(rescoreWeight);
    }

    @Override
    protected final void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(rescoring.name());
        builder.field(FIELD_FIELD.getPreferredName(), fieldName);
        probe.probe().toXContentFields(builder);
        rescoring.thresholdToXContent(builder, threshold);
        builder.field(SCORE_MODE_FIELD.getPreferredName(), scoreMode.toString());
        builder.field(QUERY_WEIGHT_FIELD.getPreferredName(), queryWeight);
        builder.field(RESCORE_WEIGHT_FIELD.getPreferredName(), rescoreWeight);
        builder.endObject();
    }

    @Override
    public final String getWriteableName() {
        return rescoring.name();
    }

    /** A copy of this builder with the next step of the probe's rewrite (see {@link #rewrite}). */
    protected abstract B withProbe(ProbeRewrite<P> next);

    /** The probe's rewrite, the same as the queries': see {@link ProbeRewrite}. */
    @Override
    public final RescorerBuilder<B> rewrite(QueryRewriteContext ctx) throws IOException {
        ProbeRewrite<P> next = probe.rewrite(ctx, fieldName, sketching, "[" + getWriteableName() + "] rescorer");
        return next == probe ? this : withProbe(next);
    }

    /**
     * The shard's context: the method's comparison of the hits with the probe, resolved by the rewrite.
     *
     * @throws IllegalStateException if the rescorer was not rewritten
     */
    @Override
    protected final RescoreContext rescoreContext(int windowSize, ShardContext context) {
        if (probe.mustRewrite()) {
            throw new IllegalStateException("[" + getWriteableName() + "] rescorer must be rewritten first to fetch its [like] document");
        }
        ProbeRescoring.Closeness closeness = rescoring.closeness(context, fieldName, probe.probe(), threshold);
        return new ProbeRescorer.Context(
            windowSize,
            closeness,
            scoreMode,
            queryWeight,
            rescoreWeight,
            probe.probe().excludedQuery(context)
        );
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

    /** The method's threshold, e.g. {@code max_distance} (null: the mapping's) or {@code min_similarity}. */
    public T threshold() {
        return threshold;
    }

    /**
     * Sets the method's threshold.
     *
     * @throws IllegalArgumentException if the method refuses it
     */
    public B threshold(T threshold) {
        this.threshold = rescoring.checkThreshold(threshold);
        return self();
    }

    /** The engine that sketches a {@code text}/{@code html} probe on the coordinating node (see {@link #rewrite}). */
    public B sketching(SketchingService sketching) {
        this.sketching = sketching;
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
     * Parses the rescorer's object: the probe's keys, the method's threshold, the field, the mode and the weights, so
     * every probe rescorer accepts the same values and answers the same 400s.
     *
     * @param create the method's builder of a field and a probe
     */
    protected static <B extends ProbeRescorerBuilder<B, P, T>, P extends Probe<?, P>, T> B fromXContent(
        ProbeRescoring<P, T> rescoring,
        XContentParser parser,
        BiFunction<String, P, B> create
    ) throws IOException {
        String name = rescoring.name();
        String field = null;
        T threshold = null;
        boolean thresholdGiven = false;
        RescoreScoreMode scoreMode = RescoreScoreMode.CLOSENESS;
        float queryWeight = 1f;
        float rescoreWeight = 1f;
        Probe.Parser<?, P> probeParser = rescoring.probeParser();
        String current = null;
        XContentParser.Token token;
        try {
            while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
                if (token == XContentParser.Token.FIELD_NAME) {
                    current = parser.currentName();
                } else if (probeParser.parse(current, parser)) {
                    // consumed
                } else if (rescoring.isThreshold(current, parser)) {
                    threshold = rescoring.parseThreshold(parser);
                    thresholdGiven = true;
                } else if (token.isValue() == false) {
                    throw new ParsingException(
                        parser.getTokenLocation(),
                        "[" + name + "] rescorer does not support [" + current + "] with an object or array value"
                    );
                } else if (FIELD_FIELD.match(current, parser.getDeprecationHandler())) {
                    field = parser.text();
                } else if (SCORE_MODE_FIELD.match(current, parser.getDeprecationHandler())) {
                    try {
                        scoreMode = RescoreScoreMode.fromString(parser.text());
                    } catch (IllegalArgumentException e) {
                        throw new ParsingException(parser.getTokenLocation(), "[" + name + "] " + e.getMessage());
                    }
                } else if (QUERY_WEIGHT_FIELD.match(current, parser.getDeprecationHandler())) {
                    queryWeight = OptionTokens.floatValue(parser, name, current);
                } else if (RESCORE_WEIGHT_FIELD.match(current, parser.getDeprecationHandler())) {
                    rescoreWeight = OptionTokens.floatValue(parser, name, current);
                } else {
                    throw new ParsingException(parser.getTokenLocation(), "[" + name + "] rescorer does not support [" + current + "]");
                }
            }
            if (field == null) {
                throw new ParsingException(parser.getTokenLocation(), "[" + name + "] rescorer requires [field]");
            }
            B builder = create.apply(field, probeParser.build(parser, name));
            if (thresholdGiven) {
                builder.threshold(threshold);
            }
            return builder.scoreMode(scoreMode).queryWeight(queryWeight).rescoreWeight(rescoreWeight);
        } catch (IllegalArgumentException e) {
            throw rescoring.parseFailure(parser, e);
        }
    }

    @Override
    public boolean equals(Object obj) {
        if (super.equals(obj) == false) {
            return false;
        }
        ProbeRescorerBuilder<?, ?, ?> other = (ProbeRescorerBuilder<?, ?, ?>) obj;
        return rescoring == other.rescoring
            && fieldName.equals(other.fieldName)
            && probe.equals(other.probe)
            && Objects.equals(threshold, other.threshold)
            && scoreMode == other.scoreMode
            && Float.compare(queryWeight, other.queryWeight) == 0
            && Float.compare(rescoreWeight, other.rescoreWeight) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), rescoring.name(), fieldName, probe, threshold, scoreMode, queryWeight, rescoreWeight);
    }

    /**
     * The rescorer of a method that needs no Java API of its own: {@code new ProbeRescorerBuilder.Of<>(rescoring, field,
     * probe)}, registered with {@link #spec}.
     */
    public static final class Of<P extends Probe<?, P>, T> extends ProbeRescorerBuilder<Of<P, T>, P, T> {
        public Of(ProbeRescoring<P, T> rescoring, String fieldName, P probe) {
            super(rescoring, fieldName, probe);
        }

        public Of(ProbeRescoring<P, T> rescoring, StreamInput in) throws IOException {
            super(rescoring, in);
        }

        private Of(Of<P, T> original, ProbeRewrite<P> probe) {
            super(original, probe);
        }

        @Override
        protected Of<P, T> withProbe(ProbeRewrite<P> next) {
            return new Of<>(this, next);
        }

        public static <P extends Probe<?, P>, T> Of<P, T> fromXContent(ProbeRescoring<P, T> rescoring, XContentParser parser)
            throws IOException {
            return fromXContent(rescoring, parser, (field, probe) -> new Of<>(rescoring, field, probe));
        }
    }

    /** The registration of a method's rescorer with {@link Of}: a method needs no rescorer class of its own. */
    public static <P extends Probe<?, P>, T> SearchPlugin.RescorerSpec<Of<P, T>> spec(
        ProbeRescoring<P, T> rescoring,
        SketchingService sketching
    ) {
        return spec(rescoring, in -> new Of<>(rescoring, in), (field, probe) -> new Of<>(rescoring, field, probe), sketching);
    }

    /**
     * The registration of a method's rescorer built by {@code reader} and {@code create}; the node's engine goes to
     * every builder parsed or read.
     */
    public static <B extends ProbeRescorerBuilder<B, P, T>, P extends Probe<?, P>, T> SearchPlugin.RescorerSpec<B> spec(
        ProbeRescoring<P, T> rescoring,
        Writeable.Reader<B> reader,
        BiFunction<String, P, B> create,
        SketchingService sketching
    ) {
        return new SearchPlugin.RescorerSpec<>(
            rescoring.name(),
            in -> reader.read(in).sketching(sketching),
            parser -> fromXContent(rescoring, parser, create).sketching(sketching)
        );
    }
}
