package org.nearduplicate.core.features;

import org.apache.lucene.analysis.Analyzer;

import java.util.Map;

import org.nearduplicate.core.ContentType;
import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.FeatureSettings;
import org.nearduplicate.core.extract.MainContent;
import org.nearduplicate.core.extract.TextNormalizer;

/**
 * The stages every method shares, from raw input to counted features: input checks, content type, main-content
 * extraction ({@link MainContent}), normalization ({@link TextNormalizer}) and feature extraction. SimHash weighs the
 * features, MinHash takes their set, I-Match filters them by IDF; the three see exactly the same features for the
 * same options. Thread-safe.
 */
public final class FeaturePipeline {
    private final FeatureSettings settings;
    private final FeatureExtractor extractor;

    /** {@code settings}: the pipeline options (content type, extraction, features, limits). */
    public FeaturePipeline(FeatureSettings settings) {
        this.settings = settings;
        this.extractor = new FeatureExtractor(settings);
    }

    public FeatureSettings settings() {
        return settings;
    }

    /** What one input became: the content type it was read as, its extracted text and its features with their counts. */
    public record Features(ContentType contentType, String text, Map<String, Integer> counts) {
    }

    /**
     * @throws EngineInputException if content is null, blank, longer than {@code max_input_chars}, has more than
     *                              {@code max_features} distinct features, or has none
     */
    public Features features(String content) {
        checkInput(content);
        ContentType type = resolveType(content);
        String text = MainContent.extract(content, type, settings.extractMain(), settings.version());
        Map<String, Integer> counts = extractor.countFeatures(TextNormalizer.normalize(text));
        if (counts.isEmpty()) {
            throw new EngineInputException("content has no features to fingerprint (read as " + type.id() + ")");
        }
        return new Features(type, text, counts);
    }

    /** The text features are taken from: the main content (or all text when extraction is off), not yet normalized. */
    public String extractText(String content) {
        checkInput(content);
        return MainContent.extract(content, resolveType(content), settings.extractMain(), settings.version());
    }

    private void checkInput(String content) {
        if (content == null) throw new EngineInputException("content must not be null");
        if (content.length() > settings.maxInputChars()) {
            throw new EngineInputException(
                "content has "
                    + content.length()
                    + " chars, more than ["
                    + FeatureSettings.MAX_INPUT_CHARS
                    + "] = "
                    + settings.maxInputChars()
            );
        }
        if (content.isBlank()) throw new EngineInputException("content must not be empty or whitespace only");
    }

    private ContentType resolveType(String content) {
        return settings.contentType() == ContentType.AUTO ? ContentType.detect(content) : settings.contentType();
    }

    /** A new instance of the Lucene analyzer behind the word features of {@code settings} (for baselines and tools). */
    public static Analyzer newWordAnalyzer(FeatureSettings settings) {
        return FeatureExtractor.wordAnalyzer(settings);
    }
}
