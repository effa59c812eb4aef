package org.nearduplicate.core.sketch;

import java.math.BigInteger;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;

/** The value contract without OpenSearch types: what a fingerprint may be, and the processor's object. */
public class SketchValuesTests extends PlatformTestCase {

    public void testFingerprintsAreStringsOrIntegers() {
        assertEquals(255L, SketchValues.fingerprint("00000000000000ff"));
        assertEquals(255L, SketchValues.fingerprint(255));
        assertEquals(255L, SketchValues.fingerprint(255L));
        assertEquals(-1L, SketchValues.fingerprint(new BigInteger("18446744073709551615")));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> SketchValues.fingerprint(1.5));
        assertEquals("invalid fingerprint [1.5]: a numeric fingerprint must be an integer", e.getMessage());
        e = expectThrows(IllegalArgumentException.class, () -> SketchValues.fingerprint(null));
        assertEquals("fingerprint must not be null", e.getMessage());
        e = expectThrows(IllegalArgumentException.class, () -> SketchValues.fingerprint(true));
        assertEquals("invalid fingerprint: expected a string or an integer, got [Boolean]", e.getMessage());
    }

    public void testTheProcessorsObjectCarriesItsAlgorithm() {
        SketchValues.Stored object = SketchValues.Stored.of(
            Map.of(SketchValues.FINGERPRINT, "ff", SketchValues.ALGORITHM, "simhash-v3"),
            SketchValues.FINGERPRINT,
            SketchValues.ALGORITHM
        );
        assertEquals(new SketchValues.Stored("ff", "simhash-v3"), object);
        assertEquals(new SketchValues.Stored("ff", null), SketchValues.Stored.of("ff", SketchValues.FINGERPRINT, SketchValues.ALGORITHM));
        assertNull(SketchValues.Stored.of(Map.of(SketchValues.ALGORITHM, "a"), SketchValues.FINGERPRINT, SketchValues.ALGORITHM).value());
    }
}
