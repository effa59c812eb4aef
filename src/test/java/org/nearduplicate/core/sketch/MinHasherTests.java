package org.nearduplicate.core.sketch;

import org.nearduplicate.core.MinHashSettings;
import org.junit.Test;
import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.assertThrows;

public class MinHasherTests {
    private static final MinHasher DEFAULT = new MinHasher(MinHashSettings.DEFAULT);
    static final String ENGLISH = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs; "
        + "how vexingly quick daft zebras jump. Sphinx of black quartz, judge my vow.";
    static final String CHINESE = "我爱北京天安门。自然语言处理是人工智能的一个重要方向，中文分词是它的基础。";

    /** SplitMix64 with seed 0 starts 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4 (Steele et al.; Vigna's reference code). */
    @Test
    public void testMixIsTheSplitMix64Finalizer() {
        long golden = 0x9E3779B97F4A7C15L;
        assertEquals(0xE220A8397B1DCDAFL, MinHasher.mix64(golden));
        assertEquals(0x6E789E6AA1B965F4L, MinHasher.mix64(2 * golden));
    }

    /** Value i is the upper half of the unsigned minimum of mix64(x + (i+1)·φ): checked by a direct computation. */
    @Test
    public void testSignatureIsTheMinimumPerPermutation() {
        long[] features = { 1L, -5L, 0x1234_5678_9ABC_DEF0L, Long.MIN_VALUE };
        int[] sig = MinHasher.signatureOfHashes(features, 8);
        for (int i = 0; i < 8; i++) {
            long min = -1L;
            for (long x : features) {
                long v = MinHasher.mix64(x + (i + 1) * 0x9E3779B97F4A7C15L);
                if (Long.compareUnsigned(v, min) < 0) min = v;
            }
            assertEquals((int) (min >>> 32), sig[i]);
        }
        // order and duplicates of the features do not matter
        assertArrayEquals(sig, MinHasher.signatureOfHashes(new long[] { Long.MIN_VALUE, 1L, 1L, 0x1234_5678_9ABC_DEF0L, -5L }, 8));
    }

    /** Pins the default signatures: bump {@link MinHashSettings#VERSION} if a change is intended. */
    @Test
    public void testKnownAnswersForDefaultSettings() {
        assertEquals(
            "minhash-v1:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=false,hashes=128",
            MinHashSettings.DEFAULT.algorithmId()
        );
        assertEquals(KNOWN_EN, Arrays.toString(Arrays.copyOf(DEFAULT.signature(ENGLISH), 4)));
        assertEquals(KNOWN_ZH, Arrays.toString(Arrays.copyOf(DEFAULT.signature(CHINESE), 4)));
    }

    static final String KNOWN_EN = "[125495924, 11747357, 126847237, 56376847]";
    static final String KNOWN_ZH = "[98987040, 119997869, 119348558, 213805917]";

    @Test
    public void testEstimateTracksExactJaccard() {
        Random random = new Random(42);
        for (int trial = 0; trial < 20; trial++) {
            Set<Long> a = new LinkedHashSet<>(), b = new LinkedHashSet<>();
            int shared = 50 + random.nextInt(400), onlyA = random.nextInt(300), onlyB = random.nextInt(300);
            for (int i = 0; i < shared; i++) {
                long x = random.nextLong();
                a.add(x);
                b.add(x);
            }
            for (int i = 0; i < onlyA; i++) a.add(random.nextLong());
            for (int i = 0; i < onlyB; i++) b.add(random.nextLong());
            long[] sa = a.stream().mapToLong(Long::longValue).sorted().toArray(), sb = b.stream().mapToLong(Long::longValue).sorted().toArray();
            double exact = MinHasher.exactJaccard(sa, sb);
            int m = 512;
            double estimate = MinHasher.similarity(MinHasher.signatureOfHashes(sa, m), MinHasher.signatureOfHashes(sb, m));
            double sigma = Math.sqrt(exact * (1 - exact) / m);
            assertTrue("estimate " + estimate + " vs exact " + exact, Math.abs(estimate - exact) <= 4 * sigma + 1e-9);
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
        assertEquals("minhash-v1:content_type=auto,extract=main,features=spotsigs,shingle_size=3,hashes=64", s.algorithmId());
        assertEquals(s, MinHashSettings.fromAlgorithmId(s.algorithmId()));
        assertEquals(s, MinHashSettings.fromMap(new HashMap<>(s.toMap())));
        assertEquals(MinHashSettings.DEFAULT, MinHashSettings.fromAlgorithmId("minhash-v1"));
        assertThrows(IllegalArgumentException.class, () -> MinHashSettings.fromAlgorithmId("minhash-v2:hashes=128"));
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
        assertEquals(SimHashSettings.Features.SPOTSIGS, spots.settings().features().features());
    }
}
