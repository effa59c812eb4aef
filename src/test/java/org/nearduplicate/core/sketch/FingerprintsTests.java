package org.nearduplicate.core.sketch;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.Random;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.nearduplicate.core.EngineAsserts.assertThrows;

public class FingerprintsTests extends RandomizedTest {
    private static final long[] EDGES = { 0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x00ff_0000_0000_0000L };

    /** A random fingerprint of any magnitude: full 64-bit values are most likely, short ones test the decimal forms. */
    private static long randomFingerprint(Random random) {
        long fp = random.nextLong() >>> random.nextInt(64);
        return random.nextBoolean() ? fp : -fp;
    }

    @Test
    public void testRoundTrips() {
        Random random = getRandom();
        for (int i = 0; i < 10_000; i++) {
            long fp = i < EDGES.length ? EDGES[i] : random.nextBoolean() ? random.nextLong() : randomFingerprint(random);
            String hex = Fingerprints.toHex(fp);
            assertEquals(16, hex.length());
            assertEquals(fp, Fingerprints.parse(hex));
            assertEquals(fp, Fingerprints.parse("0x" + hex.toUpperCase(java.util.Locale.ROOT)));
            assertEquals(fp, Fingerprints.parseHex(hex));
            String unsigned = Fingerprints.toUnsignedDecimal(fp);
            assertEquals(fp, Fingerprints.parseDecimal(unsigned));
            assertEquals(fp, Fingerprints.parseDecimal(Fingerprints.toSignedDecimal(fp)));
            String signed = Fingerprints.toSignedDecimal(fp);
            if (signed.length() != 16 || fp < 0) { // a sign makes 16 characters decimal
                assertEquals(fp, Fingerprints.parse(signed));
            }
            if (unsigned.length() != 16) {
                assertEquals(fp, Fingerprints.parse(unsigned));
            }
        }
    }

    /** The Hamming distance is a metric on fingerprints, and flipping d bits moves a fingerprint by d. */
    @Test
    public void testDistanceIsAMetric() {
        Random random = getRandom();
        for (int i = 0; i < 1000; i++) {
            long a = randomFingerprint(random), b = randomFingerprint(random), c = randomFingerprint(random);
            int ab = Fingerprints.distance(a, b);
            assertEquals(ab, Fingerprints.distance(b, a));
            assertEquals(Long.bitCount(a ^ b), ab);
            assertEquals(0, Fingerprints.distance(a, a));
            assertTrue(ab >= 0 && ab <= 64);
            assertTrue("triangle inequality", Fingerprints.distance(a, c) <= ab + Fingerprints.distance(b, c));
            long flips = 0;
            int d = randomIntBetween(0, 64);
            while (Long.bitCount(flips) < d)
                flips |= 1L << random.nextInt(64);
            assertEquals(d, Fingerprints.distance(a, a ^ flips));
            assertEquals(64 - d, Fingerprints.distance(a, ~(a ^ flips)));
        }
    }

    /** Fixed on purpose: the documented string forms of fingerprints (golden values). */
    @Test
    public void testKnownForms() {
        assertEquals("0000000000000000", Fingerprints.toHex(0));
        assertEquals("ffffffffffffffff", Fingerprints.toHex(-1));
        assertEquals("18446744073709551615", Fingerprints.toUnsignedDecimal(-1));
        assertEquals("-1", Fingerprints.toSignedDecimal(-1));
        // 16 characters are always hex, even when they are all digits
        assertEquals(0x1000_0000_0000_0000L, Fingerprints.parse("1000000000000000"));
        assertEquals(1000L, Fingerprints.parse("1000"));
        assertEquals(255L, Fingerprints.parse("0xff"));
        assertEquals(-5L, Fingerprints.parse(" -5 "));
        assertEquals(-501328685158240L, Fingerprints.parse("-501328685158240"));
        assertEquals(1000000000000000L, Fingerprints.parseDecimal("1000000000000000"));
        assertEquals(3, Fingerprints.distance(0b1011L, 0L));
        assertEquals(64, Fingerprints.distance(0L, -1L));
    }

    @Test
    public void testBadStrings() {
        assertThrows("must not be null", () -> Fingerprints.parse(null));
        assertThrows("must not be empty", () -> Fingerprints.parse(""));
        assertThrows("must not be empty", () -> Fingerprints.parse("   "));
        assertThrows("expected 1 to 16 hex digits, got 17", () -> Fingerprints.parse("0x0123456789abcdef0"));
        assertThrows("expected 1 to 16 hex digits, got 0", () -> Fingerprints.parse("0x"));
        assertThrows("[g] is not a hex digit", () -> Fingerprints.parse("0123456789abcdeg"));
        assertThrows("[z] is not a hex digit", () -> Fingerprints.parseHex("z"));
        assertThrows("expected 16 hex digits, 0x-prefixed hex, or a decimal number", () -> Fingerprints.parse("12a"));
        assertThrows("expected 16 hex digits, 0x-prefixed hex, or a decimal number", () -> Fingerprints.parse("-"));
        assertThrows("out of the 64-bit range", () -> Fingerprints.parse("18446744073709551616"));
        assertThrows("out of the 64-bit range", () -> Fingerprints.parse("-9223372036854775809"));
        assertThrows("expected 16 hex digits", () -> Fingerprints.parse("1".repeat(40)));
    }

    /** Issue 23: {@code Character.digit} read fullwidth and Arabic-Indic digits (and fullwidth letters) as hex digits. */
    @Test
    public void testOnlyAsciiHexDigits() {
        assertThrows("[\uff18] is not a hex digit", () -> Fingerprints.parse("\uff18\uff14eac0c067c7944a")); // fullwidth 8, 4
        assertThrows("[\u0668] is not a hex digit", () -> Fingerprints.parse("\u0668\u0664eac0c067c7944a")); // Arabic-Indic 8, 4
        assertThrows("[\u06f8] is not a hex digit", () -> Fingerprints.parse("0x\u06f8")); // extended Arabic-Indic 8
        assertThrows("[\uff21] is not a hex digit", () -> Fingerprints.parseHex("\uff21")); // fullwidth A
        assertThrows("or a decimal number", () -> Fingerprints.parse("\u0668\u0664")); // not a decimal number either
        assertEquals(0x84eac0c067c7944aL, Fingerprints.parse("84EAC0C067C7944A"));
        for (char c = 0; c < Character.MAX_VALUE; c++) {
            boolean ascii = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            assertEquals("char " + (int) c, ascii ? Character.digit(c, 16) : -1, Fingerprints.hexDigit(c));
        }
    }
}
