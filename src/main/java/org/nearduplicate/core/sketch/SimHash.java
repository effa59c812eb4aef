package org.nearduplicate.core.sketch;

import java.util.Arrays;

/**
 * What {@link SimHasher} makes of one input: the 64-bit fingerprint and, from {@code simhash-v4}, the verification
 * {@link Signature} of the same features (null for older versions and for fingerprints made outside the plugin).
 */
public record SimHash(long fingerprint, byte[] signature) {
    public SimHash {
        if (signature != null && signature.length != Signature.BYTES) {
            throw new IllegalArgumentException("a signature has " + Signature.BYTES + " bytes, got " + signature.length);
        }
    }

    /** A bare fingerprint, without signature. */
    public static SimHash of(long fingerprint) {
        return new SimHash(fingerprint, null);
    }

    public boolean hasSignature() {
        return signature != null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimHash s && s.fingerprint == fingerprint && Arrays.equals(s.signature, signature);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(fingerprint) * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return Fingerprints.toHex(fingerprint) + (signature == null ? "" : "/" + Signature.toHex(signature));
    }
}
