package org.nearduplicate.core.keys;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The full minima are the ones the signature is cut from: same features, same slots, nothing else changes. */
public class FullMinimaTests extends RandomizedTest {
    @Test
    public void testSignatureIsCutFromTheMinima() {
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        assertTrue(SimHashSettings.DEFAULT.hasSignature());
        for (int round = 0; round < 30; round++) {
            String content = RandomText.of(randomIntBetween(5, 300));
            SimHash sketch = hasher.sketch(content);
            long[] minima = FullMinima.of(hasher, content);
            assertEquals(Signature.SLOTS, minima.length);
            assertArrayEquals(sketch.signature(), Signature.finish(minima));
            for (long m : minima)
                assertTrue(m >= 0 && m < Long.MAX_VALUE);
        }
    }

    @Test
    public void testOfHashesIsSignatureOf() {
        long[] hashes = new long[randomIntBetween(1, 50)];
        for (int i = 0; i < hashes.length; i++)
            hashes[i] = randomLong();
        assertArrayEquals(Signature.of(hashes), Signature.finish(FullMinima.ofHashes(hashes)));
        // a set: order and repetition do not matter
        long[] twice = new long[hashes.length * 2];
        for (int i = 0; i < twice.length; i++)
            twice[i] = hashes[hashes.length - 1 - i % hashes.length];
        assertArrayEquals(FullMinima.ofHashes(hashes), FullMinima.ofHashes(twice));
    }
}
