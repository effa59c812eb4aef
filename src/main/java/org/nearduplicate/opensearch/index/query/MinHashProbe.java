package org.nearduplicate.opensearch.index.query;

import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
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
    public static final ParseField ALGORITHM_FIELD = ProbeInput.ALGORITHM_FIELD;
    public static final ParseField LIKE_FIELD = ProbeInput.LIKE_FIELD;
    public static final ParseField TEXT_FIELD = ProbeInput.TEXT_FIELD;
    public static final ParseField HTML_FIELD = ProbeInput.HTML_FIELD;

    private final String signature;
    private final ProbeInput input;

    private MinHashProbe(String signature, ProbeInput input) {
        input.validate(signature != null ? 1 : 0, SIGNATURE_FIELD.getPreferredName());
        if (signature != null) {
            MinHashSignatures.fromBase64(signature); // fails early on malformed input
        }
        this.signature = signature;
        this.input = input;
    }

    /** A base64 signature made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static MinHashProbe signature(String base64, String algorithm) {
        return new MinHashProbe(Objects.requireNonNull(base64), new ProbeInput(algorithm, null, null, null));
    }

    public static MinHashProbe like(String index, String id, String routing) {
        return new MinHashProbe(null, new ProbeInput(null, new LikeDocument(index, id, routing), null, null));
    }

    public static MinHashProbe text(String text) {
        return new MinHashProbe(null, new ProbeInput(null, null, Objects.requireNonNull(text), null));
    }

    public static MinHashProbe html(String html) {
        return new MinHashProbe(null, new ProbeInput(null, null, null, Objects.requireNonNull(html)));
    }

    public MinHashProbe(StreamInput in) throws IOException {
        this.signature = in.readOptionalString();
        this.input = new ProbeInput(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeOptionalString(signature);
        input.writeTo(out);
    }

    public String signature() {
        return signature;
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
        if (input.like != null) {
            throw new IllegalStateException("[like] probe must be fetched (rewritten) before the query is built");
        }
        try {
            if (signature != null) {
                input.requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe signature was", "signatures");
                return MinHashFieldMapper.parseSignature(signature, fieldType.hashes());
            }
            return input.sketch(fieldType::probeSignature);
        } catch (IllegalArgumentException e) {
            throw new QueryShardException(context, owner + " " + e.getMessage(), e);
        }
    }

    /** For a {@code like} probe: the document's signature probe once fetched during the rewrite (null until then). */
    public Supplier<MinHashProbe> fetchOnRewrite(QueryRewriteContext context, String field) {
        assert input.like != null;
        return input.like.fetchOnRewrite(context, field, (what, value) -> fromSourceValue(what, field, value));
    }

    /** A signature probe of a {@code like} document's value: a base64 string or the processor's {@code {"signature", "algorithm"}}. */
    static MinHashProbe fromSourceValue(String what, String field, Object value) {
        ProbeInput.SourceValue stored = ProbeInput.SourceValue.of(
            what,
            field,
            value,
            MinHashFieldMapper.OBJECT_SIGNATURE,
            MinHashFieldMapper.OBJECT_ALGORITHM
        );
        if ((stored.value() instanceof String) == false) {
            throw new IllegalArgumentException(what + " has no base64 signature in field [" + field + "], got [" + stored.value() + "]");
        }
        String base64 = (String) stored.value();
        try {
            return signature(base64, stored.algorithm());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " has an invalid value in field [" + field + "]: " + e.getMessage(), e);
        }
    }

    /** Writes the probe's keys into the enclosing object. */
    public void toXContentFields(XContentBuilder builder) throws IOException {
        if (signature != null) {
            builder.field(SIGNATURE_FIELD.getPreferredName(), signature);
        }
        input.toXContentFields(builder);
    }

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser {
        private String signature;
        private final ProbeInput.Parser input = new ProbeInput.Parser();

        /** Consumes the value of {@code name} if it belongs to the probe; the parser is on the value's first token. */
        public boolean parse(String name, XContentParser parser) throws IOException {
            if (SIGNATURE_FIELD.match(name, parser.getDeprecationHandler())) {
                signature = ProbeInput.Parser.string(name, parser);
                return true;
            }
            return input.parse(name, parser);
        }

        public MinHashProbe build(XContentParser parser, String owner) {
            try {
                return new MinHashProbe(signature, input.build());
            } catch (IllegalArgumentException e) {
                throw new ParsingException(parser.getTokenLocation(), "[" + owner + "] " + e.getMessage());
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MinHashProbe that && Objects.equals(signature, that.signature) && input.equals(that.input);
    }

    @Override
    public int hashCode() {
        return Objects.hash(signature, input);
    }

    @Override
    public String toString() {
        return signature != null ? "signature[" + signature.length() + " chars]" + input.describeAlgorithm() : input.describe();
    }
}
