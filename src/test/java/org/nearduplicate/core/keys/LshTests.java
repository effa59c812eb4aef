package org.nearduplicate.core.keys;

import org.nearduplicate.core.sketch.MinHasher;
import org.junit.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.assertThrows;

public class LshTests {

    /** A shared key iff a whole band agrees: checked on random signatures with planted agreement. */
    @Test
    public void testKeysAgreeExactlyWhenABandAgrees() {
        Random random = new Random(7);
        Lsh lsh = new Lsh(16, 4);
        for (int trial = 0; trial < 2000; trial++) {
            int[] a = random.ints(64).toArray();
            int[] b = a.clone();
            int changes = random.nextInt(70);
            for (int c = 0; c < changes; c++) b[random.nextInt(64)] = random.nextInt(4); // small values: collisions too
            Set<String> ka = new HashSet<>();
            for (byte[] k : lsh.keys(a)) ka.add(Arrays.toString(k));
            boolean shared = false;
            for (byte[] k : lsh.keys(b)) shared |= ka.contains(Arrays.toString(k));
            assertEquals(lsh.shareBand(a, b), shared);
            int mismatches = 64 - MinHasher.matches(a, b);
            if (mismatches < lsh.bands()) assertTrue("pigeonhole: " + mismatches + " mismatches", shared);
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
    }

    /** The S-curve: 1-(1-s^r)^b; the threshold (1/b)^(1/r). */
    @Test
    public void testSCurve() {
        Lsh lsh = new Lsh(20, 5);
        assertEquals(1 - Math.pow(1 - Math.pow(0.8, 5), 20), lsh.candidateProbability(0.8), 1e-12);
        assertEquals(0.0, lsh.candidateProbability(0), 0);
        assertEquals(1.0, lsh.candidateProbability(1), 0);
        assertEquals(Math.pow(0.05, 0.2), lsh.threshold(), 1e-12);
        // the chosen layout puts the S-curve's threshold near the requested one and uses at most m values
        for (double t : new double[] { 0.3, 0.5, 0.7, 0.9 }) {
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
