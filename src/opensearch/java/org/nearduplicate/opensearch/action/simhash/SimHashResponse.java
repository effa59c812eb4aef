package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

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

    /**
     * One input's analysis; {@code keys} null when no layout is shown, {@code mainText} null unless asked for;
     * {@code signature}: hex, from {@code simhash-v4} (null before). {@code id}: the stored document whose field value
     * this is (it has then no content type, features or text: {@code contentType} null), or null for an analyzed input.
     */
    public record Result(long fingerprint, String contentType, int featureCount, String mainText, List<Feature> features, List<String> keys,
        String signature, String id) implements Writeable {

        public Result(long fingerprint, String contentType, int featureCount, String mainText, List<Feature> features, List<String> keys) {
            this(fingerprint, contentType, featureCount, mainText, features, keys, null, null);
        }

        public Result(
            long fingerprint,
            String contentType,
            int featureCount,
            String mainText,
            List<Feature> features,
            List<String> keys,
            String signature
        ) {
            this(fingerprint, contentType, featureCount, mainText, features, keys, signature, null);
        }

        /** A stored document's fingerprint (and signature, hex or null), read from its {@code _source}. */
        public static Result stored(String id, long fingerprint, String signature, List<String> keys) {
            return new Result(fingerprint, null, 0, null, List.of(), keys, signature, Objects.requireNonNull(id));
        }

        public Result {
            features = List.copyOf(features);
            keys = keys == null ? null : List.copyOf(keys);
        }

        Result(StreamInput in) throws IOException {
            this(
                in.readLong(),
                in.readOptionalString(),
                in.readVInt(),
                in.readOptionalString(),
                readFeatures(in),
                in.readBoolean() ? Arrays.asList(in.readStringArray()) : null,
                in.readOptionalString(),
                in.readOptionalString()
            );
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            out.writeLong(fingerprint);
            out.writeOptionalString(contentType);
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
            out.writeOptionalString(id);
        }
    }

    /**
     * The features found in one input and not in the other, on their whole feature sets, heaviest first (at most
     * {@code top_features} each); null when an input is a stored document (whose features are not known).
     */
    public record Difference(List<Feature> onlyInFirst, List<Feature> onlyInSecond) implements Writeable {
        public Difference {
            onlyInFirst = List.copyOf(onlyInFirst);
            onlyInSecond = List.copyOf(onlyInSecond);
        }

        Difference(StreamInput in) throws IOException {
            this(readFeatures(in), readFeatures(in));
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            out.writeCollection(onlyInFirst, SimHashResponse::writeFeature);
            out.writeCollection(onlyInSecond, SimHashResponse::writeFeature);
        }
    }

    private static Feature readFeature(StreamInput in) throws IOException {
        return new Feature(in.readString(), in.readVInt(), in.readDouble());
    }

    /** A list of features as {@code writeCollection} wrote it (a count, then each). */
    private static List<Feature> readFeatures(StreamInput in) throws IOException {
        return Arrays.asList(in.readArray(SimHashResponse::readFeature, Feature[]::new));
    }

    private static void writeFeature(StreamOutput out, Feature f) throws IOException {
        out.writeString(f.feature());
        out.writeVInt(f.termFrequency());
        out.writeDouble(f.weight());
    }

    private final String algorithm;
    private final Layout layout;
    private final boolean includeText;
    private final Result first;
    /** The {@code compare} input's, or null. */
    private final Result second;
    /** Keys both inputs share, with a layout and two inputs; otherwise null. */
    private final Integer sharedKeys;
    /** The features found in only one of two analyzed inputs; otherwise null. */
    private final Difference difference;

    public SimHashResponse(String algorithm, Layout layout, boolean includeText, Result first, Result second, Integer sharedKeys) {
        this(algorithm, layout, includeText, first, second, sharedKeys, null);
    }

    public SimHashResponse(
        String algorithm,
        Layout layout,
        boolean includeText,
        Result first,
        Result second,
        Integer sharedKeys,
        Difference difference
    ) {
        this.algorithm = Objects.requireNonNull(algorithm);
        this.layout = layout;
        this.includeText = includeText;
        this.first = Objects.requireNonNull(first);
        this.second = second;
        this.sharedKeys = sharedKeys;
        this.difference = difference;
    }

    public SimHashResponse(StreamInput in) throws IOException {
        super(in);
        algorithm = in.readString();
        layout = in.readBoolean() ? new Layout(in.readVInt(), in.readVInt(), in.readVInt()) : null;
        includeText = in.readBoolean();
        first = new Result(in);
        second = in.readOptionalWriteable(Result::new);
        sharedKeys = in.readOptionalVInt();
        difference = in.readOptionalWriteable(Difference::new);
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
        out.writeOptionalWriteable(difference);
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

    public Difference difference() {
        return difference;
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
                double t = settings.recommendedMinSimilarity();
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
        if (result.id() != null) {
            builder.field("_id", result.id());
        }
        builder.field("fingerprint", Fingerprints.toHex(result.fingerprint()));
        builder.field("fingerprint_unsigned", Fingerprints.toUnsignedDecimal(result.fingerprint()));
        builder.field("fingerprint_signed", result.fingerprint());
        if (result.signature() != null) {
            builder.field("signature", result.signature());
        }
        if (result.id() == null) {
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
        }
        if (result.keys() != null) {
            builder.startArray("keys");
            for (String key : result.keys()) {
                builder.value(key);
            }
            builder.endArray();
        }
    }

    /**
     * The heaviest features found in one input and absent from the other (on the inputs' whole feature sets, so a
     * feature both have is never named); nothing when an input is a stored document.
     */
    private void writeDifference(XContentBuilder builder) throws IOException {
        if (difference == null) {
            return;
        }
        builder.startObject("differing_top_features");
        builder.startArray("only_in_first");
        for (Feature f : difference.onlyInFirst()) {
            builder.value(f.feature());
        }
        builder.endArray();
        builder.startArray("only_in_second");
        for (Feature f : difference.onlyInSecond()) {
            builder.value(f.feature());
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
            && Objects.equals(sharedKeys, that.sharedKeys)
            && Objects.equals(difference, that.difference);
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, layout, includeText, first, second, sharedKeys, difference);
    }
}
