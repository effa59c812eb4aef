package org.nearduplicate.opensearch.index.query.simhash;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.io.stream.StreamInput;

import java.io.IOException;

import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.Probe;
import org.nearduplicate.opensearch.index.query.ProbeInput;
import org.nearduplicate.opensearch.index.query.ProbeKind;

/**
 * What a {@code near_duplicate} query or rescorer compares against: exactly one of a {@code fingerprint} (or several
 * {@code fingerprints}, the query only), a {@code like} document (resolved to its fingerprint during rewrite), a
 * {@code text} or an {@code html} (fingerprinted with the field's algorithm, once on the coordinating node or else by
 * each shard's field type). An optional {@code algorithm} names how a given fingerprint was made; it must then equal
 * the field's mapping. Its given value is {@link SimHashValueType}'s; everything else is {@link Probe}'s. The query's
 * and the rescorer's parts are {@link SimHashQuerying} and {@link SimHashRescoring}.
 */
public final class SimHashProbe extends Probe<GivenFingerprints, SimHashProbe> {
    /** The name of the method's query and rescorer. */
    public static final String NAME = "near_duplicate";
    public static final ParseField FINGERPRINT_FIELD = new ParseField("fingerprint");
    public static final ParseField FINGERPRINTS_FIELD = new ParseField("fingerprints");
    public static final ParseField ALGORITHM_FIELD = ProbeInput.ALGORITHM_FIELD;
    public static final ParseField LIKE_FIELD = ProbeInput.LIKE_FIELD;
    public static final ParseField TEXT_FIELD = ProbeInput.TEXT_FIELD;
    public static final ParseField HTML_FIELD = ProbeInput.HTML_FIELD;
    public static final ParseField SIGNATURE_FIELD = new ParseField("signature");
    public static final ParseField SIGNATURES_FIELD = new ParseField("signatures");
    /** The candidate keys of {@code simhash-v7}: a base64 string with {@code fingerprint}, an array with {@code fingerprints}. */
    public static final ParseField KEYS_FIELD = new ParseField("keys");

    SimHashProbe(GivenFingerprints value, ProbeInput input) {
        super(SimHashValueType.INSTANCE, value, input);
    }

    public SimHashProbe(StreamInput in) throws IOException {
        super(SimHashValueType.INSTANCE, in);
    }

    public static SimHashProbe fingerprint(long fingerprint) {
        return fingerprint(fingerprint, null);
    }

    /** A fingerprint that was made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static SimHashProbe fingerprint(long fingerprint, String algorithm) {
        return new SimHashProbe(new GivenFingerprints(fingerprint, null), ProbeInput.given(algorithm));
    }

    /** A fingerprint with its verification signature (null: none), made with {@code algorithm} (null: the field's). */
    public static SimHashProbe fingerprint(SimHash sketch, String algorithm) {
        return new SimHashProbe(new GivenFingerprints(sketch.fingerprint(), null, sketch.signature(), null), ProbeInput.given(algorithm));
    }

    /**
     * A fingerprint with its signature (null: none) and its candidate keys ({@code keys}: packed hashes as
     * {@code core.keys.StoredKeys} stores them, decoded; null: none), made with {@code algorithm} (null: the field's).
     */
    public static SimHashProbe fingerprint(SimHash sketch, byte[] keys, String algorithm) {
        return new SimHashProbe(
            new GivenFingerprints(sketch.fingerprint(), null, sketch.signature(), null, keys == null ? null : keys.clone(), null),
            ProbeInput.given(algorithm)
        );
    }

    /** Several fingerprints with their signatures ({@code signatures} null: none), the query only. */
    public static SimHashProbe fingerprints(long[] fingerprints, byte[][] signatures, String algorithm) {
        return fingerprints(fingerprints, signatures, null, algorithm);
    }

    /**
     * Several fingerprints with their signatures and candidate keys (packed hashes; {@code keys} null: none, an entry
     * null: that probe has none), the query only.
     */
    public static SimHashProbe fingerprints(long[] fingerprints, byte[][] signatures, byte[][] keys, String algorithm) {
        return new SimHashProbe(
            new GivenFingerprints(
                null,
                fingerprints.clone(),
                null,
                signatures == null ? null : signatures.clone(),
                null,
                keys == null ? null : keys.clone()
            ),
            ProbeInput.given(algorithm)
        );
    }

    /** Documents within k of any of {@code fingerprints}; the {@code near_duplicate} query only (not the rescorer). */
    public static SimHashProbe fingerprints(long[] fingerprints) {
        return fingerprints(fingerprints, null);
    }

    /** As {@link #fingerprints(long[])}, made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static SimHashProbe fingerprints(long[] fingerprints, String algorithm) {
        return new SimHashProbe(new GivenFingerprints(null, fingerprints.clone()), ProbeInput.given(algorithm));
    }

    public static SimHashProbe like(String index, String id, String routing) {
        return new SimHashProbe(null, ProbeInput.like(index, id, routing));
    }

    public static SimHashProbe text(String text) {
        return new SimHashProbe(null, ProbeInput.text(text));
    }

    public static SimHashProbe html(String html) {
        return new SimHashProbe(null, ProbeInput.html(html));
    }

    public Long fingerprint() {
        return value() == null ? null : value().fingerprint();
    }

    /** The given fingerprint's verification signature, or null. */
    public byte[] signature() {
        return value() == null ? null : value().signature();
    }

    /** The given fingerprint's candidate keys (packed hashes), or null: none given, or not a value probe (yet). */
    public byte[] keys() {
        return value() == null ? null : value().keys();
    }

    /**
     * The fingerprint probe of a stored document's value in {@code field}, as a {@code like} probe reads it: the
     * fingerprint itself, or the processor's object with it, its signature and its {@link #algorithm}.
     *
     * @param what names the document in errors
     * @throws IllegalArgumentException if the value is not a fingerprint
     */
    public static SimHashProbe stored(String what, String field, Object value) {
        return fromSourceValue(SimHashValueType.INSTANCE, what, field, value);
    }

    /**
     * The {@code simhash} field a query or rescorer targets, or null when the field is not mapped (the caller decides
     * what that means).
     *
     * @param owner named in errors, e.g. {@code [near_duplicate]} or {@code [near_duplicate] rescorer}
     * @throws RuntimeException the shard's failure if the field has another type
     */
    public static SimHashFieldMapper.SimHashFieldType simHashField(ShardContext context, String field, String owner) {
        return ProbeInput.targetField(context, field, owner, SimHashFieldMapper.SimHashFieldType.class, SimHashFieldMapper.CONTENT_TYPE);
    }

    /**
     * The probe's fingerprint (and signature) for {@code fieldType}: a given fingerprint (whose {@code algorithm}, if
     * named, must be the field's), or a text/html probe fingerprinted with the field's algorithm by the node's engine.
     * The signature is kept for a field that verifies (a bare fingerprint probe has none: compared on the fingerprint).
     *
     * @throws RuntimeException the shard's failure if the probe was made with another algorithm or cannot be fingerprinted
     */
    public SimHash resolve(ShardContext context, String owner, SimHashFieldMapper.SimHashFieldType fieldType) {
        return resolveOne(context, owner, fieldType).sketch();
    }

    /** A resolved single probe: its sketch (without min-wise values) and its candidate keys as the field indexes them. */
    private record One(SimHash sketch, byte[] keys) {
    }

    private One resolveOne(ShardContext context, String owner, SimHashFieldMapper.SimHashFieldType fieldType) {
        One one = resolve(context, owner, given -> {
            if (given.fingerprints() != null) {
                throw new IllegalArgumentException(
                    "[fingerprints] (several probes) is supported by the query only; give one [fingerprint]"
                );
            }
            input().requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe fingerprint was", "fingerprints");
            byte[] keys = given.keys() == null ? null : fieldType.field().probeKeys(given.keys());
            return new One(new SimHash(given.fingerprint(), given.signature()), keys);
        }, (content, type) -> {
            // sketched here (the coordinating node could not): a version with keys signs with its min-wise values
            SimHash sketch = fieldType.probeFingerprint(content, type);
            byte[] packed = fieldType.field().packedKeys(sketch);
            return new One(
                new SimHash(sketch.fingerprint(), sketch.signature()),
                packed == null ? null : fieldType.field().probeKeys(packed)
            );
        });
        return fieldType.verifies() ? one : new One(SimHash.of(one.sketch().fingerprint()), null);
    }

    /**
     * The probe's fingerprints and their signatures (null when the field does not verify) for {@code fieldType}: the
     * {@code fingerprints} of a several-probe form, otherwise the one of {@link #resolve}.
     */
    public Resolved resolveAll(ShardContext context, String owner, SimHashFieldMapper.SimHashFieldType fieldType) {
        if (value() == null || value().fingerprints() == null) {
            One one = resolveOne(context, owner, fieldType);
            return new Resolved(
                new long[] { one.sketch().fingerprint() },
                fieldType.verifies() ? new byte[][] { one.sketch().signature() } : null,
                one.keys() == null ? null : new byte[][] { one.keys() }
            );
        }
        Resolved resolved = resolve(context, owner, given -> {
            input().requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe fingerprints were", "fingerprints");
            byte[][] keys = null;
            if (given.fingerprintKeys() != null) {
                keys = new byte[given.fingerprintKeys().length][];
                for (int i = 0; i < keys.length; i++) {
                    byte[] packed = given.fingerprintKeys()[i];
                    keys[i] = packed == null ? null : fieldType.field().probeKeys(packed);
                }
            }
            return new Resolved(given.fingerprints().clone(), given.signatures() == null ? null : given.signatures().clone(), keys);
        }, null);
        return fieldType.verifies() ? resolved : new Resolved(resolved.fingerprints(), null, null);
    }

    /**
     * Resolved probes: fingerprints and, for a field that verifies, one signature each; for a field with candidate keys,
     * each probe's keys as the field indexes them ({@code SimHashField.probeKeys}; null: no probe has keys, an entry
     * null: that probe has none).
     */
    public record Resolved(long[] fingerprints, byte[][] signatures, byte[][] keys) {
    }

    /** The probe as the query and the rescorer register and read it. */
    public static final ProbeKind<SimHashProbe> KIND = new ProbeKind<>(NAME, SimHashProbe::new, Parser::new);

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser extends Probe.Parser<GivenFingerprints, SimHashProbe> {
        public Parser() {
            super(SimHashValueType.INSTANCE);
        }
    }
}
