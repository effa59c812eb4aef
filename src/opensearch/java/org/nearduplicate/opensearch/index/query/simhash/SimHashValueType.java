package org.nearduplicate.opensearch.index.query.simhash;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
 * {@code signature} and {@code signatures}, their checks, wire format, rendering and parser, the engine's sketch of a
 * text, and a {@code like} document's stored fingerprint.
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
        return fingerprint == null && fingerprints == null ? null : new GivenFingerprints(fingerprint, fingerprints, signature, signatures);
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
    }

    @Override
    public ProbeValueType.ValueParser<GivenFingerprints> parser() {
        return new ValueParser<>() {
            private Long fingerprint;
            private long[] fingerprints;
            private byte[] signature;
            private byte[][] signatures;

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
                    return null;
                }
                return new GivenFingerprints(fingerprint, fingerprints, signature, signatures);
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
        return new GivenFingerprints(sketch.fingerprint(), null, sketch.signature(), null);
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

    /** The fingerprint, and the signature of the processor's object when it has one. */
    @Override
    public GivenFingerprints stored(String what, String field, Object value, Object whole) {
        try {
            byte[] signature = null;
            if (whole instanceof Map<?, ?> map && map.get(SketchValues.SIGNATURE) != null) {
                signature = Signature.parse(map.get(SketchValues.SIGNATURE).toString());
            }
            return new GivenFingerprints(FingerprintValues.parse(value), null, signature, null);
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
