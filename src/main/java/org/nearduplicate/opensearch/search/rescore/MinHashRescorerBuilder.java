package org.nearduplicate.opensearch.search.rescore;

import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.index.query.MinHashProbe;
import org.nearduplicate.opensearch.index.query.MinHashQueryBuilder;
import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.search.rescore.RescoreContext;
import org.opensearch.search.rescore.RescorerBuilder;

import java.io.IOException;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code minhash_similar} rescorer: re-ranks (or filters) the hits of every shard by their signature's estimated
 * Jaccard similarity to a probe; the MinHash counterpart of the {@code near_duplicate} rescorer.
 *
 * <pre>
 * "rescore": {"window_size": 100, "minhash_similar": {"field": "mh", "like": {"_index": "pages", "_id": "42"},
 *             "min_similarity": 0.5, "score_mode": "closeness", "query_weight": 0.1, "rescore_weight": 1}}
 * </pre>
 */
public class MinHashRescorerBuilder extends ProbeRescorerBuilder<MinHashRescorerBuilder> {
    public static final String NAME = MinHashQueryBuilder.NAME;
    public static final ParseField MIN_SIMILARITY_FIELD = new ParseField("min_similarity");

    private final MinHashProbe probe;
    private final Supplier<MinHashProbe> fetchedProbe;
    private double minSimilarity = MinHashQueryBuilder.DEFAULT_MIN_SIMILARITY;

    public MinHashRescorerBuilder(String fieldName, MinHashProbe probe) {
        super(NAME, fieldName);
        this.probe = Objects.requireNonNull(probe, "probe");
        this.fetchedProbe = null;
    }

    private MinHashRescorerBuilder(MinHashRescorerBuilder original, MinHashProbe probe, Supplier<MinHashProbe> fetched) {
        super(original);
        this.probe = probe;
        this.fetchedProbe = fetched;
        this.minSimilarity = original.minSimilarity;
    }

    public MinHashRescorerBuilder(StreamInput in) throws IOException {
        super(in);
        this.probe = new MinHashProbe(in);
        this.fetchedProbe = null;
        this.minSimilarity = in.readDouble();
        readScoring(in);
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (fetchedProbe != null) {
            throw new IllegalStateException("[" + NAME + "] rescorer [like] document not fetched yet; rewrite before sending");
        }
        out.writeString(fieldName);
        probe.writeTo(out);
        out.writeDouble(minSimilarity);
        writeScoring(out);
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    public MinHashProbe probe() {
        return probe;
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
        builder.field(FIELD_FIELD.getPreferredName(), fieldName);
        probe.toXContentFields(builder);
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
                    throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] rescorer does not support [" + current + "] with an object or array value");
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
    public RescorerBuilder<MinHashRescorerBuilder> rewrite(QueryRewriteContext ctx) throws IOException {
        if (fetchedProbe != null) {
            MinHashProbe fetched = fetchedProbe.get();
            return fetched == null ? this : new MinHashRescorerBuilder(this, fetched, null);
        }
        if (probe.needsFetch()) {
            return new MinHashRescorerBuilder(this, probe, probe.fetchOnRewrite(ctx, fieldName));
        }
        return this;
    }

    @Override
    protected RescoreContext innerBuildContext(int windowSize, QueryShardContext context) {
        if (fetchedProbe != null || probe.needsFetch()) {
            throw new IllegalStateException("[" + NAME + "] rescorer must be rewritten first to fetch its [like] document");
        }
        String owner = "[" + NAME + "] rescorer";
        MinHashFieldMapper.MinHashFieldType fieldType = MinHashProbe.minHashField(context, fieldName, owner);
        if (fieldType == null) {
            throw new QueryShardException(
                context,
                owner + " requires a field of type [" + MinHashFieldMapper.CONTENT_TYPE + "], but field [" + fieldName + "] is not mapped"
            );
        }
        int[] signature = probe.resolve(context, "[" + NAME + "]", fieldType);
        return new MinHashRescorer.Context(windowSize, fieldType.name(), signature, minSimilarity, scoreMode(), queryWeight(), rescoreWeight());
    }

    @Override
    public boolean equals(Object obj) {
        if (super.equals(obj) == false) {
            return false;
        }
        MinHashRescorerBuilder other = (MinHashRescorerBuilder) obj;
        return sameFieldAndScoring(other)
            && probe.equals(other.probe)
            && Objects.equals(fetchedProbe, other.fetchedProbe)
            && Double.compare(minSimilarity, other.minSimilarity) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), fieldAndScoringHash(), probe, fetchedProbe, minSimilarity);
    }
}
