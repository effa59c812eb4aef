package org.nearduplicate.core;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;


import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * I-Match parameters: the content type and extraction of the engine, the IDF table and the IDF band
 * [{@code min_idf}, {@code max_idf}] of the terms that enter the I-Match key. The algorithm id, e.g.
 * {@code imatch-v1:content_type=auto,extract=main,idf=web-en-zh-v1,min_idf=3.0,max_idf=9.0}, names every
 * output-affecting option; the normalized-text key depends only on content type and extraction.
 */
public final class ImatchSettings {
    public static final String NAME = "imatch";
    /** Follows the feature pipeline's version ({@link SimHashSettings#LATEST_VERSION}): v2 extracts with the v2 rules. */
    public static final String VERSION = NAME + "-v" + SimHashSettings.LATEST_VERSION;
    public static final String MIN_IDF = "min_idf";
    public static final String MAX_IDF = "max_idf";

    /** The band chosen on the public corpus (docs/methods.md). */
    public static final ImatchSettings DEFAULT = new ImatchSettings(SimHashSettings.DEFAULT.contentType(), true, SimHashSettings.BUILTIN_IDF, 2.0, 8.0,
        SimHashSettings.DEFAULT.maxInputChars());

    private final int version;
    private final ContentType contentType;
    private final boolean extractMain;
    private final String idf;
    private final double minIdf;
    private final double maxIdf;
    private final int maxInputChars;
    private final int maxFeatures;

    public ImatchSettings(ContentType contentType, boolean extractMain, String idf, double minIdf, double maxIdf, int maxInputChars) {
        this(contentType, extractMain, idf, minIdf, maxIdf, maxInputChars, SimHashSettings.DEFAULT_MAX_FEATURES);
    }

    /** {@code maxFeatures}: a limit (like {@code maxInputChars}), not part of the algorithm id; the node's is applied by the plugin. */
    public ImatchSettings(ContentType contentType, boolean extractMain, String idf, double minIdf, double maxIdf, int maxInputChars, int maxFeatures) {
        this(SimHashSettings.LATEST_VERSION, contentType, extractMain, idf, minIdf, maxIdf, maxInputChars, maxFeatures);
    }

    /** {@code version}: of the feature pipeline (extraction rules), 1 .. {@link SimHashSettings#LATEST_VERSION}. */
    public ImatchSettings(int version, ContentType contentType, boolean extractMain, String idf, double minIdf, double maxIdf, int maxInputChars,
        int maxFeatures) {
        if (version < 1 || version > SimHashSettings.LATEST_VERSION) {
            throw new InvalidOptionException("version", "must be from 1 to " + SimHashSettings.LATEST_VERSION + ", got " + version);
        }
        this.version = version;
        this.contentType = contentType;
        this.extractMain = extractMain;
        this.idf = idf;
        if (idf == null || idf.matches("[a-z0-9][a-z0-9_.-]{0,63}") == false || idf.equals(SimHashSettings.IDF_NONE)) {
            throw new InvalidOptionException("idf", "must name an IDF table, e.g. [" + SimHashSettings.BUILTIN_IDF + "], got [" + idf + "]");
        }
        if (Double.isFinite(minIdf) == false || Double.isFinite(maxIdf) == false || minIdf < 0 || maxIdf < minIdf) {
            throw new InvalidOptionException(MIN_IDF, "and [" + MAX_IDF + "] must be finite with 0 <= min_idf <= max_idf, got ["
                + minIdf + ", " + maxIdf + "]");
        }
        if (maxInputChars < 1) throw new InvalidOptionException("max_input_chars", "must be positive, got " + maxInputChars);
        this.minIdf = minIdf;
        this.maxIdf = maxIdf;
        this.maxInputChars = maxInputChars;
        if (maxFeatures < 1) throw new InvalidOptionException("max_features", "must be positive, got " + maxFeatures);
        this.maxFeatures = maxFeatures;
    }

    public int maxFeatures() {
        return maxFeatures;
    }

    /** The same algorithm with other limits. */
    public ImatchSettings withLimits(int maxInputChars, int maxFeatures) {
        return new ImatchSettings(version, contentType, extractMain, idf, minIdf, maxIdf, maxInputChars, maxFeatures);
    }

    public int version() {
        return version;
    }

    public ContentType contentType() {
        return contentType;
    }

    public boolean extractMain() {
        return extractMain;
    }

    public String idf() {
        return idf;
    }

    public double minIdf() {
        return minIdf;
    }

    public double maxIdf() {
        return maxIdf;
    }

    public int maxInputChars() {
        return maxInputChars;
    }

    /** The engine settings of the term pipeline: words, no stopword list (the IDF band does that job), no shingles. */
    public SimHashSettings termSettings() {
        SimHashSettings.Builder b = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        b.version = version;
        b.contentType = contentType;
        b.extractMain = extractMain;
        b.features = SimHashSettings.Features.WORDS;
        b.shingleSize = 1;
        b.stopwords = false;
        b.weighting = SimHashSettings.Weighting.BINARY;
        b.idf = SimHashSettings.IDF_NONE;
        b.maxInputChars = maxInputChars;
        b.maxFeatures = maxFeatures;
        return b.build();
    }

    /** Reads and removes its options (content_type, extract, idf, min_idf, max_idf, max_input_chars). */
    public static ImatchSettings fromMap(Map<String, Object> options) {
        if (options == null) return DEFAULT;
        Map<String, Object> engine = new HashMap<>();
        for (String key : new String[] { SimHashSettings.VERSION_OPTION, SimHashSettings.CONTENT_TYPE, SimHashSettings.EXTRACT,
            SimHashSettings.MAX_INPUT_CHARS }) {
            if (options.containsKey(key)) engine.put(key, options.remove(key));
        }
        SimHashSettings s = SimHashSettings.fromMap(engine);
        String idf = DEFAULT.idf;
        Object v = options.remove(SimHashSettings.IDF);
        if (v != null) {
            idf = OptionValues.string(SimHashSettings.IDF, v);
        }
        double min = number(MIN_IDF, options.remove(MIN_IDF), DEFAULT.minIdf);
        double max = number(MAX_IDF, options.remove(MAX_IDF), DEFAULT.maxIdf);
        return new ImatchSettings(s.version(), s.contentType(), s.extractMain(), idf, min, max, s.maxInputChars(),
            SimHashSettings.DEFAULT_MAX_FEATURES);
    }

    private static double number(String name, Object v, double dflt) {
        return v == null ? dflt : OptionValues.number(name, v);
    }

    public String algorithmId() {
        return NAME + "-v" + version + ":" + SimHashSettings.CONTENT_TYPE + "=" + contentType.id() + "," + SimHashSettings.EXTRACT + "="
            + (extractMain ? "main" : "none") + "," + SimHashSettings.IDF + "=" + idf + "," + MIN_IDF + "=" + format(minIdf) + ","
            + MAX_IDF + "=" + format(maxIdf);
    }

    private static String format(double d) {
        return String.format(Locale.ROOT, "%s", d);
    }

    /** Parses an {@link #algorithmId()}. */
    public static ImatchSettings fromAlgorithmId(String id) {
        Map<String, Object> options = AlgorithmIds.parseVersioned(id, NAME, SimHashSettings.LATEST_VERSION, Set.of(SimHashSettings.MAX_INPUT_CHARS));
        ImatchSettings s = fromMap(options);
        AlgorithmIds.requireConsumed(options, id);
        return s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ImatchSettings s && s.algorithmId().equals(algorithmId()) && s.maxInputChars == maxInputChars && s.maxFeatures == maxFeatures;
    }

    @Override
    public int hashCode() {
        return algorithmId().hashCode();
    }

    @Override
    public String toString() {
        return algorithmId();
    }
}
