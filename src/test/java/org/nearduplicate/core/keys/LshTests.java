package org.nearduplicate.core.keys;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.MinHasher;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

public class LshTests extends RandomizedTest {

    /**
     * A shared key iff a whole band agrees: checked on random layouts and signatures (with unbanded values after the
     * bands) with planted agreement.
     */
    @Test
    public void testKeysAgreeExactlyWhenABandAgrees() {
        Random random = getRandom();
        for (int trial = 0; trial < 2000; trial++) {
            Lsh lsh = new Lsh(randomIntBetween(1, 32), randomIntBetween(1, 8));
            int m = lsh.width() + randomIntBetween(0, 8);
            int[] a = random.ints(m).toArray();
            int[] b = a.clone();
            // few changes half of the time, so that the pigeonhole case (fewer mismatches than bands) is common
            int changes = random.nextInt(randomBoolean() ? lsh.bands() + 1 : m + 6);
            for (int c = 0; c < changes; c++)
                b[random.nextInt(m)] = random.nextInt(4); // small values: collisions too
            Set<String> ka = new HashSet<>();
            for (byte[] k : lsh.keys(a))
                ka.add(Arrays.toString(k));
            boolean shared = false;
            for (byte[] k : lsh.keys(b))
                shared |= ka.contains(Arrays.toString(k));
            assertEquals(lsh + " " + trial, lsh.shareBand(a, b), shared);
            int mismatches = lsh.width() - MinHasher.matches(Arrays.copyOf(a, lsh.width()), Arrays.copyOf(b, lsh.width()));
            if (mismatches < lsh.bands()) assertTrue(lsh + " pigeonhole: " + mismatches + " mismatches", shared);
        }
    }

    @Test
    public void testExactnessBound() {
        Lsh lsh = new Lsh(32, 4);
        assertEquals(1 - 31.0 / 128, lsh.exactFrom(128), 1e-12);
        assertTrue(lsh.exactFor(lsh.exactFrom(128), 128));
        assertFalse(lsh.exactFor(lsh.exactFrom(128) - 1.0 / 128, 128));
        assertTrue(lsh.exactFor(1.0, 128));
        assertEquals(0, Lsh.maxMismatches(1.0, 128));
        assertEquals(64, Lsh.maxMismatches(0.5, 128));
        // the same bound on random layouts and signature sizes
        for (int i = 0; i < 200; i++) {
            Lsh l = new Lsh(randomIntBetween(1, 64), randomIntBetween(1, 16));
            int m = randomIntBetween(l.width(), MinHashSettings.MAX_HASHES);
            double from = l.exactFrom(m);
            assertEquals(l + " m=" + m, l.bands() - 1, Lsh.maxMismatches(from, m));
            assertTrue(l + " m=" + m, l.exactFor(from, m));
            assertFalse(l + " m=" + m, l.exactFor(from - 1.0 / m, m));
            assertEquals(0, Lsh.maxMismatches(1.0, m));
        }
    }

    /** The S-curve: 1-(1-s^r)^b; the threshold (1/b)^(1/r). */
    @Test
    public void testSCurve() {
        Lsh lsh = new Lsh(20, 5);
        assertEquals(1 - Math.pow(1 - Math.pow(0.8, 5), 20), lsh.candidateProbability(0.8), 1e-12);
        assertEquals(0.0, lsh.candidateProbability(0), 0);
        assertEquals(1.0, lsh.candidateProbability(1), 0);
        assertEquals(Math.pow(0.05, 0.2), lsh.threshold(), 1e-12);
        // the same on a random layout, and the curve rises with the similarity
        Lsh l = new Lsh(randomIntBetween(1, 64), randomIntBetween(1, 16));
        double s1 = randomDouble(), s2 = randomDouble(), lo = Math.min(s1, s2), hi = Math.max(s1, s2);
        assertEquals(l + " s=" + s1, 1 - Math.pow(1 - Math.pow(s1, l.rows()), l.bands()), l.candidateProbability(s1), 1e-12);
        assertEquals(l.toString(), Math.pow(1.0 / l.bands(), 1.0 / l.rows()), l.threshold(), 1e-12);
        assertTrue(l + " " + lo + " " + hi, l.candidateProbability(lo) <= l.candidateProbability(hi));
        // the chosen layout puts the S-curve's threshold near the requested one and uses at most m values; besides the
        // fixed thresholds one drawn from [0.05, 0.95] (for m = 128 the chosen threshold is within 0.09 of every such t)
        for (double t : new double[] { 0.3, 0.5, 0.7, 0.9, 0.05 + 0.9 * randomDouble() }) {
            Lsh chosen = Lsh.forThreshold(t, 128);
            assertTrue(chosen + " for " + t, chosen.width() <= 128 && Math.abs(chosen.threshold() - t) < 0.12);
            // no other layout has a smaller error
            double err = chosen.falseArea(t) + chosen.missedArea(t);
            for (int b = 1; b <= 128; b++) {
                for (int r = 1; b * r <= 128; r++) {
                    Lsh o = new Lsh(b, r);
                    assertTrue(o.falseArea(t) + o.missedArea(t) >= err - 1e-9);
                }
            }
        }
    }

    @Test
    public void testBadLayouts() {
        assertThrows(IllegalArgumentException.class, () -> new Lsh(0, 4));
        assertThrows(IllegalArgumentException.class, () -> new Lsh(4, 0));
        assertThrows(IllegalArgumentException.class, () -> new Lsh(256, 1));
        assertThrows(IllegalArgumentException.class, () -> new Lsh(200, 200));
        assertThrows(IllegalArgumentException.class, () -> new Lsh(32, 4).keys(new int[64]));
        assertThrows(IllegalArgumentException.class, () -> Lsh.forThreshold(1.0, 128));
    }
}
