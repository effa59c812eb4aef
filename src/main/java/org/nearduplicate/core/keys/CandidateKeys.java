package org.nearduplicate.core.keys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Signature;

/**
 * Index keys that find the candidates of the verified match from a document's FULL min-wise values
 * ({@link FullMinima}: the {@link Signature#SLOTS} 63-bit minima the 8-bit signature is cut from), not from the 64-bit
 * fingerprint, whose block keys cannot serve its distance 16.
 *
 * <p><b>Layout.</b> The slots are cut into groups of consecutive slots; each group gives one key per subset of
 * {@code keySlots} of its slots (a group smaller than that gives none). Two shapes are worth having:
 * <ul>
 *   <li>{@link #forMinAgreeing pair groups}: {@code keySlots = 2} and {@code minAgreeing - 1} groups as equal as
 *   possible; for 13 slots 8 groups of 3 and 4 of 2, 8 × 3 + 4 × 1 = 28 keys;</li>
 *   <li>{@link #bands disjoint bands}: groups of {@code keySlots} slots, one key each (LSH banding).</li>
 * </ul>
 *
 * <p><b>Guarantee.</b> Two documents whose full values agree in at least {@link #guaranteedAgreeing()} slots share a
 * key (up to collisions of the key hash, which only add candidates): without a shared key a group holds at most
 * {@code keySlots - 1} agreeing slots (all of its slots if it is smaller), and these maxima sum to one less. For pair
 * groups that is {@code minAgreeing}: every pair with {@code minAgreeing} agreeing full values shares a key. With
 * keys of two slots this is the fewest keys that can promise it (a key set is a graph on the slots whose independent
 * sets must stay below {@code minAgreeing}; by Turán's theorem the complement of the balanced complete multipartite
 * graph, i.e. disjoint cliques of near-equal size, has the fewest edges). Below the guarantee a pair whose agreeing
 * slots fall at random positions shares a key with {@link #shareProbability}.
 *
 * <p>What the guarantee does not cover: a verified match counts agreeing 8-bit slots, and an 8-bit slot also agrees by
 * chance (2^-8) where the full values differ, so a verified pair may have fewer agreeing full values than the
 * threshold; it is then found unless its agreeing full values fall in distinct groups (for 12 values of 13, 4.6e-4
 * of the positions; bench/results/RESULTS-candidate-keys.md measures it).
 *
 * <p><b>Candidates.</b> Unrelated documents of one language share single full values (common features) far more often
 * than keys collide: on the public corpus 3e-3 of the unrelated pairs share a pair-group key, against
 * {@code keys / 2^width} by collision. A probe that verifies only documents sharing at least s keys
 * ({@link #sharedKeys}, {@link #minSharedKeys}) stays exact from 12 + s agreeing values for 13-slot pair groups and
 * verifies 24 times fewer unrelated documents at s = 2.
 *
 * <p><b>Keys.</b> Key i is {@code [i (1 byte)][hash (width / 8 bytes, big-endian)]}, the hash being XXH3-64 (seed 0)
 * of its slot numbers (1 byte each) followed by its slots' full values (8 bytes each, big-endian), cut to its upper
 * {@code width} bits: a 32-bit key is a prefix of the 64-bit one. The leading key number keeps keys of different
 * positions apart, so an unrelated document shares a key by hash collision alone with probability about
 * {@code keys / 2^width} ({@link #chanceCandidates}). Fixed for stored keys: changing it changes every key.
 *
 * <p>Immutable and thread-safe.
 */
public final class CandidateKeys {
    public static final int SLOTS = Signature.SLOTS;
    /** The key number is one byte. */
    public static final int MAX_KEYS = 255;
    private static final Hasher64 HASH = Hashing.xxh3_64(0L);
    /** {@code simhash-v7}'s keys ({@link SimHashSettings#V7_KEYS}): pair groups for 13 agreeing slots, 32-bit hashes. */
    public static final CandidateKeys V7 = forMinAgreeing(13, 32);

    private final int[] groupSizes;
    private final int keySlots;
    private final int width;
    /** For each key, its slots, ascending. */
    private final int[][] keys;
    private final int guaranteedAgreeing;

    /**
     * @param groupSizes the sizes of consecutive groups of slots, summing to {@link #SLOTS}
     * @param keySlots   slots per key (1 to 8)
     * @param width      key hash bits: 32 or 64
     */
    public CandidateKeys(int[] groupSizes, int keySlots, int width) {
        if (width != 32 && width != 64) throw new IllegalArgumentException("width must be 32 or 64, got " + width);
        if (keySlots < 1 || keySlots > 8) throw new IllegalArgumentException("keySlots must be 1..8, got " + keySlots);
        int sum = 0;
        for (int size : groupSizes) {
            if (size < 1) throw new IllegalArgumentException("group sizes must be positive: " + Arrays.toString(groupSizes));
            sum += size;
        }
        if (sum != SLOTS) throw new IllegalArgumentException("group sizes must sum to " + SLOTS + ": " + Arrays.toString(groupSizes));
        List<int[]> all = new ArrayList<>();
        int start = 0, most = 0;
        for (int size : groupSizes) {
            if (size >= keySlots) subsets(start, size, keySlots, 0, new int[keySlots], 0, all);
            most += Math.min(size, keySlots - 1);
            start += size;
        }
        if (all.isEmpty() || all.size() > MAX_KEYS) {
            throw new IllegalArgumentException("the layout gives " + all.size() + " keys, must be 1.." + MAX_KEYS);
        }
        this.groupSizes = groupSizes.clone();
        this.keySlots = keySlots;
        this.width = width;
        this.keys = all.toArray(new int[0][]);
        this.guaranteedAgreeing = most + 1;
    }

    /**
     * Pair groups for a match of at least {@code minAgreeing} agreeing slots: {@code minAgreeing - 1} groups (at most
     * {@code SLOTS / 2}, so that every group holds a pair), sizes as equal as possible, the larger ones first.
     */
    public static CandidateKeys forMinAgreeing(int minAgreeing, int width) {
        if (minAgreeing < 3 || minAgreeing > SLOTS) {
            throw new IllegalArgumentException("minAgreeing must be 3.." + SLOTS + ", got " + minAgreeing);
        }
        int groups = Math.min(minAgreeing - 1, SLOTS / 2);
        int[] sizes = new int[groups];
        for (int g = 0; g < groups; g++)
            sizes[g] = SLOTS / groups + (g < SLOTS % groups ? 1 : 0);
        return new CandidateKeys(sizes, 2, width);
    }

    /** Disjoint bands of {@code slotsPerBand} consecutive slots, one key each (a dividing band size). */
    public static CandidateKeys bands(int slotsPerBand, int width) {
        if (slotsPerBand < 1 || SLOTS % slotsPerBand != 0) {
            throw new IllegalArgumentException("slotsPerBand must divide " + SLOTS + ", got " + slotsPerBand);
        }
        int[] sizes = new int[SLOTS / slotsPerBand];
        Arrays.fill(sizes, slotsPerBand);
        return new CandidateKeys(sizes, slotsPerBand, width);
    }

    private static void subsets(int start, int size, int k, int from, int[] chosen, int depth, List<int[]> out) {
        if (depth == k) {
            out.add(chosen.clone());
            return;
        }
        for (int i = from; i <= size - (k - depth); i++) {
            chosen[depth] = start + i;
            subsets(start, size, k, i + 1, chosen, depth + 1, out);
        }
    }

    public int keyCount() {
        return keys.length;
    }

    /** Bytes of one key: the key number and the hash. */
    public int keyBytes() {
        return 1 + width / 8;
    }

    /** Raw key bytes of one document (the index adds its own per-term and per-posting costs). */
    public int bytesPerDocument() {
        return keyCount() * keyBytes();
    }

    public int width() {
        return width;
    }

    public int keySlots() {
        return keySlots;
    }

    public int[] groupSizes() {
        return groupSizes.clone();
    }

    /** The slots of key {@code i}, ascending. */
    public int[] slotsOf(int i) {
        return keys[i].clone();
    }

    /** Documents whose full values agree in at least this many slots always share a key. */
    public int guaranteedAgreeing() {
        return guaranteedAgreeing;
    }

    /**
     * Key i's hash: XXH3-64 of its slot numbers and full values, cut to the upper {@link #width} bits (a 32-bit hash is
     * returned in the low 32 bits, zero-extended).
     *
     * @param minima the document's {@link #SLOTS} full min-wise values
     */
    public long hash(long[] minima, int i) {
        checkMinima(minima);
        return hashUnchecked(minima, i, new byte[keySlots * 9]);
    }

    /** Every key's {@link #hash}, by key number. */
    public long[] hashes(long[] minima) {
        checkMinima(minima);
        byte[] buf = new byte[keySlots * 9];
        long[] out = new long[keys.length];
        for (int i = 0; i < keys.length; i++)
            out[i] = hashUnchecked(minima, i, buf);
        return out;
    }

    /** Every key's bytes, concatenated: key i at offset {@code i * keyBytes()}. */
    public byte[] keys(long[] minima) {
        long[] h = hashes(minima);
        int kb = keyBytes();
        byte[] out = new byte[keys.length * kb];
        for (int i = 0; i < keys.length; i++) {
            int p = i * kb;
            out[p] = (byte) i;
            for (int b = 0; b < kb - 1; b++)
                out[p + 1 + b] = (byte) (h[i] >>> (8 * (kb - 2 - b)));
        }
        return out;
    }

    private long hashUnchecked(long[] minima, int i, byte[] buf) {
        int[] slots = keys[i];
        int p = 0;
        for (int s : slots)
            buf[p++] = (byte) s;
        for (int s : slots) {
            long v = minima[s];
            for (int b = 56; b >= 0; b -= 8)
                buf[p++] = (byte) (v >>> b);
        }
        long h = HASH.hashBytesToLong(buf);
        return width == 64 ? h : h >>> 32;
    }

    /** Whether some key's slots all agree: what sharing a key means, without the hash's collisions. */
    public boolean shareKey(long[] a, long[] b) {
        return sharedKeys(a, b, 1) > 0;
    }

    /** How many keys' slots all agree, counting up to {@code atMost} (see {@link #minSharedKeys}). */
    public int sharedKeys(long[] a, long[] b, int atMost) {
        checkMinima(a);
        checkMinima(b);
        int shared = 0;
        for (int k = 0; k < keys.length && shared < atMost; k++) {
            boolean same = true;
            for (int i = 0; i < keys[k].length && same; i++)
                same = a[keys[k][i]] == b[keys[k][i]];
            if (same) shared++;
        }
        return shared;
    }

    /**
     * The probability that two documents whose full values agree in exactly {@code agreeing} slots, at positions
     * uniformly random among the {@code C(SLOTS, agreeing)}, share a key: 1 minus the share of positions that leave
     * every group below {@code keySlots} agreeing slots.
     */
    public double shareProbability(int agreeing) {
        if (agreeing < 0 || agreeing > SLOTS) throw new IllegalArgumentException("agreeing must be 0.." + SLOTS);
        return 1 - (double) positionsWithoutKey()[agreeing] / binomial(SLOTS, agreeing);
    }

    /** Element f: how many sets of f agreeing slots share no key (coefficients of a product over the groups). */
    long[] positionsWithoutKey() {
        long[] poly = new long[SLOTS + 1];
        poly[0] = 1;
        for (int size : groupSizes) {
            long[] next = new long[SLOTS + 1];
            int most = Math.min(size, keySlots - 1);
            for (int f = 0; f <= SLOTS; f++) {
                if (poly[f] == 0) continue;
                for (int j = 0; j <= most && f + j <= SLOTS; j++)
                    next[f + j] += poly[f] * binomial(size, j);
            }
            poly = next;
        }
        return poly;
    }

    /**
     * The fewest keys two documents whose full values agree in {@code agreeing} slots share, whatever the positions:
     * the agreeing slots spread as evenly over the groups as their sizes allow. So a probe that verifies only documents
     * sharing at least {@code s} of its keys still finds every document agreeing in the smallest {@code agreeing} with
     * {@code minSharedKeys(agreeing) >= s}: for pair groups of 13, {@code 12 + s} slots (12 groups: one slot each, then
     * one more per doubled group).
     */
    public int minSharedKeys(int agreeing) {
        if (agreeing < 0 || agreeing > SLOTS) throw new IllegalArgumentException("agreeing must be 0.." + SLOTS);
        long[] best = new long[SLOTS + 1]; // best[f]: fewest shared keys over the groups so far with f agreeing slots
        Arrays.fill(best, Long.MAX_VALUE);
        best[0] = 0;
        for (int size : groupSizes) {
            long[] next = new long[SLOTS + 1];
            Arrays.fill(next, Long.MAX_VALUE);
            for (int f = 0; f <= SLOTS; f++) {
                if (best[f] == Long.MAX_VALUE) continue;
                for (int j = 0; j <= size && f + j <= SLOTS; j++)
                    next[f + j] = Math.min(next[f + j], best[f] + binomial(j, keySlots));
            }
            best = next;
        }
        return (int) best[agreeing];
    }

    static long binomial(int n, int k) {
        if (k > n) return 0;
        long r = 1;
        for (int i = 1; i <= k; i++)
            r = r * (n - k + i) / i;
        return r;
    }

    /**
     * The expected number of documents among {@code documents} unrelated ones that share a key with a probe by a
     * collision of the key hash alone: {@code keyCount × documents / 2^width}.
     */
    public double chanceCandidates(long documents) {
        return keyCount() * (double) documents / Math.pow(2, width);
    }

    /** E.g. {@code pairs:3x8+2x4,w=32} (group sizes x counts) or {@code bands:2x16,w=64} (slots x bands). */
    public String id() {
        return shape() + ",w=" + width;
    }

    /**
     * The layout as an algorithm id names it (no comma, which separates the id's parameters): {@link #id()} with
     * {@code :w} for the width, e.g. {@code pairs:3x8+2x4:w32}. {@link #fromLayoutId} reads it back.
     */
    public String layoutId() {
        return shape() + ":w" + width;
    }

    /**
     * The layout of a {@link #layoutId()}: {@code pairs:<size>x<count>+...:w<width>}, {@code <k>-sets:...:w<width>} or
     * {@code bands:<slots>x<bands>:w<width>}.
     *
     * @throws IllegalArgumentException naming the id, for anything else
     */
    public static CandidateKeys fromLayoutId(String layoutId) {
        if (SimHashSettings.V7_KEYS.equals(layoutId)) return V7;
        try {
            int colon = layoutId.indexOf(':'), w = layoutId.lastIndexOf(":w");
            String kind = layoutId.substring(0, colon);
            int width = Integer.parseInt(layoutId.substring(w + 2));
            List<Integer> sizes = new ArrayList<>();
            for (String part : layoutId.substring(colon + 1, w).split("\\+", -1)) {
                int x = part.indexOf('x');
                int size = Integer.parseInt(part.substring(0, x)), count = Integer.parseInt(part.substring(x + 1));
                if (count < 1 || count > SLOTS) throw new IllegalArgumentException("bad count " + count);
                for (int i = 0; i < count; i++)
                    sizes.add(size);
            }
            int keySlots;
            if (kind.equals("pairs")) keySlots = 2;
            else if (kind.equals("bands") && sizes.size() > 0) keySlots = sizes.get(0);
            else if (kind.endsWith("-sets")) keySlots = Integer.parseInt(kind.substring(0, kind.length() - 5));
            else throw new IllegalArgumentException("unknown kind [" + kind + "]");
            CandidateKeys keys = new CandidateKeys(sizes.stream().mapToInt(Integer::intValue).toArray(), keySlots, width);
            if (keys.layoutId().equals(layoutId) == false) throw new IllegalArgumentException("not canonical");
            return keys;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid key layout [" + layoutId + "]: " + e.getMessage(), e);
        }
    }

    /** The keys a SimHash algorithm's values carry ({@link SimHashSettings#candidateKeys()}); null for none. */
    public static CandidateKeys of(SimHashSettings settings) {
        return settings.hasCandidateKeys() ? fromLayoutId(settings.candidateKeys()) : null;
    }

    /** Bytes of one key's hash ({@code width / 8}): a stored key is its hash alone, the key number being its position. */
    public int hashBytes() {
        return width / 8;
    }

    /**
     * Every key's hash, big-endian, by key number ({@link #keyCount()} x {@link #hashBytes()} bytes): the stored form
     * ({@link StoredKeys}), without the key numbers that {@link #keys(long[])} puts in front.
     */
    public byte[] packedHashes(long[] minima) {
        long[] h = hashes(minima);
        int hb = hashBytes();
        byte[] out = new byte[h.length * hb];
        for (int i = 0; i < h.length; i++)
            for (int b = 0; b < hb; b++)
                out[i * hb + b] = (byte) (h[i] >>> (8 * (hb - 1 - b)));
        return out;
    }

    /**
     * The keys of {@link #packedHashes} ({@link #keys(long[])}'s bytes: key i at {@code i * keyBytes()}, its number
     * first), e.g. for the index terms of a stored value.
     *
     * @throws IllegalArgumentException if {@code packed} is not {@link #keyCount()} x {@link #hashBytes()} bytes
     */
    public byte[] keysOfPacked(byte[] packed) {
        int hb = hashBytes();
        if (packed == null || packed.length != keys.length * hb) {
            throw new IllegalArgumentException("expected " + keys.length * hb + " bytes of key hashes");
        }
        byte[] out = new byte[keys.length * keyBytes()];
        for (int i = 0; i < keys.length; i++) {
            out[i * (hb + 1)] = (byte) i;
            System.arraycopy(packed, i * hb, out, i * (hb + 1) + 1, hb);
        }
        return out;
    }

    /** The group shape of {@link #id()}, without the width. */
    private String shape() {
        StringBuilder sb = new StringBuilder();
        if (isBands()) sb.append("bands:").append(keySlots).append('x').append(groupSizes.length);
        else {
            sb.append(keySlots == 2 ? "pairs:" : keySlots + "-sets:");
            for (int i = 0, j; i < groupSizes.length; i = j) {
                for (j = i; j < groupSizes.length && groupSizes[j] == groupSizes[i]; j++) {
                }
                sb.append(i > 0 ? "+" : "").append(groupSizes[i]).append('x').append(j - i);
            }
        }
        return sb.toString();
    }

    private boolean isBands() {
        for (int size : groupSizes)
            if (size != keySlots) return false;
        return true;
    }

    @Override
    public String toString() {
        return id();
    }

    private static void checkMinima(long[] minima) {
        if (minima == null || minima.length != SLOTS) {
            throw new IllegalArgumentException("expected " + SLOTS + " full min-wise values");
        }
    }
}
