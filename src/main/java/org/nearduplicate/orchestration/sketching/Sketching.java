package org.nearduplicate.orchestration.sketching;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

import org.nearduplicate.core.ContentType;
import org.nearduplicate.core.ImatchSettings;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.sketch.Analysis;
import org.nearduplicate.core.sketch.ImatchHasher;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.core.sketch.Sketcher;
import org.nearduplicate.core.stats.NearDuplicateStats;

/**
 * The node's one way into the engine, for every method (SimHash, MinHash, I-Match) and every caller (ingest
 * processors, text probes of queries and rescorers, the {@code _simhash} API), without platform types: each adapter's
 * {@code SketchingService} adds the node settings and the circuit breaker.
 *
 * <p>It applies the node's input limits ({@code near_duplicate.max_input_chars}, {@code near_duplicate.max_features})
 * to every settings object it hands out, reserves every computation's estimated memory ({@link #reserve}), and keeps
 * one hasher per distinct settings (they are thread-safe and may hold large tables).
 */
public abstract class Sketching {
    /** Bounds each cache: each distinct settings combination is one entry, and users create few of them. */
    public static final int MAX_ENTRIES = 256;
    /** The node settings that set the input limits, named in errors. */
    public static final String MAX_INPUT_CHARS_KEY = "near_duplicate.max_input_chars";
    public static final String MAX_FEATURES_KEY = "near_duplicate.max_features";

    /**
     * Estimated heap per input char while one input is processed: for HTML the jsoup DOM (nodes, attributes, text
     * copies) plus the extracted and normalized text; for text the extracted and normalized copies and tokens.
     * Measured roughly with jsoup 1.21 (see docs/reliability.md); an estimate, deliberately on the high side.
     */
    public static final long HTML_BYTES_PER_CHAR = 24;
    public static final long TEXT_BYTES_PER_CHAR = 10;
    /** Per distinct feature while counting (HashMap node, String, bytes, Integer). */
    public static final long BYTES_PER_FEATURE = 112;

    /** What a text probe is: the caller says it, so it is not detected. */
    public enum ProbeContent {
        TEXT,
        HTML;

        public ContentType contentType() {
            return this == HTML ? ContentType.HTML : ContentType.TEXT;
        }
    }

    /** The node limits, changed at runtime by {@link #setMaxInputChars} and {@link #setMaxFeatures}. */
    private volatile int maxInputChars;
    private volatile int maxFeatures;
    /** Counts the changes of the node limits, so that a processor knows to resolve its settings again. */
    private volatile int limitsVersion;
    /** One cache of hashers per method. */
    private final ConcurrentMap<Sketcher<?, ?, ?>, Cache<?, ?>> hashers = new ConcurrentHashMap<>();
    private final LongAdder probesFingerprinted = new LongAdder();
    /** The plugin's counters on this node ({@code GET _plugins/_near_duplicate/stats}). */
    private final NearDuplicateStats stats = new NearDuplicateStats();

    protected Sketching(int maxInputChars, int maxFeatures) {
        this.maxInputChars = maxInputChars;
        this.maxFeatures = maxFeatures;
    }

    /**
     * Reserves the estimated {@code bytes} of a computation before it runs.
     *
     * @throws RuntimeException the platform's 429-style error when the node cannot afford them (nothing is reserved)
     */
    protected abstract void reserve(long bytes, String label);

    /** Returns bytes reserved by {@link #reserve}. */
    protected abstract void release(long bytes);

    /** The plugin's counters on this node: every processor, probe, query and groups run reports to them. */
    public NearDuplicateStats stats() {
        return stats;
    }

    /** The stats' name of {@code method}. */
    public static NearDuplicateStats.Method methodOf(Sketcher<?, ?, ?> method) {
        if (method == MinHasher.SKETCHER) return NearDuplicateStats.Method.MINHASH;
        if (method == ImatchHasher.SKETCHER) return NearDuplicateStats.Method.IMATCH;
        return NearDuplicateStats.Method.SIMHASH;
    }

    /** A new {@code near_duplicate.max_input_chars}: every later request, probe and document (pipelines included) obeys it. */
    public void setMaxInputChars(int maxInputChars) {
        this.maxInputChars = maxInputChars;
        limitsVersion++;
    }

    /** A new {@code near_duplicate.max_features}, as {@link #setMaxInputChars}. */
    public void setMaxFeatures(int maxFeatures) {
        this.maxFeatures = maxFeatures;
        limitsVersion++;
    }

    /** Changes when a node limit changes: a processor that resolved its settings at an older version resolves them again. */
    public int limitsVersion() {
        return limitsVersion;
    }

    /** Text/html probes this node has fingerprinted (queries and rescorers): one per search, on its coordinating node. */
    public long probesFingerprinted() {
        return probesFingerprinted.sum();
    }

    public int maxInputChars() {
        return maxInputChars;
    }

    public int maxFeatures() {
        return maxFeatures;
    }

    // ---------------------------------------------------------------- any method

    /**
     * The settings of a processor's or request's options for {@code method}, with the node's limits; the options the
     * engine knows are removed from {@code options} (the caller reports what is left as unknown).
     *
     * @throws IllegalArgumentException naming the bad option, or an explicit limit above the node's
     */
    public <S> S settings(Sketcher.Probing<S, ?, ?> method, Map<String, Object> options) {
        boolean explicitChars = options.get(SimHashSettings.MAX_INPUT_CHARS) != null;
        boolean explicitFeatures = options.get(SimHashSettings.MAX_FEATURES) != null;
        S requested = method.fromMap(options);
        return method.withPipeline(requested, withNodeLimits(method.pipeline(requested), explicitChars, explicitFeatures));
    }

    /** The settings an algorithm id (a mapping's or a stored value's) stands for in {@code method}, with the node's limits. */
    public <S> S settings(Sketcher.Probing<S, ?, ?> method, String algorithmId) {
        S mapped = method.fromAlgorithmId(algorithmId);
        return method.withPipeline(mapped, withNodeLimits(method.pipeline(mapped), false, false));
    }

    /** The sketch of {@code content}, with its memory reserved from the breaker while it is computed. */
    public <S, H, V> V sketch(Sketcher<S, H, V> method, S settings, String content) {
        NearDuplicateStats.Method counted = methodOf(method);
        V sketch;
        try {
            sketch = reserving(method.pipeline(settings), content, () -> method.sketch(hasher(method, settings), content));
        } catch (RuntimeException e) {
            stats.refused(counted);
            throw e;
        }
        stats.fingerprint(counted);
        return sketch;
    }

    /**
     * The sketch of a {@code text}/{@code html} probe, made with the field's algorithm so that it compares with the
     * indexed values. When the algorithm detects the content type ({@code content_type=auto}), the probe's declared
     * type is used instead: ingest would have detected the same type for a well-formed page, and the user said what the
     * probe is.
     */
    public <S, V> V probe(Sketcher.Probing<S, ?, V> method, String algorithmId, String content, ProbeContent type) {
        probesFingerprinted.increment();
        stats.probe();
        S mapped = settings(method, algorithmId);
        return sketch(method, method.withPipeline(mapped, declared(method.pipeline(mapped), type)), content);
    }

    /** The cached hasher of {@code settings}. */
    @SuppressWarnings("unchecked")
    private <S, H> H hasher(Sketcher<S, H, ?> method, S settings) {
        Cache<S, H> cache = (Cache<S, H>) hashers.computeIfAbsent(method, m -> new Cache<S, H>(method::hasher));
        return cache.get(settings);
    }

    // ---------------------------------------------------------------- SimHash

    /**
     * The settings of a processor's or request's options, with the node's limits; the options the engine knows are
     * removed from {@code options} (the caller reports what is left as unknown).
     *
     * @throws IllegalArgumentException naming the bad option, or an explicit limit above the node's
     */
    public SimHashSettings simHashSettings(Map<String, Object> options) {
        return settings(SimHasher.SKETCHER, options);
    }

    /** The settings an algorithm id (a mapping's or a stored fingerprint's) stands for, with the node's limits. */
    public SimHashSettings simHashSettings(String algorithmId) {
        return settings(SimHasher.SKETCHER, algorithmId);
    }

    /** The fingerprint (and signature) of {@code content}, with its memory reserved from the breaker while it is computed. */
    public SimHash simHash(SimHashSettings settings, String content) {
        return sketch(SimHasher.SKETCHER, settings, content);
    }

    /** {@link SimHasher#analyze}, with its memory reserved from the breaker while it runs. */
    public Analysis analyze(SimHashSettings settings, String content, int topFeatures) {
        Analysis analysis;
        try {
            analysis = reserving(settings, content, () -> hasher(SimHasher.SKETCHER, settings).analyze(content, topFeatures));
        } catch (RuntimeException e) {
            stats.refused(NearDuplicateStats.Method.SIMHASH);
            throw e;
        }
        stats.fingerprint(NearDuplicateStats.Method.SIMHASH);
        return analysis;
    }

    /** {@link SimHasher#analyzeWithFeatures}: as {@link #analyze}, keeping every feature, to compare two inputs' feature sets. */
    public Analysis analyzeWithFeatures(SimHashSettings settings, String content, int topFeatures) {
        return reserving(settings, content, () -> hasher(SimHasher.SKETCHER, settings).analyzeWithFeatures(content, topFeatures));
    }

    /**
     * The fingerprint of a {@code text}/{@code html} probe (see {@link #probe}).
     */
    public SimHash simHashProbe(String algorithmId, String content, ProbeContent type) {
        return probe(SimHasher.SKETCHER, algorithmId, content, type);
    }

    /**
     * {@code settings} for an input whose type the caller declared ({@code text} or {@code html}): an algorithm that
     * detects the type ({@code content_type=auto}) uses the declared one; an explicit content type stays. Every probe
     * and the {@code _simhash} API go through it, so they fingerprint an input the same way.
     */
    public static SimHashSettings declared(SimHashSettings settings, ProbeContent type) {
        if (settings.contentType() != ContentType.AUTO) {
            return settings;
        }
        SimHashSettings.Builder declared = new SimHashSettings.Builder(settings);
        declared.contentType = type.contentType();
        return declared.build();
    }

    // ---------------------------------------------------------------- MinHash

    /** As {@link #simHashSettings(Map)}, for the {@code minhash} processor. */
    public MinHashSettings minHashSettings(Map<String, Object> options) {
        return settings(MinHasher.SKETCHER, options);
    }

    /** The signature of {@code content}, with its memory reserved from the breaker while it is computed. */
    public int[] minHash(MinHashSettings settings, String content) {
        return sketch(MinHasher.SKETCHER, settings, content);
    }

    /** The signature of a {@code text}/{@code html} probe, made with the field's algorithm (see {@link #probe}). */
    public int[] minHashProbe(String algorithmId, String content, ProbeContent type) {
        return probe(MinHasher.SKETCHER, algorithmId, content, type);
    }

    // ---------------------------------------------------------------- I-Match

    /** As {@link #simHashSettings(Map)}, for the {@code imatch} processor. */
    public ImatchSettings iMatchSettings(Map<String, Object> options) {
        boolean explicitChars = options.get(SimHashSettings.MAX_INPUT_CHARS) != null;
        ImatchSettings requested = ImatchSettings.fromMap(options);
        int chars = limit(SimHashSettings.MAX_INPUT_CHARS, MAX_INPUT_CHARS_KEY, requested.maxInputChars(), maxInputChars, explicitChars);
        return requested.withLimits(chars, maxFeatures);
    }

    /** The I-Match keys of {@code content}, with their memory reserved from the breaker while they are computed. */
    public ImatchHasher.Keys iMatch(ImatchSettings settings, String content) {
        return sketch(ImatchHasher.SKETCHER, settings, content);
    }

    // ---------------------------------------------------------------- limits and the breaker

    /**
     * {@code requested} with the node's limits: an option the user set explicitly must not exceed the node's ceiling
     * (rejected, naming both); an option left out takes the node's value.
     *
     * @throws IllegalArgumentException if an explicit limit exceeds the node's
     */
    public SimHashSettings withNodeLimits(SimHashSettings requested, boolean explicitInputChars, boolean explicitFeatures) {
        SimHashSettings.Builder b = new SimHashSettings.Builder(requested);
        b.maxInputChars = limit(
            SimHashSettings.MAX_INPUT_CHARS,
            MAX_INPUT_CHARS_KEY,
            requested.maxInputChars(),
            maxInputChars,
            explicitInputChars
        );
        b.maxFeatures = limit(SimHashSettings.MAX_FEATURES, MAX_FEATURES_KEY, requested.maxFeatures(), maxFeatures, explicitFeatures);
        return b.build();
    }

    private static int limit(String option, String setting, int requested, int ceiling, boolean explicit) {
        if (explicit == false) return ceiling;
        if (requested > ceiling) {
            throw new InvalidOptionException(
                option,
                "must be at most the node limit [" + setting + "] = " + ceiling + ", got " + requested
            );
        }
        return requested;
    }

    /**
     * Runs {@code work} with the estimated memory of processing {@code content} reserved; throws the platform's
     * 429-style error ({@link #reserve}) when the node cannot afford it. Inputs over the length limit reserve
     * nothing: the engine rejects them before doing any work.
     */
    private <T> T reserving(SimHashSettings pipeline, String content, Supplier<T> work) {
        long reserved = 0;
        if (content != null && content.length() <= pipeline.maxInputChars()) {
            reserved = estimateBytes(pipeline, content);
            reserve(reserved, "near_duplicate fingerprint of " + content.length() + " chars");
        }
        try {
            return work.get();
        } finally {
            release(reserved);
        }
    }

    public static long estimateBytes(SimHashSettings settings, String content) {
        boolean html = switch (settings.contentType()) {
            case HTML -> true;
            case TEXT -> false;
            case AUTO -> ContentType.detect(content) == ContentType.HTML;
        };
        long chars = content.length();
        long features = Math.min(chars / 2 + 1, settings.maxFeatures());
        return chars * (html ? HTML_BYTES_PER_CHAR : TEXT_BYTES_PER_CHAR) + features * BYTES_PER_FEATURE;
    }

    /** One engine instance per settings, cleared when it grows past {@link #MAX_ENTRIES}. */
    private static final class Cache<S, E> {
        private final ConcurrentMap<S, E> entries = new ConcurrentHashMap<>();
        private final Function<S, E> create;

        Cache(Function<S, E> create) {
            this.create = create;
        }

        E get(S settings) {
            E sketching = entries.get(settings);
            if (sketching != null) return sketching;
            if (entries.size() >= MAX_ENTRIES) entries.clear();
            return entries.computeIfAbsent(settings, create);
        }
    }
}
