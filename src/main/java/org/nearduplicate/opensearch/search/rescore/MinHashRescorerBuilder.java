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

import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.index.query.MinHashProbe;
import org.nearduplicate.opensearch.index.query.MinHashQueryBuilder;
import org.nearduplicate.opensearch.index.query.ProbeRewrite;

/**
 * {@code minhash_similar} rescorer: re-ranks (or filters) the hits of every shard by their signature's estimated
 * Jaccard similarity to a probe; the MinHash counterpart of the {@code near_duplicate} rescorer.
 *
 * <pre>
 * "rescore": {"window_size": 100, "minhash_similar": {"field": "mh", "like": {"_index": "pages", "_id": "42"},
 *             "min_similarity": 0.5, "score_mode": "closeness", "query_weight": 0.1, "rescore_weight": 1}}
 * </pre>
 */
public class MinHashRescorerBuilder extends ProbeRescorerBuilder<MinHashRescorerBuilder, MinHashProbe> {
    public static final String NAME = MinHashQueryBuilder.NAME;
    public static final ParseField MIN_SIMILARITY_FIELD = new ParseField("min_similarity");

    private double minSimilarity = MinHashQueryBuilder.DEFAULT_MIN_SIMILARITY;

    public MinHashRescorerBuilder(String fieldName, MinHashProbe probe) {
        super(NAME, fieldName, probe);
    }

    private MinHashRescorerBuilder(MinHashRescorerBuilder original, ProbeRewrite<MinHashProbe> probe) {
        super(original, probe);
        this.minSimilarity = original.minSimilarity;
    }

    public MinHashRescorerBuilder(StreamInput in) throws IOException {
        super(in, MinHashProbe::new);
        this.minSimilarity = in.readDouble();
        readScoring(in);
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        writeFieldAndProbe(out);
        out.writeDouble(minSimilarity);
        writeScoring(out);
    }

    @Override
    protected MinHashRescorerBuilder withProbe(ProbeRewrite<MinHashProbe> next) {
        return new MinHashRescorerBuilder(this, next);
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    public double minSimilarity() {
        return minSimilarity;
    }

    public MinHashRescorerBuilder minSimilarity(double minSimilarity) {
        this.minSimilarity = MinHashQueryBuilder.checkMinSimilarity(minSimilarity, NAME);
        return this;
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        fieldAndProbeToXContent(builder);
        builder.field(MIN_SIMILARITY_FIELD.getPreferredName(), minSimilarity);
        scoringToXContent(builder);
        builder.endObject();
    }

    public static MinHashRescorerBuilder fromXContent(XContentParser parser) throws IOException {
        CommonOptions common = new CommonOptions(NAME);
        Double minSimilarity = null;
        MinHashProbe.Parser probeParser = new MinHashProbe.Parser();
        String current = null;
        XContentParser.Token token;
        try {
            while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
                if (token == XContentParser.Token.FIELD_NAME) {
                    current = parser.currentName();
                } else if (probeParser.parse(current, parser)) {
                    // consumed
                } else if (token.isValue() == false) {
                    throw new ParsingException(
                        parser.getTokenLocation(),
                        "[" + NAME + "] rescorer does not support [" + current + "] with an object or array value"
                    );
                } else if (common.parse(current, parser)) {
                    // consumed
                } else if (MIN_SIMILARITY_FIELD.match(current, parser.getDeprecationHandler())) {
                    minSimilarity = MinHashQueryBuilder.parseMinSimilarity(parser, NAME);
                } else {
                    throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer does not support [" + current + "]");
                }
            }
            MinHashRescorerBuilder builder = new MinHashRescorerBuilder(common.field(parser), probeParser.build(parser, NAME));
            if (minSimilarity != null) {
                builder.minSimilarity(minSimilarity);
            }
            return common.applyTo(builder);
        } catch (IllegalArgumentException e) {
            // min_similarity's message names the rescorer already
            String message = e.getMessage().startsWith("[" + NAME + "]") ? e.getMessage() : "[" + NAME + "] " + e.getMessage();
            throw new ParsingException(parser.getTokenLocation(), message, e);
        }
    }

    @Override
    protected RescoreContext innerBuildContext(int windowSize, QueryShardContext context) {
        MinHashProbe probe = rewrittenProbe();
        String owner = "[" + NAME + "] rescorer";
        MinHashFieldMapper.MinHashFieldType fieldType = MinHashProbe.minHashField(context, fieldName, owner);
        if (fieldType == null) {
            throw new QueryShardException(
                context,
                owner + " requires a field of type [" + MinHashFieldMapper.CONTENT_TYPE + "], but field [" + fieldName + "] is not mapped"
            );
        }
        int[] signature = probe.resolve(context, "[" + NAME + "]", fieldType);
        return new MinHashRescorer.Context(
            windowSize,
            fieldType.name(),
            signature,
            minSimilarity,
            scoreMode(),
            queryWeight(),
            rescoreWeight()
        );
    }

    @Override
    public boolean equals(Object obj) {
        if (super.equals(obj) == false) {
            return false;
        }
        MinHashRescorerBuilder other = (MinHashRescorerBuilder) obj;
        return sameProbeAndScoring(other) && Double.compare(minSimilarity, other.minSimilarity) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), probeAndScoringHash(), minSimilarity);
    }
}
