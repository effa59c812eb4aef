package org.nearduplicate.core.chance;

import org.junit.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.nearduplicate.core.SimHashSettings;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

public class NullDistributionTests {
    private static final String V6 = SimHashSettings.DEFAULT.algorithmId();
    private static final String V5 = SimHashSettings.DEFAULT_V5.algorithmId();
    private static final String V4 = SimHashSettings.DEFAULT_V4.algorithmId();
    private static final String V3 = SimHashSettings.DEFAULT_V3.algorithmId();
    private static final String V2 = SimHashSettings.DEFAULT_V2.algorithmId();
    private static final double SIM = SimHashSettings.DEFAULT.recommendedMinSimilarity();
    private static final double SIM_V4 = SimHashSettings.DEFAULT_V4.recommendedMinSimilarity();
    private static final long PAIRS = 38_183_395;

    private final NullDistribution d = NullDistribution.builtin();

    /**
     * The default's rows (simhash-v6): the counts of RESULTS-scale-quality-v6.md (min_similarity 0.4); its fingerprint
     * alone was not measured. simhash-v5: RESULTS-scale-quality-v5-t040.md (0.4) and RESULTS-scale-quality-v5.md (0.35).
     */
    @Test
    public void testRatesOfTheDefault() {
        assertEquals(0.40, SIM, 0);
        NullDistribution.Estimate v6 = d.expectedFalseHitsPerQuery(V6, 16, SIM, 1_000_001);
        assertEquals(73, v6.falsePairs());
        assertEquals(PAIRS, v6.pairs());
        assertEquals("1.91", v6.text());
        assertTrue(v6.basis(), v6.basis().startsWith("simhash-v6 k=16 min_similarity=0.4, measured on the public corpus"));
        assertEquals(1.7e-6, d.estimate(V6, 16, SIM, "en", 1).rate(), 0.05e-6);
        assertEquals(2.4e-6, d.estimate(V6, 16, SIM, "zh", 1).rate(), 0.05e-6);
        assertNull("v6 at 0.35 was not measured", d.expectedFalseHitsPerQuery(V6, 16, SIM_V4, 1000));
        assertNull(d.expectedFalseHitsPerQuery(V6, 15, Double.NaN, 1000));
        // simhash-v7 is v6's fingerprint and signature plus keys: v6's rows, named as such
        NullDistribution.Estimate v7 = d.expectedFalseHitsPerQuery(SimHashSettings.DEFAULT_V7.algorithmId(), 16, SIM, 1_000_001);
        assertEquals(v6, v7);
        assertTrue(v7.basis(), v7.basis().startsWith("simhash-v6 k=16"));
        NullDistribution.Estimate v5 = d.expectedFalseHitsPerQuery(V5, 16, SIM, 1_000_001);
        assertEquals(75, v5.falsePairs());
        assertEquals(PAIRS, v5.pairs());
        assertEquals("1.96", v5.text());
        assertTrue(v5.basis(), v5.basis().startsWith("simhash-v5 k=16 min_similarity=0.4, measured on the public corpus"));
        assertEquals(1.7e-6, d.estimate(V5, 16, SIM, "en", 1).rate(), 0.05e-6);
        assertEquals(2.6e-6, d.estimate(V5, 16, SIM, "zh", 1).rate(), 0.05e-6);
        // the same 13 agreeing slots: the 0.4 rows answer
        assertEquals(75, d.expectedFalseHitsPerQuery(V5, 16, 0.38, 1_000_001).falsePairs());
        // one slot less: the rows measured at 0.35
        NullDistribution.Estimate loose = d.expectedFalseHitsPerQuery(V5, 16, SIM_V4, 1_000_001);
        assertEquals(79, loose.falsePairs());
        assertEquals("2.07", loose.text());
        assertTrue(loose.basis(), loose.basis().startsWith("simhash-v5 k=16 min_similarity=0.35, measured"));
        // 14 slots were not measured
        assertNull(d.expectedFalseHitsPerQuery(V5, 16, 0.45, 1000));
        // v5's extraction differs from v3's: v3's fingerprint-alone rows do not describe a v5 fingerprint
        assertNull(d.expectedFalseHitsPerQuery(V5, 15, Double.NaN, 1000));
    }

    /** Rates of the shipped table: the counts of RESULTS-scale-quality-v4.md / RESULTS-scale-quality.md. */
    @Test
    public void testRatesFromTheDataFile() {
        NullDistribution.Estimate v4 = d.expectedFalseHitsPerQuery(V4, 16, SIM_V4, 1_000_001);
        assertEquals(114, v4.falsePairs());
        assertEquals(PAIRS, v4.pairs());
        assertEquals(114.0 / PAIRS * 1_000_000, v4.value(), 1e-9);
        assertFalse(v4.upperBound());
        assertEquals("2.99", v4.text());
        assertTrue(v4.basis(), v4.basis().startsWith("simhash-v4 k=16 min_similarity=0.35, measured on the public corpus"));
        // simhash-v3's default k = 15: 6.5e-5, 6,487 false hits per query at 100M documents
        NullDistribution.Estimate v3 = d.expectedFalseHitsPerQuery(V3, 15, Double.NaN, 100_000_001);
        assertEquals(2477, v3.falsePairs());
        assertEquals("6,487", v3.text());
        assertTrue(v3.basis(), v3.basis().startsWith("simhash-v3 k=15 fingerprint alone"));
        // simhash-v2 has its own rows (RESULTS-scale-quality-v2.md), measured to k = 18
        assertEquals("66.70", d.expectedFalseHitsPerQuery(V2, 15, Double.NaN, 1_000_001).text());
        assertEquals(18, d.maxMeasuredK(V2, Double.NaN, NullDistribution.ALL));
        // per language
        assertEquals(1.9e-6, d.estimate(V4, 16, SIM_V4, "en", 1).rate(), 0.05e-6);
        assertEquals(5.6e-6, d.estimate(V4, 16, SIM_V4, "zh", 1).rate(), 0.05e-6);
        assertEquals(11_229_792, d.estimate(V4, 16, SIM_V4, "zh", 1).pairs());
    }

    @Test
    public void testPairsOfAGroupsRun() {
        // n (n - 1) / 2 pairs: 1,000 documents have 499,500
        NullDistribution.Estimate e = d.expectedFalsePairs(V4, 16, SIM_V4, 1000);
        assertEquals(114.0 / PAIRS * 499_500, e.value(), 1e-9);
        assertEquals(0, d.expectedFalsePairs(V4, 16, SIM_V4, 1).value(), 0);
        assertEquals(0, d.expectedFalsePairs(V4, 16, SIM_V4, 0).value(), 0);
        assertFalse(d.expectedFalsePairs(V4, 16, SIM_V4, 1).upperBound());
        // 1.49 expected pairs among 1,000 documents: above 1 and above 0.1 % of 1,000
        assertTrue(NullDistribution.warnPairs(e, 1000));
        // 0.37 among 500: no warning
        assertFalse(NullDistribution.warnPairs(d.expectedFalsePairs(V4, 16, SIM_V4, 500), 500));
        assertFalse(NullDistribution.warnPairs(null, 1000));
    }

    /** A rate of 0 is below the corpus's resolution, reported as the bound of one pair in 38.2M, never as 0. */
    @Test
    public void testZeroRateIsAnUpperBound() {
        NullDistribution.Estimate e = d.expectedFalseHitsPerQuery(V4, 8, SIM_V4, 1_000_001);
        assertEquals(0, e.falsePairs());
        assertEquals(0, e.rate(), 0);
        assertTrue(e.upperBound());
        assertEquals(1_000_000.0 / PAIRS, e.value(), 1e-12);
        assertEquals("< 0.026", e.text());
        assertEquals("< 2.62", d.expectedFalseHitsPerQuery(V4, 8, SIM_V4, 100_000_001).text());
        // a bound never warns, however large
        assertFalse(NullDistribution.warnPairs(d.expectedFalsePairs(V4, 8, SIM_V4, 10_000_000), 10_000_000));
        // per language the resolution is coarser (zh: one pair in 11.2M)
        assertEquals(1.0 / 11_229_792, d.estimate(V4, 9, SIM_V4, "zh", 1).value(), 1e-15);
    }

    /** What was not measured is unknown: null, never a number. */
    @Test
    public void testUnknown() {
        assertNull("k beyond the measured range", d.expectedFalseHitsPerQuery(V4, 19, SIM_V4, 1000));
        assertNull("k beyond v3's measured 16", d.expectedFalseHitsPerQuery(V3, 17, Double.NaN, 1000));
        assertNull(d.expectedFalseHitsPerQuery(V4, -1, SIM_V4, 1000));
        assertNull("another min_similarity", d.expectedFalseHitsPerQuery(V4, 16, 0.5, 1000));
        assertNull("a v3 field does not verify", d.expectedFalseHitsPerQuery(V3, 15, SIM, 1000));
        assertNull("other options", d.expectedFalseHitsPerQuery(V4.replace("weighting=tf", "weighting=log_tf"), 16, SIM, 1000));
        assertNull(
            "version 1 was not measured",
            d.expectedFalseHitsPerQuery(SimHashSettings.DEFAULT_V1.algorithmId(), 8, Double.NaN, 1000)
        );
        assertNull("foreign fingerprints", d.expectedFalseHitsPerQuery("minhash-v1", 8, Double.NaN, 1000));
        assertNull(d.expectedFalseHitsPerQuery("simhash-v99:x=y", 8, Double.NaN, 1000));
        assertNull(d.expectedFalseHitsPerQuery(null, 8, Double.NaN, 1000));
        assertNull("no such slice", d.estimate(V4, 16, SIM_V4, "de", 1));
        assertEquals(-1, d.maxMeasuredK(V4, 0.5, NullDistribution.ALL));
    }

    /** A v4 fingerprint without its signature is v3's fingerprint, bit for bit: v3's rows answer. */
    @Test
    public void testV4FingerprintAloneReadsV3() {
        NullDistribution.Estimate alone = d.expectedFalseHitsPerQuery(V4, 15, Double.NaN, 1000);
        assertEquals(d.expectedFalseHitsPerQuery(V3, 15, Double.NaN, 1000), alone);
        // the bare version string is the defaults
        assertEquals(d.expectedFalseHitsPerQuery(V4, 16, SIM_V4, 1000), d.expectedFalseHitsPerQuery("simhash-v4", 16, SIM_V4, 1000));
    }

    @Test
    public void testReadRefusesBadTables() {
        assertThrows(IOException.class, () -> read("a\t-\tall\t0\t1\n"));
        assertThrows(IOException.class, () -> read("a\t-\tall\t1\t0\t10\n"));
        assertThrows(IOException.class, () -> read("a\t-\tall\t0\t2\t10\na\t-\tall\t1\t1\t10\n"));
        assertThrows(IOException.class, () -> read("a\t-\tall\t0\t11\t10\n"));
        assertThrows(IOException.class, () -> read("a\t-\tall\t0\t1\t10\na\t-\tall\t1\t1\t11\n"));
    }

    private static NullDistribution read(String text) throws IOException {
        return NullDistribution.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}
