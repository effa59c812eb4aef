package org.nearduplicate.opensearch.index.query.minhash;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeInput;
import org.nearduplicate.opensearch.index.query.ProbeValueType;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * The MinHash probe's given value: the base64 {@code signature} as given (the shard decodes it against the field's
 * length), its check, wire format, rendering and parser, the engine's signature of a text, and a {@code like}
 * document's stored signature.
 */
final class MinHashValueType implements ProbeValueType<String, MinHashProbe> {
    static final MinHashValueType INSTANCE = new MinHashValueType();

    private MinHashValueType() {}

    @Override
    public MinHashProbe create(String signature, ProbeInput input) {
        return new MinHashProbe(signature, input);
    }

    @Override
    public String[] valueKeys() {
        return new String[] { MinHashProbe.SIGNATURE_FIELD.getPreferredName() };
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
        builder.field(MinHashProbe.SIGNATURE_FIELD.getPreferredName(), signature);
    }

    @Override
    public ProbeValueType.ValueParser<String> parser() {
        return new ValueParser<>() {
            private String signature;

            @Override
            public boolean parse(String name, XContentParser parser) throws IOException {
                if (MinHashProbe.SIGNATURE_FIELD.match(name, parser.getDeprecationHandler())) {
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
    public String sketch(SketchingService sketching, String algorithm, String content, SketchingService.ProbeContent type) {
        return MinHashSignatures.toBase64(sketching.probe(MinHasher.SKETCHER, algorithm, content, type));
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
}
