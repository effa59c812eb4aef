package org.nearduplicate.opensearch.index.query.simhash;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeInput;
import org.nearduplicate.opensearch.index.query.ProbeValueType;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.probe.ProbeRules;

/**
 * The SimHash probe's given value ({@link GivenFingerprints}): its keys {@code fingerprint}, {@code fingerprints},
 * {@code signature} and {@code signatures}, {@code keys} (the candidate keys of {@code simhash-v7}: one base64 string
 * with {@code fingerprint}, an array of one per entry with {@code fingerprints}), their checks, wire format, rendering
 * and parser, the engine's sketch of a text (with its candidate keys), and a {@code like} document's stored value.
 *
 * <p>Wire format: optional fingerprint, optional fingerprints, optional signature, optional signatures, then (with the
 * candidate keys) optional keys and optional keys per fingerprint. Nodes of one cluster run the same plugin release.
 */
final class SimHashValueType implements ProbeValueType<GivenFingerprints, SimHashProbe> {
    static final SimHashValueType INSTANCE = new SimHashValueType();

    private SimHashValueType() {}

    @Override
    public SimHashProbe create(GivenFingerprints value, ProbeInput input) {
        return new SimHashProbe(value, input);
    }

    @Override
    public String[] valueKeys() {
        return new String[] { SimHashProbe.FINGERPRINT_FIELD.getPreferredName(), SimHashProbe.FINGERPRINTS_FIELD.getPreferredName() };
    }

    @Override
    public int givenKeys(GivenFingerprints value) {
        return (value.fingerprint() != null ? 1 : 0) + (value.fingerprints() != null ? 1 : 0);
    }

    @Override
    public void check(GivenFingerprints value) {
        if (value.fingerprints() != null && value.fingerprints().length == 0) {
            throw new IllegalArgumentException("[fingerprints] must not be empty");
        }
        if (value.signature() != null && value.fingerprint() == null) {
            throw new IllegalArgumentException("[signature] goes with one [fingerprint]; give [signatures] with [fingerprints]");
        }
        if (value.signatures() != null && (value.fingerprints() == null || value.signatures().length != value.fingerprints().length)) {
            throw new IllegalArgumentException("[signatures] must give one signature per entry of [fingerprints]");
        }
        if (value.keys() != null && value.fingerprint() == null) {
            throw new IllegalArgumentException("[keys] as one string goes with one [fingerprint]; with [fingerprints] give an array");
        }
        if (value.fingerprintKeys() != null
            && (value.fingerprints() == null || value.fingerprintKeys().length != value.fingerprints().length)) {
            throw new IllegalArgumentException("[keys] as an array must give one entry (or null) per entry of [fingerprints]");
        }
    }

    @Override
    public GivenFingerprints read(StreamInput in) throws IOException {
        Long fingerprint = in.readOptionalLong();
        long[] fingerprints = in.readBoolean() ? in.readLongArray() : null;
        byte[] signature = in.readBoolean() ? in.readByteArray() : null;
        byte[][] signatures = null;
        if (in.readBoolean()) {
            signatures = new byte[in.readVInt()][];
            for (int i = 0; i < signatures.length; i++)
                signatures[i] = in.readBoolean() ? in.readByteArray() : null; // null: that probe has none
        }
        byte[] keys = in.readBoolean() ? in.readByteArray() : null;
        byte[][] fingerprintKeys = null;
        if (in.readBoolean()) {
            fingerprintKeys = new byte[in.readVInt()][];
            for (int i = 0; i < fingerprintKeys.length; i++)
                fingerprintKeys[i] = in.readBoolean() ? in.readByteArray() : null;
        }
        return fingerprint == null && fingerprints == null
            ? null
            : new GivenFingerprints(fingerprint, fingerprints, signature, signatures, keys, fingerprintKeys);
    }

    @Override
    public void write(StreamOutput out, GivenFingerprints value) throws IOException {
        out.writeOptionalLong(value == null ? null : value.fingerprint());
        long[] fingerprints = value == null ? null : value.fingerprints();
        out.writeBoolean(fingerprints != null);
        if (fingerprints != null) {
            out.writeLongArray(fingerprints);
        }
        byte[] signature = value == null ? null : value.signature();
        out.writeBoolean(signature != null);
        if (signature != null) {
            out.writeByteArray(signature);
        }
        byte[][] signatures = value == null ? null : value.signatures();
        out.writeBoolean(signatures != null);
        if (signatures != null) {
            out.writeVInt(signatures.length);
            for (byte[] each : signatures) {
                out.writeBoolean(each != null);
                if (each != null) out.writeByteArray(each);
            }
        }
        byte[] keys = value == null ? null : value.keys();
        out.writeBoolean(keys != null);
        if (keys != null) {
            out.writeByteArray(keys);
        }
        byte[][] fingerprintKeys = value == null ? null : value.fingerprintKeys();
        out.writeBoolean(fingerprintKeys != null);
        if (fingerprintKeys != null) {
            out.writeVInt(fingerprintKeys.length);
            for (byte[] each : fingerprintKeys) {
                out.writeBoolean(each != null);
                if (each != null) out.writeByteArray(each);
            }
        }
    }

    @Override
    public void toXContent(XContentBuilder builder, GivenFingerprints value) throws IOException {
        if (value.fingerprint() != null) {
            builder.field(SimHashProbe.FINGERPRINT_FIELD.getPreferredName(), Fingerprints.toHex(value.fingerprint()));
        }
        if (value.fingerprints() != null) {
            builder.startArray(SimHashProbe.FINGERPRINTS_FIELD.getPreferredName());
            for (long f : value.fingerprints()) {
                builder.value(Fingerprints.toHex(f));
            }
            builder.endArray();
        }
        if (value.signature() != null) {
            builder.field(SimHashProbe.SIGNATURE_FIELD.getPreferredName(), Signature.toHex(value.signature()));
        }
        if (value.signatures() != null) {
            builder.startArray(SimHashProbe.SIGNATURES_FIELD.getPreferredName());
            for (byte[] signature : value.signatures()) {
                if (signature == null) builder.nullValue();
                else builder.value(Signature.toHex(signature));
            }
            builder.endArray();
        }
        if (value.keys() != null) {
            builder.field(SimHashProbe.KEYS_FIELD.getPreferredName(), Base64.getEncoder().encodeToString(value.keys()));
        }
        if (value.fingerprintKeys() != null) {
            builder.startArray(SimHashProbe.KEYS_FIELD.getPreferredName());
            for (byte[] keys : value.fingerprintKeys()) {
                if (keys == null) builder.nullValue();
                else builder.value(Base64.getEncoder().encodeToString(keys));
            }
            builder.endArray();
        }
    }

    @Override
    public ProbeValueType.ValueParser<GivenFingerprints> parser() {
        return new ValueParser<>() {
            private Long fingerprint;
            private long[] fingerprints;
            private byte[] signature;
            private byte[][] signatures;
            private byte[] keys;
            private byte[][] fingerprintKeys;

            @Override
            public boolean parse(String name, XContentParser parser) throws IOException {
                if (SimHashProbe.FINGERPRINT_FIELD.match(name, parser.getDeprecationHandler())) {
                    fingerprint = parseToken(parser, "[fingerprint]: ");
                } else if (SimHashProbe.FINGERPRINTS_FIELD.match(name, parser.getDeprecationHandler())) {
                    if (parser.currentToken() != XContentParser.Token.START_ARRAY) {
                        throw new ParsingException(parser.getTokenLocation(), "[fingerprints] must be an array of fingerprints");
                    }
                    List<Long> values = new ArrayList<>();
                    while (parser.nextToken() != XContentParser.Token.END_ARRAY) {
                        values.add(parseToken(parser, "[fingerprints]: "));
                    }
                    fingerprints = values.stream().mapToLong(Long::longValue).toArray();
                } else if (SimHashProbe.SIGNATURE_FIELD.match(name, parser.getDeprecationHandler())) {
                    signature = parseSignature(parser, "[signature]: ");
                } else if (SimHashProbe.SIGNATURES_FIELD.match(name, parser.getDeprecationHandler())) {
                    if (parser.currentToken() != XContentParser.Token.START_ARRAY) {
                        throw new ParsingException(parser.getTokenLocation(), "[signatures] must be an array of signatures");
                    }
                    List<byte[]> values = new ArrayList<>();
                    while (parser.nextToken() != XContentParser.Token.END_ARRAY) {
                        // null: a probe without signature, compared on its fingerprint alone (near_duplicate_check's
                        // batches of signed and bare values)
                        values.add(
                            parser.currentToken() == XContentParser.Token.VALUE_NULL ? null : parseSignature(parser, "[signatures]: ")
                        );
                    }
                    signatures = values.toArray(byte[][]::new);
                } else if (SimHashProbe.KEYS_FIELD.match(name, parser.getDeprecationHandler())) {
                    if (parser.currentToken() == XContentParser.Token.START_ARRAY) {
                        List<byte[]> values = new ArrayList<>();
                        while (parser.nextToken() != XContentParser.Token.END_ARRAY) {
                            // null: a probe without keys (then the query is answered exactly)
                            values.add(parser.currentToken() == XContentParser.Token.VALUE_NULL ? null : parseKeys(parser));
                        }
                        fingerprintKeys = values.toArray(byte[][]::new);
                    } else {
                        keys = parseKeys(parser);
                    }
                } else {
                    return false;
                }
                return true;
            }

            @Override
            public GivenFingerprints value() {
                if (fingerprint == null && fingerprints == null) {
                    if (signature != null || signatures != null) {
                        throw new IllegalArgumentException("[signature] and [signatures] go with [fingerprint] and [fingerprints]");
                    }
                    if (keys != null || fingerprintKeys != null) {
                        throw new IllegalArgumentException("[keys] goes with [fingerprint] or [fingerprints]");
                    }
                    return null;
                }
                return new GivenFingerprints(fingerprint, fingerprints, signature, signatures, keys, fingerprintKeys);
            }
        };
    }

    @Override
    public String describe(GivenFingerprints value) {
        return value.toString();
    }

    @Override
    public String fieldType() {
        return SimHashFieldMapper.CONTENT_TYPE;
    }

    @Override
    public GivenFingerprints sketch(SketchingService sketching, String algorithm, String content, SketchingService.ProbeContent type) {
        SimHash sketch = sketching.probe(SimHasher.SKETCHER, algorithm, content, type);
        // a version with candidate keys signs with its min-wise values (SimHasher.sketchWithMinima): the keys travel
        // with the fingerprint to the shards, whose query then reads the keys' postings
        CandidateKeys layout = CandidateKeys.of(SimHashSettings.fromAlgorithmId(algorithm));
        byte[] keys = layout == null || sketch.hasMinima() == false ? null : layout.packedHashes(sketch.minima());
        return new GivenFingerprints(sketch.fingerprint(), null, sketch.signature(), null, keys, null);
    }

    @Override
    public String storedValueKey() {
        return SketchValues.FINGERPRINT;
    }

    @Override
    public String storedAlgorithmKey() {
        return SketchValues.ALGORITHM;
    }

    /** A fingerprint string or number. */
    @Override
    public GivenFingerprints stored(String what, String field, Object value) {
        return stored(what, field, value, value);
    }

    /** The fingerprint, and the signature and candidate keys of the processor's object when it has them. */
    @Override
    public GivenFingerprints stored(String what, String field, Object value, Object whole) {
        try {
            byte[] signature = null;
            byte[] keys = null;
            if (whole instanceof Map<?, ?> map && map.get(SketchValues.SIGNATURE) != null) {
                signature = Signature.parse(map.get(SketchValues.SIGNATURE).toString());
            }
            if (whole instanceof Map<?, ?> map && map.get(SketchValues.KEYS) != null) {
                keys = decodeKeys(map.get(SketchValues.KEYS).toString());
            }
            return new GivenFingerprints(FingerprintValues.parse(value), null, signature, null, keys, null);
        } catch (IllegalArgumentException e) {
            throw ProbeRules.invalidStoredValue(what, field, e);
        }
    }

    private static long parseToken(XContentParser parser, String prefix) throws IOException {
        try {
            return FingerprintValues.parseToken(parser);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), prefix + e.getMessage(), e);
        }
    }

    private static byte[] parseKeys(XContentParser parser) throws IOException {
        if (parser.currentToken() != XContentParser.Token.VALUE_STRING) {
            throw new ParsingException(
                parser.getTokenLocation(),
                "[keys]: candidate keys are a base64 string (as the simhash processor writes them), or an array of them with [fingerprints]"
            );
        }
        try {
            return decodeKeys(parser.text());
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage(), e);
        }
    }

    /**
     * The packed hashes of stored or given candidate keys (base64, as {@code core.keys.StoredKeys} writes them); their
     * length is checked against the target field's layout when the query is built.
     */
    static byte[] decodeKeys(String base64) {
        try {
            return Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            String shown = base64.length() <= 80 ? base64 : base64.substring(0, 77) + "...";
            throw new IllegalArgumentException("invalid [keys] [" + shown + "]: not base64 (" + e.getMessage() + ")", e);
        }
    }

    private static byte[] parseSignature(XContentParser parser, String prefix) throws IOException {
        if (parser.currentToken() != XContentParser.Token.VALUE_STRING) {
            throw new ParsingException(
                parser.getTokenLocation(),
                prefix + "a signature is a string of " + Signature.BYTES * 2 + " hex digits"
            );
        }
        try {
            return Signature.parse(parser.text());
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), prefix + e.getMessage(), e);
        }
    }
}
