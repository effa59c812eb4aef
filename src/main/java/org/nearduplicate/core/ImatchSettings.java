package org.nearduplicate.core;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;

/**
 * I-Match parameters: the feature pipeline ({@link FeatureSettings}) with only its content type, extraction and limits
 * open (the terms are always single words without a stopword list: the IDF band does that job), the IDF table and the
 * IDF band [{@code min_idf}, {@code max_idf}] of the terms that enter the I-Match key. The algorithm id, e.g.
 * {@code imatch-v1:content_type=auto,extract=main,idf=web-en-zh-v1,min_idf=3.0,max_idf=9.0}, names every
 * output-affecting option; the normalized-text key depends only on content type and extraction.
 */
public record ImatchSettings(FeatureSettings featureSettings, String idf, double minIdf, double maxIdf) implements MethodSettings {
    public static final String NAME = "imatch";
    /**
     * The id prefix of the newest version: the feature pipeline's ({@link FeatureSettings#LATEST_VERSION}; I-Match has
     * no version of its own): v2 extracts with the v2 rules.
     */
    public static final String VERSION = NAME + "-v" + FeatureSettings.LATEST_VERSION;
    public static final String MIN_IDF = "min_idf";
    public static final String MAX_IDF = "max_idf";
    /** The pipeline options I-Match reads; the others are fixed by {@link #terms}. */
    private static final List<String> OPTIONS = List.of(
        FeatureSettings.CONTENT_TYPE,
        FeatureSettings.EXTRACT,
        FeatureSettings.MAX_INPUT_CHARS
    );

    /** The band chosen on the public corpus (docs/methods.md). */
    public static final ImatchSettings DEFAULT = new ImatchSettings(
        FeatureSettings.DEFAULT.contentType(),
        true,
        SimHashSettings.BUILTIN_IDF,
        2.0,
        8.0,
        FeatureSettings.DEFAULT_MAX_INPUT_CHARS
    );

    /** {@code featureSettings}: its version, content type, extraction and limits; its features are set to I-Match's terms. */
    public ImatchSettings {
        featureSettings = terms(Objects.requireNonNull(featureSettings, "featureSettings"));
        checkIdf(idf);
        checkBand(minIdf, maxIdf);
    }

    public ImatchSettings(ContentType contentType, boolean extractMain, String idf, double minIdf, double maxIdf, int maxInputChars) {
        this(
            FeatureSettings.LATEST_VERSION,
            contentType,
            extractMain,
            idf,
            minIdf,
            maxIdf,
            maxInputChars,
            FeatureSettings.DEFAULT_MAX_FEATURES
        );
    }

    /**
     * {@code version}: of the feature pipeline (extraction rules), 1 .. {@link FeatureSettings#LATEST_VERSION};
     * {@code maxFeatures}: a limit (like {@code maxInputChars}), not part of the algorithm id; the node's is applied
     * by the plugin.
     */
    public ImatchSettings(
        int version,
        ContentType contentType,
        boolean extractMain,
        String idf,
        double minIdf,
        double maxIdf,
        int maxInputChars,
        int maxFeatures
    ) {
        this(extraction(checked(version, idf, minIdf, maxIdf, maxInputChars, maxFeatures), contentType, extractMain), idf, minIdf, maxIdf);
    }

    /**
     * The flat constructor's arguments checked in the order (and with the messages) I-Match always had: a builder of
     * the pipeline with {@code version} and the limits set.
     */
    private static FeatureSettings.Builder checked(
        int version,
        String idf,
        double minIdf,
        double maxIdf,
        int maxInputChars,
        int maxFeatures
    ) {
        if (version < 1 || version > FeatureSettings.LATEST_VERSION) {
            throw new InvalidOptionException("version", "must be from 1 to " + FeatureSettings.LATEST_VERSION + ", got " + version);
        }
        checkIdf(idf);
        checkBand(minIdf, maxIdf);
        if (maxInputChars < 1) throw new InvalidOptionException("max_input_chars", "must be positive, got " + maxInputChars);
        if (maxFeatures < 1) throw new InvalidOptionException("max_features", "must be positive, got " + maxFeatures);
        FeatureSettings.Builder b = new FeatureSettings.Builder(FeatureSettings.DEFAULT);
        b.version = version;
        b.maxInputChars = maxInputChars;
        b.maxFeatures = maxFeatures;
        return b;
    }

    private static FeatureSettings extraction(FeatureSettings.Builder b, ContentType contentType, boolean extractMain) {
        b.contentType = contentType;
        b.extractMain = extractMain;
        return b.build();
    }

    private static void checkIdf(String idf) {
        if (idf == null || idf.matches("[a-z0-9][a-z0-9_.-]{0,63}") == false || idf.equals(SimHashSettings.IDF_NONE)) {
            throw new InvalidOptionException(
                "idf",
                "must name an IDF table, e.g. [" + SimHashSettings.BUILTIN_IDF + "], got [" + idf + "]"
            );
        }
    }

    private static void checkBand(double minIdf, double maxIdf) {
        if (Double.isFinite(minIdf) == false || Double.isFinite(maxIdf) == false || minIdf < 0 || maxIdf < minIdf) {
            throw new InvalidOptionException(
                MIN_IDF,
                "and [" + MAX_IDF + "] must be finite with 0 <= min_idf <= max_idf, got [" + minIdf + ", " + maxIdf + "]"
            );
        }
    }

    /** The term pipeline: words, no stopword list (the IDF band does that job), no shingles. */
    private static FeatureSettings terms(FeatureSettings features) {
        FeatureSettings.Builder b = new FeatureSettings.Builder(features);
        b.features = FeatureSettings.Features.WORDS;
        b.ngramSize = FeatureSettings.DEFAULT.ngramSize();
        b.shingleSize = 1;
        b.stopwords = false;
        return b.build();
    }

    /** The same algorithm with other limits. */
    public ImatchSettings withLimits(int maxInputChars, int maxFeatures) {
        return new ImatchSettings(version(), contentType(), extractMain(), idf, minIdf, maxIdf, maxInputChars, maxFeatures);
    }

    /**
     * The term pipeline as SimHash settings with binary weighting, for callers that handle every method's pipeline as
     * {@link SimHashSettings} (the node's breaker); {@link #featureSettings()} is the pipeline itself.
     */
    public SimHashSettings termSettings() {
        return new SimHashSettings(featureSettings, SimHashSettings.Weighting.BINARY, SimHashSettings.IDF_NONE);
    }

    /** Reads and removes its options (version, content_type, extract, max_input_chars, idf, min_idf, max_idf). */
    public static ImatchSettings fromMap(Map<String, Object> options) {
        if (options == null) return DEFAULT;
        FeatureSettings.Builder b = new FeatureSettings.Builder(DEFAULT.featureSettings);
        Integer version = FeatureSettings.readVersion(options);
        if (version != null) b.version = version;
        FeatureSettings features = b.read(options, OPTIONS).build();
        String idf = DEFAULT.idf;
        Object v = options.remove(SimHashSettings.IDF);
        if (v != null) {
            idf = OptionValues.string(SimHashSettings.IDF, v);
        }
        double min = number(MIN_IDF, options.remove(MIN_IDF), DEFAULT.minIdf);
        double max = number(MAX_IDF, options.remove(MAX_IDF), DEFAULT.maxIdf);
        return new ImatchSettings(features, idf, min, max);
    }

    private static double number(String name, Object v, double dflt) {
        return v == null ? dflt : OptionValues.number(name, v);
    }

    /** The feature pipeline's version and extraction ({@link FeatureSettings#extractionIdBody()}), then the IDF band. */
    public String algorithmId() {
        return NAME
            + "-v"
            + version()
            + ":"
            + featureSettings.extractionIdBody()
            + ","
            + SimHashSettings.IDF
            + "="
            + idf
            + ","
            + MIN_IDF
            + "="
            + format(minIdf)
            + ","
            + MAX_IDF
            + "="
            + format(maxIdf);
    }

    private static String format(double d) {
        return String.format(Locale.ROOT, "%s", d);
    }

    /** Parses an {@link #algorithmId()}. */
    public static ImatchSettings fromAlgorithmId(String id) {
        return AlgorithmIds.parse(id, NAME, Set.of(FeatureSettings.MAX_INPUT_CHARS), ImatchSettings::fromMap);
    }

    @Override
    public String toString() {
        return algorithmId();
    }
}
