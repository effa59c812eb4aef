package org.nearduplicate.core.sketch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.ContentType;

/**
 * What {@link SimHasher#analyze} saw: the content type it read the input as, the text features came from (the main
 * content when extraction is on), the heaviest features, the fingerprint, the number of distinct features
 * and, from {@code simhash-v4}, the verification signature (null before).
 */
public record Analysis(ContentType contentType, String mainText, List<WeightedFeature> topFeatures, long fingerprint, int featureCount,
    byte[] signature, Map<String, WeightedFeature> features) {

    /** Without the full feature set (then {@link #differingFeatures} cannot be computed). */
    public Analysis(
        ContentType contentType,
        String mainText,
        List<WeightedFeature> topFeatures,
        long fingerprint,
        int featureCount,
        byte[] signature
    ) {
        this(contentType, mainText, topFeatures, fingerprint, featureCount, signature, null);
    }

    /** Heaviest first, ties by feature: the order of {@link #topFeatures} and of {@link #differingFeatures}. */
    public static final Comparator<WeightedFeature> HEAVIEST_FIRST = Comparator.comparingDouble(WeightedFeature::weight)
        .reversed()
        .thenComparing(WeightedFeature::feature);

    /**
     * The features that differ between two inputs, on their full feature sets (not on their top-N lists): those present
     * in one and absent from the other, heaviest first.
     */
    public record Difference(List<WeightedFeature> onlyInFirst, List<WeightedFeature> onlyInSecond) {
        public Difference {
            onlyInFirst = List.copyOf(onlyInFirst);
            onlyInSecond = List.copyOf(onlyInSecond);
        }
    }

    /**
     * The features of {@code first} absent from {@code second} and the reverse, computed on both inputs' whole feature
     * sets, heaviest first, at most {@code limit} each. A feature both inputs have is never listed, whatever its rank.
     *
     * @throws IllegalArgumentException if an analysis was made without its feature set
     */
    public static Difference differingFeatures(Analysis first, Analysis second, int limit) {
        if (first.features == null || second.features == null) {
            throw new IllegalArgumentException("the analyses were made without their feature sets");
        }
        return new Difference(onlyIn(first.features, second.features, limit), onlyIn(second.features, first.features, limit));
    }

    private static List<WeightedFeature> onlyIn(Map<String, WeightedFeature> in, Map<String, WeightedFeature> other, int limit) {
        List<WeightedFeature> only = new ArrayList<>();
        for (WeightedFeature f : in.values()) {
            if (other.containsKey(f.feature()) == false) only.add(f);
        }
        only.sort(HEAVIEST_FIRST);
        return only.size() > limit ? List.copyOf(only.subList(0, limit)) : only;
    }

    /** A feature, its term frequency and its SimHash weight. */
    public record WeightedFeature(String feature, int termFrequency, double weight) {
    }
}
