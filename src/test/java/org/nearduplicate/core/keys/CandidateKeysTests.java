package org.nearduplicate.core.keys;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.Arrays;
import java.util.HexFormat;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

/** Candidate keys of full min-wise values: the guarantee against brute force, exhaustively per group, pinned keys. */
public class CandidateKeysTests extends RandomizedTest {
    private static final int S = CandidateKeys.SLOTS;

    private CandidateKeys randomLayout() {
        int width = randomBoolean() ? 32 : 64;
        return switch (randomIntBetween(0, 3)) {
            case 0 -> CandidateKeys.forMinAgreeing(13, width);
            case 1 -> CandidateKeys.forMinAgreeing(randomIntBetween(3, S), width);
            case 2 -> CandidateKeys.bands(randomFrom(new Integer[] { 1, 2, 4, 8 }), width);
            default -> {
                // random group sizes summing to 32, random slots per key
                int keySlots = randomIntBetween(2, 3);
                int[] sizes = new int[S];
                int n = 0, left = S;
                while (left > 0) {
                    sizes[n] = Math.min(left, randomIntBetween(1, 5));
                    left -= sizes[n++];
                }
                try {
                    yield new CandidateKeys(Arrays.copyOf(sizes, n), keySlots, width);
                } catch (IllegalArgumentException e) {
                    yield CandidateKeys.forMinAgreeing(13, width); // no keys (all groups below keySlots)
                }
            }
        };
    }

    private long[] randomMinima() {
        long[] m = new long[S];
        for (int i = 0; i < S; i++)
            m[i] = randomLong() >>> 1;
        return m;
    }

    /** A document agreeing with {@code a} on exactly the slots of {@code agree}, different elsewhere. */
    private long[] withAgreement(long[] a, boolean[] agree) {
        long[] b = new long[S];
        for (int i = 0; i < S; i++)
            b[i] = agree[i] ? a[i] : (a[i] + 1 + (randomLong() >>> 2)) & Long.MAX_VALUE;
        return b;
    }

    private boolean[] randomAgreement(int f) {
        boolean[] agree = new boolean[S];
        int set = 0;
        while (set < f) {
            int i = randomIntBetween(0, S - 1);
            if (agree[i] == false) {
                agree[i] = true;
                set++;
            }
        }
        return agree;
    }

    /** Brute force: some key all of whose slots agree. */
    private static boolean bruteShare(CandidateKeys keys, boolean[] agree) {
        for (int k = 0; k < keys.keyCount(); k++) {
            boolean all = true;
            for (int s : keys.slotsOf(k))
                all &= agree[s];
            if (all) return true;
        }
        return false;
    }

    private static boolean shareStoredKey(CandidateKeys keys, long[] a, long[] b) {
        byte[] ka = keys.keys(a), kb = keys.keys(b);
        int n = keys.keyBytes();
        for (int k = 0; k < keys.keyCount(); k++)
            if (Arrays.equals(ka, k * n, k * n + n, kb, k * n, k * n + n)) return true;
        return false;
    }

    private static int sharedStoredKeys(CandidateKeys keys, long[] a, long[] b) {
        byte[] ka = keys.keys(a), kb = keys.keys(b);
        int n = keys.keyBytes(), shared = 0;
        for (int k = 0; k < keys.keyCount(); k++)
            if (Arrays.equals(ka, k * n, k * n + n, kb, k * n, k * n + n)) shared++;
        return shared;
    }

    @Test
    public void testGuaranteeAgainstBruteForce() {
        for (int round = 0; round < 300; round++) {
            CandidateKeys keys = randomLayout();
            long[] a = randomMinima();
            int f = randomBoolean() ? randomIntBetween(keys.guaranteedAgreeing(), S) : randomIntBetween(0, S);
            boolean[] agree = randomAgreement(f);
            long[] b = withAgreement(a, agree);
            boolean brute = bruteShare(keys, agree);
            String msg = keys + " f=" + f + " " + Arrays.toString(agree);
            assertEquals(msg, brute, keys.shareKey(a, b));
            // the stored keys agree with the values (a 2^-32 collision would only add a candidate)
            if (brute || keys.width() == 64) assertEquals(msg, brute, shareStoredKey(keys, a, b));
            if (f >= keys.guaranteedAgreeing()) assertTrue(msg, brute);
        }
    }

    /** The default: every one of the 2^32 agreement patterns with 13 or more agreeing slots shares a key. */
    @Test
    public void testEveryPatternOfThirteenSharesAKeyExhaustively() {
        for (int width : new int[] { 32, 64 }) {
            CandidateKeys keys = CandidateKeys.forMinAgreeing(13, width);
            assertEquals(13, keys.guaranteedAgreeing());
            assertEquals(0, exhaustiveMostWithoutKey(keys)[0] - 12);
        }
        for (int m = 5; m <= S; m++) { // 3 and 4 have groups of 16 and 11 slots: 2^16 patterns, slow
            CandidateKeys keys = CandidateKeys.forMinAgreeing(m, 32);
            long[] r = exhaustiveMostWithoutKey(keys);
            assertEquals("m=" + m, keys.guaranteedAgreeing() - 1, r[0]);
            if (m <= 17) assertEquals("m=" + m, m, keys.guaranteedAgreeing());
        }
        for (int r : new int[] { 1, 2, 4, 8 }) {
            CandidateKeys bands = CandidateKeys.bands(r, 64);
            assertEquals(S / r * (r - 1) + 1, bands.guaranteedAgreeing());
            assertEquals(bands.guaranteedAgreeing() - 1, exhaustiveMostWithoutKey(bands)[0]);
        }
    }

    /**
     * Every key's slots lie in one group, so whether a pattern shares a key factorizes over the groups: enumerating each
     * group's 2^size patterns with the real keys covers all 2^32 patterns. Returns the most agreeing slots of a pattern
     * sharing no key, and checks the per-count tally against {@link CandidateKeys#positionsWithoutKey}.
     */
    private long[] exhaustiveMostWithoutKey(CandidateKeys keys) {
        int[] sizes = keys.groupSizes();
        int[] groupOf = new int[S];
        for (int g = 0, s = 0; g < sizes.length; g++)
            for (int i = 0; i < sizes[g]; i++)
                groupOf[s++] = g;
        for (int k = 0; k < keys.keyCount(); k++) {
            int[] slots = keys.slotsOf(k);
            for (int s : slots)
                assertEquals(groupOf[slots[0]], groupOf[s]);
        }
        long[] a = randomMinima();
        long[] poly = new long[S + 1];
        poly[0] = 1;
        long[] fewest = new long[S + 1]; // fewest shared keys by agreeing count, over all patterns so far
        Arrays.fill(fewest, Long.MAX_VALUE);
        fewest[0] = 0;
        long most = 0;
        for (int g = 0, start = 0; g < sizes.length; start += sizes[g++]) {
            long[] noKey = new long[sizes[g] + 1]; // patterns of this group sharing no key, by agreeing count
            long[] groupFewest = new long[sizes[g] + 1];
            Arrays.fill(groupFewest, Long.MAX_VALUE);
            long groupMost = 0;
            for (int pattern = 0; pattern < 1 << sizes[g]; pattern++) {
                boolean[] agree = new boolean[S];
                for (int i = 0; i < sizes[g]; i++)
                    agree[start + i] = (pattern >>> i & 1) != 0;
                long[] b = withAgreement(a, agree);
                boolean shared = shareStoredKey(keys, a, b);
                int count = sharedStoredKeys(keys, a, b);
                assertEquals(count, keys.sharedKeys(a, b, Integer.MAX_VALUE));
                groupFewest[Integer.bitCount(pattern)] = Math.min(groupFewest[Integer.bitCount(pattern)], count);
                assertEquals(bruteShare(keys, agree), shared);
                assertEquals(shared, keys.shareKey(a, b));
                if (shared == false) {
                    noKey[Integer.bitCount(pattern)]++;
                    groupMost = Math.max(groupMost, Integer.bitCount(pattern));
                }
            }
            most += groupMost;
            long[] next = new long[S + 1];
            for (int f = 0; f <= S; f++)
                for (int j = 0; j < noKey.length && f + j <= S; j++)
                    next[f + j] += poly[f] * noKey[j];
            poly = next;
            long[] nextFewest = new long[S + 1];
            Arrays.fill(nextFewest, Long.MAX_VALUE);
            for (int f = 0; f <= S; f++)
                for (int j = 0; j < groupFewest.length && f + j <= S; j++)
                    if (fewest[f] != Long.MAX_VALUE) nextFewest[f + j] = Math.min(nextFewest[f + j], fewest[f] + groupFewest[j]);
            fewest = nextFewest;
        }
        assertArrayEquals(keys.id(), poly, keys.positionsWithoutKey());
        for (int f = 0; f <= S; f++)
            assertEquals(keys.id() + " f=" + f, fewest[f], keys.minSharedKeys(f));
        return new long[] { most };
    }

    @Test
    public void testCountsAndBytes() {
        CandidateKeys pairs = CandidateKeys.forMinAgreeing(13, 32);
        assertArrayEquals(new int[] { 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2 }, pairs.groupSizes());
        assertEquals(28, pairs.keyCount());
        assertEquals(5, pairs.keyBytes());
        assertEquals(140, pairs.bytesPerDocument());
        assertEquals(252, CandidateKeys.forMinAgreeing(13, 64).bytesPerDocument());
        assertEquals("pairs:3x8+2x4,w=32", pairs.id());
        assertEquals(31, CandidateKeys.forMinAgreeing(12, 32).keyCount()); // simhash-v4/v5: 10 groups of 3, 1 of 2
        assertEquals(25, CandidateKeys.forMinAgreeing(14, 32).keyCount());
        CandidateKeys bands = CandidateKeys.bands(2, 64);
        assertEquals(16, bands.keyCount());
        assertEquals(144, bands.bytesPerDocument());
        assertEquals(17, bands.guaranteedAgreeing());
        assertEquals("bands:2x16,w=64", bands.id());
        // the disjoint bands miss C(16,13) * 2^13 / C(32,13) of the pairs agreeing in 13 random slots
        assertEquals(560.0 * 8192 / 347_373_600L, 1 - bands.shareProbability(13), 1e-15);
        assertEquals(1.0, pairs.shareProbability(13), 0);
        // 12 agreeing slots miss only when they fall one in each group: 3^8 * 2^4 / C(32,12)
        assertEquals(6561.0 * 16 / 225_792_840L, 1 - pairs.shareProbability(12), 1e-15);
        assertEquals(0.0, pairs.shareProbability(1), 0);
        assertEquals(28e9 / Math.pow(2, 32), pairs.chanceCandidates(1_000_000_000L), 1e-9);
        assertEquals(3, CandidateKeys.forMinAgreeing(17, 32).keyCount() - 13); // 16 groups of 2
        // verifying only documents sharing s keys stays exact from 12 + s agreeing slots
        for (int s = 1; s <= 12; s++)
            assertEquals(s, pairs.minSharedKeys(12 + s));
        assertEquals(0, pairs.minSharedKeys(12));
        assertEquals(28, pairs.minSharedKeys(32));
    }

    @Test
    public void testPinnedKeys() {
        long[] minima = new long[S];
        for (int i = 0; i < S; i++)
            minima[i] = ((i + 1) * 0x9E3779B97F4A7C15L) >>> 1;
        CandidateKeys k64 = CandidateKeys.forMinAgreeing(13, 64), k32 = CandidateKeys.forMinAgreeing(13, 32);
        assertArrayEquals(new int[] { 0, 1 }, k64.slotsOf(0));
        assertArrayEquals(new int[] { 30, 31 }, k64.slotsOf(27));
        byte[] b64 = k64.keys(minima), b32 = k32.keys(minima);
        HexFormat hex = HexFormat.of();
        assertEquals("004493cda3108b90ea", hex.formatHex(b64, 0, 9));
        assertEquals("1b9ea63afd7876131b", hex.formatHex(b64, 27 * 9, 28 * 9));
        assertEquals("1b9ea63afd", hex.formatHex(b32, 27 * 5, 28 * 5));
        for (int i = 0; i < 28; i++) {
            // a 32-bit key is the 64-bit key's first 5 bytes
            assertArrayEquals(Arrays.copyOfRange(b64, i * 9, i * 9 + 5), Arrays.copyOfRange(b32, i * 5, i * 5 + 5));
            assertEquals(k64.hash(minima, i) >>> 32, k32.hash(minima, i));
        }
        assertArrayEquals(b64, k64.keys(minima.clone()));
    }

    @Test
    public void testRejectsBadLayouts() {
        assertThrows(IllegalArgumentException.class, () -> new CandidateKeys(new int[] { 16, 15 }, 2, 32));
        assertThrows(IllegalArgumentException.class, () -> new CandidateKeys(new int[] { 16, 16 }, 2, 48));
        assertThrows(IllegalArgumentException.class, () -> new CandidateKeys(new int[] { 32 }, 3, 32)); // 4960 keys
        assertThrows(IllegalArgumentException.class, () -> CandidateKeys.forMinAgreeing(2, 32)); // one group: 496 keys
        assertThrows(IllegalArgumentException.class, () -> CandidateKeys.bands(3, 32));
        assertThrows(IllegalArgumentException.class, () -> CandidateKeys.forMinAgreeing(13, 32).keys(new long[31]));
        assertFalse(CandidateKeys.forMinAgreeing(13, 32).shareKey(randomMinima(), randomMinima()));
    }

    /** The layout id an algorithm id carries reads back to the same layout, for every shape; anything else is refused. */
    @Test
    public void testLayoutIdRoundTrip() {
        assertEquals("pairs:3x8+2x4:w32", CandidateKeys.V7.layoutId());
        assertEquals("pairs:3x8+2x4,w=32", CandidateKeys.V7.id());
        assertEquals(org.nearduplicate.core.SimHashSettings.V7_KEYS, CandidateKeys.V7.layoutId());
        assertEquals(28, CandidateKeys.V7.keyCount());
        assertEquals(13, CandidateKeys.V7.guaranteedAgreeing());
        assertEquals(CandidateKeys.V7, CandidateKeys.of(org.nearduplicate.core.SimHashSettings.DEFAULT_V7));
        assertEquals(CandidateKeys.V7, CandidateKeys.of(org.nearduplicate.core.SimHashSettings.DEFAULT));
        assertEquals(null, CandidateKeys.of(org.nearduplicate.core.SimHashSettings.DEFAULT_V6));
        assertEquals("bands:2x16:w64", CandidateKeys.fromLayoutId("bands:2x16:w64").layoutId());
        assertEquals("3-sets:4x8:w32", CandidateKeys.fromLayoutId("3-sets:4x8:w32").layoutId());
        for (int round = 0; round < 50; round++) {
            CandidateKeys layout = randomLayout();
            CandidateKeys read = CandidateKeys.fromLayoutId(layout.layoutId());
            assertEquals(layout.layoutId(), read.layoutId());
            assertArrayEquals(layout.groupSizes(), read.groupSizes());
            assertEquals(layout.keySlots(), read.keySlots());
            assertEquals(layout.width(), read.width());
        }
        for (String bad : new String[] {
            "pairs:3x8+2x4",
            "pairs:3x8+2x4,w=32",
            "pairs:3x8+2x3:w32",
            "pairs:3x8+2x4:w48",
            "triples:4x8:w32",
            "pairs:3x08+2x4:w32",
            "",
            "pairs:3x8++2x4:w32" }) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CandidateKeys.fromLayoutId(bad));
            assertTrue(e.getMessage(), e.getMessage().startsWith("invalid key layout [" + bad + "]"));
        }
    }

    /** The stored form is the keys without their numbers; {@code keysOfPacked} puts them back. */
    @Test
    public void testPackedHashesAreTheKeysWithoutNumbers() {
        for (int round = 0; round < 50; round++) {
            CandidateKeys layout = randomLayout();
            long[] minima = new long[S];
            for (int i = 0; i < S; i++)
                minima[i] = randomLong() >>> 1;
            byte[] packed = layout.packedHashes(minima);
            assertEquals(layout.keyCount() * layout.hashBytes(), packed.length);
            assertArrayEquals(layout.keys(minima), layout.keysOfPacked(packed));
            long[] hashes = layout.hashes(minima);
            for (int k = 0; k < hashes.length; k++) {
                long h = 0;
                for (int b = 0; b < layout.hashBytes(); b++)
                    h = (h << 8) | (packed[k * layout.hashBytes() + b] & 0xFF);
                assertEquals(hashes[k], h);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> CandidateKeys.V7.keysOfPacked(new byte[111]));
    }
}
