package org.nearduplicate.opensearch.index.query.simhash;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.options.MinSimilarity;
import org.nearduplicate.opensearch.common.MaxDistanceParsing;
import org.nearduplicate.opensearch.common.OptionTokens;
import org.nearduplicate.opensearch.index.query.ProbeQuerying;

/**
 * The {@code near_duplicate} query's own options: {@code max_distance} (null: the mapping's), {@code allow_scan},
 * {@code min_similarity} (null: the field's algorithm's; only for fields that verify) and {@code exact} (every segment
 * answered exactly, never from the candidate keys). Their checks, wire format, rendering and parser live here, one
 * option after the other.
 *
 * <p>Wire format: {@code max_distance} (optional vint), {@code allow_scan}, {@code min_similarity} (optional double),
 * {@code exact}.
 */
public record SimHashQueryOptions(Integer maxDistance, boolean allowScan, Double minSimilarity, boolean exact)
    implements
        ProbeQuerying.Options {
    public static final ParseField MAX_DISTANCE_FIELD = MaxDistanceParsing.FIELD;
    public static final ParseField ALLOW_SCAN_FIELD = new ParseField("allow_scan");
    public static final ParseField MIN_SIMILARITY_FIELD = new ParseField(MinSimilarity.NAME);
    public static final ParseField EXACT_FIELD = new ParseField("exact");
    /**
     * A query that names no option: the mapping's {@code max_distance}, no scan, the field's {@code min_similarity}, the
     * candidate keys where the field and the probe have them.
     */
    public static final SimHashQueryOptions DEFAULT = new SimHashQueryOptions(null, false, null, false);

    public SimHashQueryOptions(Integer maxDistance, boolean allowScan) {
        this(maxDistance, allowScan, null);
    }

    public SimHashQueryOptions(Integer maxDistance, boolean allowScan, Double minSimilarity) {
        this(maxDistance, allowScan, minSimilarity, false);
    }

    public SimHashQueryOptions {
        MaxDistance.checkOptional(maxDistance, SimHashProbe.NAME);
        MinSimilarity.checkOptional(minSimilarity, SimHashProbe.NAME);
    }

    /** These options with another {@code max_distance} (null: the mapping's). */
    public SimHashQueryOptions withMaxDistance(Integer maxDistance) {
        return new SimHashQueryOptions(maxDistance, allowScan, minSimilarity, exact);
    }

    /** These options with another {@code allow_scan}. */
    public SimHashQueryOptions withAllowScan(boolean allowScan) {
        return new SimHashQueryOptions(maxDistance, allowScan, minSimilarity, exact);
    }

    /** These options with another {@code exact}. */
    public SimHashQueryOptions withExact(boolean exact) {
        return new SimHashQueryOptions(maxDistance, allowScan, minSimilarity, exact);
    }

    static SimHashQueryOptions readFrom(StreamInput in) throws IOException {
        return new SimHashQueryOptions(in.readOptionalVInt(), in.readBoolean(), in.readOptionalDouble(), in.readBoolean());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeOptionalVInt(maxDistance);
        out.writeBoolean(allowScan);
        out.writeOptionalDouble(minSimilarity);
        out.writeBoolean(exact);
    }

    /**
     * Renders the options into the query's object: {@code max_distance} and {@code min_similarity} only when given,
     * {@code exact} only when true (a query rendered by an earlier release reads the same).
     */
    @Override
    public void toXContent(XContentBuilder builder) throws IOException {
        if (maxDistance != null) {
            builder.field(MAX_DISTANCE_FIELD.getPreferredName(), maxDistance);
        }
        builder.field(ALLOW_SCAN_FIELD.getPreferredName(), allowScan);
        if (minSimilarity != null) {
            builder.field(MIN_SIMILARITY_FIELD.getPreferredName(), minSimilarity);
        }
        if (exact) {
            builder.field(EXACT_FIELD.getPreferredName(), true);
        }
    }

    /** Collects the options while the query's object is parsed. */
    static final class Parser implements ProbeQuerying.OptionsParser<SimHashQueryOptions> {
        private Integer maxDistance;
        private boolean allowScan = false;
        private Double minSimilarity;
        private boolean exact = false;

        @Override
        public boolean parse(String current, XContentParser parser) throws IOException {
            if (MAX_DISTANCE_FIELD.match(current, parser.getDeprecationHandler())) {
                // any token: null, an object or an array is a 400 that names max_distance's values
                maxDistance = MaxDistanceParsing.parse(parser, SimHashProbe.NAME);
            } else if (parser.currentToken().isValue() && ALLOW_SCAN_FIELD.match(current, parser.getDeprecationHandler())) {
                allowScan = OptionTokens.booleanValue(parser, SimHashProbe.NAME, current);
            } else if (MIN_SIMILARITY_FIELD.match(current, parser.getDeprecationHandler())) {
                minSimilarity = OptionTokens.minSimilarity(parser, SimHashProbe.NAME);
            } else if (parser.currentToken().isValue() && EXACT_FIELD.match(current, parser.getDeprecationHandler())) {
                exact = OptionTokens.booleanValue(parser, SimHashProbe.NAME, current);
            } else {
                return false;
            }
            return true;
        }

        @Override
        public SimHashQueryOptions build(XContentParser parser) {
            try {
                return new SimHashQueryOptions(maxDistance, allowScan, minSimilarity, exact);
            } catch (IllegalArgumentException e) {
                throw new ParsingException(parser.getTokenLocation(), e.getMessage());
            }
        }
    }
}
