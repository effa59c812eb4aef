package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.search.Query;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryRewriteContext;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.probe.ProbeRules;

/**
 * What a query or rescorer compares against: the method's sketch value given in the request (a SimHash fingerprint, a
 * MinHash signature), or the {@link ProbeInput} that makes one (a {@code like} document, a {@code text}, an
 * {@code html}). Everything but the value is the same for every method, so it lives here once: the checks, the wire
 * format (the value, then the input), the rendering, the parser, the {@code like} fetch, the coordinator-side sketch and
 * the shard-side resolution. A method plugs in with its {@link ProbeValueType}, and {@link ProbeRewrite} drives the rewrite.
 *
 * @param <V> the method's given sketch value, e.g. a fingerprint
 * @param <P> the method's probe type
 */
public abstract class Probe<V, P extends Probe<V, P>> implements Writeable {

    final V value;
    final ProbeInput input;
    private final ProbeValueType<V, P> type;

    /** Checks that the probe is exactly one of the value or the input's {@code like}, {@code text} or {@code html}. */
    protected Probe(ProbeValueType<V, P> type, V value, ProbeInput input) {
        input.validate(value == null ? 0 : type.givenKeys(value), type.valueKeys());
        if (value != null) {
            type.check(value);
        }
        this.type = type;
        this.value = value;
        this.input = input;
    }

    /** Reads the value, then the input (unchecked: the sender checked them). */
    protected Probe(ProbeValueType<V, P> type, StreamInput in) throws IOException {
        this.type = type;
        this.value = type.read(in);
        this.input = new ProbeInput(in);
    }

    /** The type of this probe's given value. */
    final ProbeValueType<V, P> type() {
        return type;
    }

    @Override
    public final void writeTo(StreamOutput out) throws IOException {
        type.write(out, value);
        input.writeTo(out);
    }

    /**
     * The given sketch value, or null for a {@code like}, {@code text} or {@code html} probe. This accessor, {@link #input},
     * the constructors, {@link #resolve} and {@link #fromSourceValue} are the contract a method's probe builds on.
     */
    protected final V value() {
        return value;
    }

    /** The half that does not depend on the sketch: the contract a method's probe builds on. */
    protected final ProbeInput input() {
        return input;
    }

    public String algorithm() {
        return input.algorithm;
    }

    public LikeDocument like() {
        return input.like;
    }

    public String text() {
        return input.text;
    }

    public String html() {
        return input.html;
    }

    /** True while the probe is a {@code like} document that still has to be fetched. */
    public boolean needsFetch() {
        return input.like != null;
    }

    /** True for a {@code text} or {@code html} probe (sketched with the target field's algorithm). */
    public boolean isContent() {
        return input.isContent();
    }

    /**
     * For a {@code like} probe: registers the GET of the document with the rewrite, and returns what supplies the
     * document's value probe once it is fetched (null until then).
     */
    public Supplier<P> fetchOnRewrite(QueryRewriteContext context, String field) {
        assert input.like != null;
        LikeDocument like = input.like;
        boolean exclude = input.excluded != null;
        return like.fetchOnRewrite(context, field, (LikeDocument.IndexedSourceValueReader<P>) (what, concreteIndex, stored) -> {
            P fetched = fromSourceValue(type, what, field, stored);
            // include_like: false: the document stays excluded, named by its concrete index (the like may name an alias)
            return exclude
                ? type.create(fetched.value, fetched.input.excluding(new LikeDocument(concreteIndex, like.id(), like.routing())))
                : fetched;
        });
    }

    /** The document {@code include_like: false} excludes from the hits, or null. */
    public LikeDocument excluded() {
        return input.excluded;
    }

    /**
     * What matches the excluded document on this shard's index (its {@code _id}), or null when nothing is excluded here:
     * no document is, or it lives in another index.
     */
    public Query excludedQuery(ShardContext context) {
        LikeDocument excluded = input.excluded;
        if (excluded == null || excluded.index().equals(context.indexName()) == false) {
            return null;
        }
        return context.idQuery(excluded.id());
    }

    /** The value probe of a {@code like} document's value: the value itself, or the processor's object with it and its algorithm. */
    protected static <V, P extends Probe<V, P>> P fromSourceValue(ProbeValueType<V, P> type, String what, String field, Object value) {
        ProbeRules.StoredValue stored = ProbeRules.StoredValue.of(what, field, value, type.storedValueKey(), type.storedAlgorithmKey());
        V sketch = type.stored(what, field, stored.value(), value);
        try {
            return type.create(sketch, ProbeInput.given(stored.algorithm()));
        } catch (IllegalArgumentException e) {
            throw ProbeRules.invalidStoredValue(what, field, e);
        }
    }

    /**
     * For a {@code text}/{@code html} probe on the coordinating node of a search: registers, with the rewrite, a lookup
     * of the target field's algorithm in the mappings of the searched indices, and sketches the probe once there, so
     * that the shards receive a value probe (with its {@code algorithm}, which each shard checks against its mapping)
     * instead of sketching the text each. Returns what supplies the rewritten probe once known (null until then): the
     * value probe, or this probe unchanged when the searched indices map the field with several algorithms or with
     * another type (the shards then sketch it, or report the error). Returns null without registering anything
     * outside a search's coordinating rewrite or without an engine.
     *
     * @param owner prefixes a 400 error of the engine, e.g. {@code [near_duplicate]}
     */
    public Supplier<P> sketchOnCoordinator(QueryRewriteContext context, String field, SketchingService sketching, String owner) {
        assert isContent();
        Supplier<Optional<P>> outcome = CoordinatorFingerprinting.register(
            context,
            field,
            type.fieldType(),
            sketching,
            owner,
            algorithm -> type.create(
                input.sketch((content, kind) -> type.sketch(sketching, algorithm, content, kind)),
                ProbeInput.given(algorithm)
            )
        );
        if (outcome == null) {
            return null;
        }
        P self = self();
        return () -> {
            Optional<P> known = outcome.get();
            return known == null ? null : known.orElse(self);
        };
    }

    @SuppressWarnings("unchecked")
    private P self() {
        return (P) this;
    }

    /**
     * The sketch a shard compares with: {@code given} of the value (which checks it against the field), or the
     * text/html probe sketched by the field type.
     *
     * @param owner prefixes the errors, e.g. {@code [near_duplicate]}
     * @throws RuntimeException the shard's failure if {@code given} or {@code sketch} refuse the probe
     */
    protected final <R> R resolve(
        ShardContext context,
        String owner,
        Function<V, R> given,
        BiFunction<String, SketchingService.ProbeContent, R> sketch
    ) {
        if (input.like != null) {
            throw new IllegalStateException("[like] probe must be fetched (rewritten) before the query is built");
        }
        try {
            return value != null ? given.apply(value) : input.sketch(sketch);
        } catch (IllegalArgumentException e) {
            throw context.failure(owner + " " + e.getMessage(), e);
        }
    }

    /** Writes the probe's keys into the enclosing object: the value's, then the input's. */
    public void toXContentFields(XContentBuilder builder) throws IOException {
        if (value != null) {
            type.toXContent(builder, value);
        }
        input.toXContentFields(builder);
    }

    /** Collects a probe's keys while an enclosing object is parsed. */
    public static class Parser<V, P extends Probe<V, P>> {
        private final ProbeValueType<V, P> type;
        private final ProbeValueType.ValueParser<V> value;
        private final ProbeInput.Parser input = new ProbeInput.Parser();

        protected Parser(ProbeValueType<V, P> type) {
            this.type = type;
            this.value = type.parser();
        }

        /** Consumes the value of {@code name} if it belongs to the probe; the parser is on the value's first token. */
        public boolean parse(String name, XContentParser parser) throws IOException {
            return value.parse(name, parser) || input.parse(name, parser);
        }

        /** The probe; a 400 naming {@code owner} if it is not exactly one probe. */
        public P build(XContentParser parser, String owner) {
            try {
                return type.create(value.value(), input.build());
            } catch (IllegalArgumentException e) {
                throw new ParsingException(parser.getTokenLocation(), "[" + owner + "] " + e.getMessage());
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o != null
            && o.getClass() == getClass()
            && Objects.equals(value, ((Probe<?, ?>) o).value)
            && input.equals(((Probe<?, ?>) o).input);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, input);
    }

    @Override
    public String toString() {
        return value != null ? type.describe(value) + input.describeAlgorithm() : input.describe();
    }
}
