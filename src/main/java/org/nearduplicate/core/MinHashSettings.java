package org.nearduplicate.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;

/**
 * Immutable MinHash parameters: the engine's feature pipeline ({@link FeatureSettings}: content type, extraction,
 * features, shingle size, stopwords — the same options as SimHash's; weighting does not apply: MinHash sees the set of
 * features) and the number of min-hash values {@code hashes} (m).
 *
 * <p>{@link #algorithmId()} names the version and every output-affecting option, e.g.
 * {@code minhash-v1:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=false,hashes=128}.
 */
public record MinHashSettings(FeatureSettings featureSettings, int hashes) implements MethodSettings {
    public static final String NAME = "minhash";
    /**
     * The id prefix of the newest version: the feature pipeline's ({@link FeatureSettings#LATEST_VERSION}; MinHash has
     * no version of its own): v2 extracts with the v2 rules.
     */
    public static final String VERSION = NAME + "-v" + FeatureSettings.LATEST_VERSION;
    public static final String HASHES = "hashes";
    public static final int DEFAULT_HASHES = 128;
    public static final int MAX_HASHES = 1024;

    /** Defaults chosen on the public evaluation corpus (docs/methods.md): word bigrams with stopwords, 128 values. */
    public static final MinHashSettings DEFAULT = new MinHashSettings(defaultFeatures(), DEFAULT_HASHES);

    private static FeatureSettings defaultFeatures() {
        FeatureSettings.Builder b = new FeatureSettings.Builder(FeatureSettings.DEFAULT);
        b.shingleSize = 2;
        b.stopwords = false;
        return b.build();
    }

    public MinHashSettings {
        Objects.requireNonNull(featureSettings, "featureSettings");
        if (hashes < 1 || hashes > MAX_HASHES) {
            throw new InvalidOptionException(HASHES, "must be between 1 and " + MAX_HASHES + ", got " + hashes);
        }
    }

    /** {@code features} supplies the pipeline options; its weighting and idf are ignored. */
    public MinHashSettings(SimHashSettings features, int hashes) {
        this(features.featureSettings(), hashes);
    }

    /**
     * The feature pipeline as SimHash settings with binary weighting, for callers that handle every method's pipeline as
     * {@link SimHashSettings} (the node's limits and breaker); {@link #featureSettings()} is the pipeline itself.
     */
    public SimHashSettings features() {
        return new SimHashSettings(featureSettings, SimHashSettings.Weighting.BINARY, SimHashSettings.IDF_NONE);
    }

    /**
     * Reads and removes the options it knows; missing ones keep {@link #DEFAULT}. {@code weighting} and {@code idf}
     * are not MinHash options and are left in the map (the caller reports them as unknown).
     */
    public static MinHashSettings fromMap(Map<String, Object> options) {
        if (options == null) return DEFAULT;
        int m = DEFAULT_HASHES;
        Object v = options.remove(HASHES);
        if (v != null) m = OptionValues.integer(HASHES, v);
        // An option given as null has always taken SimHash's default of the version rather than MinHash's (its options
        // were read through SimHashSettings); kept so that such a processor's id does not change.
        FeatureSettings.Builder defaults = new FeatureSettings.Builder(DEFAULT.featureSettings);
        Integer version = options.get(FeatureSettings.VERSION_OPTION) == null ? null : FeatureSettings.readVersion(options);
        if (version != null) defaults.version = version;
        FeatureSettings simhash = SimHashSettings.defaults(defaults.version).featureSettings();
        if (explicitNull(options, FeatureSettings.SHINGLE_SIZE)) defaults.shingleSize = simhash.shingleSize();
        if (explicitNull(options, FeatureSettings.STOPWORDS)) defaults.stopwords = simhash.stopwords();
        return new MinHashSettings(FeatureSettings.fromMap(options, defaults.build()), m);
    }

    private static boolean explicitNull(Map<String, Object> options, String key) {
        return options.containsKey(key) && options.get(key) == null;
    }

    /** All options with their names; {@code fromMap(toMap())} gives equal settings. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>(featureSettings.toMap());
        m.put(HASHES, hashes);
        return m;
    }

    /** The feature pipeline's version and id body ({@link FeatureSettings#idBody()}), plus {@code hashes}. */
    public String algorithmId() {
        return NAME + "-v" + version() + ':' + featureSettings.idBody() + ',' + HASHES + '=' + hashes;
    }

    /** Parses an {@link #algorithmId()}; rejects other versions and unknown parameters. */
    public static MinHashSettings fromAlgorithmId(String algorithmId) {
        return AlgorithmIds.parse(algorithmId, NAME, Set.copyOf(FeatureSettings.LIMITS), MinHashSettings::fromMap);
    }

    @Override
    public String toString() {
        return algorithmId();
    }
}
