package org.nearduplicate.core;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;


import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Immutable MinHash parameters: the engine's feature pipeline (content type, extraction, features, shingle size,
 * stopwords — the same options and defaults names as {@link SimHashSettings}, weighting does not apply: MinHash sees
 * the set of features) and the number of min-hash values {@code hashes} (m).
 *
 * <p>{@link #algorithmId()} names the version and every output-affecting option, e.g.
 * {@code minhash-v1:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=false,hashes=128}.
 */
public final class MinHashSettings {
    /** Bumped whenever the code changes signatures for unchanged settings. */
    public static final String NAME = "minhash";
    /** Follows the feature pipeline's version ({@link SimHashSettings#LATEST_VERSION}): v2 extracts with the v2 rules. */
    public static final String VERSION = NAME + "-v" + SimHashSettings.LATEST_VERSION;
    public static final String HASHES = "hashes";
    public static final int DEFAULT_HASHES = 128;
    public static final int MAX_HASHES = 1024;

    /** Defaults chosen on the public evaluation corpus (docs/methods.md): word bigrams with stopwords, 128 values. */
    public static final MinHashSettings DEFAULT = new MinHashSettings(defaultFeatures(), DEFAULT_HASHES);

    private static SimHashSettings defaultFeatures() {
        SimHashSettings.Builder b = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        b.shingleSize = 2;
        b.stopwords = false;
        b.weighting = SimHashSettings.Weighting.BINARY;
        return b.build();
    }

    private final SimHashSettings features;
    private final int hashes;

    /** {@code features} supplies the pipeline options; its weighting and idf are ignored (set to binary / none). */
    public MinHashSettings(SimHashSettings features, int hashes) {
        SimHashSettings.Builder b = new SimHashSettings.Builder(Objects.requireNonNull(features));
        b.weighting = SimHashSettings.Weighting.BINARY;
        b.idf = SimHashSettings.IDF_NONE;
        this.features = b.build();
        if (hashes < 1 || hashes > MAX_HASHES) {
            throw new InvalidOptionException(HASHES, "must be between 1 and " + MAX_HASHES + ", got " + hashes);
        }
        this.hashes = hashes;
    }

    /** The feature pipeline's settings (binary weighting). */
    public SimHashSettings features() {
        return features;
    }

    public int version() {
        return features.version();
    }

    public int hashes() {
        return hashes;
    }

    /**
     * Reads and removes the options it knows; missing ones keep {@link #DEFAULT}. {@code weighting} and {@code idf}
     * are not MinHash options and are left in the map (the caller reports them as unknown).
     */
    public static MinHashSettings fromMap(Map<String, Object> options) {
        if (options == null) return DEFAULT;
        int m = DEFAULT_HASHES;
        Object v = options.remove(HASHES);
        if (v != null) m = integer(v);
        Map<String, Object> featureOptions = new HashMap<>();
        for (String key : new String[] {
            SimHashSettings.VERSION_OPTION,
            SimHashSettings.CONTENT_TYPE,
            SimHashSettings.EXTRACT,
            SimHashSettings.FEATURES,
            SimHashSettings.NGRAM_SIZE,
            SimHashSettings.SHINGLE_SIZE,
            SimHashSettings.STOPWORDS,
            SimHashSettings.MAX_INPUT_CHARS,
            SimHashSettings.MAX_FEATURES }) {
            if (options.containsKey(key)) featureOptions.put(key, options.remove(key));
        }
        Map<String, Object> defaults = DEFAULT.features.toMap();
        defaults.remove(SimHashSettings.WEIGHTING);
        defaults.remove(SimHashSettings.IDF);
        defaults.putAll(featureOptions);
        defaults.put(SimHashSettings.WEIGHTING, "binary");
        return new MinHashSettings(SimHashSettings.fromMap(defaults), m);
    }

    private static int integer(Object v) {
        return OptionValues.integer(HASHES, v);
    }

    /** All options with their names; {@code fromMap(toMap())} gives equal settings. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>(features.toMap());
        m.remove(SimHashSettings.WEIGHTING);
        m.remove(SimHashSettings.IDF);
        m.put(HASHES, hashes);
        return m;
    }

    /** The SimHash id of the feature pipeline minus its version and weighting, plus {@code hashes}. */
    public String algorithmId() {
        String simhash = features.algorithmId();
        String params = simhash.substring(simhash.indexOf(':') + 1);
        int weighting = params.indexOf("," + SimHashSettings.WEIGHTING + "=");
        return NAME + "-v" + features.version() + ":" + params.substring(0, weighting) + "," + HASHES + "=" + hashes;
    }

    /** Parses an {@link #algorithmId()}; rejects other versions and unknown parameters. */
    public static MinHashSettings fromAlgorithmId(String algorithmId) {
        Map<String, Object> options = AlgorithmIds.parseVersioned(
            algorithmId,
            NAME,
            SimHashSettings.LATEST_VERSION,
            Set.of(SimHashSettings.MAX_INPUT_CHARS, SimHashSettings.MAX_FEATURES)
        );
        MinHashSettings s = fromMap(options);
        AlgorithmIds.requireConsumed(options, algorithmId);
        return s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MinHashSettings s && s.toMap().equals(toMap());
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
