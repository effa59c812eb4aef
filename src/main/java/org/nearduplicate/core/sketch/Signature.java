package org.nearduplicate.core.sketch;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The verification signature of {@code simhash-v4}: a b-bit MinHash (Li and König, WWW 2010) of the same features as
 * the fingerprint, {@link #SLOTS} minima of {@link #BITS} bits each, {@value #BYTES} bytes. The 64-bit fingerprint
 * finds candidates (block keys or a scan); the signature estimates the Jaccard similarity of the two feature sets,
 * which chance collisions of the 64-bit sketch do not have (issue 25: 90 % of the unrelated pairs within distance 15
 * estimate below 0.14). Chosen on the public corpus against 256-bit SimHash and other b-bit shapes of the same size
 * (docs/engine.md, "Verified match").
 *
 * <p>Slot i of a document holds the low 8 bits of {@code mix(min over its features f of mix(h(f) xor C*(i+1)) >>> 1)},
 * with {@code h} the feature's 64-bit hash (the fingerprint's) and {@code mix} MurmurHash3's 64-bit finalizer: every
 * slot is an independent min-wise hash; the last mix makes the kept bits uniform. Fixed by the algorithm version.
 */
public final class Signature {
    public static final int SLOTS = 32;
    public static final int BITS = 8;
    public static final int BYTES = SLOTS * BITS / 8;
    /** Two unrelated slots agree by chance with probability 2^-b. */
    private static final double CHANCE = 1.0 / (1 << BITS);
    private static final long SLOT_SEED = 0x632BE59BD9B4E019L;

    private Signature() {}

    /** Min-wise state of one document: add every feature's hash, then {@link #finish}. */
    public static long[] newMinima() {
        long[] minima = new long[SLOTS];
        Arrays.fill(minima, Long.MAX_VALUE);
        return minima;
    }

    /** Folds one feature's 64-bit hash into the minima (the same feature twice changes nothing: a set, not a bag). */
    public static void add(long[] minima, long featureHash) {
        for (int i = 0; i < SLOTS; i++) {
            long v = mix(featureHash ^ (SLOT_SEED * (i + 1))) >>> 1;
            if (v < minima[i]) minima[i] = v;
        }
    }

    /** The signature of the minima ({@link #BYTES} bytes). */
    public static byte[] finish(long[] minima) {
        byte[] signature = new byte[BYTES];
        for (int i = 0; i < SLOTS; i++)
            signature[i] = (byte) mix(minima[i]);
        return signature;
    }

    /** The signature of a set of feature hashes. */
    public static byte[] of(long... featureHashes) {
        long[] minima = newMinima();
        for (long h : featureHashes)
            add(minima, h);
        return finish(minima);
    }

    /** How many of the {@link #SLOTS} slots of two signatures agree. */
    public static int agreeingSlots(byte[] a, int aOffset, byte[] b, int bOffset) {
        int same = 0;
        for (int i = 0; i < SLOTS; i++)
            if (a[aOffset + i] == b[bOffset + i]) same++;
        return same;
    }

    /**
     * The estimated Jaccard similarity of the two feature sets, {@code (agreeing / SLOTS - 2^-b) / (1 - 2^-b)} clipped to
     * [0, 1]: agreeing slots corrected for the ones that agree by chance.
     */
    public static double similarity(byte[] a, byte[] b) {
        check(a);
        check(b);
        return similarity(agreeingSlots(a, 0, b, 0));
    }

    /** The estimate for {@code agreeing} slots. */
    public static double similarity(int agreeing) {
        double estimate = ((double) agreeing / SLOTS - CHANCE) / (1 - CHANCE);
        return Math.max(0, Math.min(1, estimate));
    }

    /**
     * The fewest agreeing slots whose estimate reaches {@code minSimilarity}: a match needs at least this many, so the
     * comparison is an integer test, the same on every platform.
     */
    public static int minAgreeing(double minSimilarity) {
        for (int agreeing = 0; agreeing <= SLOTS; agreeing++)
            if (similarity(agreeing) >= minSimilarity) return agreeing;
        return SLOTS + 1;
    }

    /** Whether two signatures agree on at least {@code minAgreeing} slots, stopping as soon as the answer is known. */
    public static boolean agreesOnAtLeast(byte[] a, byte[] b, int bOffset, int minAgreeing) {
        int same = 0, left = SLOTS;
        for (int i = 0; i < SLOTS; i++, left--) {
            if (same >= minAgreeing) return true;
            if (same + left < minAgreeing) return false;
            if (a[i] == b[bOffset + i]) same++;
        }
        return same >= minAgreeing;
    }

    /** 64 lower-case hex digits. */
    public static String toHex(byte[] signature) {
        check(signature);
        return HexFormat.of().formatHex(signature);
    }

    /**
     * Parses {@link #toHex}'s form (ASCII hex only, either case).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static byte[] parse(String hex) {
        if (hex == null) throw new IllegalArgumentException("signature must not be null");
        String s = hex.trim();
        if (s.length() != BYTES * 2) {
            throw new IllegalArgumentException(
                "invalid signature [" + abbreviate(hex) + "]: expected " + BYTES * 2 + " hex digits, got " + s.length()
            );
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean hexDigit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (hexDigit == false) {
                throw new IllegalArgumentException("invalid signature [" + abbreviate(hex) + "]: [" + c + "] is not a hex digit");
            }
        }
        return HexFormat.of().parseHex(s);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    private static void check(byte[] signature) {
        if (signature == null || signature.length != BYTES) {
            throw new IllegalArgumentException("a signature has " + BYTES + " bytes");
        }
    }

    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
