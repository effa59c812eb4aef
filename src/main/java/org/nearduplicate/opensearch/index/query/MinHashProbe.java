package org.nearduplicate.opensearch.index.query;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.Objects;

import org.nearduplicate.core.sketch.MinHashSignatures;
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
    public static final ParseField SIGNATURE_FIELD = new ParseField("signature");
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
            return MinHashSignatures.toBase64(engine.minHashProbe(algorithm, content, type));
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

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser extends Probe.Parser<String, MinHashProbe> {
        public Parser() {
            super(METHOD);
        }
    }
}
