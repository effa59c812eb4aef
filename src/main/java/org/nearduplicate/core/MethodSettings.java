package org.nearduplicate.core;

/**
 * The settings of a sketching method (SimHash, MinHash, I-Match), which compose the feature pipeline's: its options,
 * read through, so that every method answers them alike.
 */
public interface MethodSettings {
    FeatureSettings featureSettings();

    /** The feature pipeline's version (1 .. {@link FeatureSettings#LATEST_VERSION}), which the algorithm id carries. */
    default int version() {
        return featureSettings().version();
    }

    default ContentType contentType() {
        return featureSettings().contentType();
    }

    default boolean extractMain() {
        return featureSettings().extractMain();
    }

    default int maxInputChars() {
        return featureSettings().maxInputChars();
    }

    default int maxFeatures() {
        return featureSettings().maxFeatures();
    }
}
