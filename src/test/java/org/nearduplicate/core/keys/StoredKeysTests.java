package org.nearduplicate.core.keys;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.Base64;
import java.util.List;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

/**
 * The keys {@code simhash-v7} stores: made from the signing's own min-wise values, equal to the keys of an independent
 * recomputation ({@link FullMinima}), and read back only when well formed.
 */
public class StoredKeysTests extends RandomizedTest {
    private static final SimHasher V6 = new SimHasher(SimHashSettings.DEFAULT_V6);
    private static final SimHasher V7 = new SimHasher(SimHashSettings.DEFAULT_V7);
    private static final String ENGLISH = "The old harbor bridge reopened to traffic on Monday morning after two years of repairs "
        + "that cost the city far more than planned. Engineers replaced the rusted steel deck and rebuilt both ramps.";
    private static final String CHINESE = "结婚的和尚未结婚的人都来了。他说的确实在理，研究生命的起源是一个难题。";
    private static final String PAGE = "<html><body><nav>Home | News | Sport</nav><article><h1>Harbor bridge reopens</h1><p>"
        + ENGLISH
        + "</p></article><footer>Copyright 2026</footer></body></html>";
    /**
     * Golden value: {@link #ENGLISH}'s stored keys. Stored keys must stay identical across releases (an index's terms
     * are made from them), as fingerprints do: a change needs a new algorithm version.
     */
    private static final String ENGLISH_KEYS =
        "klQtqxTOwT49u/z7nM4Vl4TfQNwNjw3QEOV82wSU39Do5D3Ga+fuBV8HnQo6Zvqz4PxfMCWIvEwnztkYJExGkBlNrOZ8MH2ZaIeP73ysiV2UiZdFwSqJHkbjSaq4Miwvq3aQW/mZCFW0H0Zbuvr5Ug==";

    /** The keys out of the signing pass are the keys of the minima recomputed from the text: nothing else changes. */
    static void assertKeysOfOnePass(String content) {
        SimHash six = V6.sketch(content);
        SimHash seven = V7.sketch(content);
        assertEquals(six.fingerprint(), seven.fingerprint());
        assertArrayEquals(six.signature(), seven.signature());
        long[] recomputed = FullMinima.of(V7, content);
        assertArrayEquals(recomputed, seven.minima());
        assertArrayEquals(FullMinima.of(V6, content), recomputed);
        String stored = StoredKeys.of(SimHashSettings.DEFAULT_V7, seven);
        byte[] packed = StoredKeys.parse(CandidateKeys.V7, stored);
        assertArrayEquals(CandidateKeys.V7.keys(recomputed), CandidateKeys.V7.keysOfPacked(packed));
    }

    @Test
    public void testKeysComeFromTheSigningPass() {
        for (String content : List.of(ENGLISH, CHINESE, PAGE))
            assertKeysOfOnePass(content);
        for (int round = 0; round < 30; round++)
            assertKeysOfOnePass(RandomText.of(randomIntBetween(5, 300)));
    }

    @Test
    public void testStoredForm() {
        String stored = StoredKeys.of(SimHashSettings.DEFAULT_V7, V7.sketch(ENGLISH));
        assertEquals("28 keys of 4 bytes in base64", 152, stored.length());
        assertEquals(112, Base64.getDecoder().decode(stored).length);
        assertEquals(ENGLISH_KEYS, stored);
        assertNull("no keys before version 7", StoredKeys.of(SimHashSettings.DEFAULT_V6, V6.sketch(ENGLISH)));
        IllegalArgumentException e = assertThrows(
            IllegalArgumentException.class,
            () -> StoredKeys.of(SimHashSettings.DEFAULT_V7, new SimHash(1L, new byte[Signature.BYTES]))
        );
        assertTrue(e.getMessage(), e.getMessage().contains("needs the sketch's min-wise values"));
    }

    @Test
    public void testRoundTrip() {
        for (int round = 0; round < 30; round++) {
            long[] minima = new long[CandidateKeys.SLOTS];
            for (int i = 0; i < minima.length; i++)
                minima[i] = randomLong() >>> 1;
            String stored = StoredKeys.encode(CandidateKeys.V7, minima);
            byte[] packed = StoredKeys.parse(CandidateKeys.V7, stored);
            assertArrayEquals(CandidateKeys.V7.packedHashes(minima), packed);
            assertArrayEquals(packed, StoredKeys.parse(CandidateKeys.V7, " " + stored + "\n"));
            assertEquals(stored, Base64.getEncoder().encodeToString(packed));
            CandidateKeys wide = CandidateKeys.forMinAgreeing(13, 64);
            assertArrayEquals(wide.packedHashes(minima), StoredKeys.parse(wide, StoredKeys.encode(wide, minima)));
        }
    }

    @Test
    public void testBadValuesAreNamed() {
        String good = StoredKeys.encode(CandidateKeys.V7, FullMinima.of(V7, ENGLISH));
        assertBad(null, "[keys] must not be null");
        assertBad(28, "[keys] must be a base64 string, got [Integer]");
        assertBad(List.of(good), "[keys] must be a base64 string, got [");
        assertBad("not*base64!", "invalid [keys] [not*base64!]: not base64");
        assertBad("", "invalid [keys] []: expected 112 bytes (28 keys of 4 bytes, layout pairs:3x8+2x4:w32), got 0");
        assertBad(good.substring(0, 148), "expected 112 bytes (28 keys of 4 bytes, layout pairs:3x8+2x4:w32), got 111");
        assertBad(good.substring(0, 148) + "AAAA", "got 114");
        assertBad(good + "AAAA", "not base64"); // padding inside
        // 140 bytes: the key bytes with their numbers are not the stored form
        String numbered = Base64.getEncoder().encodeToString(CandidateKeys.V7.keys(FullMinima.of(V7, ENGLISH)));
        assertBad(numbered, "got 140");
        assertTrue("a long value is abbreviated", message(numbered).contains("..."));
    }

    private static String message(Object value) {
        return assertThrows(IllegalArgumentException.class, () -> StoredKeys.parse(CandidateKeys.V7, value)).getMessage();
    }

    private static void assertBad(Object value, String messagePart) {
        String m = message(value);
        assertTrue("[" + m + "] should contain [" + messagePart + "]", m.contains(messagePart));
    }
}
