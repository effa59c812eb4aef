package org.nearduplicate.core.sketch;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.FeatureSettings;
import org.nearduplicate.core.MinHashSettings;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

public class MinHasherTests extends RandomizedTest {
    private static final MinHasher DEFAULT = new MinHasher(MinHashSettings.DEFAULT);
    static final String ENGLISH = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs; "
        + "how vexingly quick daft zebras jump. Sphinx of black quartz, judge my vow.";
    static final String CHINESE = "我爱北京天安门。自然语言处理是人工智能的一个重要方向，中文分词是它的基础。";

    /**
     * SplitMix64 with seed 0 starts 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4 (Steele et al.; Vigna's reference code).
     * Fixed on purpose: published reference values.
     */
    @Test
    public void testMixIsTheSplitMix64Finalizer() {
        long golden = 0x9E3779B97F4A7C15L;
        assertEquals(0xE220A8397B1DCDAFL, MinHasher.mix64(golden));
        assertEquals(0x6E789E6AA1B965F4L, MinHasher.mix64(2 * golden));
    }

    /**
     * Value i is the upper half of the unsigned minimum of mix64(x + (i+1)·φ): checked by a direct computation on
     * edge values and a random number of random features, for a random number of values.
     */
    @Test
    public void testSignatureIsTheMinimumPerPermutation() {
        Random random = getRandom();
        long[] edges = { 1L, -5L, 0x1234_5678_9ABC_DEF0L, Long.MIN_VALUE };
        long[] features = Arrays.copyOf(edges, edges.length + randomIntBetween(0, 50));
        for (int i = edges.length; i < features.length; i++)
            features[i] = random.nextLong();
        int m = randomBoolean() ? 8 : randomIntBetween(1, 256);
        int[] sig = MinHasher.signatureOfHashes(features, m);
        assertEquals(m, sig.length);
        for (int i = 0; i < m; i++) {
            long min = -1L;
            for (long x : features) {
                long v = MinHasher.mix64(x + (i + 1) * 0x9E3779B97F4A7C15L);
                if (Long.compareUnsigned(v, min) < 0) min = v;
            }
            assertEquals((int) (min >>> 32), sig[i]);
        }
        // order and duplicates of the features do not matter
        List<Long> shuffled = new ArrayList<>();
        for (long x : features) {
            for (int copies = randomIntBetween(1, 3); copies > 0; copies--)
                shuffled.add(x);
        }
        Collections.shuffle(shuffled, random);
        assertArrayEquals(sig, MinHasher.signatureOfHashes(shuffled.stream().mapToLong(Long::longValue).toArray(), m));
    }

    /** Pins the default signatures (golden values, fixed on purpose): bump {@link MinHashSettings#VERSION} if a change is intended. */
    @Test
    public void testKnownAnswersForDefaultSettings() {
        assertEquals(
            "minhash-v6:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=false,hashes=128",
            MinHashSettings.DEFAULT.algorithmId()
        );
        assertEquals(KNOWN_EN, Arrays.toString(Arrays.copyOf(DEFAULT.signature(ENGLISH), 4)));
        assertEquals(KNOWN_ZH, Arrays.toString(Arrays.copyOf(DEFAULT.signature(CHINESE), 4)));
        // version 1 (0.1.0, 0.2.0): the same texts are single paragraphs, which both versions' extraction keep whole
        MinHasher v1 = new MinHasher(MinHashSettings.fromAlgorithmId("minhash-v1"));
        assertEquals(1, v1.settings().version());
        assertEquals(KNOWN_EN, Arrays.toString(Arrays.copyOf(v1.signature(ENGLISH), 4)));
        assertEquals(KNOWN_ZH, Arrays.toString(Arrays.copyOf(v1.signature(CHINESE), 4)));
        // version 2 (0.3.0, 0.4.0) likewise
        MinHasher v2 = new MinHasher(MinHashSettings.fromAlgorithmId("minhash-v2"));
        assertEquals(2, v2.settings().version());
        assertEquals(KNOWN_EN, Arrays.toString(Arrays.copyOf(v2.signature(ENGLISH), 4)));
        assertEquals(KNOWN_ZH, Arrays.toString(Arrays.copyOf(v2.signature(CHINESE), 4)));
    }

    static final String KNOWN_EN = "[125495924, 11747357, 126847237, 56376847]";
    static final String KNOWN_ZH = "[98987040, 119997869, 119348558, 213805917]";

    /**
     * The estimate of m values counts Binomial(m, J) matches: each trial must be within 5 sigma, and the mean of the
     * standardized errors of all trials within 5 sigma of 0 (which catches a bias far smaller than one trial can). With
     * seeds drawn per run the bound of 5 (not 4) sigma keeps false failures rare: by the exact binomial tails of these
     * set sizes and values of m, 20 trials fail in about 1 of 60,000 runs at 5 sigma, but in 1 of 750 at 4 sigma.
     */
    @Test
    public void testEstimateTracksExactJaccard() {
        Random random = getRandom();
        int trials = 20, standardized = 0;
        double sumOfZ = 0;
        for (int trial = 0; trial < trials; trial++) {
            Set<Long> a = new LinkedHashSet<>(), b = new LinkedHashSet<>();
            int shared = 50 + random.nextInt(400), onlyA = random.nextInt(300), onlyB = random.nextInt(300);
            for (int i = 0; i < shared; i++) {
                long x = random.nextLong();
                a.add(x);
                b.add(x);
            }
            for (int i = 0; i < onlyA; i++)
                a.add(random.nextLong());
            for (int i = 0; i < onlyB; i++)
                b.add(random.nextLong());
            long[] sa = a.stream().mapToLong(Long::longValue).sorted().toArray(), sb = b.stream()
                .mapToLong(Long::longValue)
                .sorted()
                .toArray();
            double exact = MinHasher.exactJaccard(sa, sb);
            int m = randomFrom(new int[] { 128, 256, 512, 1024 });
            double estimate = MinHasher.similarity(MinHasher.signatureOfHashes(sa, m), MinHasher.signatureOfHashes(sb, m));
            double sigma = Math.sqrt(exact * (1 - exact) / m);
            String what = "m="
                + m
                + " shared="
                + shared
                + " onlyA="
                + onlyA
                + " onlyB="
                + onlyB
                + ": estimate "
                + estimate
                + " vs exact "
                + exact;
            assertTrue(what, Math.abs(estimate - exact) <= 5 * sigma + 1e-9);
            if (sigma > 0) {
                sumOfZ += (estimate - exact) / sigma;
                standardized++;
            }
        }
        if (standardized > 0) { // 0 only if every trial drew equal sets (J = 1, checked exactly above)
            double meanOfZ = sumOfZ / standardized;
            assertTrue(
                "mean standardized error " + meanOfZ + " of " + standardized + " trials",
                Math.abs(meanOfZ) <= 5 / Math.sqrt(standardized)
            );
        }
    }

    @Test
    public void testSimilarDocumentsScoreHigherThanDifferentOnes() {
        int[] a = DEFAULT.signature(ENGLISH);
        assertEquals(1.0, MinHasher.similarity(a, DEFAULT.signature("<p>" + ENGLISH.replace("dog", "dog,") + "</p>")), 0);
        double edited = MinHasher.similarity(a, DEFAULT.signature(ENGLISH.replace("five dozen", "six dozen")));
        double other = MinHasher.similarity(a, DEFAULT.signature("Completely unrelated sentence about harbour bridges and ferries."));
        assertTrue(edited + " > " + other, edited > 0.5 && other < 0.1);
        double zh = MinHasher.similarity(DEFAULT.signature(CHINESE), DEFAULT.signature(CHINESE.replace("重要", "关键")));
        assertTrue("zh edit " + zh, zh > 0.4 && zh < 1);
    }

    @Test
    public void testBadInput() {
        assertThrows(EngineInputException.class, () -> DEFAULT.signature(null));
        assertThrows(EngineInputException.class, () -> DEFAULT.signature("   \n"));
        assertThrows(EngineInputException.class, () -> DEFAULT.signature("!!! ... ???"));
        assertThrows(EngineInputException.class, () -> MinHasher.signatureOfHashes(new long[0], 8));
        assertThrows(IllegalArgumentException.class, () -> MinHasher.similarity(new int[2], new int[3]));
        assertThrows(IllegalArgumentException.class, () -> MinHashSignatures.fromBase64("not base64!"));
        assertThrows(IllegalArgumentException.class, () -> MinHashSignatures.fromBase64("AAA="));
        int[] sig = DEFAULT.signature(ENGLISH);
        assertArrayEquals(sig, MinHashSignatures.fromBase64(MinHashSignatures.toBase64(sig)));
    }

    @Test
    public void testSettingsRoundTripAndErrors() {
        Map<String, Object> options = new HashMap<>(Map.of("shingle_size", 3, "hashes", "64", "features", "spotsigs", "weighting", "tf"));
        MinHashSettings s = MinHashSettings.fromMap(options);
        assertEquals(Map.of("weighting", "tf"), options); // not a MinHash option: left for the caller to report
        assertEquals("minhash-v6:content_type=auto,extract=main,features=spotsigs,shingle_size=3,hashes=64", s.algorithmId());
        assertEquals(s, MinHashSettings.fromAlgorithmId(s.algorithmId()));
        assertEquals(s, MinHashSettings.fromMap(new HashMap<>(s.toMap())));
        assertEquals(MinHashSettings.DEFAULT, MinHashSettings.fromAlgorithmId("minhash-v6"));
        assertEquals(5, MinHashSettings.fromAlgorithmId("minhash-v5").version());
        assertEquals(2, MinHashSettings.fromAlgorithmId("minhash-v2").version());
        assertThrows(IllegalArgumentException.class, () -> MinHashSettings.fromAlgorithmId("minhash-v7:hashes=128"));
        assertThrows(IllegalArgumentException.class, () -> MinHashSettings.fromAlgorithmId("minhash-v1:hashes=128,color=red"));
        assertThrows(IllegalArgumentException.class, () -> MinHashSettings.fromAlgorithmId("minhash-v1:weighting=tf"));
        assertThrows(IllegalArgumentException.class, () -> MinHashSettings.fromMap(new HashMap<>(Map.of("hashes", 0))));
        assertThrows(IllegalArgumentException.class, () -> MinHashSettings.fromMap(new HashMap<>(Map.of("hashes", "many"))));
        assertThrows(IllegalArgumentException.class, () -> MinHashSettings.fromMap(new HashMap<>(Map.of("shingle_size", 9))));
        assertNotEquals(MinHashSettings.DEFAULT, s);
    }

    @Test
    public void testSpotSigFeaturesAreUsed() {
        MinHasher spots = new MinHasher(MinHashSettings.fromMap(new HashMap<>(Map.of("features", "spotsigs"))));
        long[] hashes = spots.featureHashes("The quick brown fox jumps over the lazy dog");
        long[] expected = { SimHasher.featureHash("the:quick:brown"), SimHasher.featureHash("the:lazy:dog") };
        Arrays.sort(expected);
        assertArrayEquals(expected, hashes);
        assertFalse(Arrays.equals(DEFAULT.featureHashes(ENGLISH), spots.featureHashes(ENGLISH)));
        assertEquals(FeatureSettings.Features.SPOTSIGS, spots.settings().features().features());
    }
}
