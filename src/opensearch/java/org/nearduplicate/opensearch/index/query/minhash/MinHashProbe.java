package org.nearduplicate.opensearch.index.query.minhash;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.io.stream.StreamInput;

import java.io.IOException;
import java.util.Objects;

import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.index.query.Probe;
import org.nearduplicate.opensearch.index.query.ProbeInput;
import org.nearduplicate.opensearch.index.query.ProbeKind;

/**
 * What a {@code minhash_similar} query or rescorer compares against: exactly one of a base64 {@code signature}
 * (optionally with the {@code algorithm} that made it, which must then equal the field's), a {@code like} document
 * (resolved to its stored signature during rewrite), a {@code text} or an {@code html} (signed with the field's
 * algorithm, once on the coordinating node or else by each shard's field type). Its given value is
 * {@link MinHashValueType}'s; everything else is {@link Probe}'s. The query's and the rescorer's parts are
 * {@link MinHashQuerying} and {@link MinHashRescoring}.
 */
public final class MinHashProbe extends Probe<String, MinHashProbe> {
    /** The name of the method's query and rescorer. */
    public static final String NAME = "minhash_similar";
    public static final ParseField SIGNATURE_FIELD = new ParseField("signature");
    public static final ParseField ALGORITHM_FIELD = ProbeInput.ALGORITHM_FIELD;
    public static final ParseField LIKE_FIELD = ProbeInput.LIKE_FIELD;
    public static final ParseField TEXT_FIELD = ProbeInput.TEXT_FIELD;
    public static final ParseField HTML_FIELD = ProbeInput.HTML_FIELD;

    MinHashProbe(String signature, ProbeInput input) {
        super(MinHashValueType.INSTANCE, signature, input);
    }

    public MinHashProbe(StreamInput in) throws IOException {
        super(MinHashValueType.INSTANCE, in);
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
        return value();
    }

    /**
     * The {@code minhash} field a query or rescorer targets, or null when the field is not mapped.
     *
     * @param owner named in errors, e.g. {@code [minhash_similar]} or {@code [minhash_similar] rescorer}
     * @throws RuntimeException the shard's failure if the field has another type
     */
    public static MinHashFieldMapper.MinHashFieldType minHashField(ShardContext context, String field, String owner) {
        return ProbeInput.targetField(context, field, owner, MinHashFieldMapper.MinHashFieldType.class, MinHashFieldMapper.CONTENT_TYPE);
    }

    /**
     * The probe's signature for {@code fieldType}: a given signature (whose {@code algorithm}, if named, must be the
     * field's, and whose length must be the field's), or a text/html probe signed with the field's algorithm.
     *
     * @throws RuntimeException the shard's failure if the probe was made differently or cannot be signed
     */
    public int[] resolve(ShardContext context, String owner, MinHashFieldMapper.MinHashFieldType fieldType) {
        return resolve(context, owner, signature -> {
            input().requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe signature was", "signatures");
            return MinHashFieldMapper.parseSignature(signature, fieldType.hashes());
        }, fieldType::probeSignature);
    }

    /** The probe as the query and the rescorer register and read it. */
    public static final ProbeKind<MinHashProbe> KIND = new ProbeKind<>(NAME, MinHashProbe::new, Parser::new);

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser extends Probe.Parser<String, MinHashProbe> {
        public Parser() {
            super(MinHashValueType.INSTANCE);
        }
    }
}
