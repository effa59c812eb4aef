package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.plugins.SearchPlugin;

import java.io.IOException;
import java.util.Objects;
import java.util.function.BiFunction;

import org.nearduplicate.opensearch.common.OptionTokens;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * A probe query ({@code near_duplicate}, {@code minhash_similar}, any method's): the field, the probe and its rewrite
 * ({@link ProbeRewrite}, with the node's engine, so a text probe is sketched once on the coordinating node), the
 * method's own options, {@code ignore_unmapped}, {@code boost} and {@code _name}, with one parser, one serialization
 * and one rendering for all of them. The method's part is its {@link ProbeQuerying}: its name, its options (parsed, checked,
 * written, rendered) and the Lucene query of a resolved probe. {@link Of} is the builder of a method that needs no Java
 * API of its own; {@code SimHashQueryBuilder} and {@code MinHashQueryBuilder} only name the options of theirs.
 *
 * <p>Wire format: the field, the probe, the method's options, {@code ignore_unmapped} (then boost and name, which are
 * {@link AbstractQueryBuilder}'s).
 *
 * @param <O> the method's options, immutable (e.g. {@code max_distance} and {@code allow_scan})
 */
public abstract class ProbeQueryBuilder<B extends ProbeQueryBuilder<B, P, O>, P extends Probe<?, P>, O extends ProbeQuerying.Options>
    extends PlatformQueryBuilder<B> {
    public static final ParseField FIELD_FIELD = new ParseField("field");
    public static final ParseField IGNORE_UNMAPPED_FIELD = new ParseField("ignore_unmapped");

    private final ProbeQuerying<P, O, ?> querying;
    private final String fieldName;
    private final ProbeRewrite<P> probe;
    private O options;
    private boolean ignoreUnmapped = false;
    /** The node's engine, where the query was parsed or received: sketches a text probe once on the coordinator; not sent. */
    private SketchingService sketching;

    protected ProbeQueryBuilder(ProbeQuerying<P, O, ?> querying, String fieldName, P probe) {
        if (fieldName == null || fieldName.isEmpty()) {
            throw new IllegalArgumentException("[" + querying.name() + "] requires [field]");
        }
        this.querying = querying;
        this.fieldName = fieldName;
        this.probe = ProbeRewrite.of(Objects.requireNonNull(probe, "probe"));
        this.options = querying.defaultOptions();
    }

    /** A copy with the next step of the probe's rewrite (see {@link #doRewrite}). */
    protected ProbeQueryBuilder(ProbeQueryBuilder<B, P, O> original, ProbeRewrite<P> probe) {
        this.querying = original.querying;
        this.fieldName = original.fieldName;
        this.probe = probe;
        this.options = original.options;
        this.ignoreUnmapped = original.ignoreUnmapped;
        this.sketching = original.sketching;
        boost(original.boost());
        queryName(original.queryName());
    }

    protected ProbeQueryBuilder(ProbeQuerying<P, O, ?> querying, StreamInput in) throws IOException {
        super(in);
        this.querying = querying;
        this.fieldName = in.readString();
        this.probe = ProbeRewrite.of(querying.readProbe(in));
        this.options = querying.readOptions(in);
        this.ignoreUnmapped = in.readBoolean();
    }

    @Override
    protected final void doWriteTo(StreamOutput out) throws IOException {
        if (probe.isPending()) {
            throw new IllegalStateException(
                "[" + querying.name() + "] " + querying.unresolved() + "; the query must be rewritten before it is sent"
            );
        }
        out.writeString(fieldName);
        probe.probe().writeTo(out);
        options.writeTo(out);
        out.writeBoolean(ignoreUnmapped);
    }

    /** A copy of this builder with the next step of the probe's rewrite. */
    protected abstract B withProbe(ProbeRewrite<P> next);

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** The engine that sketches a {@code text}/{@code html} probe on the coordinating node (see {@link #doRewrite}). */
    public B sketching(SketchingService sketching) {
        this.sketching = sketching;
        return self();
    }

    public String fieldName() {
        return fieldName;
    }

    public P probe() {
        return probe.probe();
    }

    /** The method's options. */
    public O options() {
        return options;
    }

    /** Sets the method's options (checked by the method where they are made). */
    public B options(O options) {
        this.options = Objects.requireNonNull(options);
        return self();
    }

    public boolean ignoreUnmapped() {
        return ignoreUnmapped;
    }

    /** Whether an index without the field matches nothing (true) or fails the query (false, the default). */
    public B ignoreUnmapped(boolean ignoreUnmapped) {
        this.ignoreUnmapped = ignoreUnmapped;
        return self();
    }

    @Override
    public final String getWriteableName() {
        return querying.name();
    }

    @Override
    protected final void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(querying.name());
        builder.field(FIELD_FIELD.getPreferredName(), fieldName);
        probe.probe().toXContentFields(builder);
        options.toXContent(builder);
        builder.field(IGNORE_UNMAPPED_FIELD.getPreferredName(), ignoreUnmapped);
        printBoostAndQueryName(builder);
        builder.endObject();
    }

    /**
     * Parses the query's object: the probe's keys, the method's options, the field, {@code ignore_unmapped},
     * {@code boost} and {@code _name}.
     *
     * @param create the method's builder of a field and a probe
     */
    protected static <B extends ProbeQueryBuilder<B, P, O>, P extends Probe<?, P>, O extends ProbeQuerying.Options> B fromXContent(
        ProbeQuerying<P, O, ?> querying,
        XContentParser parser,
        BiFunction<String, P, B> create
    ) throws IOException {
        String name = querying.name();
        String field = null;
        boolean ignoreUnmapped = false;
        float boost = DEFAULT_BOOST;
        String queryName = null;
        Probe.Parser<?, P> probeParser = querying.probeParser();
        ProbeQuerying.OptionsParser<O> optionsParser = querying.optionsParser();
        String current = null;
        XContentParser.Token token;
        if (parser.currentToken() != XContentParser.Token.START_OBJECT) {
            throw new ParsingException(parser.getTokenLocation(), "[" + name + "] query malformed, expected an object");
        }
        try {
            while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
                if (token == XContentParser.Token.FIELD_NAME) {
                    current = parser.currentName();
                } else if (probeParser.parse(current, parser)) {
                    // consumed
                } else if (optionsParser.parse(current, parser)) {
                    // consumed
                } else if (token.isValue() == false) {
                    throw new ParsingException(
                        parser.getTokenLocation(),
                        "[" + name + "] query does not support [" + current + "] with an object or array value"
                    );
                } else if (FIELD_FIELD.match(current, parser.getDeprecationHandler())) {
                    field = parser.text();
                } else if (IGNORE_UNMAPPED_FIELD.match(current, parser.getDeprecationHandler())) {
                    ignoreUnmapped = OptionTokens.booleanValue(parser, name, current);
                } else if (BOOST_FIELD.match(current, parser.getDeprecationHandler())) {
                    boost = OptionTokens.floatValue(parser, name, current);
                } else if (NAME_FIELD.match(current, parser.getDeprecationHandler())) {
                    queryName = parser.text();
                } else {
                    throw new ParsingException(parser.getTokenLocation(), "[" + name + "] query does not support [" + current + "]");
                }
            }
            if (field == null) {
                throw new ParsingException(parser.getTokenLocation(), "[" + name + "] requires [field]");
            }
            B builder = create.apply(field, probeParser.build(parser, name));
            return builder.options(optionsParser.build(parser)).ignoreUnmapped(ignoreUnmapped).boost(boost).queryName(queryName);
        } catch (IllegalArgumentException e) {
            throw querying.parseFailure(parser, e);
        }
    }

    @Override
    protected final QueryBuilder doRewrite(QueryRewriteContext queryRewriteContext) throws IOException {
        ProbeRewrite<P> next = probe.rewrite(queryRewriteContext, fieldName, sketching, "[" + querying.name() + "]");
        return next == probe ? this : withProbe(next);
    }

    @Override
    protected final Query shardQuery(ShardContext context) {
        return shardQuery(querying, context);
    }

    private <F extends MappedFieldType> Query shardQuery(ProbeQuerying<P, O, F> querying, ShardContext context) {
        String name = querying.name();
        if (probe.mustRewrite()) {
            throw new IllegalStateException("[" + name + "] query must be rewritten first " + querying.rewriteFirst());
        }
        F fieldType = querying.targetField(context, fieldName, "[" + name + "]");
        if (fieldType == null) {
            if (ignoreUnmapped) {
                return new MatchNoDocsQuery("[" + name + "] field [" + fieldName + "] is not mapped");
            }
            throw context.failure(
                "[" + name + "] failed to find field [" + fieldName + "]; set [ignore_unmapped] to match nothing instead"
            );
        }
        Query query = querying.toQuery(context, fieldName, fieldType, probe.probe(), options);
        Query excluded = probe.probe().excludedQuery(context);
        if (excluded == null) {
            return query;
        }
        // include_like: false: the like document itself is not a hit (scores unchanged: MUST_NOT does not score)
        return new BooleanQuery.Builder().add(query, BooleanClause.Occur.MUST).add(excluded, BooleanClause.Occur.MUST_NOT).build();
    }

    @Override
    protected final boolean doEquals(B other) {
        ProbeQueryBuilder<?, ?, ?> that = other;
        return querying == that.querying
            && fieldName.equals(that.fieldName)
            && probe.equals(that.probe)
            && options.equals(that.options)
            && ignoreUnmapped == that.ignoreUnmapped;
    }

    @Override
    protected final int doHashCode() {
        return Objects.hash(querying.name(), fieldName, probe, options, ignoreUnmapped);
    }

    /**
     * The query of a method that needs no Java API of its own: {@code new ProbeQueryBuilder.Of<>(querying, field,
     * probe)}, registered with {@link #spec}.
     */
    public static final class Of<P extends Probe<?, P>, O extends ProbeQuerying.Options> extends ProbeQueryBuilder<Of<P, O>, P, O> {
        public Of(ProbeQuerying<P, O, ?> querying, String fieldName, P probe) {
            super(querying, fieldName, probe);
        }

        public Of(ProbeQuerying<P, O, ?> querying, StreamInput in) throws IOException {
            super(querying, in);
        }

        private Of(Of<P, O> original, ProbeRewrite<P> probe) {
            super(original, probe);
        }

        @Override
        protected Of<P, O> withProbe(ProbeRewrite<P> next) {
            return new Of<>(this, next);
        }
    }

    /** The registration of a method's query with {@link Of}: a method needs no query class of its own. */
    public static <P extends Probe<?, P>, O extends ProbeQuerying.Options> SearchPlugin.QuerySpec<Of<P, O>> spec(
        ProbeQuerying<P, O, ?> querying,
        SketchingService sketching
    ) {
        return spec(querying, in -> new Of<>(querying, in), (field, probe) -> new Of<>(querying, field, probe), sketching);
    }

    /** The registration of a method's query built by {@code reader} and {@code create}; the node's engine goes to every builder. */
    public static <
        B extends ProbeQueryBuilder<B, P, O>,
        P extends Probe<?, P>,
        O extends ProbeQuerying.Options> SearchPlugin.QuerySpec<B> spec(
            ProbeQuerying<P, O, ?> querying,
            Writeable.Reader<B> reader,
            BiFunction<String, P, B> create,
            SketchingService sketching
        ) {
        return new SearchPlugin.QuerySpec<>(
            querying.name(),
            in -> reader.read(in).sketching(sketching),
            parser -> fromXContent(querying, parser, create).sketching(sketching)
        );
    }
}
