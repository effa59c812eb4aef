package org.nearduplicate.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;

/**
 * The options of the feature pipeline ({@code core.features.FeaturePipeline}): what every method sees of an input
 * before it sketches it. SimHash, MinHash and I-Match each compose one (I-Match with its options fixed to single
 * words): one place for their names, defaults, checks and id text, so that equal options mean equal features in every
 * method.
 *
 * <p><b>Versions.</b> The version in every algorithm id ({@code simhash-vN}, {@code minhash-vN}, {@code imatch-vN})
 * is this pipeline's: MinHash and I-Match have none of their own. A version is added whenever the pipeline would change
 * the features of unchanged options, and every version keeps computing what it did (CHANGELOG.md). What each adds:
 * v1: word-count extraction; v2: sentences kept by extraction; v3: headings go with what they head, cookie notices go,
 * text dumps' separator lines and menu bars read as in HTML; v4: v3's features (its {@code simhash} adds the
 * signature); v5: plain-text menu and footer rows count as links, region-named elements go (docs/engine.md, "Version
 * 5"); v6: Chinese cut by HanLP's dictionary instead of its Viterbi lattice (text without Han characters: v5's
 * features). The {@code version} option is read with SimHash's names ({@code simhash-v2}, {@code v2} or {@code 2}).
 *
 * <p>The limits ({@code max_input_chars}, {@code max_features}) only make input fail, so no id contains them. Option
 * names are snake_case, as in the ingest processors' configuration.
 */
public record FeatureSettings(int version, ContentType contentType, boolean extractMain, Features features, int ngramSize, int shingleSize,
    boolean stopwords, int maxInputChars, int maxFeatures) {
    /** The newest version of the pipeline, the default of new processors and fields of every method. */
    public static final int LATEST_VERSION = 6;
    /** The first version that segments Chinese with HanLP's dictionary instead of its Viterbi lattice. */
    public static final int FIRST_DICTIONARY_SEGMENTATION_VERSION = 6;

    /** Whether this version segments Chinese by dictionary (from v6) rather than by HanLP's Viterbi lattice. */
    public boolean dictionarySegmentation() {
        return version >= FIRST_DICTIONARY_SEGMENTATION_VERSION;
    }

    public static final String VERSION_OPTION = AlgorithmIds.VERSION_OPTION;

    public static final String CONTENT_TYPE = "content_type";
    public static final String EXTRACT = "extract";
    public static final String FEATURES = "features";
    public static final String NGRAM_SIZE = "ngram_size";
    public static final String SHINGLE_SIZE = "shingle_size";
    public static final String STOPWORDS = "stopwords";
    public static final String MAX_INPUT_CHARS = "max_input_chars";
    public static final String MAX_FEATURES = "max_features";

    /** The options that change features, in the order they are read and written. */
    public static final List<String> OPTIONS = List.of(CONTENT_TYPE, EXTRACT, FEATURES, NGRAM_SIZE, SHINGLE_SIZE, STOPWORDS);
    /** The options that only bound the work of one input; never part of an algorithm id. */
    public static final List<String> LIMITS = List.of(MAX_INPUT_CHARS, MAX_FEATURES);

    public static final int MAX_NGRAM_SIZE = 8;
    public static final int MAX_SHINGLE_SIZE = 5;
    /**
     * Default of {@code max_input_chars}: 2 million UTF-16 chars (about 2 MB of mostly-ASCII HTML, far above real pages'
     * main content). Bounds the work and the memory of one fingerprint; see docs/reliability.md.
     */
    public static final int DEFAULT_MAX_INPUT_CHARS = 2_000_000;
    /** Default of {@code max_features}: distinct features of one input (each costs about 100 bytes while counting). */
    public static final int DEFAULT_MAX_FEATURES = 400_000;

    /**
     * The defaults of the newest version: word bigrams with stopwords removed (SimHash's defaults, chosen on the public
     * corpus; MinHash keeps the stopwords, I-Match takes single words).
     */
    public static final FeatureSettings DEFAULT = new FeatureSettings(
        LATEST_VERSION,
        ContentType.AUTO,
        true,
        Features.WORDS,
        3,
        2,
        true,
        DEFAULT_MAX_INPUT_CHARS,
        DEFAULT_MAX_FEATURES
    );

    /** What the pipeline takes from the normalized text. */
    public enum Features {
        WORDS,
        CHAR_NGRAMS,
        /** Spot signatures (Theobald et al., SIGIR 2008): a stopword antecedent and the next {@code shingle_size} non-stopwords. */
        SPOTSIGS;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public FeatureSettings {
        checkRange(VERSION_OPTION, version, 1, LATEST_VERSION);
        Objects.requireNonNull(contentType, CONTENT_TYPE);
        Objects.requireNonNull(features, FEATURES);
        checkRange(NGRAM_SIZE, ngramSize, 1, MAX_NGRAM_SIZE);
        checkRange(SHINGLE_SIZE, shingleSize, 1, MAX_SHINGLE_SIZE);
        checkRange(MAX_INPUT_CHARS, maxInputChars, 1, Integer.MAX_VALUE);
        checkRange(MAX_FEATURES, maxFeatures, 1, Integer.MAX_VALUE);
    }

    private static void checkRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidOptionException(name, "must be between " + min + " and " + max + ", got " + value);
        }
    }

    /**
     * Removes the {@code version} option from {@code options} and reads it; null when it is absent, so that the caller
     * can pick that version's defaults.
     */
    public static Integer readVersion(Map<String, Object> options) {
        Object v = options.remove(VERSION_OPTION);
        return v == null ? null : AlgorithmIds.version(v, "simhash", LATEST_VERSION);
    }

    /**
     * {@code defaults} with the version, {@link #OPTIONS} and {@link #LIMITS} found in {@code options}, which are removed
     * from it; other keys stay for the caller. A version keeps the other defaults (they are the method's, not the
     * version's).
     *
     * @throws IllegalArgumentException naming the bad option
     */
    public static FeatureSettings fromMap(Map<String, Object> options, FeatureSettings defaults) {
        Builder b = new Builder(defaults);
        Integer version = readVersion(options);
        if (version != null) b.version = version;
        return b.read(options, OPTIONS).read(options, LIMITS).build();
    }

    /** All options, the limits included, with their snake_case names, in {@link #OPTIONS} order. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(VERSION_OPTION, version);
        m.put(CONTENT_TYPE, contentType.id());
        m.put(EXTRACT, extractMain ? "main" : "none");
        m.put(FEATURES, features.id());
        m.put(NGRAM_SIZE, ngramSize);
        m.put(SHINGLE_SIZE, shingleSize);
        m.put(STOPWORDS, stopwords);
        m.put(MAX_INPUT_CHARS, maxInputChars);
        m.put(MAX_FEATURES, maxFeatures);
        return m;
    }

    /**
     * The part of the algorithm ids that names where the text comes from, e.g. {@code content_type=auto,extract=main}:
     * all that I-Match's ids embed (its other options are fixed).
     */
    public String extractionIdBody() {
        return CONTENT_TYPE + '=' + contentType.id() + ',' + EXTRACT + '=' + (extractMain ? "main" : "none");
    }

    /**
     * The options of the algorithm ids of SimHash and MinHash, canonically ordered, without the version, e.g. {@code
     * content_type=auto,extract=main,features=words,shingle_size=2,stopwords=true}. Options that cannot affect the
     * features are left out ({@code ngram_size} for words and spot signatures, {@code shingle_size} and {@code stopwords}
     * for character n-grams, {@code stopwords} for spot signatures, whose antecedents they are), so equal ids mean equal
     * features.
     */
    public String idBody() {
        StringBuilder sb = new StringBuilder(extractionIdBody());
        sb.append(',').append(FEATURES).append('=').append(features.id());
        if (features == Features.CHAR_NGRAMS) {
            sb.append(',').append(NGRAM_SIZE).append('=').append(ngramSize);
        } else if (features == Features.SPOTSIGS) {
            sb.append(',').append(SHINGLE_SIZE).append('=').append(shingleSize);
        } else {
            sb.append(',').append(SHINGLE_SIZE).append('=').append(shingleSize);
            sb.append(',').append(STOPWORDS).append('=').append(stopwords);
        }
        return sb.toString();
    }

    private static boolean parseExtract(Object v) {
        if (v instanceof Boolean bool) return bool;
        return switch (OptionValues.string(EXTRACT, v)) {
            case "main", "true" -> true;
            case "none", "false" -> false;
            default -> throw new InvalidOptionException(EXTRACT, "must be [main] or [none], got [" + v + "]");
        };
    }

    /** Mutable copy for reading options and building variants (the methods' parsers, the quality tools). */
    public static final class Builder {
        public int version;
        public ContentType contentType;
        public boolean extractMain;
        public Features features;
        public int ngramSize;
        public int shingleSize;
        public boolean stopwords;
        public int maxInputChars;
        public int maxFeatures;

        public Builder(FeatureSettings from) {
            version = from.version;
            contentType = from.contentType;
            extractMain = from.extractMain;
            features = from.features;
            ngramSize = from.ngramSize;
            shingleSize = from.shingleSize;
            stopwords = from.stopwords;
            maxInputChars = from.maxInputChars;
            maxFeatures = from.maxFeatures;
        }

        /**
         * Reads and removes {@code names} (of {@link #OPTIONS} and {@link #LIMITS}) from {@code options}, in that order:
         * the first bad one is the one reported. Each method reads the subset it has, in the order its messages need.
         *
         * @throws IllegalArgumentException naming the bad option
         */
        public Builder read(Map<String, Object> options, List<String> names) {
            for (String name : names) {
                Object v = options.remove(name);
                if (v == null) continue;
                switch (name) {
                    case CONTENT_TYPE -> contentType = ContentType.fromId(OptionValues.string(CONTENT_TYPE, v));
                    case EXTRACT -> extractMain = parseExtract(v);
                    case FEATURES -> features = OptionValues.enumValue(FEATURES, v, Features.class);
                    case NGRAM_SIZE -> ngramSize = OptionValues.integer(NGRAM_SIZE, v);
                    case SHINGLE_SIZE -> shingleSize = OptionValues.integer(SHINGLE_SIZE, v);
                    case STOPWORDS -> stopwords = OptionValues.bool(STOPWORDS, v);
                    case MAX_INPUT_CHARS -> maxInputChars = OptionValues.integer(MAX_INPUT_CHARS, v);
                    case MAX_FEATURES -> maxFeatures = OptionValues.integer(MAX_FEATURES, v);
                    default -> throw new IllegalArgumentException("not a feature option: [" + name + "]");
                }
            }
            return this;
        }

        public FeatureSettings build() {
            return new FeatureSettings(
                version,
                contentType,
                extractMain,
                features,
                ngramSize,
                shingleSize,
                stopwords,
                maxInputChars,
                maxFeatures
            );
        }
    }
}
