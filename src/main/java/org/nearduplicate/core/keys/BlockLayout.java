package org.nearduplicate.core.keys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.nearduplicate.core.options.InvalidOptionException;

/**
 * The pigeonhole index layout of 64-bit fingerprints (Manku, Jain, Das Sarma, WWW 2007).
 *
 * <p>The 64 bits are cut into {@code blocks} contiguous blocks of near-equal width (the first {@code 64 % blocks}
 * blocks get one extra bit). Two fingerprints within Hamming distance {@code k <= maxDistance} differ in at most k
 * blocks, so they agree on at least {@code blocks - maxDistance} blocks: every combination of {@code blocks -
 * maxDistance} blocks becomes one key, and two fingerprints within {@code maxDistance} share at least one key.
 *
 * <p>A key is {@code [combination index (1 byte)][the kept blocks' bits, concatenated, big-endian]}. The
 * combination index makes keys of different combinations distinct, so all keys can live in one indexed field.
 *
 * <p><b>Check bits.</b> Sharing a key only proves agreement on the kept bits: with 16-bit keys, ~N / 65,536 random
 * documents share each key, and reading each one's fingerprint to verify it is a random memory access. So each key
 * can carry {@code checkBits} more bits of the fingerprint, taken from the bits the key does not keep (the index
 * stores them in the key's posting). A candidate whose check bits already differ from the probe's in more than k
 * places is rejected without reading its fingerprint: the check bits are a subset of the bits the key leaves out, so
 * their distance is a lower bound of the full distance and no near-duplicate is ever rejected. The default is the
 * fewest whole bytes that let about 1 % of random candidates through at {@code maxDistance}
 * ({@link #defaultCheckBits}), at most {@link #MAX_CHECK_BITS}.
 *
 * <p><b>Multi-probe: any k up to {@link #MAX_DISTANCE} from one index.</b> When {@code maxDistance >= blocks}, each key
 * is one block, and a query for distance k probes, for block i, every variant of the probe's block within
 * {@code t_i} bits, with thresholds that sum to {@code k + 1 - blocks} (pigeonhole with variable thresholds: Qin et
 * al., "GPH", ICDE 2018; with equal thresholds it is the multi-index hashing of Norouzi, Punjani and Fleet, TPAMI
 * 2014). Exact: if every block i differed in more than {@code t_i} bits, the distance would be at least
 * {@code sum(t_i + 1) = k + 1}. A variant's own distance adds to its check-bit distance, so the posting-level lower
 * bound stays exact. The same probing serves any k up to the layout's {@code maxDistance}: users choose k per query.
 */
public final class BlockLayout {
    public static final int BITS = 64;
    public static final int MAX_BLOCKS = 16;
    /** Bounds the keys per document and the terms per query. */
    public static final int MAX_KEYS = 256;
    /**
     * Check bits are stored as a term frequency ({@code check + 1}), and Lucene sums a document's term frequencies
     * per field into an int: at most 28 bits, and fewer when {@code keys * 2^bits} would not fit.
     */
    public static final int MAX_CHECK_BITS = 28;
    /** The most check bits an exact (non multi-probe) layout takes by default. */
    static final int DEFAULT_MAX_CHECK_BITS = 24;
    /** The largest {@code maxDistance} a layout may promise; beyond, queries scan doc values. */
    public static final int MAX_DISTANCE = 16;
    /** Bounds the keys one query looks up (block variants included). */
    public static final long MAX_PROBE_KEYS = 20_000;

    private final int blocks;
    private final int maxDistance;
    /** Blocks per key. */
    private final int kept;
    private final int[] blockStart;
    private final int[] blockWidth;
    /** For each combination, the indices of the kept blocks, ascending. */
    private final int[][] combinations;
    private final int[] keptBits;
    private final long[] keptMask;
    private final int keyBytes;
    private final int checkBits;
    private final int maxCheckBits;

    /** A layout with the default check bits for {@code maxDistance} ({@link #defaultCheckBits}). */
    public BlockLayout(int blocks, int maxDistance) {
        this(blocks, maxDistance, -1);
    }

    /**
     * @param checkBits fingerprint bits stored with every key to reject candidates early: a multiple of 8, at most the
     *                  bits a key leaves out; {@code -1} for {@link #defaultCheckBits}, {@code 0} for none
     */
    public BlockLayout(int blocks, int maxDistance, int checkBits) {
        if (blocks < 1 || blocks > MAX_BLOCKS) {
            throw new InvalidOptionException("blocks", "must be between 1 and " + MAX_BLOCKS + ", got " + blocks);
        }
        if (maxDistance < 0 || maxDistance > MAX_DISTANCE) {
            throw new InvalidOptionException("max_distance", "must be between 0 and " + MAX_DISTANCE + ", got " + maxDistance);
        }
        // below blocks, keys are combinations of the blocks - max_distance kept blocks and match exactly; from blocks on,
        // keys are single blocks and queries probe block variants (multi-probe)
        int kept = maxDistance < blocks ? blocks - maxDistance : 1;
        long keyCount = binomial(blocks, kept);
        if (keyCount > MAX_KEYS) {
            throw new IllegalArgumentException(
                "blocks ["
                    + blocks
                    + "] with max_distance ["
                    + maxDistance
                    + "] would need "
                    + keyCount
                    + " keys per fingerprint, more than the limit of "
                    + MAX_KEYS
            );
        }
        this.blocks = blocks;
        this.maxDistance = maxDistance;
        this.kept = kept;
        this.blockStart = new int[blocks];
        this.blockWidth = new int[blocks];
        int start = BITS;
        for (int b = 0; b < blocks; b++) {
            blockWidth[b] = BITS / blocks + (b < BITS % blocks ? 1 : 0);
            start -= blockWidth[b];
            blockStart[b] = start; // block 0 holds the most significant bits
        }
        List<int[]> combos = new ArrayList<>();
        choose(blocks, kept, 0, new int[kept], 0, combos);
        this.combinations = combos.toArray(new int[0][]);
        this.keptBits = new int[combinations.length];
        this.keptMask = new long[combinations.length];
        int maxKept = 0;
        for (int c = 0; c < combinations.length; c++) {
            for (int b : combinations[c]) {
                keptBits[c] += blockWidth[b];
                keptMask[c] |= blockMask(b);
            }
            maxKept = Math.max(maxKept, keptBits[c]);
        }
        this.keyBytes = 1 + (maxKept + 7) / 8;
        int limit = Math.min(BITS - maxKept, MAX_CHECK_BITS);
        while (limit > 0 && ((long) combinations.length << limit) > Integer.MAX_VALUE) {
            limit--;
        }
        this.maxCheckBits = limit;
        if (checkBits == -1) {
            // multi-probe layouts take every check bit they can carry: at k = 16 each one halves the doc-value reads;
            // exact layouts keep the fewest whole bytes (at most 24, the defaults their mappings were made with)
            checkBits = maxDistance >= blocks ? limit : defaultCheckBits(maxDistance, Math.min(limit, DEFAULT_MAX_CHECK_BITS));
        } else if (checkBits < 0 || checkBits > limit) {
            throw new IllegalArgumentException(
                "[check_bits] must be between 0 and "
                    + limit
                    + " for blocks ["
                    + blocks
                    + "] with max_distance ["
                    + maxDistance
                    + "] (at most "
                    + MAX_CHECK_BITS
                    + " and the bits a key leaves out), got "
                    + checkBits
            );
        }
        this.checkBits = checkBits;
        long probeKeys = probeKeyCount(maxDistance);
        if (probeKeys > MAX_PROBE_KEYS) {
            throw new IllegalArgumentException(
                "blocks ["
                    + blocks
                    + "] with max_distance ["
                    + maxDistance
                    + "] would look up "
                    + probeKeys
                    + " keys per query, more than the limit of "
                    + MAX_PROBE_KEYS
                    + "; use more blocks or a smaller max_distance"
            );
        }
    }

    /** The largest distance answered by keys that match exactly ({@code blocks - kept}); beyond it, block variants are probed. */
    public int exactDistance() {
        return blocks - kept;
    }

    /**
     * Per combination, how many bits its probed variants may differ from the probe's (-1: not probed) for a query at
     * distance {@code k}. Up to {@link #exactDistance()} every key is probed exactly (thresholds 0); beyond, keys are
     * single blocks and the thresholds sum to {@code k + 1 - blocks}, the larger ones on the first (widest) blocks.
     *
     * @throws IllegalArgumentException if {@code k} exceeds {@link #maxDistance()}
     */
    public int[] probeThresholds(int k) {
        if (k < 0 || k > maxDistance) {
            throw new IllegalArgumentException("distance [" + k + "] is outside the layout's 0.." + maxDistance);
        }
        int[] thresholds = new int[combinations.length];
        if (kept > 1) {
            return thresholds; // combinations of blocks, matched exactly (then k <= maxDistance = exactDistance())
        }
        // single blocks: sum(t_i + 1) = k + 1
        int base = (k + 1) / blocks - 1;
        int extra = (k + 1) % blocks;
        for (int b = 0; b < blocks; b++) {
            thresholds[b] = base + (b < extra ? 1 : 0);
        }
        return thresholds;
    }

    /** The keys a query at distance {@code k} looks up (variants included). */
    public long probeKeyCount(int k) {
        int[] thresholds = probeThresholds(k);
        long total = 0;
        for (int c = 0; c < thresholds.length; c++) {
            for (int d = 0; d <= thresholds[c]; d++) {
                total += binomial(keptBits[c], d);
            }
        }
        return total;
    }

    /** Receives one probed key: its combination, its bytes and how many bits it differs from the probe's own key. */
    @FunctionalInterface
    public interface ProbeKeyConsumer {
        void accept(int combination, byte[] key, int keyDistance);
    }

    /**
     * Every key a query for {@code fingerprint} at distance {@code k} looks up, with its distance from the probe's key:
     * exactly {@link #probeKeyCount} keys, each a fresh array. Every document within {@code k} has at least one of them
     * among its own keys, with at most its distance on the key's bits.
     */
    public void probeKeys(long fingerprint, int k, ProbeKeyConsumer out) {
        probeKeys(fingerprint, probeThresholds(k), out);
    }

    /**
     * The keys within {@code thresholds[c]} bits of the probe's key {@code c} (-1: none of combination c). Exact for
     * distance k when the thresholds satisfy the pigeonhole condition, e.g. {@link #probeThresholds}; other choices
     * (equal thresholds of multi-index hashing) are compared in the benchmark.
     */
    public void probeKeys(long fingerprint, int[] thresholds, ProbeKeyConsumer out) {
        if (thresholds.length != combinations.length) {
            throw new IllegalArgumentException("one threshold per key combination: " + combinations.length + ", got " + thresholds.length);
        }
        for (int c = 0; c < combinations.length; c++) {
            if (thresholds[c] < 0) continue;
            int[] positions = new int[keptBits[c]];
            int p = 0;
            for (int bit = 0; bit < BITS; bit++) {
                if ((keptMask[c] >>> bit & 1L) != 0) positions[p++] = bit;
            }
            for (int d = 0; d <= thresholds[c]; d++) {
                flips(fingerprint, c, positions, d, 0, out, d);
            }
        }
    }

    private void flips(long fingerprint, int c, int[] positions, int remaining, int from, ProbeKeyConsumer out, int distance) {
        if (remaining == 0) {
            byte[] key = new byte[keyBytes];
            key(fingerprint, c, key, 0);
            out.accept(c, key, distance);
            return;
        }
        for (int i = from; i <= positions.length - remaining; i++) {
            flips(fingerprint ^ (1L << positions[i]), c, positions, remaining - 1, i + 1, out, distance);
        }
    }

    /**
     * The fewest whole bytes of check bits that let at most ~1.2 % of random candidates through at distance
     * {@code maxDistance} (the share of random {@code b}-bit strings within {@code maxDistance} of a given one): 16
     * bits for k <= 3, 24 for k <= 6; beyond, the most allowed ({@code maxBits}, 24 unless the layout limits it).
     */
    public static int defaultCheckBits(int maxDistance, int maxBits) {
        for (int bits = 8; bits <= maxBits; bits += 8) {
            double within = 0;
            for (int d = 0; d <= Math.min(maxDistance, bits); d++) {
                within += binomial(bits, d);
            }
            if (within / Math.pow(2, bits) <= 0.012) {
                return bits;
            }
        }
        return maxBits;
    }

    private static void choose(int n, int k, int from, int[] current, int depth, List<int[]> out) {
        if (depth == k) {
            out.add(current.clone());
            return;
        }
        for (int i = from; i <= n - (k - depth); i++) {
            current[depth] = i;
            choose(n, k, i + 1, current, depth + 1, out);
        }
    }

    static long binomial(int n, int k) {
        long r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return r;
    }

    public int blocks() {
        return blocks;
    }

    public int maxDistance() {
        return maxDistance;
    }

    public int keyCount() {
        return combinations.length;
    }

    /** Bytes of every key (the widest combination decides; narrower ones are zero padded). */
    public int keyBytes() {
        return keyBytes;
    }

    /** The bits of block {@code b} as a mask over the fingerprint. */
    public long blockMask(int b) {
        long ones = blockWidth[b] == 64 ? -1L : (1L << blockWidth[b]) - 1;
        return ones << blockStart[b];
    }

    /** The mask of the bits combination {@code c} keeps. */
    public long keptMask(int c) {
        return keptMask[c];
    }

    /** Writes key {@code c} of {@code fingerprint} into {@code dest[offset .. offset + keyBytes())}. */
    public void key(long fingerprint, int c, byte[] dest, int offset) {
        long packed = 0;
        for (int b : combinations[c]) {
            packed = (packed << blockWidth[b]) | ((fingerprint & blockMask(b)) >>> blockStart[b]);
        }
        int valueBytes = keyBytes - 1;
        // left-align the kept bits so that narrower combinations pad at the end
        int shift = valueBytes * 8 - keptBits[c];
        dest[offset] = (byte) c;
        for (int i = valueBytes - 1; i >= 0; i--) {
            long v = shift >= 64 ? 0 : packed << shift;
            dest[offset + 1 + i] = (byte) (v >>> ((valueBytes - 1 - i) * 8));
        }
    }

    /** All keys of a fingerprint, one byte array per combination. */
    public byte[][] keys(long fingerprint) {
        byte[][] keys = new byte[combinations.length][];
        for (int c = 0; c < combinations.length; c++) {
            keys[c] = new byte[keyBytes];
            key(fingerprint, c, keys[c], 0);
        }
        return keys;
    }

    /** Fingerprint bits stored with every key to reject candidates before their fingerprint is read; 0 for none. */
    public int checkBits() {
        return checkBits;
    }

    /** The most check bits this layout's keys can carry (see {@link #MAX_CHECK_BITS}). */
    public int maxCheckBits() {
        return maxCheckBits;
    }

    /**
     * The check value of key {@code c}: the lowest {@code checkBits} of the bits the key leaves out, packed in order.
     * The distance between two fingerprints' check values of the same key is at most their Hamming distance.
     */
    public long check(long fingerprint, int c) {
        if (checkBits == 0) {
            return 0;
        }
        long free = Long.compress(fingerprint, ~keptMask[c]);
        return free & ((1L << checkBits) - 1);
    }

    /** A readable name for combination {@code c}, e.g. {@code b0+b2}. */
    public String combinationName(int c) {
        StringBuilder sb = new StringBuilder();
        for (int b : combinations[c]) {
            if (sb.length() > 0) sb.append('+');
            sb.append('b').append(b);
        }
        return sb.toString();
    }

    /** A key as text for debugging output: {@code b0+b2:3fa0c1}. */
    public String keyToString(byte[] key) {
        StringBuilder sb = new StringBuilder(combinationName(key[0] & 0xFF)).append(':');
        for (int i = 1; i < key.length; i++) {
            sb.append(String.format(Locale.ROOT, "%02x", key[i] & 0xFF));
        }
        return sb.toString();
    }

    /** Width of block b in bits. */
    public int blockWidth(int b) {
        return blockWidth[b];
    }

    /** Stable name of the layout, e.g. {@code 64b/4blocks/k3/check16}. */
    public String id() {
        return BITS + "b/" + blocks + "blocks/k" + maxDistance + "/check" + checkBits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockLayout other && other.blocks == blocks && other.maxDistance == maxDistance && other.checkBits == checkBits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(blocks, maxDistance, checkBits);
    }

    @Override
    public String toString() {
        return id()
            + " ("
            + keyCount()
            + " keys of "
            + keyBytes
            + " bytes, "
            + checkBits
            + " check bits, blocks "
            + Arrays.toString(blockWidth)
            + ")";
    }
}
