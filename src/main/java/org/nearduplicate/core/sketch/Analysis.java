package org.nearduplicate.core.sketch;

import java.util.List;

import org.nearduplicate.core.ContentType;

/**
 * What {@link SimHasher#analyze} saw: the content type it read the input as, the text features came from (the main
 * content when extraction is on), the heaviest features, the fingerprint, the number of distinct features
 * and, from {@code simhash-v4}, the verification signature (null before).
 */
public record Analysis(ContentType contentType, String mainText, List<WeightedFeature> topFeatures, long fingerprint, int featureCount,
    byte[] signature) {

    /** A feature, its term frequency and its SimHash weight. */
    public record WeightedFeature(String feature, int termFrequency, double weight) {
    }
}
