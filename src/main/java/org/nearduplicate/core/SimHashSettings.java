package org.nearduplicate.core;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;

/**
 * The immutable parameters of SimHash: the feature pipeline's ({@link FeatureSettings}) and how features are weighted
 * ({@code weighting}, {@code idf}), under SimHash's {@code version}. Every parameter that changes the output is part of
 * {@link #algorithmId()}; the limits only make input fail, so they are not.
 *
 * <p><b>Versions.</b> Up to 6 SimHash's version is the feature pipeline's. Version 7 is SimHash's own: version 6's
 * pipeline, fingerprint and signature, plus the candidate keys of the verified match ({@code core.keys.CandidateKeys},
 * layout {@link #V7_KEYS}, named by the id's {@code keys} parameter), the default since 0.9.0 ({@link #DEFAULT_VERSION}).
 * A v7 fingerprint and signature are v6's bit for bit
 * ({@link #sketchSettings()}, {@link #sameSketch}); its id still differs, so that a field's id names everything its
 * values carry.
 *
 * <p>Option names are snake_case, as in the ingest processor's configuration. The option names and limits of the
 * pipeline are repeated here as constants for the callers that name them through SimHash.
 */
public record SimHashSettings(FeatureSettings featureSettings, Weighting weighting, String idf, int version) implements MethodSettings {
    public static final String NAME = "simhash";
    /**
     * The default of new processors and fields: 7, version 6's pipeline, fingerprint and signature with the candidate
     * keys that let the verified match read an index instead of every fingerprint (docs/engine.md, "Version 7").
     */
    public static final int DEFAULT_VERSION = 7;
    /** The newest version this engine computes (7: {@link #FIRST_KEYS_VERSION}). */
    public static final int LATEST_VERSION = 7;
    /** The first version whose values carry candidate keys; its pipeline, fingerprint and signature are version 6's. */
    public static final int FIRST_KEYS_VERSION = 7;
    /** The id prefix of the default version. */
    public static final String VERSION = NAME + "-v" + DEFAULT_VERSION;
    public static final String VERSION_OPTION = FeatureSettings.VERSION_OPTION;
    /** The id parameter (and processor option) naming the candidate keys' layout, from version 7. */
    public static final String KEYS = "keys";
    /**
     * Version 7's key layout, as {@code core.keys.CandidateKeys#layoutId()} writes it: pair groups of 3 x 8 + 2 x 4
     * slots (28 keys, every pair sharing at least 13 full min-wise values shares one), 32-bit key hashes.
     */
    public static final String V7_KEYS = "pairs:3x8+2x4:w32";

    public enum Weighting {
        TF,
        LOG_TF,
        BINARY,
        TF_IDF;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final String CONTENT_TYPE = FeatureSettings.CONTENT_TYPE;
    public static final String EXTRACT = FeatureSettings.EXTRACT;
    public static final String FEATURES = FeatureSettings.FEATURES;
    public static final String NGRAM_SIZE = FeatureSettings.NGRAM_SIZE;
    public static final String SHINGLE_SIZE = FeatureSettings.SHINGLE_SIZE;
    public static final String STOPWORDS = FeatureSettings.STOPWORDS;
    public static final String WEIGHTING = "weighting";
    public static final String IDF = "idf";
    public static final String MAX_INPUT_CHARS = FeatureSettings.MAX_INPUT_CHARS;
    public static final String MAX_FEATURES = FeatureSettings.MAX_FEATURES;

    public static final String IDF_NONE = "none";
    /** The IDF table shipped with the engine (built from the public corpus; see docs/engine.md). */
    public static final String BUILTIN_IDF = "web-en-zh-v1";
    public static final int MAX_NGRAM_SIZE = FeatureSettings.MAX_NGRAM_SIZE;
    public static final int MAX_SHINGLE_SIZE = FeatureSettings.MAX_SHINGLE_SIZE;
    /** Default of {@code max_input_chars}: {@link FeatureSettings#DEFAULT_MAX_INPUT_CHARS}. */
    public static final int DEFAULT_MAX_INPUT_CHARS = FeatureSettings.DEFAULT_MAX_INPUT_CHARS;
    /** Default of {@code max_features}: {@link FeatureSettings#DEFAULT_MAX_FEATURES}. */
    public static final int DEFAULT_MAX_FEATURES = FeatureSettings.DEFAULT_MAX_FEATURES;

    /** The defaults of version 1: words, TF. */
    public static final SimHashSettings DEFAULT_V1 = defaults(1, 1);
    /** The defaults of version 2: word bigrams, TF. */
    public static final SimHashSettings DEFAULT_V2 = defaults(2, 2);
    /** The defaults of version 3: version 2's options with version 3's extraction rules. */
    public static final SimHashSettings DEFAULT_V3 = defaults(3, 2);
    /** The defaults of version 4: version 3's features and the verification signature. */
    public static final SimHashSettings DEFAULT_V4 = defaults(4, 2);
    /** The defaults of version 5: version 4's features with version 5's extraction rules, and the signature. */
    public static final SimHashSettings DEFAULT_V5 = defaults(5, 2);

    /** The default options of {@code version}: TF over words ({@code shingleSize} 1) or word bigrams (2). */
    private static SimHashSettings defaults(int version, int shingleSize) {
        return new SimHashSettings(
            version,
            ContentType.AUTO,
            true,
            FeatureSettings.Features.WORDS,
            3,
            shingleSize,
            true,
            Weighting.TF,
            IDF_NONE,
            DEFAULT_MAX_INPUT_CHARS,
            DEFAULT_MAX_FEATURES
        );
    }

    /**
     * The defaults, chosen by measurement on the public evaluation corpus (see docs/engine.md): version 4's features
     * (word bigrams, TF) with version 5's extraction rules, Chinese segmented by dictionary (version 6) and, as every
     * version from 4, the verification signature.
     */
    public static final SimHashSettings DEFAULT_V6 = new SimHashSettings(FeatureSettings.DEFAULT, Weighting.TF, IDF_NONE);

    /** The defaults of version 7: version 6's options and pipeline plus the candidate keys. */
    public static final SimHashSettings DEFAULT_V7 = new SimHashSettings(FeatureSettings.DEFAULT, Weighting.TF, IDF_NONE, 7);

    /** The defaults of new processors and fields ({@link #DEFAULT_VERSION}). */
    public static final SimHashSettings DEFAULT = DEFAULT_V7;

    /** The first version whose values carry a verification signature ({@code core.sketch.Signature}). */
    public static final int FIRST_SIGNATURE_VERSION = 4;

    /**
     * {@code simhash-v4}'s and {@code simhash-v5}'s default {@code min_similarity}: with
     * k = 16 the setting the rule of docs/engine.md ("Verified match") chose on the public corpus, the best recall whose
     * unrelated-pair rate, spread rate and share of documents with a false match stay within the targets with 20 %
     * headroom (bench/results/RESULTS-signature-study.md). 12 of 32 slots. Version 5 keeps it although 0.40 measured
     * better for it (bench/results/RESULTS-scale-quality-v5-t040.md), so that its indices answer as they were measured.
     */
    public static final double V4_MIN_SIMILARITY = 0.35;

    /**
     * {@code simhash-v6}'s default {@code min_similarity}: the same rule with issue 25's group target added (the
     * default mode's largest group no larger than the largest labelled group). 13 of 32 slots: on the public corpus
     * recall 0.972, precision 0.994, and a heavy-edit negative does not join its page's copies
     * (bench/results/RESULTS-scale-quality-v6.md; version 5 measured at both thresholds:
     * bench/results/RESULTS-scale-quality-v5-t040.md).
     */
    public static final double V6_MIN_SIMILARITY = 0.40;

    /**
     * The default {@code min_similarity} of a verified match of this version: the signatures' Jaccard estimate must
     * reach it. NaN for versions without signatures (before 4). Per version, as {@link #recommendedMaxDistance()}, so that
     * an index keeps answering as its algorithm was measured.
     */
    public double recommendedMinSimilarity() {
        return switch (version()) {
            case 1, 2, 3 -> Double.NaN;
            case 4, 5 -> V4_MIN_SIMILARITY;
            default -> V6_MIN_SIMILARITY;
        };
    }

    /**
     * {@link #recommendedMinSimilarity()} of the algorithm {@code algorithmId} names; NaN for an id this engine did
     * not make (no signature it could verify).
     */
    public static double recommendedMinSimilarity(String algorithmId) {
        SimHashSettings settings = fromAlgorithmIdOrNull(algorithmId);
        return settings == null ? Double.NaN : settings.recommendedMinSimilarity();
    }

    /** Parsed algorithm ids: a mapping or a cluster has few, and parsing one is not free. */
    private static final Map<String, Optional<SimHashSettings>> BY_ID = new ConcurrentHashMap<>();

    /**
     * {@link #fromAlgorithmId} for callers that only hold an id (a mapping in the cluster state, a document's value,
     * a shard's answer) and need its defaults, cached; null for an id this engine did not make (another method, a newer
     * release, foreign options).
     */
    public static SimHashSettings fromAlgorithmIdOrNull(String algorithmId) {
        if (algorithmId == null || algorithmId.startsWith(NAME + "-v") == false) return null;
        Optional<SimHashSettings> cached = BY_ID.get(algorithmId);
        if (cached != null) return cached.orElse(null);
        SimHashSettings settings;
        try {
            settings = fromAlgorithmId(algorithmId);
        } catch (IllegalArgumentException e) {
            settings = null;
        }
        if (BY_ID.size() >= 100) {
            BY_ID.clear(); // ids of deleted fields, or made up by documents; the next lookups parse again
        }
        BY_ID.put(algorithmId, Optional.ofNullable(settings));
        return settings;
    }

    /** The defaults of {@code version}. */
    public static SimHashSettings defaults(int version) {
        return switch (version) {
            case 1 -> DEFAULT_V1;
            case 2 -> DEFAULT_V2;
            case 3 -> DEFAULT_V3;
            case 4 -> DEFAULT_V4;
            case 5 -> DEFAULT_V5;
            case 6 -> DEFAULT_V6;
            case 7 -> DEFAULT_V7;
            default -> throw new InvalidOptionException("version", "must be from 1 to " + LATEST_VERSION + ", got " + version);
        };
    }

    /**
     * The default {@code max_distance} of queries on fingerprints of this version. v4 and v5: 16 with the verification
     * ({@link #recommendedMinSimilarity()}), chosen for scale (docs/engine.md, "Verified match"). v2 and v3: the largest
     * k whose precision is at least 0.98 on the public corpus (15 for both). v1: 12, its best-F1 k.
     */
    public int recommendedMaxDistance() {
        return switch (version()) {
            case 1 -> 12;
            case 2, 3 -> 15;
            default -> 16;
        };
    }

    /** Whether this version's values carry a verification signature (from version 4). */
    public boolean hasSignature() {
        return version() >= FIRST_SIGNATURE_VERSION;
    }

    /** Whether this version's values carry candidate keys (from version 7). */
    public boolean hasCandidateKeys() {
        return version >= FIRST_KEYS_VERSION;
    }

    /** The layout id of the candidate keys ({@link #V7_KEYS}); null for versions without keys. */
    public String candidateKeys() {
        return hasCandidateKeys() ? V7_KEYS : null;
    }

    /** The feature pipeline's version a SimHash version runs: its own up to 6; version 7 runs version 6's. */
    public static int pipelineVersion(int version) {
        return version >= FIRST_KEYS_VERSION ? FIRST_KEYS_VERSION - 1 : version;
    }

    /**
     * The settings of the fingerprint and signature alone: these settings, or for a version with keys the same options
     * at the version that computes the same fingerprint and signature without keys (v7: v6). Equal sketch settings mean
     * bit-identical fingerprints and signatures ({@code SimHasherTests} pins it).
     */
    public SimHashSettings sketchSettings() {
        return hasCandidateKeys() ? new SimHashSettings(featureSettings, weighting, idf) : this;
    }

    /**
     * Whether two of this engine's algorithm ids make the same fingerprint and signature, so that those may be compared
     * (a {@code simhash-v7} and a {@code simhash-v6} id of the same options: yes). What a field stores is still decided by
     * id equality: a v6 value lacks the keys a v7 field indexes, and a v7 value in a v6 field would drop them. False for
     * an id this engine did not make.
     */
    public static boolean sameSketch(String algorithmId, String otherAlgorithmId) {
        SimHashSettings a = fromAlgorithmIdOrNull(algorithmId);
        SimHashSettings b = fromAlgorithmIdOrNull(otherAlgorithmId);
        return a != null && b != null && a.sketchSettings().algorithmId().equals(b.sketchSettings().algorithmId());
    }

    /** Settings of a version up to 6: SimHash's version is the pipeline's. */
    public SimHashSettings(FeatureSettings featureSettings, Weighting weighting, String idf) {
        this(featureSettings, weighting, idf, Objects.requireNonNull(featureSettings, "featureSettings").version());
    }

    /**
     * {@code idf}: a table name, {@link #IDF_NONE} unless {@code weighting} is {@code tf_idf}; {@code version}: 1 to
     * {@link #LATEST_VERSION}, running the pipeline of {@link #pipelineVersion}.
     */
    public SimHashSettings {
        Objects.requireNonNull(featureSettings, "featureSettings");
        if (version < 1 || version > LATEST_VERSION) {
            throw new InvalidOptionException(VERSION_OPTION, "must be from 1 to " + LATEST_VERSION + ", got " + version);
        }
        if (featureSettings.version() != pipelineVersion(version)) {
            throw new IllegalArgumentException(
                "simhash-v"
                    + version
                    + " runs the feature pipeline of version "
                    + pipelineVersion(version)
                    + ", got "
                    + featureSettings.version()
            );
        }
        Objects.requireNonNull(weighting, WEIGHTING);
        Objects.requireNonNull(idf, IDF);
        if (idf.matches("[a-z0-9][a-z0-9_.-]{0,63}") == false) {
            throw new InvalidOptionException("idf", "must be a table name of [a-z0-9_.-], got [" + idf + "]");
        }
        if (weighting == Weighting.TF_IDF && idf.equals(IDF_NONE)) {
            throw new InvalidOptionException("weighting", "tf_idf needs an [idf] table, e.g. [" + BUILTIN_IDF + "]");
        }
        if (weighting != Weighting.TF_IDF && idf.equals(IDF_NONE) == false) {
            throw new InvalidOptionException("idf", "is only used with [weighting] tf_idf, got weighting [" + weighting.id() + "]");
        }
    }

    /** All parameters flat, in {@link #toMap()} order but for the limits, which come last. */
    public SimHashSettings(
        int version,
        ContentType contentType,
        boolean extractMain,
        FeatureSettings.Features features,
        int ngramSize,
        int shingleSize,
        boolean stopwords,
        Weighting weighting,
        String idf,
        int maxInputChars,
        int maxFeatures
    ) {
        this(
            new FeatureSettings(version, contentType, extractMain, features, ngramSize, shingleSize, stopwords, maxInputChars, maxFeatures),
            weighting,
            idf
        );
    }

    public FeatureSettings.Features features() {
        return featureSettings.features();
    }

    public int ngramSize() {
        return featureSettings.ngramSize();
    }

    public int shingleSize() {
        return featureSettings.shingleSize();
    }

    public boolean stopwords() {
        return featureSettings.stopwords();
    }

    /**
     * Reads and removes the options it knows from {@code options} (as the ingest processor must consume its
     * configuration); missing options keep the {@link #DEFAULT}, or the defaults of the {@code version} given. Unknown
     * keys are left in the map for the caller.
     *
     * @throws IllegalArgumentException naming the bad option
     */
    public static SimHashSettings fromMap(Map<String, Object> options) {
        if (options == null) return DEFAULT;
        Object givenVersion = options.remove(VERSION_OPTION);
        Integer version = givenVersion == null ? null : AlgorithmIds.version(givenVersion, NAME, LATEST_VERSION);
        // the version's own defaults: an older version keeps computing what it computed
        SimHashSettings base = version == null ? DEFAULT : defaults(version);
        // read in the order of toMap(), so that of several bad options the same one is reported as always
        FeatureSettings.Builder features = new FeatureSettings.Builder(base.featureSettings).read(options, FeatureSettings.OPTIONS);
        Weighting weighting = base.weighting;
        String idf = base.idf;
        Object v;
        if ((v = options.remove(WEIGHTING)) != null) weighting = OptionValues.enumValue(WEIGHTING, v, Weighting.class);
        if ((v = options.remove(IDF)) != null) idf = OptionValues.string(IDF, v);
        else if (weighting == Weighting.TF_IDF) idf = BUILTIN_IDF;
        FeatureSettings pipeline = features.read(options, FeatureSettings.LIMITS).build();
        if ((v = options.remove(KEYS)) != null) {
            String keys = OptionValues.string(KEYS, v);
            if (base.hasCandidateKeys() == false) {
                throw new InvalidOptionException(KEYS, "needs [version] " + FIRST_KEYS_VERSION + ", got version " + base.version);
            }
            if (keys.equals(V7_KEYS) == false) {
                throw new InvalidOptionException(
                    KEYS,
                    "must be [" + V7_KEYS + "] (simhash-v" + base.version + "'s layout), got [" + keys + "]"
                );
            }
        }
        return new SimHashSettings(pipeline, weighting, idf, base.version);
    }

    /** All options, including the limits, with their snake_case names; {@code fromMap(toMap())} gives equal settings. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>(featureSettings.toMap());
        FeatureSettings.LIMITS.forEach(m::remove);
        m.put(VERSION_OPTION, version);
        m.put(WEIGHTING, weighting.id());
        m.put(IDF, idf);
        if (hasCandidateKeys()) m.put(KEYS, candidateKeys());
        m.put(MAX_INPUT_CHARS, maxInputChars());
        m.put(MAX_FEATURES, maxFeatures());
        return m;
    }

    /**
     * The canonical version string of the algorithm and its output-affecting parameters: the feature pipeline's
     * ({@link FeatureSettings#idBody()}) and the weighting, e.g. {@code
     * simhash-v1:content_type=auto,extract=main,features=words,shingle_size=1,stopwords=true,weighting=log_tf,idf=none};
     * from version 7 the key layout follows ({@code ...,idf=none,keys=pairs:3x8+2x4:w32}). Equal ids mean equal
     * fingerprints, signatures and keys.
     */
    public String algorithmId() {
        String id = NAME + "-v" + version + ':' + featureSettings.idBody() + ',' + WEIGHTING + '=' + weighting.id() + ',' + IDF + '=' + idf;
        return hasCandidateKeys() ? id + ',' + KEYS + '=' + candidateKeys() : id;
    }

    /**
     * Parses an {@link #algorithmId()}; the limits take their defaults. Rejects unknown versions and unknown keys.
     */
    public static SimHashSettings fromAlgorithmId(String algorithmId) {
        return AlgorithmIds.parse(algorithmId, NAME, LATEST_VERSION, Set.copyOf(FeatureSettings.LIMITS), SimHashSettings::fromMap);
    }

    /** Mutable copy for building variants, e.g. in the quality report. */
    public static final class Builder {
        public int version;
        public ContentType contentType;
        public boolean extractMain;
        public FeatureSettings.Features features;
        public int ngramSize;
        public int shingleSize;
        public boolean stopwords;
        public Weighting weighting;
        public String idf;
        public int maxInputChars;
        public int maxFeatures;

        public Builder(SimHashSettings from) {
            version = from.version();
            contentType = from.contentType();
            extractMain = from.extractMain();
            features = from.features();
            ngramSize = from.ngramSize();
            shingleSize = from.shingleSize();
            stopwords = from.stopwords();
            weighting = from.weighting;
            idf = from.idf;
            maxInputChars = from.maxInputChars();
            maxFeatures = from.maxFeatures();
        }

        public SimHashSettings build() {
            return new SimHashSettings(featureSettings(), weighting, idf, version);
        }

        /** The feature pipeline part, built (and checked) by {@link FeatureSettings.Builder}. */
        private FeatureSettings featureSettings() {
            FeatureSettings.Builder b = new FeatureSettings.Builder(FeatureSettings.DEFAULT);
            b.version = pipelineVersion(version);
            b.contentType = contentType;
            b.extractMain = extractMain;
            b.features = features;
            b.ngramSize = ngramSize;
            b.shingleSize = shingleSize;
            b.stopwords = stopwords;
            b.maxInputChars = maxInputChars;
            b.maxFeatures = maxFeatures;
            return b.build();
        }
    }

    @Override
    public String toString() {
        return algorithmId();
    }
}
