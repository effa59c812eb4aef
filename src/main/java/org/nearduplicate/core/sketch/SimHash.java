package org.nearduplicate.core.sketch;

import java.util.Arrays;

/**
 * What {@link SimHasher} makes of one input: the 64-bit fingerprint and, from {@code simhash-v4}, the verification
 * {@link Signature} of the same features (null for older versions and for fingerprints made outside the plugin). From
 * {@code simhash-v7} (or from {@link SimHasher#sketchWithMinima}) also the {@link Signature#SLOTS} full min-wise values
 * the signature is cut from, which the candidate keys are made of ({@code core.keys.StoredKeys}); null otherwise. They
 * exist only while a document is signed: a sketch read back from a document or a request has none.
 */
public record SimHash(long fingerprint, byte[] signature, long[] minima) {
    public SimHash {
        if (signature != null && signature.length != Signature.BYTES) {
            throw new IllegalArgumentException("a signature has " + Signature.BYTES + " bytes, got " + signature.length);
        }
        if (minima != null && (signature == null || minima.length != Signature.SLOTS)) {
            throw new IllegalArgumentException("min-wise values come with a signature, " + Signature.SLOTS + " of them");
        }
    }

    /** A fingerprint and its signature (or null), without min-wise values. */
    public SimHash(long fingerprint, byte[] signature) {
        this(fingerprint, signature, null);
    }

    /** A bare fingerprint, without signature. */
    public static SimHash of(long fingerprint) {
        return new SimHash(fingerprint, null);
    }

    public boolean hasSignature() {
        return signature != null;
    }

    public boolean hasMinima() {
        return minima != null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimHash s
            && s.fingerprint == fingerprint
            && Arrays.equals(s.signature, signature)
            && Arrays.equals(s.minima, minima);
    }

    @Override
    public int hashCode() {
        int h = Long.hashCode(fingerprint) * 31 + Arrays.hashCode(signature);
        return minima == null ? h : h * 31 + Arrays.hashCode(minima); // as before min-wise values for the others
    }

    @Override
    public String toString() {
        return Fingerprints.toHex(fingerprint) + (signature == null ? "" : "/" + Signature.toHex(signature));
    }
}
