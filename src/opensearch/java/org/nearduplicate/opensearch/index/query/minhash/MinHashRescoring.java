package org.nearduplicate.opensearch.index.query.minhash;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.core.options.MinSimilarity;
import org.nearduplicate.opensearch.common.OptionTokens;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeKind;
import org.nearduplicate.opensearch.index.query.ProbeRescoring;

/**
 * The {@code minhash_similar} rescorer's part: its threshold {@code min_similarity} and the estimated Jaccard similarity
 * of each hit to the probe ({@link MinHashCloseness}).
 */
public final class MinHashRescoring implements ProbeRescoring<MinHashProbe, Double> {
    public static final MinHashRescoring INSTANCE = new MinHashRescoring();

    private MinHashRescoring() {}

    @Override
    public ProbeKind<MinHashProbe> kind() {
        return MinHashProbe.KIND;
    }

    @Override
    public Double defaultThreshold() {
        return MinSimilarity.MINHASH_DEFAULT;
    }

    @Override
    public Double checkThreshold(Double minSimilarity) {
        return MinSimilarity.check(minSimilarity, MinHashProbe.NAME);
    }

    @Override
    public Double readThreshold(StreamInput in) throws IOException {
        return in.readDouble();
    }

    @Override
    public void writeThreshold(StreamOutput out, Double minSimilarity) throws IOException {
        out.writeDouble(minSimilarity);
    }

    @Override
    public void thresholdToXContent(XContentBuilder builder, Double minSimilarity) throws IOException {
        builder.field(MinHashQueryOptions.MIN_SIMILARITY_FIELD.getPreferredName(), minSimilarity);
    }

    /** A value only: an object or an array is the rescorer's 400 of an unsupported object value. */
    @Override
    public boolean isThreshold(String current, XContentParser parser) {
        return parser.currentToken().isValue() && MinHashQueryOptions.MIN_SIMILARITY_FIELD.match(current, parser.getDeprecationHandler());
    }

    @Override
    public Double parseThreshold(XContentParser parser) throws IOException {
        return OptionTokens.minSimilarity(parser, MinHashProbe.NAME);
    }

    /** Every parse error is a 400 that names the rescorer (min_similarity's message names it already). */
    @Override
    public RuntimeException parseFailure(XContentParser parser, IllegalArgumentException e) {
        String owner = "[" + MinHashProbe.NAME + "]";
        String message = e.getMessage().startsWith(owner) ? e.getMessage() : owner + " " + e.getMessage();
        return new ParsingException(parser.getTokenLocation(), message, e);
    }

    @Override
    public ProbeRescoring.Closeness closeness(ShardContext context, String field, MinHashProbe probe, Double minSimilarity) {
        String owner = "[" + MinHashProbe.NAME + "] rescorer";
        MinHashFieldMapper.MinHashFieldType fieldType = MinHashProbe.minHashField(context, field, owner);
        if (fieldType == null) {
            throw context.failure(
                owner + " requires a field of type [" + MinHashFieldMapper.CONTENT_TYPE + "], but field [" + field + "] is not mapped"
            );
        }
        int[] signature = probe.resolve(context, "[" + MinHashProbe.NAME + "]", fieldType);
        return new MinHashCloseness(fieldType.name(), signature, minSimilarity);
    }
}
