package org.nearduplicate.opensearch.index.query.minhash;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.util.Locale;
import java.util.Objects;

import org.nearduplicate.core.options.MinSimilarity;
import org.nearduplicate.opensearch.common.OptionTokens;
import org.nearduplicate.opensearch.index.query.ProbeQuerying;

/**
 * The {@code minhash_similar} query's own options: {@code min_similarity} ({@link MinSimilarity#MINHASH_DEFAULT} when
 * absent) and {@code candidates}. Their checks, wire format, rendering and parser live here.
 *
 * <p>Wire format: {@code min_similarity} (double), {@code candidates} (enum).
 */
public record MinHashQueryOptions(double minSimilarity, Candidates candidates) implements ProbeQuerying.Options {
    public static final ParseField MIN_SIMILARITY_FIELD = new ParseField(MinSimilarity.NAME);
    public static final ParseField CANDIDATES_FIELD = new ParseField("candidates");
    /** A query that names no option. */
    public static final MinHashQueryOptions DEFAULT = new MinHashQueryOptions(MinSimilarity.MINHASH_DEFAULT, Candidates.LSH);

    /**
     * How the query finds its candidates: {@code lsh} (default) verifies the documents sharing an LSH band key — exact
     * for min_similarity ≥ 1 - (bands - 1) / m, above that S-curve recall; {@code scan} verifies every signature (exact,
     * linear).
     */
    public enum Candidates {
        LSH,
        SCAN;

        static Candidates parse(String s) {
            for (Candidates c : values()) {
                if (c.name().toLowerCase(Locale.ROOT).equals(s)) return c;
            }
            throw new IllegalArgumentException("[" + MinHashProbe.NAME + "] [candidates] must be [lsh] or [scan], got [" + s + "]");
        }
    }

    public MinHashQueryOptions {
        MinSimilarity.check(minSimilarity, MinHashProbe.NAME);
        Objects.requireNonNull(candidates);
    }

    /** These options with another {@code min_similarity}. */
    public MinHashQueryOptions withMinSimilarity(double minSimilarity) {
        return new MinHashQueryOptions(minSimilarity, candidates);
    }

    /** These options with another {@code candidates}. */
    public MinHashQueryOptions withCandidates(Candidates candidates) {
        return new MinHashQueryOptions(minSimilarity, candidates);
    }

    static MinHashQueryOptions readFrom(StreamInput in) throws IOException {
        return new MinHashQueryOptions(in.readDouble(), in.readEnum(Candidates.class));
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeDouble(minSimilarity);
        out.writeEnum(candidates);
    }

    @Override
    public void toXContent(XContentBuilder builder) throws IOException {
        builder.field(MIN_SIMILARITY_FIELD.getPreferredName(), minSimilarity);
        builder.field(CANDIDATES_FIELD.getPreferredName(), candidates.name().toLowerCase(Locale.ROOT));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MinHashQueryOptions that && minSimilarity == that.minSimilarity && candidates == that.candidates;
    }

    @Override
    public int hashCode() {
        return Objects.hash(minSimilarity, candidates);
    }

    /** Collects the options while the query's object is parsed. */
    static final class Parser implements ProbeQuerying.OptionsParser<MinHashQueryOptions> {
        private double minSimilarity = MinSimilarity.MINHASH_DEFAULT;
        private Candidates candidates = Candidates.LSH;

        /** Values only: an object or an array is the query's 400 of an unsupported object value. */
        @Override
        public boolean parse(String current, XContentParser parser) throws IOException {
            if (parser.currentToken().isValue() == false) {
                return false;
            } else if (MIN_SIMILARITY_FIELD.match(current, parser.getDeprecationHandler())) {
                minSimilarity = OptionTokens.minSimilarity(parser, MinHashProbe.NAME);
            } else if (CANDIDATES_FIELD.match(current, parser.getDeprecationHandler())) {
                candidates = Candidates.parse(parser.text());
            } else {
                return false;
            }
            return true;
        }

        @Override
        public MinHashQueryOptions build(XContentParser parser) {
            return new MinHashQueryOptions(minSimilarity, candidates);
        }
    }
}
