package org.nearduplicate.core.keys;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** Multi-probe layouts: the probed block variants of a query at any k up to 16 reach every fingerprint within k. */
public class BlockLayoutProbeTests extends RandomizedTest {

    private static long flip(long fp, int bits) {
        Set<Integer> flipped = new HashSet<>();
        while (flipped.size() < bits) {
            int bit = randomIntBetween(0, 63);
            if (flipped.add(bit)) fp ^= 1L << bit;
        }
        return fp;
    }

    @Test
    public void testThresholdsSumToKPlusOne() {
        BlockLayout layout = new BlockLayout(4, 16);
        assertEquals(3, layout.exactDistance());
        assertEquals(4, layout.keyCount());
        for (int k = 0; k <= 16; k++) {
            int[] t = layout.probeThresholds(k);
            int sum = 0;
            for (int ti : t)
                sum += ti + 1;
            assertEquals("k " + k + " " + Arrays.toString(t), k + 1, sum);
        }
        assertArrayEquals(new int[] { 3, 2, 2, 2 }, layout.probeThresholds(12));
        assertArrayEquals(new int[] { 4, 3, 3, 3 }, layout.probeThresholds(16));
        // the layout of existing 4/3 indices probes exactly its four keys at k = 3, as before
        assertArrayEquals(new int[] { 0, 0, 0, 0 }, new BlockLayout(4, 3).probeThresholds(3));
        assertEquals(1 + 16 + 120 + 560 + 1820 + 3 * (1 + 16 + 120 + 560), layout.probeKeyCount(16));
    }

    @Test
    public void testExactLayoutsProbeTheirKeysOnly() {
        BlockLayout layout = new BlockLayout(10, 8);
        assertEquals(8, layout.exactDistance());
        for (int k = 0; k <= 8; k++) {
            assertEquals(layout.keyCount(), layout.probeKeyCount(k));
        }
        expectThrows(IllegalArgumentException.class, () -> layout.probeThresholds(9));
    }

    @Test
    public void testProbeKeysReachEveryFingerprintWithinK() {
        int blocks = randomIntBetween(4, 8);
        BlockLayout layout = new BlockLayout(blocks, randomIntBetween(blocks, BlockLayout.MAX_DISTANCE));
        for (int round = 0; round < 200; round++) {
            long probe = randomLong();
            int k = randomIntBetween(0, layout.maxDistance());
            long other = flip(probe, randomIntBetween(0, k));
            int distance = Long.bitCount(probe ^ other);
            List<String> probed = new ArrayList<>();
            List<Integer> keyDistances = new ArrayList<>();
            layout.probeKeys(probe, k, (c, key, keyDistance) -> {
                probed.add(Arrays.toString(key));
                keyDistances.add(keyDistance);
                // the key distance is the distance of the variant's kept bits from the probe's
                assertTrue(keyDistance <= k);
            });
            assertEquals(layout.probeKeyCount(k), probed.size());
            assertEquals("no key is probed twice", probed.size(), new HashSet<>(probed).size());
            boolean reached = false;
            for (byte[] key : layout.keys(other)) {
                int i = probed.indexOf(Arrays.toString(key));
                if (i >= 0) {
                    reached = true;
                    // the lower bound the query uses: key distance + check distance <= distance
                    int c = key[0];
                    int bound = keyDistances.get(i) + Long.bitCount(layout.check(probe, c) ^ layout.check(other, c));
                    assertTrue(bound <= distance);
                }
            }
            assertTrue(layout + " k " + k + " distance " + distance, reached);
        }
    }

    @Test
    public void testRejectsLayoutsThatProbeTooManyKeys() {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> new BlockLayout(2, 16));
        assertTrue(e.getMessage(), e.getMessage().contains("keys per query"));
        e = expectThrows(IllegalArgumentException.class, () -> new BlockLayout(4, 17));
        assertTrue(e.getMessage(), e.getMessage().contains("[max_distance] must be between 0 and 16"));
    }

    private static <T extends Throwable> T expectThrows(Class<T> type, Runnable r) {
        try {
            r.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) return type.cast(t);
            throw new AssertionError("expected " + type.getSimpleName() + " but got " + t, t);
        }
        throw new AssertionError("expected " + type.getSimpleName());
    }
}
