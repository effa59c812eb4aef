package org.nearduplicate.core;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The immutable parameters of the fingerprinting pipeline. Every parameter that changes the output is part of
 * {@link #algorithmId()}; the limits only make input fail, so they are not.
 *
 * <p>Option names are snake_case, as in the ingest processor's configuration.
 */
public final class SimHashSettings {
    public static final String NAME = "simhash";
    /**
     * The newest version, the default of new processors and fields. Bumped whenever the code changes fingerprints for
     * unchanged settings; every older version keeps computing exactly what it did (its rules stay selectable by
     * {@code version}). v1: boilerpipe word-count extraction, words; v2 (0.3.0): sentences kept by extraction, word
     * bigrams; v3 (0.5.0): headings go with what they head, cookie notices go, text dumps' separator lines and menu
     * bars read as in HTML (docs/engine.md).
     */
    public static final int LATEST_VERSION = 3;
    /** The id prefix of the newest version. */
    public static final String VERSION = NAME + "-v" + LATEST_VERSION;
    public static final String VERSION_OPTION = AlgorithmIds.VERSION_OPTION;

    public enum Features {
        WORDS,
        CHAR_NGRAMS,
        /** Spot signatures (Theobald et al., SIGIR 2008): a stopword antecedent and the next {@code shingle_size} non-stopwords. */
        SPOTSIGS;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum Weighting {
        TF,
        LOG_TF,
        BINARY,
        TF_IDF;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final String CONTENT_TYPE = "content_type";
    public static final String EXTRACT = "extract";
    public static final String FEATURES = "features";
    public static final String NGRAM_SIZE = "ngram_size";
    public static final String SHINGLE_SIZE = "shingle_size";
    public static final String STOPWORDS = "stopwords";
    public static final String WEIGHTING = "weighting";
    public static final String IDF = "idf";
    public static final String MAX_INPUT_CHARS = "max_input_chars";
    public static final String MAX_FEATURES = "max_features";

    public static final String IDF_NONE = "none";
    /** The IDF table shipped with the engine (built from the public corpus; see docs/engine.md). */
    public static final String BUILTIN_IDF = "web-en-zh-v1";
    public static final int MAX_NGRAM_SIZE = 8;
    public static final int MAX_SHINGLE_SIZE = 5;

    /**
     * Default of {@code max_input_chars}: 2 million UTF-16 chars (about 2 MB of mostly-ASCII HTML, far above real pages'
     * main content). Bounds the work and the memory of one fingerprint; see docs/reliability.md.
     */
    public static final int DEFAULT_MAX_INPUT_CHARS = 2_000_000;
    /** Default of {@code max_features}: distinct features of one input (each costs about 100 bytes while counting). */
    public static final int DEFAULT_MAX_FEATURES = 400_000;

    /** The defaults of version 1 (0.1.0 and 0.2.0): words, TF. */
    public static final SimHashSettings DEFAULT_V1 = new SimHashSettings(
        1, ContentType.AUTO, true, Features.WORDS, 3, 1, true, Weighting.TF, IDF_NONE, DEFAULT_MAX_INPUT_CHARS, DEFAULT_MAX_FEATURES
    );

    /** The defaults of version 2 (0.3.0 and 0.4.0): word bigrams, TF. */
    public static final SimHashSettings DEFAULT_V2 = new SimHashSettings(
        2, ContentType.AUTO, true, Features.WORDS, 3, 2, true, Weighting.TF, IDF_NONE, DEFAULT_MAX_INPUT_CHARS, DEFAULT_MAX_FEATURES
    );

    /**
     * The defaults, chosen by measurement on the public evaluation corpus (see docs/engine.md): version 2's options
     * (word bigrams, TF) with version 3's extraction rules.
     */
    public static final SimHashSettings DEFAULT = new SimHashSettings(
        3, ContentType.AUTO, true, Features.WORDS, 3, 2, true, Weighting.TF, IDF_NONE, DEFAULT_MAX_INPUT_CHARS, DEFAULT_MAX_FEATURES
    );

    /** The defaults of {@code version}. */
    public static SimHashSettings defaults(int version) {
        return switch (version) {
            case 1 -> DEFAULT_V1;
            case 2 -> DEFAULT_V2;
            case LATEST_VERSION -> DEFAULT;
            default -> throw new InvalidOptionException("version", "must be from 1 to " + LATEST_VERSION + ", got " + version);
        };
    }

    /**
     * The default {@code max_distance} of queries on fingerprints of this version. v2 and v3: the largest k whose
     * precision is at least 0.98 on the public corpus (15 for both; v3: F1 0.976, equal to the best F1, at k = 16).
     * v1 keeps 12, its best-F1 default since 0.2.0, so that existing indices answer as before.
     */
    public int recommendedMaxDistance() {
        return version == 1 ? 12 : 15;
    }

    private final int version;
    private final ContentType contentType;
    private final boolean extractMain;
    private final Features features;
    private final int ngramSize;
    private final int shingleSize;
    private final boolean stopwords;
    private final Weighting weighting;
    private final String idf;
    private final int maxInputChars;
    private final int maxFeatures;

    public SimHashSettings(
        int version,
        ContentType contentType,
        boolean extractMain,
        Features features,
        int ngramSize,
        int shingleSize,
        boolean stopwords,
        Weighting weighting,
        String idf,
        int maxInputChars,
        int maxFeatures
    ) {
        this.version = checkRange(VERSION_OPTION, version, 1, LATEST_VERSION);
        this.contentType = Objects.requireNonNull(contentType, CONTENT_TYPE);
        this.extractMain = extractMain;
        this.features = Objects.requireNonNull(features, FEATURES);
        this.ngramSize = checkRange(NGRAM_SIZE, ngramSize, 1, MAX_NGRAM_SIZE);
        this.shingleSize = checkRange(SHINGLE_SIZE, shingleSize, 1, MAX_SHINGLE_SIZE);
        this.stopwords = stopwords;
        this.weighting = Objects.requireNonNull(weighting, WEIGHTING);
        this.idf = Objects.requireNonNull(idf, IDF);
        this.maxInputChars = checkRange(MAX_INPUT_CHARS, maxInputChars, 1, Integer.MAX_VALUE);
        this.maxFeatures = checkRange(MAX_FEATURES, maxFeatures, 1, Integer.MAX_VALUE);
        if (!idf.matches("[a-z0-9][a-z0-9_.-]{0,63}")) {
            throw new InvalidOptionException("idf", "must be a table name of [a-z0-9_.-], got [" + idf + "]");
        }
        if (weighting == Weighting.TF_IDF && idf.equals(IDF_NONE)) {
            throw new InvalidOptionException("weighting", "tf_idf needs an [idf] table, e.g. [" + BUILTIN_IDF + "]");
        }
        if (weighting != Weighting.TF_IDF && idf.equals(IDF_NONE) == false) {
            throw new InvalidOptionException("idf", "is only used with [weighting] tf_idf, got weighting [" + weighting.id() + "]");
        }
    }

    private static int checkRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidOptionException(name, "must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    /** The algorithm version (1 .. {@link #LATEST_VERSION}): which extraction rules apply. */
    public int version() {
        return version;
    }

    public ContentType contentType() {
        return contentType;
    }

    public boolean extractMain() {
        return extractMain;
    }

    public Features features() {
        return features;
    }

    public int ngramSize() {
        return ngramSize;
    }

    public int shingleSize() {
        return shingleSize;
    }

    public boolean stopwords() {
        return stopwords;
    }

    public Weighting weighting() {
        return weighting;
    }

    public String idf() {
        return idf;
    }

    public int maxInputChars() {
        return maxInputChars;
    }

    public int maxFeatures() {
        return maxFeatures;
    }

    /**
     * Reads and removes the options it knows from {@code options} (as the ingest processor must consume its
     * configuration); missing options keep the {@link #DEFAULT}. Unknown keys are left in the map for the caller.
     *
     * @throws IllegalArgumentException naming the bad option
     */
    public static SimHashSettings fromMap(Map<String, Object> options) {
        if (options == null) return DEFAULT;
        Object v = options.remove(VERSION_OPTION);
        // the version's own defaults: an older version keeps computing what it computed
        Builder b = new Builder(v == null ? DEFAULT : defaults(AlgorithmIds.version(v, NAME, LATEST_VERSION)));
        if ((v = options.remove(CONTENT_TYPE)) != null) b.contentType = ContentType.fromId(string(CONTENT_TYPE, v));
        if ((v = options.remove(EXTRACT)) != null) b.extractMain = parseExtract(v);
        if ((v = options.remove(FEATURES)) != null) b.features = parseEnum(FEATURES, v, Features.class);
        if ((v = options.remove(NGRAM_SIZE)) != null) b.ngramSize = integer(NGRAM_SIZE, v);
        if ((v = options.remove(SHINGLE_SIZE)) != null) b.shingleSize = integer(SHINGLE_SIZE, v);
        if ((v = options.remove(STOPWORDS)) != null) b.stopwords = bool(STOPWORDS, v);
        if ((v = options.remove(WEIGHTING)) != null) b.weighting = parseEnum(WEIGHTING, v, Weighting.class);
        if ((v = options.remove(IDF)) != null) b.idf = string(IDF, v);
        else if (b.weighting == Weighting.TF_IDF) b.idf = BUILTIN_IDF;
        if ((v = options.remove(MAX_INPUT_CHARS)) != null) b.maxInputChars = integer(MAX_INPUT_CHARS, v);
        if ((v = options.remove(MAX_FEATURES)) != null) b.maxFeatures = integer(MAX_FEATURES, v);
        return b.build();
    }

    /** All options, including the limits, with their snake_case names; {@code fromMap(toMap())} gives equal settings. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(VERSION_OPTION, version);
        m.put(CONTENT_TYPE, contentType.id());
        m.put(EXTRACT, extractMain ? "main" : "none");
        m.put(FEATURES, features.id());
        m.put(NGRAM_SIZE, ngramSize);
        m.put(SHINGLE_SIZE, shingleSize);
        m.put(STOPWORDS, stopwords);
        m.put(WEIGHTING, weighting.id());
        m.put(IDF, idf);
        m.put(MAX_INPUT_CHARS, maxInputChars);
        m.put(MAX_FEATURES, maxFeatures);
        return m;
    }

    /**
     * The canonical version string of the algorithm and its output-affecting parameters, e.g. {@code
     * simhash-v1:content_type=auto,extract=main,features=words,shingle_size=1,stopwords=true,weighting=log_tf,idf=none}.
     * Parameters that cannot affect the output for the chosen features are left out ({@code ngram_size} for words,
     * {@code shingle_size} and {@code stopwords} for character n-grams), so equal ids mean equal fingerprints.
     */
    public String algorithmId() {
        StringBuilder sb = new StringBuilder(NAME).append("-v").append(version).append(':');
        sb.append(CONTENT_TYPE).append('=').append(contentType.id());
        sb.append(',').append(EXTRACT).append('=').append(extractMain ? "main" : "none");
        sb.append(',').append(FEATURES).append('=').append(features.id());
        if (features == Features.CHAR_NGRAMS) {
            sb.append(',').append(NGRAM_SIZE).append('=').append(ngramSize);
        } else if (features == Features.SPOTSIGS) {
            // the chain length; stopwords are the antecedents, so the stopwords option cannot change the output
            sb.append(',').append(SHINGLE_SIZE).append('=').append(shingleSize);
        } else {
            sb.append(',').append(SHINGLE_SIZE).append('=').append(shingleSize);
            sb.append(',').append(STOPWORDS).append('=').append(stopwords);
        }
        sb.append(',').append(WEIGHTING).append('=').append(weighting.id());
        sb.append(',').append(IDF).append('=').append(idf);
        return sb.toString();
    }

    /**
     * Parses an {@link #algorithmId()}; the limits take their defaults. Rejects unknown versions and unknown keys.
     */
    public static SimHashSettings fromAlgorithmId(String algorithmId) {
        Map<String, Object> options = AlgorithmIds.parseVersioned(algorithmId, NAME, LATEST_VERSION, Set.of(MAX_INPUT_CHARS, MAX_FEATURES));
        SimHashSettings s = fromMap(options);
        AlgorithmIds.requireConsumed(options, algorithmId);
        return s;
    }

    private static boolean parseExtract(Object v) {
        if (v instanceof Boolean bool) return bool;
        return switch (string(EXTRACT, v)) {
            case "main", "true" -> true;
            case "none", "false" -> false;
            default -> throw new InvalidOptionException("extract", "must be [main] or [none], got [" + v + "]");
        };
    }

    private static <E extends Enum<E>> E parseEnum(String name, Object v, Class<E> type) {
        String s = string(name, v);
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(s)) return e;
        }
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
        }
        throw new InvalidOptionException(name, "must be one of [" + allowed + "], got [" + s + "]");
    }

    private static String string(String name, Object v) {
        return OptionValues.string(name, v);
    }

    private static boolean bool(String name, Object v) {
        return OptionValues.bool(name, v);
    }

    private static int integer(String name, Object v) {
        return OptionValues.integer(name, v);
    }

    /** Mutable copy for building variants, e.g. in the quality report. */
    public static final class Builder {
        public int version;
        public ContentType contentType;
        public boolean extractMain;
        public Features features;
        public int ngramSize;
        public int shingleSize;
        public boolean stopwords;
        public Weighting weighting;
        public String idf;
        public int maxInputChars;
        public int maxFeatures;

        public Builder(SimHashSettings from) {
            version = from.version;
            contentType = from.contentType;
            extractMain = from.extractMain;
            features = from.features;
            ngramSize = from.ngramSize;
            shingleSize = from.shingleSize;
            stopwords = from.stopwords;
            weighting = from.weighting;
            idf = from.idf;
            maxInputChars = from.maxInputChars;
            maxFeatures = from.maxFeatures;
        }

        public SimHashSettings build() {
            return new SimHashSettings(
                version,
                contentType, extractMain, features, ngramSize, shingleSize, stopwords, weighting, idf, maxInputChars, maxFeatures
            );
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimHashSettings s && s.toMap().equals(toMap());
    }

    @Override
    public int hashCode() {
        return toMap().hashCode();
    }

    @Override
    public String toString() {
        return algorithmId();
    }
}
