package org.nearduplicate.core.keys;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.nearduplicate.core.sketch.Fingerprints;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.nearduplicate.core.EngineAsserts.assertThrows;

/**
 * Properties of the pigeonhole layout, checked on every supported layout with fingerprints, distances and check bits
 * drawn from the test seed ({@code -Dtests.seed=...} reproduces a failure); the known-answer tests pin the key format.
 */
public class BlockLayoutTests extends RandomizedTest {
    private static final int MAX_K = 8;

    /** Every (blocks, maxDistance) the layout accepts with maxDistance <= 8. */
    private static void forEachSupportedLayout(java.util.function.Consumer<BlockLayout> test) {
        int count = 0;
        for (int k = 0; k <= MAX_K; k++) {
            for (int b = k + 1; b <= BlockLayout.MAX_BLOCKS; b++) {
                if (BlockLayout.binomial(b, b - k) > BlockLayout.MAX_KEYS) continue;
                test.accept(new BlockLayout(b, k));
                count++;
            }
        }
        assertTrue("too few layouts tested: " + count, count > 40);
    }

    private static boolean shareKey(BlockLayout layout, long a, long b) {
        byte[][] ka = layout.keys(a), kb = layout.keys(b);
        for (int c = 0; c < ka.length; c++) {
            if (Arrays.equals(ka[c], kb[c])) return true;
        }
        return false;
    }

    /**
     * Keys depend only on which blocks are equal, so trying every set of exactly k differing blocks (each with one
     * flipped bit, in its lowest, highest or a random position) covers every pair at distance <= k exhaustively.
     */
    @Test
    public void testEverySetOfMaxDistanceDifferingBlocksSharesAKey() {
        Random random = getRandom();
        forEachSupportedLayout(layout -> {
            int b = layout.blocks(), k = layout.maxDistance();
            int[] subset = new int[k];
            for (int i = 0; i < k; i++)
                subset[i] = i;
            while (true) {
                long a = random.nextLong();
                for (int variant = 0; variant < 3; variant++) {
                    long flips = 0;
                    for (int block : subset) {
                        long mask = layout.blockMask(block);
                        int lowest = Long.numberOfTrailingZeros(mask), width = layout.blockWidth(block);
                        int bit = variant == 0 ? lowest : variant == 1 ? lowest + width - 1 : lowest + random.nextInt(width);
                        flips |= 1L << bit;
                    }
                    assertEquals(k, Long.bitCount(flips));
                    if (shareKey(layout, a, a ^ flips) == false) {
                        fail(layout + ": no shared key when blocks " + Arrays.toString(subset) + " differ");
                    }
                }
                if (nextSubset(subset, b) == false) break;
            }
        });
    }

    private static boolean nextSubset(int[] subset, int n) {
        int k = subset.length;
        for (int i = k - 1; i >= 0; i--) {
            if (subset[i] < n - k + i) {
                subset[i]++;
                for (int j = i + 1; j < k; j++)
                    subset[j] = subset[j - 1] + 1;
                return true;
            }
        }
        return false;
    }

    @Test
    public void testRandomPairsWithinMaxDistanceShareAKey() {
        Random random = getRandom();
        forEachSupportedLayout(layout -> {
            for (int i = 0; i < 300; i++) {
                long a = random.nextLong();
                long b = a;
                int distance = random.nextInt(layout.maxDistance() + 1);
                while (Fingerprints.distance(a, b) < distance)
                    b ^= 1L << random.nextInt(64);
                assertTrue(layout + " " + Fingerprints.toHex(a) + " " + Fingerprints.toHex(b), shareKey(layout, a, b));
            }
        });
    }

    /** Equal key c <=> the fingerprints agree on all blocks of combination c, for near and far pairs. */
    @Test
    public void testEqualKeysMeanEqualKeptBlocks() {
        Random random = getRandom();
        forEachSupportedLayout(layout -> {
            byte[] ka = new byte[layout.keyBytes()], kb = new byte[layout.keyBytes()];
            for (int i = 0; i < 100; i++) {
                long a = random.nextLong();
                long b = a;
                int flips = random.nextInt(12);
                for (int f = 0; f < flips; f++)
                    b ^= 1L << random.nextInt(64);
                for (int c = 0; c < layout.keyCount(); c++) {
                    layout.key(a, c, ka, 0);
                    layout.key(b, c, kb, 0);
                    boolean agree = ((a ^ b) & layout.keptMask(c)) == 0;
                    assertEquals(layout + " combination " + layout.combinationName(c), agree, Arrays.equals(ka, kb));
                    assertEquals("the first byte names the combination", c, ka[0] & 0xFF);
                }
            }
        });
    }

    /** The combination byte keeps the keys of one fingerprint distinct, even for 0 (all kept blocks equal). */
    @Test
    public void testKeysOfDifferentCombinationsNeverCollide() {
        Random random = getRandom();
        forEachSupportedLayout(layout -> {
            for (long fp : new long[] { 0L, -1L, random.nextLong() }) {
                Set<ByteBuffer> distinct = new HashSet<>();
                for (byte[] key : layout.keys(fp))
                    distinct.add(ByteBuffer.wrap(key));
                assertEquals(layout + " " + Fingerprints.toHex(fp), layout.keyCount(), distinct.size());
            }
        });
    }

    @Test
    public void testBlocksCoverAllBitsOnce() {
        forEachSupportedLayout(layout -> {
            long union = 0;
            for (int b = 0; b < layout.blocks(); b++) {
                assertEquals("blocks overlap in " + layout, 0, union & layout.blockMask(b));
                union |= layout.blockMask(b);
            }
            assertEquals(-1L, union);
        });
    }

    /** Fixed on purpose: keys are stored in indexes, so their byte format must not change between versions. */
    @Test
    public void testKnownLayout() {
        BlockLayout layout = new BlockLayout(4, 1);
        assertEquals(4, layout.keyCount());
        assertEquals(1 + 6, layout.keyBytes()); // 3 blocks of 16 bits
        assertEquals("b0+b1+b2", layout.combinationName(0));
        assertEquals("64b/4blocks/k1/check16", layout.id());
        byte[] key = new byte[layout.keyBytes()];
        layout.key(0x0123_4567_89ab_cdefL, 0, key, 0);
        assertArrayEquals(new byte[] { 0, 0x01, 0x23, 0x45, 0x67, (byte) 0x89, (byte) 0xab }, key);
        assertEquals("b0+b1+b2:0123456789ab", layout.keyToString(key));
        layout.key(0x0123_4567_89ab_cdefL, 3, key, 0); // b1+b2+b3
        assertEquals("b1+b2+b3:456789abcdef", layout.keyToString(key));
    }

    @Test
    public void testKnownCheckValue() {
        BlockLayout layout = new BlockLayout(4, 3, 24);
        // key 0 keeps block 0 (0x0123); the bits it leaves out are 0x456789abcdef, the check keeps their lowest 24
        assertEquals(0xabcdefL, layout.check(0x0123_4567_89ab_cdefL, 0));
        // key 3 keeps block 3 (0xcdef); left out: 0x0123456789ab
        assertEquals(0x6789abL, layout.check(0x0123_4567_89ab_cdefL, 3));
        assertEquals(0, new BlockLayout(4, 3, 0).check(-1L, 2));
        assertEquals(0xffffffL, new BlockLayout(4, 3, 24).check(-1L, 2));
        assertEquals(0x1fL, new BlockLayout(4, 3, 5).check(-1L, 2));
    }

    /** Check values are a lower bound of the distance: whenever two fingerprints share key c, check distance <= distance. */
    @Test
    public void testCheckDistanceNeverExceedsDistance() {
        Random random = getRandom();
        forEachSupportedLayout(base -> {
            // the most check bits the layout allows, and a random number of them
            for (int checkBits : new int[] { base.maxCheckBits(), randomIntBetween(0, base.maxCheckBits()) }) {
                checkDistanceNeverExceedsDistance(new BlockLayout(base.blocks(), base.maxDistance(), checkBits), random);
            }
        });
    }

    private static void checkDistanceNeverExceedsDistance(BlockLayout layout, Random random) {
        for (int i = 0; i < 200; i++) {
            long a = random.nextLong();
            long b = a;
            for (int f = random.nextInt(20); f > 0; f--) {
                b ^= 1L << random.nextInt(64);
            }
            int distance = Long.bitCount(a ^ b);
            for (int c = 0; c < layout.keyCount(); c++) {
                int checkDistance = Long.bitCount(layout.check(a, c) ^ layout.check(b, c));
                assertTrue(layout + " key " + c, checkDistance <= distance);
                if ((a & layout.keptMask(c)) == (b & layout.keptMask(c)) && layout.checkBits() == 64 - Long.bitCount(layout.keptMask(c))) {
                    assertEquals("all free bits checked: check distance is the distance", distance, checkDistance);
                }
                assertTrue("a check fits a term frequency", layout.check(a, c) + 1 <= Integer.MAX_VALUE / layout.keyCount());
            }
        }
    }

    @Test
    public void testDefaultCheckBits() {
        assertEquals(16, new BlockLayout(4, 3).checkBits());
        assertEquals(16, new BlockLayout(5, 3).checkBits());
        assertEquals(24, new BlockLayout(8, 6).checkBits());
        assertEquals(24, new BlockLayout(10, 8).checkBits()); // 32 would pass 0.4 %, but 24 is the most allowed
        assertEquals(0, new BlockLayout(1, 0).checkBits()); // the key keeps all 64 bits
        assertEquals(0, new BlockLayout(2, 0).checkBits()); // k = 0: the one key keeps all 64 bits
        assertEquals(16, new BlockLayout(2, 1).checkBits());
        assertEquals(28, new BlockLayout(4, 3).maxCheckBits());
        assertEquals(28, new BlockLayout(4, 16).checkBits()); // multi-probe layouts take all they can carry
        assertEquals(16, new BlockLayout(4, 1).maxCheckBits()); // keys of 48 bits leave 16 out
        assertEquals(23, new BlockLayout(10, 5).maxCheckBits()); // 252 keys: 252 * 2^24 would overflow an int
        assertEquals(new BlockLayout(4, 3), new BlockLayout(4, 3, 16));
        assertFalse(new BlockLayout(4, 3).equals(new BlockLayout(4, 3, 0)));
    }

    @Test
    public void testRejectsUnsupportedCheckBits() {
        assertThrows("[check_bits] must be between 0 and 28 for blocks [4] with max_distance [3]", () -> new BlockLayout(4, 3, 29));
        assertThrows("[check_bits] must be between 0 and 28", () -> new BlockLayout(4, 3, -8));
        assertThrows("[check_bits] must be between 0 and 16", () -> new BlockLayout(4, 1, 17));
        assertThrows("[check_bits] must be between 0 and 0", () -> new BlockLayout(1, 0, 8));
    }

    @Test
    public void testRejectsUnsupportedLayouts() {
        assertThrows("[blocks] must be between 1 and 16", () -> new BlockLayout(0, 0));
        assertThrows("[blocks] must be between 1 and 16", () -> new BlockLayout(17, 3));
        assertThrows("[max_distance] must be between 0 and 16", () -> new BlockLayout(4, 17));
        assertThrows("[max_distance] must be between 0 and 16", () -> new BlockLayout(4, -1));
        assertThrows("keys per query", () -> new BlockLayout(3, 16)); // 22-bit blocks: too many variants
        assertThrows("more than the limit of 256", () -> new BlockLayout(16, 8)); // 12870 keys
    }
}
