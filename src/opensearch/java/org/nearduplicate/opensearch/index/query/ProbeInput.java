package org.nearduplicate.opensearch.index.query;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.MappedFieldType;

import java.io.IOException;
import java.util.Objects;
import java.util.function.BiFunction;

import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.probe.ProbeRules;

/**
 * The half of a {@link Probe} that does not depend on the sketch, shared by {@code SimHashProbe} (fingerprints)
 * and {@code MinHashProbe} (signatures): the {@code algorithm} a given sketch value was made with, or a {@code like}
 * document, a {@code text} or an {@code html} to sketch with the field's algorithm. Each probe owns its value keys and
 * the checks of its value; the keys, the wire format, the rendering and the messages of this half are the same for
 * both (the wire format writes this half after the probe's value).
 *
 * <p>Its public members are the contract a method's probe builds on (each method lives in a package of its own).
 */
public final class ProbeInput implements Writeable {
    public static final ParseField ALGORITHM_FIELD = new ParseField("algorithm");
    public static final ParseField LIKE_FIELD = new ParseField("like");
    public static final ParseField TEXT_FIELD = new ParseField("text");
    public static final ParseField HTML_FIELD = new ParseField("html");
    /** {@code false}: the {@code like} document itself is not a hit (as {@code more_like_this}'s {@code include: false}). */
    static final ParseField INCLUDE_LIKE_FIELD = new ParseField("include_like");
    /** How a rewritten {@code like} probe with {@code include_like: false} names the document it excludes. */
    static final ParseField EXCLUDED_LIKE_FIELD = new ParseField("excluded_like");

    final String algorithm;
    final LikeDocument like;
    final String text;
    final String html;
    /**
     * The document that is not a hit, or null: the {@code like} document of {@code include_like: false}, kept (with its
     * concrete index) when the rewrite replaces the {@code like} probe by the document's value.
     */
    final LikeDocument excluded;

    ProbeInput(String algorithm, LikeDocument like, String text, String html) {
        this(algorithm, like, text, html, null);
    }

    ProbeInput(String algorithm, LikeDocument like, String text, String html, LikeDocument excluded) {
        this.algorithm = algorithm;
        this.like = like;
        this.text = text;
        this.html = html;
        this.excluded = excluded;
    }

    /** This input excluding {@code document} from the hits (null: none). */
    ProbeInput excluding(LikeDocument document) {
        return new ProbeInput(algorithm, like, text, html, document);
    }

    /** A given sketch value's half: only the {@code algorithm} that made it (null: unknown). */
    public static ProbeInput given(String algorithm) {
        return new ProbeInput(algorithm, null, null, null);
    }

    public static ProbeInput like(String index, String id, String routing) {
        return new ProbeInput(null, new LikeDocument(index, id, routing), null, null);
    }

    public static ProbeInput text(String text) {
        return new ProbeInput(null, null, Objects.requireNonNull(text), null);
    }

    public static ProbeInput html(String html) {
        return new ProbeInput(null, null, null, Objects.requireNonNull(html));
    }

    ProbeInput(StreamInput in) throws IOException {
        this.algorithm = in.readOptionalString();
        this.like = in.readOptionalWriteable(LikeDocument::new);
        this.text = in.readOptionalString();
        this.html = in.readOptionalString();
        this.excluded = in.readOptionalWriteable(LikeDocument::new);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeOptionalString(algorithm);
        out.writeOptionalWriteable(like);
        out.writeOptionalString(text);
        out.writeOptionalString(html);
        out.writeOptionalWriteable(excluded);
    }

    /**
     * Requires exactly one probe among the {@code givenValues} sketch values the probe was given (named by
     * {@code valueKeys}, e.g. {@code fingerprint}) and this half's {@code like}, {@code text} and {@code html}, and an
     * {@code algorithm} only next to a sketch value.
     *
     * @throws IllegalArgumentException otherwise
     */
    void validate(int givenValues, String... valueKeys) {
        ProbeRules.requireOne(givenValues, valueKeys, like != null, text != null, html != null);
        if (like != null && excluded != null && excluded.equals(like) == false) {
            throw new IllegalArgumentException("[excluded_like] describes a rewritten [like] probe; use [include_like] with [like]");
        }
        ProbeRules.requireAlgorithmWithValue(algorithm != null, givenValues, valueKeys[0]);
    }

    /**
     * @param subject e.g. {@code the probe fingerprint was}
     * @param plural  e.g. {@code fingerprints}
     * @throws IllegalArgumentException if this probe names an algorithm other than the field's
     */
    public void requireFieldAlgorithm(String field, String fieldAlgorithm, String subject, String plural) {
        ProbeRules.requireFieldAlgorithm(algorithm, field, fieldAlgorithm, subject, plural);
    }

    /** The algorithm the probe's value names, or null (none: the field's). */
    public String algorithm() {
        return algorithm;
    }

    boolean isContent() {
        return text != null || html != null;
    }

    /** Sketches the {@code text} or {@code html} probe with {@code sketcher}. */
    <T> T sketch(BiFunction<String, SketchingService.ProbeContent, T> sketcher) {
        assert isContent();
        return text != null
            ? sketcher.apply(text, SketchingService.ProbeContent.TEXT)
            : sketcher.apply(html, SketchingService.ProbeContent.HTML);
    }

    /**
     * The field a query or rescorer targets, of the probe's field type, or null when the field is not mapped.
     *
     * @param typeName the field type's name, for the error
     * @throws RuntimeException the shard's failure if the field has another type
     */
    public static <T extends MappedFieldType> T targetField(
        ShardContext context,
        String field,
        String owner,
        Class<T> type,
        String typeName
    ) {
        MappedFieldType mapped = context.fieldType(field);
        if (mapped == null) {
            return null;
        }
        if (type.isInstance(Platform.unwrap(mapped))) {
            return type.cast(Platform.unwrap(mapped));
        }
        throw context.failure(
            owner + " requires a field of type [" + typeName + "], but field [" + field + "] is of type [" + mapped.typeName() + "]"
        );
    }

    /** Writes this half's keys into the enclosing object, after the probe's value. */
    void toXContentFields(XContentBuilder builder) throws IOException {
        if (algorithm != null) {
            builder.field(ALGORITHM_FIELD.getPreferredName(), algorithm);
        }
        if (like != null) {
            like.toXContent(LIKE_FIELD.getPreferredName(), builder);
        }
        if (text != null) {
            builder.field(TEXT_FIELD.getPreferredName(), text);
        }
        if (html != null) {
            builder.field(HTML_FIELD.getPreferredName(), html);
        }
        if (excluded != null) {
            if (like != null) {
                builder.field(INCLUDE_LIKE_FIELD.getPreferredName(), false);
            } else {
                excluded.toXContent(EXCLUDED_LIKE_FIELD.getPreferredName(), builder);
            }
        }
    }

    /** How a probe without a sketch value reads in logs and profiles; {@code algorithm} is appended to a value's own. */
    String describe() {
        if (like != null) return like + describeExcluded();
        return (text != null ? "text[" + text.length() + " chars]" : "html[" + html.length() + " chars]") + describeExcluded();
    }

    String describeAlgorithm() {
        return (algorithm == null ? "" : " (" + algorithm + ")") + describeExcluded();
    }

    private String describeExcluded() {
        return excluded == null ? "" : " excluding [" + excluded.index() + "][" + excluded.id() + "]";
    }

    /** Collects this half's keys while an enclosing object is parsed. */
    public static final class Parser {
        private String algorithm;
        private LikeDocument like;
        private String text;
        private String html;
        private Boolean includeLike;
        private LikeDocument excluded;

        Parser() {}

        /** Consumes the value of {@code name} if it is one of this half's keys; the parser is on the value's first token. */
        boolean parse(String name, XContentParser parser) throws IOException {
            if (ALGORITHM_FIELD.match(name, parser.getDeprecationHandler())) {
                algorithm = string(name, parser);
            } else if (TEXT_FIELD.match(name, parser.getDeprecationHandler())) {
                text = string(name, parser);
            } else if (HTML_FIELD.match(name, parser.getDeprecationHandler())) {
                html = string(name, parser);
            } else if (LIKE_FIELD.match(name, parser.getDeprecationHandler())) {
                like = LikeDocument.parse(parser);
            } else if (INCLUDE_LIKE_FIELD.match(name, parser.getDeprecationHandler())) {
                if (parser.currentToken() != XContentParser.Token.VALUE_BOOLEAN) {
                    throw new ParsingException(
                        parser.getTokenLocation(),
                        "[" + name + "] must be true or false, got [" + parser.currentToken() + "]"
                    );
                }
                includeLike = parser.booleanValue();
            } else if (EXCLUDED_LIKE_FIELD.match(name, parser.getDeprecationHandler())) {
                excluded = LikeDocument.parse(parser);
            } else {
                return false;
            }
            return true;
        }

        /** @throws IllegalArgumentException for {@code include_like} without {@code like} */
        ProbeInput build() {
            if (includeLike != null && like == null) {
                throw new IllegalArgumentException("[include_like] goes with a [like] probe");
            }
            LikeDocument exclude = Boolean.FALSE.equals(includeLike) ? like : excluded;
            return new ProbeInput(algorithm, like, text, html, exclude);
        }

        /** The string value of key {@code name}; a parsing error if the value is not a string. */
        public static String string(String name, XContentParser parser) throws IOException {
            if (parser.currentToken() != XContentParser.Token.VALUE_STRING) {
                throw new ParsingException(
                    parser.getTokenLocation(),
                    "[" + name + "] must be a string, got [" + parser.currentToken() + "]"
                );
            }
            return parser.text();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProbeInput that
            && Objects.equals(algorithm, that.algorithm)
            && Objects.equals(like, that.like)
            && Objects.equals(text, that.text)
            && Objects.equals(html, that.html)
            && Objects.equals(excluded, that.excluded);
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, like, text, html, excluded);
    }
}
