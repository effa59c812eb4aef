package org.nearduplicate.core.sketch;

import org.junit.Test;

import java.util.Random;
import java.util.stream.LongStream;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.nearduplicate.core.EngineAsserts.assertThrows;

public class SignatureTests {

    @Test
    public void testIdenticalSetsAgreeEverywhereAndOrderDoesNotMatter() {
        long[] features = new Random(1).longs(500).toArray();
        long[] reversed = LongStream.range(0, features.length).map(i -> features[features.length - 1 - (int) i]).toArray();
        byte[] a = Signature.of(features);
        assertArrayEquals(a, Signature.of(reversed));
        assertEquals(1.0, Signature.similarity(a, Signature.of(reversed)), 0);
        assertEquals(Signature.BYTES, a.length);
    }

    /** The estimate follows the true Jaccard similarity of the sets (b-bit MinHash is unbiased after the correction). */
    @Test
    public void testEstimateTracksJaccard() {
        Random random = new Random(7);
        for (double jaccard : new double[] { 0.0, 0.2, 0.5, 0.8 }) {
            double sum = 0;
            int trials = 200;
            for (int t = 0; t < trials; t++) {
                // |A ∩ B| / |A ∪ B| = shared / (shared + 2 * own)
                int union = 400, shared = (int) Math.round(jaccard * union), own = (union - shared) / 2;
                long[] common = random.longs(shared).toArray();
                long[] a = LongStream.concat(LongStream.of(common), random.longs(own)).toArray();
                long[] b = LongStream.concat(LongStream.of(common), random.longs(own)).toArray();
                sum += Signature.similarity(Signature.of(a), Signature.of(b));
            }
            assertEquals("mean estimate at J = " + jaccard, jaccard, sum / trials, 0.04);
        }
    }

    @Test
    public void testMinAgreeingIsTheIntegerFormOfTheThreshold() {
        for (double t = 0; t <= 1.0; t += 0.05) {
            int n = Signature.minAgreeing(t);
            assertTrue(Signature.similarity(n) >= t || n > Signature.SLOTS);
            if (n > 0) assertTrue(Signature.similarity(n - 1) < t);
        }
        assertEquals(12, Signature.minAgreeing(0.35));
        Random random = new Random(3);
        for (int i = 0; i < 1000; i++) {
            byte[] a = new byte[Signature.BYTES], b = new byte[Signature.BYTES + 3];
            random.nextBytes(a);
            random.nextBytes(b);
            for (int s = 0; s < Signature.SLOTS; s++)
                if (random.nextBoolean()) b[3 + s] = a[s];
            int agreeing = Signature.agreeingSlots(a, 0, b, 3);
            int threshold = random.nextInt(Signature.SLOTS + 2);
            assertEquals(agreeing >= threshold, Signature.agreesOnAtLeast(a, b, 3, threshold));
        }
    }

    @Test
    public void testHexRoundTripAndErrors() {
        byte[] a = Signature.of(1, 2, 3);
        assertArrayEquals(a, Signature.parse(Signature.toHex(a)));
        assertArrayEquals(a, Signature.parse(Signature.toHex(a).toUpperCase(java.util.Locale.ROOT)));
        assertThrows("expected 64 hex digits, got 3", () -> Signature.parse("abc"));
        assertThrows("is not a hex digit", () -> Signature.parse("g".repeat(64)));
        // a fullwidth digit is not a hex digit
        assertThrows("is not a hex digit", () -> Signature.parse("\uff10".repeat(64)));
    }
}
