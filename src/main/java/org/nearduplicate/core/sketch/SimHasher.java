package org.nearduplicate.core.sketch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.features.FeaturePipeline;
import org.nearduplicate.core.features.IdfTable;
import org.nearduplicate.core.options.InvalidOptionException;

/**
 * Computes 64-bit SimHash fingerprints (Charikar, STOC 2002; Manku et al., WWW 2007) of text or HTML.
 *
 * <p>Pipeline: detect the content type, extract the main content, normalize (NFKC, quotes, dashes), extract features,
 * weight them, then for every feature add its weight to bit i's sum where bit i of the feature's hash is 1 and subtract
 * it where it is 0; bit i of the fingerprint is 1 iff the sum is strictly positive (a sum of 0 gives 0).
 *
 * <p>Features are hashed as UTF-8 with XXH3-64 (seed 0). Weights are rounded to multiples of 2^-16 and summed as
 * {@code long}s, so the sums are exact and independent of the order of the features: the fingerprint is the same on
 * every JVM and platform. {@code StrictMath} makes the logarithms bit-identical too.
 *
 * <p>Thread-safe; build one per settings and share it.
 */
public final class SimHasher {
    /** SimHash at the node's gateway: the settings are the pipeline, the sketch is a fingerprint. */
    public static final Sketcher.Probing<SimHashSettings, SimHasher, SimHash> SKETCHER = new Sketcher.Probing<>() {
        @Override
        public SimHashSettings pipeline(SimHashSettings settings) {
            return settings;
        }

        @Override
        public SimHasher hasher(SimHashSettings settings) {
            return new SimHasher(settings);
        }

        @Override
        public SimHash sketch(SimHasher hasher, String content) {
            return hasher.sketch(content);
        }

        @Override
        public SimHashSettings fromMap(Map<String, Object> options) {
            return SimHashSettings.fromMap(options);
        }

        @Override
        public SimHashSettings fromAlgorithmId(String algorithmId) {
            return SimHashSettings.fromAlgorithmId(algorithmId);
        }

        @Override
        public SimHashSettings withPipeline(SimHashSettings settings, SimHashSettings pipeline) {
            return pipeline;
        }
    };

    /** Weights are fixed point with this many fractional bits. */
    static final int WEIGHT_FRACTION_BITS = 16;
    private static final Hasher64 HASH = Hashing.xxh3_64(0L);

    private final SimHashSettings settings;
    private final FeaturePipeline pipeline;
    private final IdfTable idf;

    /** Uses the built-in IDF tables. */
    public SimHasher(SimHashSettings settings) {
        this(settings, IdfTable::builtin);
    }

    /** {@code idfTables} resolves the {@code idf} setting's table name, e.g. to tables the operator supplied. */
    public SimHasher(SimHashSettings settings, Function<String, IdfTable> idfTables) {
        this.settings = settings;
        this.pipeline = new FeaturePipeline(settings.featureSettings());
        this.idf = settings.weighting() == SimHashSettings.Weighting.TF_IDF ? idfTables.apply(settings.idf()) : null;
        if (settings.weighting() == SimHashSettings.Weighting.TF_IDF && idf == null) {
            throw new InvalidOptionException("idf", "unknown table [" + settings.idf() + "]");
        }
    }

    public SimHashSettings settings() {
        return settings;
    }

    /** The fingerprint of {@code content}; see {@link #analyze} for the errors. */
    public long fingerprint(String content) {
        return run(content, 0, false, null).fingerprint();
    }

    /**
     * The fingerprint and, from version 4 ({@link SimHashSettings#hasSignature()}), the verification signature of
     * {@code content}; from version 7 ({@link SimHashSettings#hasCandidateKeys()}) also the full min-wise values the
     * signature is cut from, as {@link #sketchWithMinima} (the candidate keys are made from them). See {@link #analyze}
     * for the errors.
     */
    public SimHash sketch(String content) {
        if (settings.hasCandidateKeys()) return sketchWithMinima(content);
        Analysis a = run(content, 0, false, null);
        return new SimHash(a.fingerprint(), a.signature());
    }

    /**
     * As {@link #sketch}, keeping the {@link Signature#SLOTS} full min-wise values of the signature
     * ({@link SimHash#minima()}): the ones the signing folds the feature hashes into, in the same single pass, so the
     * fingerprint and signature are the ones {@link #sketch} gives. For every version with a signature.
     *
     * @throws IllegalStateException for a version without signature (before 4)
     */
    public SimHash sketchWithMinima(String content) {
        if (settings.hasSignature() == false) {
            throw new IllegalStateException(settings.algorithmId() + " has no signature, so no min-wise values");
        }
        long[] minima = Signature.newMinima();
        Analysis a = run(content, 0, false, minima);
        return new SimHash(a.fingerprint(), a.signature(), minima);
    }

    /**
     * The fingerprint with the steps that led to it; {@code topFeatures} limits the features listed (heaviest first,
     * ties by feature), 0 lists none.
     *
     * @throws EngineInputException if content is null, blank, longer than {@code max_input_chars}, or has no features
     */
    public Analysis analyze(String content, int topFeatures) {
        if (topFeatures < 0) throw new IllegalArgumentException("topFeatures must be >= 0, got " + topFeatures);
        return run(content, topFeatures, false, null);
    }

    /**
     * As {@link #analyze}, keeping every distinct feature with its weight ({@link Analysis#features()}), so that two
     * inputs can be compared on their whole feature sets ({@link Analysis#differingFeatures}).
     */
    public Analysis analyzeWithFeatures(String content, int topFeatures) {
        if (topFeatures < 0) throw new IllegalArgumentException("topFeatures must be >= 0, got " + topFeatures);
        return run(content, topFeatures, true, null);
    }

    /** The text features are taken from: the main content (or all text when extraction is off), not yet normalized. */
    public String extractText(String content) {
        return pipeline.extractText(content);
    }

    /**
     * The distinct features of {@code content} with their term frequencies, exactly as the fingerprint sees them
     * (type detection, extraction, normalization, analysis). Weighting does not apply.
     *
     * @throws EngineInputException as {@link #analyze}
     */
    public Map<String, Integer> features(String content) {
        return pipeline.features(content).counts();
    }

    /**
     * The features of {@code content} with the weights the fingerprint gives them (the vector whose cosine similarity
     * SimHash estimates; the quality tools compare the two).
     *
     * @throws EngineInputException as {@link #analyze}
     */
    public Map<String, Double> weightedFeatures(String content) {
        Map<String, Integer> counts = pipeline.features(content).counts();
        Map<String, Double> weights = new java.util.HashMap<>(counts.size() * 2);
        counts.forEach((f, tf) -> weights.put(f, weight(f, tf)));
        return weights;
    }

    /** {@code keptMinima}: where the signature's minima are folded (fresh {@link Signature#newMinima()}), or null. */
    private Analysis run(String content, int topFeatures, boolean keepFeatures, long[] keptMinima) {
        FeaturePipeline.Features doc = pipeline.features(content);
        Map<String, Integer> counts = doc.counts();
        long[] sums = new long[64];
        long[] minima = keptMinima != null ? keptMinima : settings.hasSignature() ? Signature.newMinima() : null;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            long hash = HASH.hashBytesToLong(e.getKey().getBytes(StandardCharsets.UTF_8));
            addToSums(sums, hash, fixedPoint(weight(e.getKey(), e.getValue())));
            if (minima != null) Signature.add(minima, hash);
        }
        long fingerprint = fingerprintFromSums(sums);
        List<Analysis.WeightedFeature> top = topFeatures == 0 ? List.of() : top(counts, topFeatures);
        byte[] signature = minima == null ? null : Signature.finish(minima);
        Map<String, Analysis.WeightedFeature> all = null;
        if (keepFeatures) {
            all = new java.util.HashMap<>(counts.size() * 2);
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                all.put(e.getKey(), new Analysis.WeightedFeature(e.getKey(), e.getValue(), weight(e.getKey(), e.getValue())));
            }
            all = java.util.Collections.unmodifiableMap(all);
        }
        return new Analysis(doc.contentType(), doc.text(), top, fingerprint, counts.size(), signature, all);
    }

    private List<Analysis.WeightedFeature> top(Map<String, Integer> counts, int n) {
        List<Analysis.WeightedFeature> all = new ArrayList<>(counts.size());
        counts.forEach((f, tf) -> all.add(new Analysis.WeightedFeature(f, tf, weight(f, tf))));
        all.sort(Analysis.HEAVIEST_FIRST);
        return List.copyOf(all.subList(0, Math.min(n, all.size())));
    }

    double weight(String feature, int tf) {
        return switch (settings.weighting()) {
            case TF -> tf;
            case LOG_TF -> 1.0 + StrictMath.log(tf);
            case BINARY -> 1.0;
            case TF_IDF -> (1.0 + StrictMath.log(tf)) * idf.idf(feature);
        };
    }

    static long fixedPoint(double weight) {
        return Math.round(weight * (1 << WEIGHT_FRACTION_BITS));
    }

    /** Adds {@code weight} to the sums of the bits set in {@code hash} and subtracts it from the others. */
    static void addToSums(long[] sums, long hash, long weight) {
        for (int bit = 0; bit < sums.length; bit++) {
            sums[bit] += ((hash >>> bit) & 1L) != 0 ? weight : -weight;
        }
    }

    /**
     * The weighted bit sums of SimHash over {@code bits}-bit hashes, for tests and worked examples: element i is the
     * sum for bit i (bit 0 the least significant).
     */
    public static long[] bitSums(long[] hashes, long[] weights, int bits) {
        if (hashes.length != weights.length) throw new IllegalArgumentException("one weight per hash");
        if (bits < 1 || bits > 64) throw new IllegalArgumentException("bits must be 1..64");
        long[] sums = new long[bits];
        for (int i = 0; i < hashes.length; i++)
            addToSums(sums, hashes[i], weights[i]);
        return sums;
    }

    /** Bit i is 1 iff {@code sums[i] > 0}; a tie (0) gives 0. */
    public static long fingerprintFromSums(long[] sums) {
        long fp = 0;
        for (int bit = 0; bit < sums.length; bit++) {
            if (sums[bit] > 0) fp |= 1L << bit;
        }
        return fp;
    }

    /** The 64-bit hash of one feature, as used for the fingerprint. */
    public static long featureHash(String feature) {
        return HASH.hashBytesToLong(feature.getBytes(StandardCharsets.UTF_8));
    }
}
