package org.nearduplicate.opensearch.index.query;

import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code minhash_similar}: documents whose {@code minhash} signature has estimated Jaccard similarity ≥
 * {@code min_similarity} with a probe, verified from the stored signatures.
 *
 * <pre>
 * {"minhash_similar": {"field": "mh", "signature": "&lt;base64&gt;", "min_similarity": 0.8}}
 * {"minhash_similar": {"field": "mh", "text": "...", "min_similarity": 0.4, "candidates": "lsh"}}
 * </pre>
 *
 * {@code candidates}: {@code lsh} (default) verifies the documents sharing an LSH band key — exact for
 * min_similarity ≥ 1 - (bands - 1) / m, above that S-curve recall; {@code scan} verifies every signature (exact, linear).
 */
public class MinHashQueryBuilder extends AbstractQueryBuilder<MinHashQueryBuilder> {
    public static final String NAME = "minhash_similar";
    public static final double DEFAULT_MIN_SIMILARITY = 0.4;
    static final ParseField FIELD = new ParseField("field");
    static final ParseField SIGNATURE = new ParseField("signature");
    static final ParseField TEXT = new ParseField("text");
    static final ParseField HTML = new ParseField("html");
    static final ParseField MIN_SIMILARITY = new ParseField("min_similarity");
    static final ParseField CANDIDATES = new ParseField("candidates");
    static final ParseField IGNORE_UNMAPPED = new ParseField("ignore_unmapped");

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

    private final String fieldName;
    private final String signature; // base64, or null
    private final String text; // text or HTML content, or null
    private final boolean html;
    private double minSimilarity = DEFAULT_MIN_SIMILARITY;
    private Candidates candidates = Candidates.LSH;
    private boolean ignoreUnmapped = false;
    /** The algorithm a signature was made with by the coordinating node (checked against each shard's mapping), or null. */
    private String signatureAlgorithm;
    /** The node's engine, where the query was parsed or received: signs a text probe once on the coordinator. */
    private NearDuplicateEngine engine;
    /** Until the coordinator's lookup completes: the signed probe, or empty when left to the shards; not sent. */
    private Supplier<Optional<String[]>> coordinatorSignature;
    /** True once the coordinator left a text probe to the shards (several algorithms); not sent. */
    private boolean contentProbeLeftToShards;

    /** Exactly one of {@code signature} and {@code content}; {@code html} says how to read the content. */
    public MinHashQueryBuilder(String fieldName, String signature, String content, boolean html) {
        if (fieldName == null || fieldName.isEmpty()) throw new IllegalArgumentException("[" + NAME + "] requires [field]");
        if ((signature == null) == (content == null)) {
            throw new IllegalArgumentException("[" + NAME + "] requires exactly one of [signature], [text] and [html]");
        }
        if (signature != null) MinHashSignatures.fromBase64(signature); // fails early on malformed input
        this.fieldName = fieldName;
        this.signature = signature;
        this.text = content;
        this.html = html;
    }

    public MinHashQueryBuilder(StreamInput in) throws IOException {
        super(in);
        fieldName = in.readString();
        signature = in.readOptionalString();
        text = in.readOptionalString();
        html = in.readBoolean();
        minSimilarity = in.readDouble();
        candidates = in.readEnum(Candidates.class);
        ignoreUnmapped = in.readBoolean();
        signatureAlgorithm = in.readOptionalString();
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (coordinatorSignature != null) {
            throw new IllegalStateException("[" + NAME + "] text probe not signed yet; the query must be rewritten before it is sent");
        }
        out.writeString(fieldName);
        out.writeOptionalString(signature);
        out.writeOptionalString(text);
        out.writeBoolean(html);
        out.writeDouble(minSimilarity);
        out.writeEnum(candidates);
        out.writeBoolean(ignoreUnmapped);
        out.writeOptionalString(signatureAlgorithm);
    }

    /** The engine that signs a {@code text}/{@code html} probe on the coordinating node (see {@link #doRewrite}). */
    public MinHashQueryBuilder engine(NearDuplicateEngine engine) {
        this.engine = engine;
        return this;
    }

    /** A copy with the coordinator's signature of the text probe, made with {@code algorithm}. */
    private MinHashQueryBuilder signed(String signature, String algorithm) {
        MinHashQueryBuilder b = new MinHashQueryBuilder(fieldName, signature, null, false);
        b.signatureAlgorithm = algorithm;
        b.minSimilarity = minSimilarity;
        b.candidates = candidates;
        b.ignoreUnmapped = ignoreUnmapped;
        b.engine = engine;
        return b.boost(boost()).queryName(queryName());
    }

    private MinHashQueryBuilder copy() {
        MinHashQueryBuilder b = new MinHashQueryBuilder(fieldName, signature, text, html);
        b.signatureAlgorithm = signatureAlgorithm;
        b.minSimilarity = minSimilarity;
        b.candidates = candidates;
        b.ignoreUnmapped = ignoreUnmapped;
        b.engine = engine;
        return b.boost(boost()).queryName(queryName());
    }

    /**
     * A text probe is signed once, on the coordinating node, when the searched indices map the field with one
     * algorithm (see {@link CoordinatorFingerprinting}); otherwise each shard signs it with its own mapping.
     */
    @Override
    protected QueryBuilder doRewrite(QueryRewriteContext context) throws IOException {
        if (coordinatorSignature != null) {
            Optional<String[]> known = coordinatorSignature.get();
            if (known == null) return this;
            if (known.isPresent()) return signed(known.get()[0], known.get()[1]);
            MinHashQueryBuilder left = copy();
            left.contentProbeLeftToShards = true;
            return left;
        }
        if (text == null || contentProbeLeftToShards) {
            return this;
        }
        NearDuplicateEngine.ProbeContent type = html ? NearDuplicateEngine.ProbeContent.HTML : NearDuplicateEngine.ProbeContent.TEXT;
        Supplier<Optional<String[]>> outcome = CoordinatorFingerprinting.register(
            context,
            fieldName,
            MinHashFieldMapper.CONTENT_TYPE,
            engine,
            "[" + NAME + "]",
            algorithm -> new String[] { MinHashSignatures.toBase64(engine.minHashProbe(algorithm, text, type)), algorithm }
        );
        if (outcome == null) {
            return this;
        }
        MinHashQueryBuilder waiting = copy();
        waiting.coordinatorSignature = outcome;
        return waiting;
    }

    public MinHashQueryBuilder minSimilarity(double minSimilarity) {
        if (Double.isNaN(minSimilarity) || minSimilarity < 0 || minSimilarity > 1) {
            throw new IllegalArgumentException("[" + NAME + "] [min_similarity] must be between 0 and 1, got " + minSimilarity);
        }
        this.minSimilarity = minSimilarity;
        return this;
    }

    public double minSimilarity() {
        return minSimilarity;
    }

    public MinHashQueryBuilder candidates(Candidates candidates) {
        this.candidates = Objects.requireNonNull(candidates);
        return this;
    }

    public Candidates candidates() {
        return candidates;
    }

    public MinHashQueryBuilder ignoreUnmapped(boolean ignoreUnmapped) {
        this.ignoreUnmapped = ignoreUnmapped;
        return this;
    }

    public String fieldName() {
        return fieldName;
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field(FIELD.getPreferredName(), fieldName);
        if (signature != null) builder.field(SIGNATURE.getPreferredName(), signature);
        else builder.field(html ? HTML.getPreferredName() : TEXT.getPreferredName(), text);
        builder.field(MIN_SIMILARITY.getPreferredName(), minSimilarity);
        builder.field(CANDIDATES.getPreferredName(), candidates.name().toLowerCase(Locale.ROOT));
        builder.field(IGNORE_UNMAPPED.getPreferredName(), ignoreUnmapped);
        printBoostAndQueryName(builder);
        builder.endObject();
    }

    public static MinHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        String field = null, signature = null, content = null, queryName = null;
        boolean html = false, ignoreUnmapped = false;
        int probes = 0;
        Double minSimilarity = null;
        Candidates candidates = Candidates.LSH;
        float boost = DEFAULT_BOOST;
        String current = null;
        XContentParser.Token token;
        if (parser.currentToken() != XContentParser.Token.START_OBJECT) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query malformed, expected an object");
        }
        try {
            while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
                if (token == XContentParser.Token.FIELD_NAME) {
                    current = parser.currentName();
                } else if (token.isValue() == false) {
                    throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query does not support [" + current + "] with an object or array value");
                } else if (FIELD.match(current, parser.getDeprecationHandler())) {
                    field = parser.text();
                } else if (SIGNATURE.match(current, parser.getDeprecationHandler())) {
                    signature = parser.text();
                    probes++;
                } else if (TEXT.match(current, parser.getDeprecationHandler())) {
                    content = parser.text();
                    probes++;
                } else if (HTML.match(current, parser.getDeprecationHandler())) {
                    content = parser.text();
                    html = true;
                    probes++;
                } else if (MIN_SIMILARITY.match(current, parser.getDeprecationHandler())) {
                    if (token != XContentParser.Token.VALUE_NUMBER && token != XContentParser.Token.VALUE_STRING) {
                        throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] [min_similarity] must be a number");
                    }
                    minSimilarity = parser.doubleValue();
                } else if (CANDIDATES.match(current, parser.getDeprecationHandler())) {
                    candidates = Candidates.parse(parser.text());
                } else if (IGNORE_UNMAPPED.match(current, parser.getDeprecationHandler())) {
                    ignoreUnmapped = parser.booleanValue();
                } else if (BOOST_FIELD.match(current, parser.getDeprecationHandler())) {
                    boost = parser.floatValue();
                } else if (NAME_FIELD.match(current, parser.getDeprecationHandler())) {
                    queryName = parser.text();
                } else {
                    throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query does not support [" + current + "]");
                }
            }
            if (field == null) throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] requires [field]");
            if (probes != 1) {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] requires exactly one of [signature], [text] and [html]");
            }
            MinHashQueryBuilder b = new MinHashQueryBuilder(field, signature, content, html);
            if (minSimilarity != null) b.minSimilarity(minSimilarity);
            return b.candidates(candidates).ignoreUnmapped(ignoreUnmapped).boost(boost).queryName(queryName);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage(), e);
        }
    }

    @Override
    protected Query doToQuery(QueryShardContext context) throws IOException {
        if (coordinatorSignature != null) {
            throw new IllegalStateException("[" + NAME + "] query must be rewritten first to sign its text probe");
        }
        MappedFieldType mapped = context.fieldMapper(fieldName);
        if (mapped == null) {
            if (ignoreUnmapped) return new MatchNoDocsQuery("[" + NAME + "] field [" + fieldName + "] is not mapped");
            throw new QueryShardException(context, "[" + NAME + "] failed to find field [" + fieldName + "]; set [ignore_unmapped] to match nothing instead");
        }
        if ((mapped.unwrap() instanceof MinHashFieldMapper.MinHashFieldType) == false) {
            throw new QueryShardException(context, "[" + NAME + "] requires a field of type [" + MinHashFieldMapper.CONTENT_TYPE + "], but field ["
                + fieldName + "] is of type [" + mapped.typeName() + "]");
        }
        MinHashFieldMapper.MinHashFieldType ft = (MinHashFieldMapper.MinHashFieldType) mapped.unwrap();
        int[] probe;
        try {
            if (signatureAlgorithm != null && signatureAlgorithm.equals(ft.algorithm()) == false) {
                throw new IllegalArgumentException(
                    "the probe signature was made with algorithm [" + signatureAlgorithm + "] but field [" + ft.name()
                        + "] is mapped with algorithm [" + ft.algorithm() + "]; signatures made differently cannot be compared"
                );
            }
            if (signature != null) {
                probe = MinHashFieldMapper.parseSignature(signature, ft.hashes());
            } else {
                probe = ft.probeSignature(text, html ? NearDuplicateEngine.ProbeContent.HTML : NearDuplicateEngine.ProbeContent.TEXT);
            }
        } catch (IllegalArgumentException e) {
            throw new QueryShardException(context, "[" + NAME + "] " + e.getMessage(), e);
        }
        return new MinHashQuery(ft.name(), probe, minSimilarity, ft.lsh(), candidates == Candidates.SCAN);
    }

    @Override
    protected boolean doEquals(MinHashQueryBuilder o) {
        return fieldName.equals(o.fieldName) && Objects.equals(signature, o.signature) && Objects.equals(text, o.text) && html == o.html
            && Objects.equals(signatureAlgorithm, o.signatureAlgorithm) && Objects.equals(coordinatorSignature, o.coordinatorSignature)
            && minSimilarity == o.minSimilarity && candidates == o.candidates && ignoreUnmapped == o.ignoreUnmapped;
    }

    @Override
    protected int doHashCode() {
        return Objects.hash(fieldName, signature, text, html, signatureAlgorithm, coordinatorSignature, minSimilarity, candidates, ignoreUnmapped);
    }
}
