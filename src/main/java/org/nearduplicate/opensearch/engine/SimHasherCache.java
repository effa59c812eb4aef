package org.nearduplicate.opensearch.engine;

import org.nearduplicate.core.sketch.Analysis;
import org.nearduplicate.core.ContentType;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHasher;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.NoopCircuitBreaker;
import org.opensearch.core.common.unit.ByteSizeValue;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The node's single way into the engine: one {@link SimHasher} per distinct settings on this node, shared by pipelines,
 * text probes and the {@code _simhash} API (hashers are thread-safe and may hold large tables), the node-wide input
 * limits, and the {@code near_duplicate} circuit breaker that every fingerprint reserves its estimated memory from.
 */
public final class SimHasherCache {
    /** Bounds the cache: each distinct settings combination is one entry, and users create few of them. */
    static final int MAX_ENTRIES = 256;

    /** Ceiling and default of every input's {@code max_input_chars} on this node (ingest, text probes, {@code _simhash}). */
    public static final Setting<Integer> MAX_INPUT_CHARS_SETTING = Setting.intSetting(
        "near_duplicate.max_input_chars",
        SimHashSettings.DEFAULT_MAX_INPUT_CHARS,
        1,
        Setting.Property.NodeScope
    );
    /** Ceiling and default of every input's {@code max_features} on this node. */
    public static final Setting<Integer> MAX_FEATURES_SETTING = Setting.intSetting(
        "near_duplicate.max_features",
        SimHashSettings.DEFAULT_MAX_FEATURES,
        1,
        Setting.Property.NodeScope
    );
    public static final String BREAKER_NAME = "near_duplicate";
    /** Limit of the {@code near_duplicate} breaker (a child of the parent breaker, which also counts real heap use). */
    public static final Setting<ByteSizeValue> BREAKER_LIMIT_SETTING = Setting.memorySizeSetting(
        "near_duplicate.breaker.limit",
        "20%",
        Setting.Property.NodeScope
    );

    /**
     * Estimated heap per input char while one input is fingerprinted: for HTML the jsoup DOM (nodes, attributes,
     * text copies) plus the extracted and normalized text; for text the extracted and normalized copies and tokens.
     * Measured roughly with jsoup 1.21 (see docs/reliability.md); an estimate, deliberately on the high side.
     */
    static final long HTML_BYTES_PER_CHAR = 24;
    static final long TEXT_BYTES_PER_CHAR = 10;
    /** Per distinct feature while counting (HashMap node, String, bytes, Integer). */
    static final long BYTES_PER_FEATURE = 112;

    public static List<Setting<?>> settings() {
        return List.of(MAX_INPUT_CHARS_SETTING, MAX_FEATURES_SETTING, BREAKER_LIMIT_SETTING);
    }

    private final ConcurrentMap<SimHashSettings, SimHasher> hashers = new ConcurrentHashMap<>();
    private final int maxInputChars;
    private final int maxFeatures;
    private volatile CircuitBreaker breaker = new NoopCircuitBreaker(BREAKER_NAME);

    /** Default limits and no breaker (tests). */
    public SimHasherCache() {
        this(Settings.EMPTY);
    }

    public SimHasherCache(Settings nodeSettings) {
        this.maxInputChars = MAX_INPUT_CHARS_SETTING.get(nodeSettings);
        this.maxFeatures = MAX_FEATURES_SETTING.get(nodeSettings);
    }

    public void setBreaker(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    public int maxInputChars() {
        return maxInputChars;
    }

    public int maxFeatures() {
        return maxFeatures;
    }

    /**
     * {@code requested} with the node's limits: an option the user set explicitly must not exceed the node's ceiling
     * (rejected, naming both); an option left out takes the node's value.
     *
     * @throws IllegalArgumentException if an explicit limit exceeds the node's
     */
    public SimHashSettings withNodeLimits(SimHashSettings requested, boolean explicitInputChars, boolean explicitFeatures) {
        SimHashSettings.Builder b = new SimHashSettings.Builder(requested);
        b.maxInputChars = limit(SimHashSettings.MAX_INPUT_CHARS, MAX_INPUT_CHARS_SETTING, requested.maxInputChars(), maxInputChars, explicitInputChars);
        b.maxFeatures = limit(SimHashSettings.MAX_FEATURES, MAX_FEATURES_SETTING, requested.maxFeatures(), maxFeatures, explicitFeatures);
        return b.build();
    }

    private static int limit(String option, Setting<Integer> setting, int requested, int ceiling, boolean explicit) {
        if (explicit == false) return ceiling;
        if (requested > ceiling) {
            throw new IllegalArgumentException(
                "[" + option + "] must be at most the node limit [" + setting.getKey() + "] = " + ceiling + ", got " + requested
            );
        }
        return requested;
    }

    /** The settings an algorithm id (a mapping's or a stored fingerprint's) stands for, with the node's limits. */
    public SimHashSettings forAlgorithmId(String algorithmId) {
        return withNodeLimits(SimHashSettings.fromAlgorithmId(algorithmId), false, false);
    }

    public SimHasher get(SimHashSettings settings) {
        SimHasher hasher = hashers.get(settings);
        if (hasher != null) {
            return hasher;
        }
        if (hashers.size() >= MAX_ENTRIES) {
            hashers.clear();
        }
        return hashers.computeIfAbsent(settings, SimHasher::new);
    }

    /** The fingerprint of {@code content}, with its memory reserved from the breaker while it is computed. */
    public long fingerprint(SimHashSettings settings, String content) {
        SimHasher hasher = get(settings);
        long reserved = reserve(settings, content);
        try {
            return hasher.fingerprint(content);
        } finally {
            breaker.addWithoutBreaking(-reserved);
        }
    }

    /** {@link SimHasher#analyze}, with its memory reserved from the breaker while it runs. */
    public Analysis analyze(SimHashSettings settings, String content, int topFeatures) {
        SimHasher hasher = get(settings);
        long reserved = reserve(settings, content);
        try {
            return hasher.analyze(content, topFeatures);
        } finally {
            breaker.addWithoutBreaking(-reserved);
        }
    }

    /**
     * Reserves the estimated memory of fingerprinting {@code content}; throws the breaker's
     * {@code CircuitBreakingException} (HTTP 429) when the node cannot afford it. Inputs over the length limit reserve
     * nothing: the engine rejects them before doing any work.
     */
    private long reserve(SimHashSettings settings, String content) {
        if (content == null || content.length() > settings.maxInputChars()) return 0;
        long bytes = estimateBytes(settings, content);
        breaker.addEstimateBytesAndMaybeBreak(bytes, "near_duplicate fingerprint of " + content.length() + " chars");
        return bytes;
    }

    static long estimateBytes(SimHashSettings settings, String content) {
        boolean html = switch (settings.contentType()) {
            case HTML -> true;
            case TEXT -> false;
            case AUTO -> ContentType.detect(content) == ContentType.HTML;
        };
        long chars = content.length();
        long features = Math.min(chars / 2 + 1, settings.maxFeatures());
        return chars * (html ? HTML_BYTES_PER_CHAR : TEXT_BYTES_PER_CHAR) + features * BYTES_PER_FEATURE;
    }
}
