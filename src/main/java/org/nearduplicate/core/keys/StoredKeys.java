package org.nearduplicate.core.keys;

import java.util.Base64;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SketchValues;

/**
 * The candidate keys as the {@code simhash} processor stores them next to the fingerprint and signature
 * ({@link SketchValues#KEYS}, from {@code simhash-v7}): every key's hash, big-endian, by key number
 * ({@link CandidateKeys#packedHashes}), in base64 (standard alphabet, padded, as MinHash signatures). The key number is
 * the position and the layout is the algorithm id's, so neither is stored: for {@code pairs:3x8+2x4:w32} 28 x 4 = 112
 * bytes, 152 base64 characters (about 160 bytes of {@code _source} with the key), against 188 for the 140 key bytes
 * with their numbers. {@link CandidateKeys#keysOfPacked} gives the index keys back.
 */
public final class StoredKeys {
    private StoredKeys() {}

    /** The stored form of the keys of {@code minima} under {@code layout}. */
    public static String encode(CandidateKeys layout, long[] minima) {
        return Base64.getEncoder().encodeToString(layout.packedHashes(minima));
    }

    /**
     * The stored keys of a sketch made with {@code settings}: null for a version without keys.
     *
     * @throws IllegalArgumentException if the version has keys but the sketch has no min-wise values (read back, not signed)
     */
    public static String of(SimHashSettings settings, SimHash sketch) {
        CandidateKeys layout = CandidateKeys.of(settings);
        if (layout == null) return null;
        if (sketch.hasMinima() == false) {
            throw new IllegalArgumentException(settings.algorithmId() + " needs the sketch's min-wise values for its keys");
        }
        return encode(layout, sketch.minima());
    }

    /**
     * Reads a stored value back: a base64 string of exactly {@code layout.keyCount() x layout.hashBytes()} bytes.
     *
     * @return the packed hashes ({@link CandidateKeys#packedHashes}'s form)
     * @throws IllegalArgumentException naming {@link SketchValues#KEYS} and what is wrong (null, not a string, not base64,
     *                                  wrong length)
     */
    public static byte[] parse(CandidateKeys layout, Object value) {
        String name = "[" + SketchValues.KEYS + "]";
        if (value == null) throw new IllegalArgumentException(name + " must not be null");
        if (value instanceof String == false) {
            throw new IllegalArgumentException(name + " must be a base64 string, got [" + value.getClass().getSimpleName() + "]");
        }
        String s = ((String) value).trim();
        byte[] packed;
        try {
            packed = Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid " + name + " [" + abbreviate(s) + "]: not base64 (" + e.getMessage() + ")", e);
        }
        int expected = layout.keyCount() * layout.hashBytes();
        if (packed.length != expected) {
            throw new IllegalArgumentException(
                "invalid "
                    + name
                    + " ["
                    + abbreviate(s)
                    + "]: expected "
                    + expected
                    + " bytes ("
                    + layout.keyCount()
                    + " keys of "
                    + layout.hashBytes()
                    + " bytes, layout "
                    + layout.layoutId()
                    + "), got "
                    + packed.length
            );
        }
        return packed;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
