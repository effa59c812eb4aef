package org.nearduplicate.opensearch.index.query;

import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a {@code near_duplicate} query or rescorer compares against: exactly one of a {@code fingerprint}, a
 * {@code like} document (resolved to its fingerprint during rewrite), a {@code text} or an {@code html} (fingerprinted
 * with the field's algorithm by the node's engine, through the field type). An optional {@code algorithm} names how a
 * given fingerprint was made; it must then equal the field's mapping.
 */
public final class NearDuplicateProbe implements Writeable {
    public static final ParseField FINGERPRINT_FIELD = new ParseField("fingerprint");
    public static final ParseField FINGERPRINTS_FIELD = new ParseField("fingerprints");
    public static final ParseField ALGORITHM_FIELD = ProbeInput.ALGORITHM_FIELD;
    public static final ParseField LIKE_FIELD = ProbeInput.LIKE_FIELD;
    public static final ParseField TEXT_FIELD = ProbeInput.TEXT_FIELD;
    public static final ParseField HTML_FIELD = ProbeInput.HTML_FIELD;

    private final Long fingerprint;
    /** Several fingerprints: documents within k of any of them (the query only; {@code near_duplicate_check} batches). */
    private final long[] fingerprints;
    private final ProbeInput input;

    private NearDuplicateProbe(Long fingerprint, long[] fingerprints, ProbeInput input) {
        input.validate(
            (fingerprint != null ? 1 : 0) + (fingerprints != null ? 1 : 0),
            FINGERPRINT_FIELD.getPreferredName(),
            FINGERPRINTS_FIELD.getPreferredName()
        );
        if (fingerprints != null && fingerprints.length == 0) {
            throw new IllegalArgumentException("[fingerprints] must not be empty");
        }
        this.fingerprint = fingerprint;
        this.fingerprints = fingerprints;
        this.input = input;
    }

    public static NearDuplicateProbe fingerprint(long fingerprint) {
        return fingerprint(fingerprint, null);
    }

    /** A fingerprint that was made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static NearDuplicateProbe fingerprint(long fingerprint, String algorithm) {
        return new NearDuplicateProbe(fingerprint, null, new ProbeInput(algorithm, null, null, null));
    }

    /** Documents within k of any of {@code fingerprints}; the {@code near_duplicate} query only (not the rescorer). */
    public static NearDuplicateProbe fingerprints(long[] fingerprints) {
        return fingerprints(fingerprints, null);
    }

    /** As {@link #fingerprints(long[])}, made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static NearDuplicateProbe fingerprints(long[] fingerprints, String algorithm) {
        return new NearDuplicateProbe(null, fingerprints.clone(), new ProbeInput(algorithm, null, null, null));
    }

    public static NearDuplicateProbe like(String index, String id, String routing) {
        return new NearDuplicateProbe(null, null, new ProbeInput(null, new LikeDocument(index, id, routing), null, null));
    }

    public static NearDuplicateProbe text(String text) {
        return new NearDuplicateProbe(null, null, new ProbeInput(null, null, Objects.requireNonNull(text), null));
    }

    public static NearDuplicateProbe html(String html) {
        return new NearDuplicateProbe(null, null, new ProbeInput(null, null, null, Objects.requireNonNull(html)));
    }

    public NearDuplicateProbe(StreamInput in) throws IOException {
        this.fingerprint = in.readOptionalLong();
        this.fingerprints = in.readBoolean() ? in.readLongArray() : null;
        this.input = new ProbeInput(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeOptionalLong(fingerprint);
        out.writeBoolean(fingerprints != null);
        if (fingerprints != null) {
            out.writeLongArray(fingerprints);
        }
        input.writeTo(out);
    }

    public Long fingerprint() {
        return fingerprint;
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
     * The {@code simhash} field a query or rescorer targets, or null when the field is not mapped (the caller decides
     * what that means).
     *
     * @param owner named in errors, e.g. {@code [near_duplicate]} or {@code [near_duplicate] rescorer}
     * @throws QueryShardException if the field has another type
     */
    public static SimHashFieldMapper.SimHashFieldType simHashField(QueryShardContext context, String field, String owner) {
        return ProbeInput.targetField(context, field, owner, SimHashFieldMapper.SimHashFieldType.class, SimHashFieldMapper.CONTENT_TYPE);
    }

    /**
     * The probe's fingerprint for {@code fieldType}: a given fingerprint (whose {@code algorithm}, if named, must be the
     * field's), or a text/html probe fingerprinted with the field's algorithm by the node's engine.
     *
     * @throws QueryShardException if the probe was made with another algorithm or cannot be fingerprinted
     */
    public long resolve(QueryShardContext context, String owner, SimHashFieldMapper.SimHashFieldType fieldType) {
        if (input.like != null) {
            throw new IllegalStateException("[like] probe must be fetched (rewritten) before the query is built");
        }
        try {
            if (fingerprints != null) {
                throw new IllegalArgumentException("[fingerprints] (several probes) is supported by the query only; give one [fingerprint]");
            }
            if (fingerprint != null) {
                input.requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe fingerprint was", "fingerprints");
                return fingerprint;
            }
            return input.sketch(fieldType::probeFingerprint);
        } catch (IllegalArgumentException e) {
            throw new QueryShardException(context, owner + " " + e.getMessage(), e);
        }
    }

    /**
     * The probe's fingerprints for {@code fieldType}: the {@code fingerprints} of a several-probe form, otherwise the one
     * of {@link #resolve}.
     */
    public long[] resolveAll(QueryShardContext context, String owner, SimHashFieldMapper.SimHashFieldType fieldType) {
        if (fingerprints == null) {
            return new long[] { resolve(context, owner, fieldType) };
        }
        try {
            input.requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe fingerprints were", "fingerprints");
        } catch (IllegalArgumentException e) {
            throw new QueryShardException(context, owner + " " + e.getMessage(), e);
        }
        return fingerprints.clone();
    }

    /** True for a {@code text} or {@code html} probe (fingerprinted with the target field's algorithm). */
    public boolean isContent() {
        return input.isContent();
    }

    /**
     * For a {@code text}/{@code html} probe on the coordinating node of a search: registers, with the rewrite, a lookup
     * of the target field's algorithm in the mappings of the searched indices, and fingerprints the probe once there,
     * so that the shards receive a {@code fingerprint} probe (with its {@code algorithm}, which each shard checks
     * against its mapping) instead of fingerprinting the text each. Returns what supplies the rewritten probe once
     * known (null until then): the fingerprint probe, or this probe unchanged when the searched indices map the field
     * with several algorithms or not as a {@code simhash} field (the shards then fingerprint it, or report the error).
     * Returns null without registering anything outside a search's coordinating rewrite or without an engine.
     */
    public Supplier<NearDuplicateProbe> fingerprintOnCoordinator(QueryRewriteContext context, String field, NearDuplicateEngine engine, String owner) {
        assert isContent();
        Supplier<Optional<NearDuplicateProbe>> outcome = CoordinatorFingerprinting.register(
            context,
            field,
            SimHashFieldMapper.CONTENT_TYPE,
            engine,
            owner,
            algorithm -> fingerprint(input.sketch((content, kind) -> engine.simHashProbe(algorithm, content, kind)), algorithm)
        );
        if (outcome == null) {
            return null;
        }
        return () -> {
            Optional<NearDuplicateProbe> known = outcome.get();
            return known == null ? null : known.orElse(this);
        };
    }

    /**
     * For a {@code like} probe: registers the GET of the document with the rewrite, and returns what supplies the
     * document's fingerprint probe once it is fetched (null until then). Shared by the query and the rescorer.
     */
    public Supplier<NearDuplicateProbe> fetchOnRewrite(QueryRewriteContext context, String field) {
        assert input.like != null;
        return input.like.fetchOnRewrite(context, field, (what, value) -> fromSourceValue(what, field, value));
    }

    /** A fingerprint probe of a {@code like} document's value: a fingerprint string or number, or the processor's object. */
    static NearDuplicateProbe fromSourceValue(String what, String field, Object value) {
        ProbeInput.SourceValue stored = ProbeInput.SourceValue.of(
            what,
            field,
            value,
            SimHashFieldMapper.OBJECT_FINGERPRINT,
            SimHashFieldMapper.OBJECT_ALGORITHM
        );
        try {
            return fingerprint(FingerprintValues.parse(stored.value()), stored.algorithm());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " has an invalid value in field [" + field + "]: " + e.getMessage(), e);
        }
    }

    /** Writes the probe's keys into the enclosing object. */
    public void toXContentFields(XContentBuilder builder) throws IOException {
        if (fingerprint != null) {
            builder.field(FINGERPRINT_FIELD.getPreferredName(), Fingerprints.toHex(fingerprint));
        }
        if (fingerprints != null) {
            builder.startArray(FINGERPRINTS_FIELD.getPreferredName());
            for (long f : fingerprints) {
                builder.value(Fingerprints.toHex(f));
            }
            builder.endArray();
        }
        input.toXContentFields(builder);
    }

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser {
        private Long fingerprint;
        private long[] fingerprints;
        private final ProbeInput.Parser input = new ProbeInput.Parser();

        /** Consumes the value of {@code name} if it belongs to the probe; the parser is on the value's first token. */
        public boolean parse(String name, XContentParser parser) throws IOException {
            if (FINGERPRINT_FIELD.match(name, parser.getDeprecationHandler())) {
                try {
                    fingerprint = FingerprintValues.parseToken(parser);
                } catch (IllegalArgumentException e) {
                    throw new ParsingException(parser.getTokenLocation(), "[fingerprint]: " + e.getMessage(), e);
                }
            } else if (FINGERPRINTS_FIELD.match(name, parser.getDeprecationHandler())) {
                if (parser.currentToken() != XContentParser.Token.START_ARRAY) {
                    throw new ParsingException(parser.getTokenLocation(), "[fingerprints] must be an array of fingerprints");
                }
                java.util.ArrayList<Long> values = new java.util.ArrayList<>();
                while (parser.nextToken() != XContentParser.Token.END_ARRAY) {
                    try {
                        values.add(FingerprintValues.parseToken(parser));
                    } catch (IllegalArgumentException e) {
                        throw new ParsingException(parser.getTokenLocation(), "[fingerprints]: " + e.getMessage(), e);
                    }
                }
                fingerprints = values.stream().mapToLong(Long::longValue).toArray();
            } else {
                return input.parse(name, parser);
            }
            return true;
        }

        public NearDuplicateProbe build(XContentParser parser, String owner) {
            try {
                return new NearDuplicateProbe(fingerprint, fingerprints, input.build());
            } catch (IllegalArgumentException e) {
                throw new ParsingException(parser.getTokenLocation(), "[" + owner + "] " + e.getMessage());
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NearDuplicateProbe that
            && Objects.equals(fingerprint, that.fingerprint)
            && java.util.Arrays.equals(fingerprints, that.fingerprints)
            && input.equals(that.input);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fingerprint, java.util.Arrays.hashCode(fingerprints), input);
    }

    @Override
    public String toString() {
        if (fingerprint != null) return Fingerprints.toHex(fingerprint) + input.describeAlgorithm();
        if (fingerprints != null) return fingerprints.length + " fingerprints" + input.describeAlgorithm();
        return input.describe();
    }
}
