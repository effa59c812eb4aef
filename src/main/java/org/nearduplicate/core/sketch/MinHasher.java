package org.nearduplicate.core.sketch;

import java.util.Arrays;
import java.util.Map;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.features.FeaturePipeline;

/**
 * MinHash signatures (Broder, "On the resemblance and containment of documents", 1997) of text or HTML over the
 * engine's features (main content, normalization, Lucene/HanLP words or shingles, character n-grams or spot
 * signatures).
 *
 * <p>Hashing: each distinct feature is hashed once with XXH3-64 (UTF-8, seed 0 — the same feature hash SimHash uses).
 * The i-th of the m "permutations" maps a feature hash x to {@code mix64(x + (i + 1) * 0x9E3779B97F4A7C15)}, where
 * {@code mix64} is the SplitMix64 finalizer (Steele, Lea and Flood, OOPSLA 2014): a bijection of the 64-bit values
 * with full avalanche, so each i gives a pseudo-random permutation of the hash space. Value i of the signature is the
 * upper 32 bits of the minimum (unsigned) over the features. The estimated Jaccard similarity of two signatures is the
 * fraction of equal values; its standard error is sqrt(J(1-J)/m) (0.044 at J = 0.5, m = 128), plus a 2^-32 chance per
 * value of a spurious match from the truncation.
 *
 * <p>Thread-safe; build one per settings and share it.
 */
public final class MinHasher {
    /** MinHash at the node's gateway: the pipeline is the settings' features, the sketch a signature. */
    public static final Sketcher.Probing<MinHashSettings, MinHasher, int[]> SKETCHER = new Sketcher.Probing<>() {
        @Override
        public SimHashSettings pipeline(MinHashSettings settings) {
            return settings.features();
        }

        @Override
        public MinHasher hasher(MinHashSettings settings) {
            return new MinHasher(settings);
        }

        @Override
        public int[] sketch(MinHasher hasher, String content) {
            return hasher.signature(content);
        }

        @Override
        public MinHashSettings fromMap(Map<String, Object> options) {
            return MinHashSettings.fromMap(options);
        }

        @Override
        public MinHashSettings fromAlgorithmId(String algorithmId) {
            return MinHashSettings.fromAlgorithmId(algorithmId);
        }

        @Override
        public MinHashSettings withPipeline(MinHashSettings settings, SimHashSettings pipeline) {
            return new MinHashSettings(pipeline, settings.hashes());
        }
    };

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final MinHashSettings settings;
    private final FeaturePipeline pipeline;

    public MinHasher(MinHashSettings settings) {
        this.settings = settings;
        this.pipeline = new FeaturePipeline(settings.featureSettings());
    }

    public MinHashSettings settings() {
        return settings;
    }

    /**
     * The signature of {@code content}: {@code hashes} ints.
     *
     * @throws EngineInputException for null, blank or too long content, or content without features
     */
    public int[] signature(String content) {
        return signatureOfHashes(featureHashes(content), settings.hashes());
    }

    /** The distinct feature hashes of {@code content} (XXH3-64 of each feature), sorted. */
    public long[] featureHashes(String content) {
        Map<String, Integer> features = pipeline.features(content).counts();
        long[] hashes = new long[features.size()];
        int i = 0;
        for (String f : features.keySet()) {
            hashes[i++] = SimHasher.featureHash(f);
        }
        Arrays.sort(hashes);
        return hashes;
    }

    /** The m-value signature of a set of 64-bit feature hashes (must not be empty). */
    public static int[] signatureOfHashes(long[] featureHashes, int m) {
        if (featureHashes.length == 0) throw new EngineInputException("no features to compute a minhash signature from");
        long[] min = new long[m];
        Arrays.fill(min, -1L); // the largest unsigned value
        for (long x : featureHashes) {
            for (int i = 0; i < m; i++) {
                long v = mix64(x + (i + 1) * GOLDEN);
                if (Long.compareUnsigned(v, min[i]) < 0) min[i] = v;
            }
        }
        int[] sig = new int[m];
        for (int i = 0; i < m; i++) {
            sig[i] = (int) (min[i] >>> 32);
        }
        return sig;
    }

    /** SplitMix64's finalizer (Stafford's Mix13). */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The estimated Jaccard similarity: the fraction of positions where the signatures agree. */
    public static double similarity(int[] a, int[] b) {
        return (double) matches(a, b) / checkSameLength(a, b);
    }

    /** The number of positions where the signatures agree. */
    public static int matches(int[] a, int[] b) {
        checkSameLength(a, b);
        int same = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b[i]) same++;
        }
        return same;
    }

    private static int checkSameLength(int[] a, int[] b) {
        if (a.length != b.length || a.length == 0) {
            throw new IllegalArgumentException("signatures must have the same, non-zero length, got " + a.length + " and " + b.length);
        }
        return a.length;
    }

    /** The exact Jaccard similarity of two sorted sets of feature hashes (for the comparison of estimate and truth). */
    public static double exactJaccard(long[] sortedA, long[] sortedB) {
        int i = 0, j = 0, inter = 0;
        while (i < sortedA.length && j < sortedB.length) {
            if (sortedA[i] == sortedB[j]) {
                inter++;
                i++;
                j++;
            } else if (sortedA[i] < sortedB[j]) i++;
            else j++;
        }
        int union = sortedA.length + sortedB.length - inter;
        return union == 0 ? 1 : (double) inter / union;
    }
}
