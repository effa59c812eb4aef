package org.nearduplicate.opensearch.index.query;

import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a {@code minhash_similar} query or rescorer compares against: exactly one of a base64 {@code signature}
 * (optionally with the {@code algorithm} that made it, which must then equal the field's), a {@code like} document
 * (resolved to its stored signature during rewrite), a {@code text} or an {@code html} (signed with the field's
 * algorithm by the node's engine, through the field type).
 */
public final class MinHashProbe implements Writeable {
    public static final ParseField SIGNATURE_FIELD = new ParseField("signature");
    public static final ParseField ALGORITHM_FIELD = new ParseField("algorithm");
    public static final ParseField LIKE_FIELD = new ParseField("like");
    public static final ParseField TEXT_FIELD = new ParseField("text");
    public static final ParseField HTML_FIELD = new ParseField("html");

    private final String signature;
    private final String algorithm;
    private final LikeDocument like;
    private final String text;
    private final String html;

    private MinHashProbe(String signature, String algorithm, LikeDocument like, String text, String html) {
        int probes = (signature != null ? 1 : 0) + (like != null ? 1 : 0) + (text != null ? 1 : 0) + (html != null ? 1 : 0);
        if (probes != 1) {
            throw new IllegalArgumentException(
                "exactly one of [signature], [like], [text] or [html] is required, got " + (probes == 0 ? "none" : probes)
            );
        }
        if (algorithm != null && signature == null) {
            throw new IllegalArgumentException("[algorithm] describes a [signature] probe and cannot be combined with [like], [text] or [html]");
        }
        if (signature != null) {
            MinHashSignatures.fromBase64(signature); // fails early on malformed input
        }
        this.signature = signature;
        this.algorithm = algorithm;
        this.like = like;
        this.text = text;
        this.html = html;
    }

    /** A base64 signature made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static MinHashProbe signature(String base64, String algorithm) {
        return new MinHashProbe(Objects.requireNonNull(base64), algorithm, null, null, null);
    }

    public static MinHashProbe like(String index, String id, String routing) {
        return new MinHashProbe(null, null, new LikeDocument(index, id, routing), null, null);
    }

    public static MinHashProbe text(String text) {
        return new MinHashProbe(null, null, null, Objects.requireNonNull(text), null);
    }

    public static MinHashProbe html(String html) {
        return new MinHashProbe(null, null, null, null, Objects.requireNonNull(html));
    }

    public MinHashProbe(StreamInput in) throws IOException {
        this.signature = in.readOptionalString();
        this.algorithm = in.readOptionalString();
        this.like = in.readOptionalWriteable(LikeDocument::new);
        this.text = in.readOptionalString();
        this.html = in.readOptionalString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeOptionalString(signature);
        out.writeOptionalString(algorithm);
        out.writeOptionalWriteable(like);
        out.writeOptionalString(text);
        out.writeOptionalString(html);
    }

    public String signature() {
        return signature;
    }

    public String algorithm() {
        return algorithm;
    }

    public LikeDocument like() {
        return like;
    }

    public String text() {
        return text;
    }

    public String html() {
        return html;
    }

    /** True while the probe is a {@code like} document that still has to be fetched. */
    public boolean needsFetch() {
        return like != null;
    }

    /**
     * The {@code minhash} field a query or rescorer targets, or null when the field is not mapped.
     *
     * @param owner named in errors, e.g. {@code [minhash_similar]} or {@code [minhash_similar] rescorer}
     * @throws QueryShardException if the field has another type
     */
    public static MinHashFieldMapper.MinHashFieldType minHashField(QueryShardContext context, String field, String owner) {
        MappedFieldType mapped = context.fieldMapper(field);
        if (mapped == null) {
            return null;
        }
        if (mapped.unwrap() instanceof MinHashFieldMapper.MinHashFieldType fieldType) {
            return fieldType;
        }
        throw new QueryShardException(
            context,
            owner + " requires a field of type [" + MinHashFieldMapper.CONTENT_TYPE + "], but field [" + field + "] is of type ["
                + mapped.typeName() + "]"
        );
    }

    /**
     * The probe's signature for {@code fieldType}: a given signature (whose {@code algorithm}, if named, must be the
     * field's, and whose length must be the field's), or a text/html probe signed with the field's algorithm.
     *
     * @throws QueryShardException if the probe was made differently or cannot be signed
     */
    public int[] resolve(QueryShardContext context, String owner, MinHashFieldMapper.MinHashFieldType fieldType) {
        if (like != null) {
            throw new IllegalStateException("[like] probe must be fetched (rewritten) before the query is built");
        }
        try {
            if (signature != null) {
                if (algorithm != null && algorithm.equals(fieldType.algorithm()) == false) {
                    throw new IllegalArgumentException(
                        "the probe signature was made with algorithm [" + algorithm + "] but field [" + fieldType.name()
                            + "] is mapped with algorithm [" + fieldType.algorithm() + "]; signatures made differently cannot be compared"
                    );
                }
                return MinHashFieldMapper.parseSignature(signature, fieldType.hashes());
            }
            return text != null
                ? fieldType.probeSignature(text, NearDuplicateEngine.ProbeContent.TEXT)
                : fieldType.probeSignature(html, NearDuplicateEngine.ProbeContent.HTML);
        } catch (IllegalArgumentException e) {
            throw new QueryShardException(context, owner + " " + e.getMessage(), e);
        }
    }

    /** For a {@code like} probe: the document's signature probe once fetched during the rewrite (null until then). */
    public Supplier<MinHashProbe> fetchOnRewrite(QueryRewriteContext context, String field) {
        assert like != null;
        return like.fetchOnRewrite(context, field, (what, value) -> fromSourceValue(what, field, value));
    }

    /** A signature probe of a {@code like} document's value: a base64 string or the processor's {@code {"signature", "algorithm"}}. */
    static MinHashProbe fromSourceValue(String what, String field, Object value) {
        String algorithm = null;
        if (value instanceof Map<?, ?> map) {
            Object alg = map.get(MinHashFieldMapper.OBJECT_ALGORITHM);
            algorithm = alg == null ? null : alg.toString();
            value = map.get(MinHashFieldMapper.OBJECT_SIGNATURE);
            if (value == null) {
                throw new IllegalArgumentException(what + " has no [" + MinHashFieldMapper.OBJECT_SIGNATURE + "] in field [" + field + "]");
            }
        }
        if ((value instanceof String) == false) {
            throw new IllegalArgumentException(what + " has no base64 signature in field [" + field + "], got [" + value + "]");
        }
        String base64 = (String) value;
        try {
            return signature(base64, algorithm);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " has an invalid value in field [" + field + "]: " + e.getMessage(), e);
        }
    }

    /** Writes the probe's keys into the enclosing object. */
    public void toXContentFields(XContentBuilder builder) throws IOException {
        if (signature != null) {
            builder.field(SIGNATURE_FIELD.getPreferredName(), signature);
        }
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
    }

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser {
        private String signature;
        private String algorithm;
        private LikeDocument like;
        private String text;
        private String html;

        /** Consumes the value of {@code name} if it belongs to the probe; the parser is on the value's first token. */
        public boolean parse(String name, XContentParser parser) throws IOException {
            if (SIGNATURE_FIELD.match(name, parser.getDeprecationHandler())) {
                signature = string(name, parser);
            } else if (ALGORITHM_FIELD.match(name, parser.getDeprecationHandler())) {
                algorithm = string(name, parser);
            } else if (TEXT_FIELD.match(name, parser.getDeprecationHandler())) {
                text = string(name, parser);
            } else if (HTML_FIELD.match(name, parser.getDeprecationHandler())) {
                html = string(name, parser);
            } else if (LIKE_FIELD.match(name, parser.getDeprecationHandler())) {
                like = LikeDocument.parse(parser);
            } else {
                return false;
            }
            return true;
        }

        private static String string(String name, XContentParser parser) throws IOException {
            if (parser.currentToken() != XContentParser.Token.VALUE_STRING) {
                throw new ParsingException(parser.getTokenLocation(), "[" + name + "] must be a string, got [" + parser.currentToken() + "]");
            }
            return parser.text();
        }

        public MinHashProbe build(XContentParser parser, String owner) {
            try {
                return new MinHashProbe(signature, algorithm, like, text, html);
            } catch (IllegalArgumentException e) {
                throw new ParsingException(parser.getTokenLocation(), "[" + owner + "] " + e.getMessage());
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (o == null || getClass() != o.getClass()) return false;
        MinHashProbe that = (MinHashProbe) o;
        return Objects.equals(signature, that.signature)
            && Objects.equals(algorithm, that.algorithm)
            && Objects.equals(like, that.like)
            && Objects.equals(text, that.text)
            && Objects.equals(html, that.html);
    }

    @Override
    public int hashCode() {
        return Objects.hash(signature, algorithm, like, text, html);
    }

    @Override
    public String toString() {
        if (signature != null) return "signature[" + signature.length() + " chars]" + (algorithm == null ? "" : " (" + algorithm + ")");
        if (like != null) return like.toString();
        return text != null ? "text[" + text.length() + " chars]" : "html[" + html.length() + " chars]";
    }
}
