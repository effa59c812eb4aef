package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.Query;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.Locale;
import java.util.Objects;

import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.opensearch.common.OptionValues;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * What a {@code minhash_similar} query or rescorer compares against: exactly one of a base64 {@code signature}
 * (optionally with the {@code algorithm} that made it, which must then equal the field's), a {@code like} document
 * (resolved to its stored signature during rewrite), a {@code text} or an {@code html} (signed with the field's
 * algorithm, once on the coordinating node or else by each shard's field type). The MinHash {@link Probe.Method}:
 * everything else is {@link Probe}'s.
 */
public final class MinHashProbe extends Probe<String, MinHashProbe> {
    /** The name of the method's query and rescorer. */
    public static final String NAME = "minhash_similar";
    public static final double DEFAULT_MIN_SIMILARITY = 0.4;
    public static final ParseField SIGNATURE_FIELD = new ParseField("signature");
    public static final ParseField MIN_SIMILARITY = new ParseField("min_similarity");
    public static final ParseField CANDIDATES = new ParseField("candidates");
    public static final ParseField ALGORITHM_FIELD = ProbeInput.ALGORITHM_FIELD;
    public static final ParseField LIKE_FIELD = ProbeInput.LIKE_FIELD;
    public static final ParseField TEXT_FIELD = ProbeInput.TEXT_FIELD;
    public static final ParseField HTML_FIELD = ProbeInput.HTML_FIELD;

    /** The value is the base64 signature as given (the shard decodes it against the field's length). */
    private static final Method<String, MinHashProbe> METHOD = new Method<>() {
        @Override
        public MinHashProbe create(String signature, ProbeInput input) {
            return new MinHashProbe(signature, input);
        }

        @Override
        public String[] valueKeys() {
            return new String[] { SIGNATURE_FIELD.getPreferredName() };
        }

        @Override
        public int givenKeys(String signature) {
            return 1;
        }

        @Override
        public void check(String signature) {
            MinHashSignatures.fromBase64(signature); // fails early on malformed input
        }

        @Override
        public String read(StreamInput in) throws IOException {
            return in.readOptionalString();
        }

        @Override
        public void write(StreamOutput out, String signature) throws IOException {
            out.writeOptionalString(signature);
        }

        @Override
        public void toXContent(XContentBuilder builder, String signature) throws IOException {
            builder.field(SIGNATURE_FIELD.getPreferredName(), signature);
        }

        @Override
        public ValueParser<String> parser() {
            return new ValueParser<>() {
                private String signature;

                @Override
                public boolean parse(String name, XContentParser parser) throws IOException {
                    if (SIGNATURE_FIELD.match(name, parser.getDeprecationHandler())) {
                        signature = ProbeInput.Parser.string(name, parser);
                        return true;
                    }
                    return false;
                }

                @Override
                public String value() {
                    return signature;
                }
            };
        }

        @Override
        public String describe(String signature) {
            return "signature[" + signature.length() + " chars]";
        }

        @Override
        public String fieldType() {
            return MinHashFieldMapper.CONTENT_TYPE;
        }

        @Override
        public String sketch(SketchingService engine, String algorithm, String content, SketchingService.ProbeContent type) {
            return MinHashSignatures.toBase64(engine.probe(MinHasher.SKETCHER, algorithm, content, type));
        }

        @Override
        public String storedValueKey() {
            return MinHashFieldMapper.OBJECT_SIGNATURE;
        }

        @Override
        public String storedAlgorithmKey() {
            return MinHashFieldMapper.OBJECT_ALGORITHM;
        }

        /** A base64 string (decoded by {@link #check}). */
        @Override
        public String stored(String what, String field, Object value) {
            if ((value instanceof String) == false) {
                throw new IllegalArgumentException(what + " has no base64 signature in field [" + field + "], got [" + value + "]");
            }
            return (String) value;
        }
    };

    private MinHashProbe(String signature, ProbeInput input) {
        super(METHOD, signature, input);
    }

    public MinHashProbe(StreamInput in) throws IOException {
        super(METHOD, in);
    }

    /** A base64 signature made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static MinHashProbe signature(String base64, String algorithm) {
        return new MinHashProbe(Objects.requireNonNull(base64), ProbeInput.given(algorithm));
    }

    public static MinHashProbe like(String index, String id, String routing) {
        return new MinHashProbe(null, ProbeInput.like(index, id, routing));
    }

    public static MinHashProbe text(String text) {
        return new MinHashProbe(null, ProbeInput.text(text));
    }

    public static MinHashProbe html(String html) {
        return new MinHashProbe(null, ProbeInput.html(html));
    }

    public String signature() {
        return value;
    }

    /**
     * The {@code minhash} field a query or rescorer targets, or null when the field is not mapped.
     *
     * @param owner named in errors, e.g. {@code [minhash_similar]} or {@code [minhash_similar] rescorer}
     * @throws QueryShardException if the field has another type
     */
    public static MinHashFieldMapper.MinHashFieldType minHashField(QueryShardContext context, String field, String owner) {
        return ProbeInput.targetField(context, field, owner, MinHashFieldMapper.MinHashFieldType.class, MinHashFieldMapper.CONTENT_TYPE);
    }

    /**
     * The probe's signature for {@code fieldType}: a given signature (whose {@code algorithm}, if named, must be the
     * field's, and whose length must be the field's), or a text/html probe signed with the field's algorithm.
     *
     * @throws QueryShardException if the probe was made differently or cannot be signed
     */
    public int[] resolve(QueryShardContext context, String owner, MinHashFieldMapper.MinHashFieldType fieldType) {
        return resolve(context, owner, signature -> {
            input.requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe signature was", "signatures");
            return MinHashFieldMapper.parseSignature(signature, fieldType.hashes());
        }, fieldType::probeSignature);
    }

    /** {@code min_similarity}: a number (or numeric string) between 0 and 1; the query's and the rescorer's. */
    public static double parseMinSimilarity(XContentParser parser, String owner) throws IOException {
        return checkMinSimilarity(OptionValues.doubleValue(parser, owner, MIN_SIMILARITY.getPreferredName()), owner);
    }

    public static double checkMinSimilarity(double minSimilarity, String owner) {
        if (Double.isNaN(minSimilarity) || minSimilarity < 0 || minSimilarity > 1) {
            throw new IllegalArgumentException("[" + owner + "] [min_similarity] must be between 0 and 1, got " + minSimilarity);
        }
        return minSimilarity;
    }

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
            throw new IllegalArgumentException("[" + NAME + "] [candidates] must be [lsh] or [scan], got [" + s + "]");
        }
    }

    /** The {@code minhash_similar} query's own options: {@code min_similarity} and {@code candidates}. */
    public record QueryOptions(double minSimilarity, Candidates candidates) {
        public QueryOptions {
            checkMinSimilarity(minSimilarity, NAME);
            Objects.requireNonNull(candidates);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof QueryOptions that && minSimilarity == that.minSimilarity && candidates == that.candidates;
        }

        @Override
        public int hashCode() {
            return Objects.hash(minSimilarity, candidates);
        }
    }

    /** The probe as the query and the rescorer register and read it. */
    public static final ProbeKind<MinHashProbe> KIND = new ProbeKind<>(NAME, MinHashProbe::new, Parser::new);

    /** The {@code minhash_similar} query's part: its options and the {@link MinHashQuery} of the resolved signature. */
    public static final ProbeQueryBuilder.Method<MinHashProbe, QueryOptions, MinHashFieldMapper.MinHashFieldType> QUERYING =
        new ProbeQueryBuilder.Method<>() {
            @Override
            public ProbeKind<MinHashProbe> kind() {
                return KIND;
            }

            @Override
            public QueryOptions defaultOptions() {
                return new QueryOptions(DEFAULT_MIN_SIMILARITY, Candidates.LSH);
            }

            @Override
            public QueryOptions readOptions(StreamInput in) throws IOException {
                return new QueryOptions(in.readDouble(), in.readEnum(Candidates.class));
            }

            @Override
            public void writeOptions(StreamOutput out, QueryOptions options) throws IOException {
                out.writeDouble(options.minSimilarity());
                out.writeEnum(options.candidates());
            }

            @Override
            public void optionsToXContent(XContentBuilder builder, QueryOptions options) throws IOException {
                builder.field(MIN_SIMILARITY.getPreferredName(), options.minSimilarity());
                builder.field(CANDIDATES.getPreferredName(), options.candidates().name().toLowerCase(Locale.ROOT));
            }

            @Override
            public ProbeQueryBuilder.OptionsParser<QueryOptions> optionsParser() {
                return new ProbeQueryBuilder.OptionsParser<>() {
                    private double minSimilarity = DEFAULT_MIN_SIMILARITY;
                    private Candidates candidates = Candidates.LSH;

                    /** Values only: an object or an array is the query's 400 of an unsupported object value. */
                    @Override
                    public boolean parse(String current, XContentParser parser) throws IOException {
                        if (parser.currentToken().isValue() == false) {
                            return false;
                        } else if (MIN_SIMILARITY.match(current, parser.getDeprecationHandler())) {
                            minSimilarity = parseMinSimilarity(parser, NAME);
                        } else if (CANDIDATES.match(current, parser.getDeprecationHandler())) {
                            candidates = Candidates.parse(parser.text());
                        } else {
                            return false;
                        }
                        return true;
                    }

                    @Override
                    public QueryOptions build(XContentParser parser) {
                        return new QueryOptions(minSimilarity, candidates);
                    }
                };
            }

            /** Every parse error is a 400. */
            @Override
            public RuntimeException parseFailure(XContentParser parser, IllegalArgumentException e) {
                return new ParsingException(parser.getTokenLocation(), e.getMessage(), e);
            }

            @Override
            public String unresolved() {
                return "probe not resolved yet";
            }

            @Override
            public String rewriteFirst() {
                return "to resolve its probe";
            }

            @Override
            public MinHashFieldMapper.MinHashFieldType targetField(QueryShardContext context, String field, String owner) {
                return minHashField(context, field, owner);
            }

            @Override
            public Query toQuery(
                QueryShardContext context,
                String field,
                MinHashFieldMapper.MinHashFieldType fieldType,
                MinHashProbe probe,
                QueryOptions options
            ) {
                int[] signature = probe.resolve(context, "[" + NAME + "]", fieldType);
                return new MinHashQuery(
                    fieldType.name(),
                    signature,
                    options.minSimilarity(),
                    fieldType.lsh(),
                    options.candidates() == Candidates.SCAN
                );
            }
        };

    /** The {@code minhash_similar} rescorer's part: {@code min_similarity} and the estimated Jaccard similarity. */
    public static final ProbeRescoring<MinHashProbe, Double> RESCORING = new ProbeRescoring<>() {
        @Override
        public ProbeKind<MinHashProbe> kind() {
            return KIND;
        }

        @Override
        public Double defaultThreshold() {
            return DEFAULT_MIN_SIMILARITY;
        }

        @Override
        public Double checkThreshold(Double minSimilarity) {
            return checkMinSimilarity(minSimilarity, NAME);
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
            builder.field(MIN_SIMILARITY.getPreferredName(), minSimilarity);
        }

        /** A value only: an object or an array is the rescorer's 400 of an unsupported object value. */
        @Override
        public boolean isThreshold(String current, XContentParser parser) {
            return parser.currentToken().isValue() && MIN_SIMILARITY.match(current, parser.getDeprecationHandler());
        }

        @Override
        public Double parseThreshold(XContentParser parser) throws IOException {
            return parseMinSimilarity(parser, NAME);
        }

        /** Every parse error is a 400 that names the rescorer (min_similarity's message names it already). */
        @Override
        public RuntimeException parseFailure(XContentParser parser, IllegalArgumentException e) {
            String message = e.getMessage().startsWith("[" + NAME + "]") ? e.getMessage() : "[" + NAME + "] " + e.getMessage();
            return new ParsingException(parser.getTokenLocation(), message, e);
        }

        @Override
        public ProbeRescoring.Closeness closeness(QueryShardContext context, String field, MinHashProbe probe, Double minSimilarity) {
            String owner = "[" + NAME + "] rescorer";
            MinHashFieldMapper.MinHashFieldType fieldType = minHashField(context, field, owner);
            if (fieldType == null) {
                throw new QueryShardException(
                    context,
                    owner + " requires a field of type [" + MinHashFieldMapper.CONTENT_TYPE + "], but field [" + field + "] is not mapped"
                );
            }
            int[] signature = probe.resolve(context, "[" + NAME + "]", fieldType);
            return new MinHashProbe.Closeness(fieldType.name(), signature, minSimilarity);
        }
    };

    /**
     * A shard's comparison of its hits with a resolved signature: the estimated Jaccard similarity, at least
     * {@code min_similarity}, read from the doc values (no LSH lookup, so every threshold is exact).
     */
    public static final class Closeness implements ProbeRescoring.Closeness {
        private final String field;
        private final int[] signature;
        private final double minSimilarity;
        private final int minMatches;

        public Closeness(String field, int[] signature, double minSimilarity) {
            this.field = field;
            this.signature = signature;
            this.minSimilarity = minSimilarity;
            this.minMatches = MinHashQuery.minMatches(minSimilarity, signature.length);
        }

        public String field() {
            return field;
        }

        public double minSimilarity() {
            return minSimilarity;
        }

        @Override
        public String rescorer() {
            return RESCORING.name();
        }

        @Override
        public String closenessName() {
            return "similarity";
        }

        @Override
        public ProbeRescoring.LeafCloseness leaf(LeafReaderContext leaf) throws IOException {
            BinaryDocValues values = leaf.reader().getBinaryDocValues(field);
            return doc -> {
                if (values == null || values.advanceExact(doc) == false) {
                    return Float.NaN;
                }
                int same = MinHashQuery.countMatches(signature, values.binaryValue());
                return same >= minMatches ? (float) same / signature.length : Float.NaN;
            };
        }

        @Override
        public ProbeRescoring.HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException {
            BinaryDocValues values = leaf.reader().getBinaryDocValues(field);
            if (values == null || values.advanceExact(segmentDoc) == false) {
                return new ProbeRescoring.HitCheck(false, null, null, "no signature in field [" + field + "]");
            }
            int same = MinHashQuery.countMatches(signature, values.binaryValue());
            boolean within = same >= minMatches;
            float similarity = (float) same / signature.length;
            return new ProbeRescoring.HitCheck(
                within,
                Explanation.match(similarity, "similarity"),
                "similarity",
                String.format(
                    Locale.ROOT,
                    "%d of %d values agree, estimated jaccard %.4f %s %s",
                    same,
                    signature.length,
                    similarity,
                    within ? ">=" : "<",
                    minSimilarity
                )
            );
        }
    }

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser extends Probe.Parser<String, MinHashProbe> {
        public Parser() {
            super(METHOD);
        }
    }
}
