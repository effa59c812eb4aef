package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.Locale;
import java.util.Objects;

import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.opensearch.common.OptionValues;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * {@code minhash_similar}: documents whose {@code minhash} signature has estimated Jaccard similarity ≥
 * {@code min_similarity} with a probe, verified from the stored signatures.
 *
 * <pre>
 * {"minhash_similar": {"field": "mh", "signature": "&lt;base64&gt;", "min_similarity": 0.8}}
 * {"minhash_similar": {"field": "mh", "text": "...", "min_similarity": 0.4, "candidates": "lsh"}}
 * {"minhash_similar": {"field": "mh", "like": {"_index": "pages", "_id": "42"}}}
 * </pre>
 *
 * {@code candidates}: {@code lsh} (default) verifies the documents sharing an LSH band key — exact for
 * min_similarity ≥ 1 - (bands - 1) / m, above that S-curve recall; {@code scan} verifies every signature (exact, linear).
 */
public class MinHashQueryBuilder extends AbstractQueryBuilder<MinHashQueryBuilder> {
    public static final String NAME = "minhash_similar";
    public static final double DEFAULT_MIN_SIMILARITY = 0.4;
    static final ParseField FIELD = new ParseField("field");
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
    private final ProbeRewrite<MinHashProbe> probe;
    private double minSimilarity = DEFAULT_MIN_SIMILARITY;
    private Candidates candidates = Candidates.LSH;
    private boolean ignoreUnmapped = false;
    /** The node's engine, where the query was parsed or received: signs a text probe once on the coordinator; not sent. */
    private SketchingService engine;

    public MinHashQueryBuilder(String fieldName, MinHashProbe probe) {
        if (fieldName == null || fieldName.isEmpty()) throw new IllegalArgumentException("[" + NAME + "] requires [field]");
        this.fieldName = fieldName;
        this.probe = ProbeRewrite.of(Objects.requireNonNull(probe, "probe"));
    }

    /** A copy with the next step of the probe's rewrite (see {@link #doRewrite}). */
    private MinHashQueryBuilder(MinHashQueryBuilder original, ProbeRewrite<MinHashProbe> probe) {
        this.fieldName = original.fieldName;
        this.probe = probe;
        this.minSimilarity = original.minSimilarity;
        this.candidates = original.candidates;
        this.ignoreUnmapped = original.ignoreUnmapped;
        this.engine = original.engine;
        boost(original.boost());
        queryName(original.queryName());
    }

    public MinHashQueryBuilder(StreamInput in) throws IOException {
        super(in);
        fieldName = in.readString();
        probe = ProbeRewrite.of(new MinHashProbe(in));
        minSimilarity = in.readDouble();
        candidates = in.readEnum(Candidates.class);
        ignoreUnmapped = in.readBoolean();
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (probe.isPending()) {
            throw new IllegalStateException("[" + NAME + "] probe not resolved yet; the query must be rewritten before it is sent");
        }
        out.writeString(fieldName);
        probe.probe().writeTo(out);
        out.writeDouble(minSimilarity);
        out.writeEnum(candidates);
        out.writeBoolean(ignoreUnmapped);
    }

    /** The engine that signs a {@code text}/{@code html} probe on the coordinating node (see {@link #doRewrite}). */
    public MinHashQueryBuilder engine(SketchingService engine) {
        this.engine = engine;
        return this;
    }

    public MinHashQueryBuilder minSimilarity(double minSimilarity) {
        this.minSimilarity = checkMinSimilarity(minSimilarity, NAME);
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

    public MinHashProbe probe() {
        return probe.probe();
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field(FIELD.getPreferredName(), fieldName);
        probe.probe().toXContentFields(builder);
        builder.field(MIN_SIMILARITY.getPreferredName(), minSimilarity);
        builder.field(CANDIDATES.getPreferredName(), candidates.name().toLowerCase(Locale.ROOT));
        builder.field(IGNORE_UNMAPPED.getPreferredName(), ignoreUnmapped);
        printBoostAndQueryName(builder);
        builder.endObject();
    }

    public static MinHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        String field = null, queryName = null;
        boolean ignoreUnmapped = false;
        Double minSimilarity = null;
        Candidates candidates = Candidates.LSH;
        float boost = DEFAULT_BOOST;
        MinHashProbe.Parser probeParser = new MinHashProbe.Parser();
        String current = null;
        XContentParser.Token token;
        if (parser.currentToken() != XContentParser.Token.START_OBJECT) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query malformed, expected an object");
        }
        try {
            while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
                if (token == XContentParser.Token.FIELD_NAME) {
                    current = parser.currentName();
                } else if (probeParser.parse(current, parser)) {
                    // consumed
                } else if (token.isValue() == false) {
                    throw new ParsingException(
                        parser.getTokenLocation(),
                        "[" + NAME + "] query does not support [" + current + "] with an object or array value"
                    );
                } else if (FIELD.match(current, parser.getDeprecationHandler())) {
                    field = parser.text();
                } else if (MIN_SIMILARITY.match(current, parser.getDeprecationHandler())) {
                    minSimilarity = parseMinSimilarity(parser, NAME);
                } else if (CANDIDATES.match(current, parser.getDeprecationHandler())) {
                    candidates = Candidates.parse(parser.text());
                } else if (IGNORE_UNMAPPED.match(current, parser.getDeprecationHandler())) {
                    ignoreUnmapped = OptionValues.booleanValue(parser, NAME, current);
                } else if (BOOST_FIELD.match(current, parser.getDeprecationHandler())) {
                    boost = OptionValues.floatValue(parser, NAME, current);
                } else if (NAME_FIELD.match(current, parser.getDeprecationHandler())) {
                    queryName = parser.text();
                } else {
                    throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query does not support [" + current + "]");
                }
            }
            if (field == null) throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] requires [field]");
            MinHashQueryBuilder b = new MinHashQueryBuilder(field, probeParser.build(parser, NAME));
            if (minSimilarity != null) b.minSimilarity(minSimilarity);
            return b.candidates(candidates).ignoreUnmapped(ignoreUnmapped).boost(boost).queryName(queryName);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage(), e);
        }
    }

    /** {@code min_similarity}: a number (or numeric string) between 0 and 1; shared with the rescorer. */
    public static double parseMinSimilarity(XContentParser parser, String owner) throws IOException {
        return checkMinSimilarity(OptionValues.doubleValue(parser, owner, MIN_SIMILARITY.getPreferredName()), owner);
    }

    public static double checkMinSimilarity(double minSimilarity, String owner) {
        if (Double.isNaN(minSimilarity) || minSimilarity < 0 || minSimilarity > 1) {
            throw new IllegalArgumentException("[" + owner + "] [min_similarity] must be between 0 and 1, got " + minSimilarity);
        }
        return minSimilarity;
    }

    @Override
    protected QueryBuilder doRewrite(QueryRewriteContext queryRewriteContext) throws IOException {
        ProbeRewrite<MinHashProbe> next = probe.rewrite(queryRewriteContext, fieldName, engine, "[" + NAME + "]");
        return next == probe ? this : new MinHashQueryBuilder(this, next);
    }

    @Override
    protected Query doToQuery(QueryShardContext context) throws IOException {
        if (probe.mustRewrite()) {
            throw new IllegalStateException("[" + NAME + "] query must be rewritten first to resolve its probe");
        }
        MinHashFieldMapper.MinHashFieldType ft = MinHashProbe.minHashField(context, fieldName, "[" + NAME + "]");
        if (ft == null) {
            if (ignoreUnmapped) return new MatchNoDocsQuery("[" + NAME + "] field [" + fieldName + "] is not mapped");
            throw new QueryShardException(
                context,
                "[" + NAME + "] failed to find field [" + fieldName + "]; set [ignore_unmapped] to match nothing instead"
            );
        }
        int[] signature = probe.probe().resolve(context, "[" + NAME + "]", ft);
        return new MinHashQuery(ft.name(), signature, minSimilarity, ft.lsh(), candidates == Candidates.SCAN);
    }

    @Override
    protected boolean doEquals(MinHashQueryBuilder o) {
        return fieldName.equals(o.fieldName)
            && probe.equals(o.probe)
            && minSimilarity == o.minSimilarity
            && candidates == o.candidates
            && ignoreUnmapped == o.ignoreUnmapped;
    }

    @Override
    protected int doHashCode() {
        return Objects.hash(fieldName, probe, minSimilarity, candidates, ignoreUnmapped);
    }
}
