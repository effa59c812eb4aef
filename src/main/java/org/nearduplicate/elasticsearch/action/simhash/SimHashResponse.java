package org.nearduplicate.elasticsearch.action.simhash;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.io.stream.Writeable;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;

/**
 * What {@code _simhash} shows: the algorithm, the layout (when keys are shown), and per input its fingerprint (hex,
 * unsigned and signed decimal), content type, feature count, main text ({@code include_text}), top features and keys;
 * with two inputs, their distance, shared keys and the top features found in only one of them.
 */
public class SimHashResponse extends ActionResponse implements ToXContentObject {

    /** The layout whose keys are shown. */
    public record Layout(int blocks, int maxDistance, int keysPerFingerprint) {
    }

    /** A feature, its term frequency and its SimHash weight. */
    public record Feature(String feature, int termFrequency, double weight) {
    }

    /** One input's analysis; {@code keys} null when no layout is shown, {@code mainText} null unless asked for. */
    /** {@code signature}: hex, from {@code simhash-v4} (null before). */
    public record Result(long fingerprint, String contentType, int featureCount, String mainText, List<Feature> features, List<String> keys,
        String signature) implements Writeable {

        public Result(long fingerprint, String contentType, int featureCount, String mainText, List<Feature> features, List<String> keys) {
            this(fingerprint, contentType, featureCount, mainText, features, keys, null);
        }

        public Result {
            features = List.copyOf(features);
            keys = keys == null ? null : List.copyOf(keys);
        }

        Result(StreamInput in) throws IOException {
            this(
                in.readLong(),
                in.readString(),
                in.readVInt(),
                in.readOptionalString(),
                in.readCollectionAsList(i -> new Feature(i.readString(), i.readVInt(), i.readDouble())),
                in.readBoolean() ? in.readStringCollectionAsList() : null,
                in.readOptionalString()
            );
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            out.writeLong(fingerprint);
            out.writeString(contentType);
            out.writeVInt(featureCount);
            out.writeOptionalString(mainText);
            out.writeCollection(features, (o, f) -> {
                o.writeString(f.feature());
                o.writeVInt(f.termFrequency());
                o.writeDouble(f.weight());
            });
            out.writeBoolean(keys != null);
            if (keys != null) {
                out.writeStringCollection(keys);
            }
            out.writeOptionalString(signature);
        }
    }

    private final String algorithm;
    private final Layout layout;
    private final boolean includeText;
    private final Result first;
    /** The {@code compare} input's, or null. */
    private final Result second;
    /** Keys both inputs share, with a layout and two inputs; otherwise null. */
    private final Integer sharedKeys;

    public SimHashResponse(String algorithm, Layout layout, boolean includeText, Result first, Result second, Integer sharedKeys) {
        this.algorithm = Objects.requireNonNull(algorithm);
        this.layout = layout;
        this.includeText = includeText;
        this.first = Objects.requireNonNull(first);
        this.second = second;
        this.sharedKeys = sharedKeys;
    }

    public SimHashResponse(StreamInput in) throws IOException {
        super(in);
        algorithm = in.readString();
        layout = in.readBoolean() ? new Layout(in.readVInt(), in.readVInt(), in.readVInt()) : null;
        includeText = in.readBoolean();
        first = new Result(in);
        second = in.readOptionalWriteable(Result::new);
        sharedKeys = in.readOptionalVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(algorithm);
        out.writeBoolean(layout != null);
        if (layout != null) {
            out.writeVInt(layout.blocks());
            out.writeVInt(layout.maxDistance());
            out.writeVInt(layout.keysPerFingerprint());
        }
        out.writeBoolean(includeText);
        first.writeTo(out);
        out.writeOptionalWriteable(second);
        out.writeOptionalVInt(sharedKeys);
    }

    public String algorithm() {
        return algorithm;
    }

    public Layout layout() {
        return layout;
    }

    public Result first() {
        return first;
    }

    public Result second() {
        return second;
    }

    public Integer sharedKeys() {
        return sharedKeys;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        builder.field("algorithm", algorithm);
        if (layout != null) {
            builder.startObject("layout")
                .field("bits", BlockLayout.BITS)
                .field("blocks", layout.blocks())
                .field("max_distance", layout.maxDistance())
                .field("keys_per_fingerprint", layout.keysPerFingerprint())
                .endObject();
        }
        if (second == null) {
            writeResult(builder, first);
        } else {
            int distance = Fingerprints.distance(first.fingerprint(), second.fingerprint());
            builder.field("distance", distance);
            if (first.signature() != null && second.signature() != null) {
                // the verified match at the algorithm's defaults, as a query or a check would decide it
                double similarity = Signature.similarity(Signature.parse(first.signature()), Signature.parse(second.signature()));
                builder.field("similarity", Math.round(similarity * 1000) / 1000.0);
                SimHashSettings settings = SimHashSettings.fromAlgorithmId(algorithm);
                int k = settings.recommendedMaxDistance();
                double t = SimHashSettings.RECOMMENDED_MIN_SIMILARITY;
                builder.startObject("match")
                    .field("max_distance", k)
                    .field("min_similarity", t)
                    .field(
                        "near_duplicate",
                        distance <= k
                            && Signature.minAgreeing(t) <= Signature.agreeingSlots(
                                Signature.parse(first.signature()),
                                0,
                                Signature.parse(second.signature()),
                                0
                            )
                    )
                    .endObject();
            }
            if (sharedKeys != null) {
                builder.field("shared_keys", sharedKeys);
            }
            builder.startObject("first");
            writeResult(builder, first);
            builder.endObject();
            builder.startObject("second");
            writeResult(builder, second);
            builder.endObject();
            writeDifference(builder);
        }
        return builder.endObject();
    }

    private void writeResult(XContentBuilder builder, Result result) throws IOException {
        builder.field("fingerprint", Fingerprints.toHex(result.fingerprint()));
        builder.field("fingerprint_unsigned", Fingerprints.toUnsignedDecimal(result.fingerprint()));
        builder.field("fingerprint_signed", result.fingerprint());
        if (result.signature() != null) {
            builder.field("signature", result.signature());
        }
        builder.field("content_type", result.contentType());
        builder.field("feature_count", result.featureCount());
        if (includeText) {
            builder.field("main_text", result.mainText());
        }
        builder.startArray("features");
        for (Feature feature : result.features()) {
            builder.startObject()
                .field("feature", feature.feature())
                .field("tf", feature.termFrequency())
                .field("weight", feature.weight())
                .endObject();
        }
        builder.endArray();
        if (result.keys() != null) {
            builder.startArray("keys");
            for (String key : result.keys()) {
                builder.value(key);
            }
            builder.endArray();
        }
    }

    /** Features among the listed top features of one input that the other input's top features lack. */
    private void writeDifference(XContentBuilder builder) throws IOException {
        Set<String> inFirst = new HashSet<>();
        first.features().forEach(f -> inFirst.add(f.feature()));
        Set<String> inSecond = new HashSet<>();
        second.features().forEach(f -> inSecond.add(f.feature()));
        builder.startObject("differing_top_features");
        builder.startArray("only_in_first");
        for (Feature f : first.features()) {
            if (inSecond.contains(f.feature()) == false) builder.value(f.feature());
        }
        builder.endArray();
        builder.startArray("only_in_second");
        for (Feature f : second.features()) {
            if (inFirst.contains(f.feature()) == false) builder.value(f.feature());
        }
        builder.endArray();
        builder.endObject();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimHashResponse that
            && algorithm.equals(that.algorithm)
            && Objects.equals(layout, that.layout)
            && includeText == that.includeText
            && first.equals(that.first)
            && Objects.equals(second, that.second)
            && Objects.equals(sharedKeys, that.sharedKeys);
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, layout, includeText, first, second, sharedKeys);
    }
}
