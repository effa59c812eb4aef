package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.search.Query;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.IdFieldMapper;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * What a query or rescorer compares against: the method's sketch value given in the request (a SimHash fingerprint, a
 * MinHash signature), or the {@link ProbeInput} that makes one (a {@code like} document, a {@code text}, an
 * {@code html}). Everything but the value is the same for every method, so it lives here once: the checks, the wire
 * format (the value, then the input), the rendering, the parser, the {@code like} fetch, the coordinator-side sketch and
 * the shard-side resolution. A method plugs in with its {@link Method}, and {@link ProbeRewrite} drives the rewrite.
 *
 * @param <V> the method's given sketch value, e.g. a fingerprint
 * @param <P> the method's probe type
 */
public abstract class Probe<V, P extends Probe<V, P>> implements Writeable {

    /**
     * The method-specific part of a probe: how its sketch value is checked, written, read, rendered and parsed, how
     * the engine sketches a text with an algorithm, and how a {@code like} document's stored value is read.
     */
    interface Method<V, P extends Probe<V, P>> {
        /** The probe of {@code value} (null for a like, text or html probe) and {@code input}; checks both. */
        P create(V value, ProbeInput input);

        /** The request keys of the value, e.g. {@code fingerprint}; the first names the value in errors. */
        String[] valueKeys();

        /** How many of the {@link #valueKeys} a (non-null) value was given with: more than one is refused. */
        int givenKeys(V value);

        /**
         * Checks a value beyond its count of keys, e.g. that a signature is base64.
         *
         * @throws IllegalArgumentException if it is invalid
         */
        void check(V value);

        /** Reads what {@link #write} wrote: the value or null. */
        V read(StreamInput in) throws IOException;

        /** Writes the value, which may be null. */
        void write(StreamOutput out, V value) throws IOException;

        /** Writes the value's keys into the enclosing object. */
        void toXContent(XContentBuilder builder, V value) throws IOException;

        /** Collects the value's keys while an enclosing object is parsed. */
        ValueParser<V> parser();

        /** How the value reads in logs and profiles. */
        String describe(V value);

        /** The mapping type of the target field, e.g. {@code simhash}. */
        String fieldType();

        /** Sketches a text/html probe with the engine and {@code algorithm} (on the coordinating node). */
        V sketch(SketchingService engine, String algorithm, String content, SketchingService.ProbeContent type);

        /** The keys of the ingest processor's object in {@code _source}: the value's and the algorithm's. */
        String storedValueKey();

        String storedAlgorithmKey();

        /**
         * The value stored in a {@code like} document's field (the value itself, or the processor object's).
         *
         * @param what names the document in errors, e.g. {@code [like] document [pages][42]}
         * @throws IllegalArgumentException if it is not such a value
         */
        V stored(String what, String field, Object value);

        /** {@link #stored(String, String, Object)} with the whole stored value at hand (the processor's object, if it is one). */
        default V stored(String what, String field, Object value, Object whole) {
            return stored(what, field, value);
        }
    }

    /** Consumes the keys of a probe's sketch value while an enclosing object is parsed. */
    interface ValueParser<V> {
        /** Consumes the value of {@code name} if it is one of the value's keys; the parser is on the value's first token. */
        boolean parse(String name, XContentParser parser) throws IOException;

        /** The value collected, or null if none of its keys was given. */
        V value();
    }

    final V value;
    final ProbeInput input;
    private final Method<V, P> method;

    /** Checks that the probe is exactly one of the value or the input's {@code like}, {@code text} or {@code html}. */
    Probe(Method<V, P> method, V value, ProbeInput input) {
        input.validate(value == null ? 0 : method.givenKeys(value), method.valueKeys());
        if (value != null) {
            method.check(value);
        }
        this.method = method;
        this.value = value;
        this.input = input;
    }

    /** Reads the value, then the input (unchecked: the sender checked them). */
    Probe(Method<V, P> method, StreamInput in) throws IOException {
        this.method = method;
        this.value = method.read(in);
        this.input = new ProbeInput(in);
    }

    /** The method this probe is of. */
    final Method<V, P> method() {
        return method;
    }

    @Override
    public final void writeTo(StreamOutput out) throws IOException {
        method.write(out, value);
        input.writeTo(out);
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
            P fetched = fromSourceValue(method, what, field, stored);
            // include_like: false: the document stays excluded, named by its concrete index (the like may name an alias)
            return exclude
                ? method.create(fetched.value, fetched.input.excluding(new LikeDocument(concreteIndex, like.id(), like.routing())))
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
    public Query excludedQuery(QueryShardContext context) {
        LikeDocument excluded = input.excluded;
        if (excluded == null || excluded.index().equals(context.index().getName()) == false) {
            return null;
        }
        MappedFieldType id = context.fieldMapper(IdFieldMapper.NAME);
        return id == null ? null : id.termQuery(excluded.id(), context);
    }

    /** The value probe of a {@code like} document's value: the value itself, or the processor's object with it and its algorithm. */
    static <V, P extends Probe<V, P>> P fromSourceValue(Method<V, P> method, String what, String field, Object value) {
        ProbeInput.SourceValue stored = ProbeInput.SourceValue.of(what, field, value, method.storedValueKey(), method.storedAlgorithmKey());
        V sketch = method.stored(what, field, stored.value(), value);
        try {
            return method.create(sketch, ProbeInput.given(stored.algorithm()));
        } catch (IllegalArgumentException e) {
            throw invalidStoredValue(what, field, e);
        }
    }

    /** The error of a {@code like} document whose field holds no valid value. */
    static IllegalArgumentException invalidStoredValue(String what, String field, IllegalArgumentException e) {
        return new IllegalArgumentException(what + " has an invalid value in field [" + field + "]: " + e.getMessage(), e);
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
    public Supplier<P> sketchOnCoordinator(QueryRewriteContext context, String field, SketchingService engine, String owner) {
        assert isContent();
        Supplier<Optional<P>> outcome = CoordinatorFingerprinting.register(
            context,
            field,
            method.fieldType(),
            engine,
            owner,
            algorithm -> method.create(
                input.sketch((content, type) -> method.sketch(engine, algorithm, content, type)),
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
     * @throws QueryShardException if {@code given} or {@code sketch} refuse the probe
     */
    final <R> R resolve(
        QueryShardContext context,
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
            throw new QueryShardException(context, owner + " " + e.getMessage(), e);
        }
    }

    /** Writes the probe's keys into the enclosing object: the value's, then the input's. */
    public void toXContentFields(XContentBuilder builder) throws IOException {
        if (value != null) {
            method.toXContent(builder, value);
        }
        input.toXContentFields(builder);
    }

    /** Collects a probe's keys while an enclosing object is parsed. */
    public static class Parser<V, P extends Probe<V, P>> {
        private final Method<V, P> method;
        private final ValueParser<V> value;
        private final ProbeInput.Parser input = new ProbeInput.Parser();

        Parser(Method<V, P> method) {
            this.method = method;
            this.value = method.parser();
        }

        /** Consumes the value of {@code name} if it belongs to the probe; the parser is on the value's first token. */
        public boolean parse(String name, XContentParser parser) throws IOException {
            return value.parse(name, parser) || input.parse(name, parser);
        }

        /** The probe; a 400 naming {@code owner} if it is not exactly one probe. */
        public P build(XContentParser parser, String owner) {
            try {
                return method.create(value.value(), input.build());
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
        return value != null ? method.describe(value) + input.describeAlgorithm() : input.describe();
    }
}
