package org.nearduplicate.opensearch.search.rescore;

import org.nearduplicate.opensearch.common.OptionValues;
import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.search.rescore.RescorerBuilder;

import java.io.IOException;
import java.util.Objects;

/**
 * What the {@code near_duplicate} and {@code minhash_similar} rescorer builders share: the field, the
 * {@link ProbeRescorer} mode and weights, with one parser, one serialization and one rendering for each of them.
 * Subclasses add their probe and their threshold ({@code max_distance} or {@code min_similarity}).
 */
public abstract class ProbeRescorerBuilder<B extends ProbeRescorerBuilder<B>> extends RescorerBuilder<B> {
    public static final ParseField FIELD_FIELD = new ParseField("field");
    public static final ParseField SCORE_MODE_FIELD = new ParseField("score_mode");
    public static final ParseField QUERY_WEIGHT_FIELD = new ParseField("query_weight");
    public static final ParseField RESCORE_WEIGHT_FIELD = new ParseField("rescore_weight");

    protected final String fieldName;
    private RescoreScoreMode scoreMode = RescoreScoreMode.CLOSENESS;
    private float queryWeight = 1f;
    private float rescoreWeight = 1f;

    protected ProbeRescorerBuilder(String name, String fieldName) {
        if (fieldName == null || fieldName.isEmpty()) {
            throw new IllegalArgumentException("[" + name + "] rescorer requires [field]");
        }
        this.fieldName = fieldName;
    }

    /** A copy of {@code original}'s field, mode, weights and window, for a builder with another probe. */
    protected ProbeRescorerBuilder(ProbeRescorerBuilder<B> original) {
        this.fieldName = original.fieldName;
        this.scoreMode = original.scoreMode;
        this.queryWeight = original.queryWeight;
        this.rescoreWeight = original.rescoreWeight;
        if (original.windowSize() != null) {
            windowSize(original.windowSize());
        }
    }

    /** Reads the field; the subclass reads its probe and threshold, then {@link #readScoring}. */
    protected ProbeRescorerBuilder(StreamInput in) throws IOException {
        super(in);
        this.fieldName = in.readString();
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

        protected <T extends ProbeRescorerBuilder<T>> T applyTo(T builder) {
            return builder.scoreMode(scoreMode).queryWeight(queryWeight).rescoreWeight(rescoreWeight);
        }
    }

    /** The shared part of {@code equals}: field, mode and weights (the window is {@link RescorerBuilder}'s). */
    protected final boolean sameFieldAndScoring(ProbeRescorerBuilder<?> other) {
        return fieldName.equals(other.fieldName)
            && scoreMode == other.scoreMode
            && Float.compare(queryWeight, other.queryWeight) == 0
            && Float.compare(rescoreWeight, other.rescoreWeight) == 0;
    }

    /** The shared part of {@code hashCode}. */
    protected final int fieldAndScoringHash() {
        return Objects.hash(fieldName, scoreMode, queryWeight, rescoreWeight);
    }
}
