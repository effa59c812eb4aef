package org.nearduplicate.opensearch.index.query.simhash;

import java.util.Arrays;
import java.util.Objects;

import org.nearduplicate.core.sketch.Fingerprints;

/**
 * The given value: one {@code fingerprint}, or several {@code fingerprints} (documents within k of any of them; the
 * query only, for {@code near_duplicate_check}'s batches), each with its verification {@code signature(s)} when made
 * by an algorithm that has them, and its candidate {@code keys} when made by one that has them ({@code simhash-v7}:
 * the packed hashes of {@code core.keys.StoredKeys}, one per fingerprint in {@code fingerprintKeys}). The parser may
 * collect both forms, which the probe refuses.
 */
record GivenFingerprints(Long fingerprint, long[] fingerprints, byte[] signature, byte[][] signatures, byte[] keys,
    byte[][] fingerprintKeys) {
    GivenFingerprints(Long fingerprint, long[] fingerprints) {
        this(fingerprint, fingerprints, null, null);
    }

    GivenFingerprints(Long fingerprint, long[] fingerprints, byte[] signature, byte[][] signatures) {
        this(fingerprint, fingerprints, signature, signatures, null, null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GivenFingerprints that
            && Objects.equals(fingerprint, that.fingerprint)
            && Arrays.equals(fingerprints, that.fingerprints)
            && Arrays.equals(signature, that.signature)
            && Arrays.deepEquals(signatures, that.signatures)
            && Arrays.equals(keys, that.keys)
            && Arrays.deepEquals(fingerprintKeys, that.fingerprintKeys);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
            fingerprint,
            Arrays.hashCode(fingerprints),
            Arrays.hashCode(signature),
            Arrays.deepHashCode(signatures),
            Arrays.hashCode(keys),
            Arrays.deepHashCode(fingerprintKeys)
        );
    }

    @Override
    public String toString() {
        String sig = signature != null || signatures != null ? " (signed)" : "";
        String keyed = keys != null || fingerprintKeys != null ? " (keys)" : "";
        return (fingerprint != null ? Fingerprints.toHex(fingerprint) : fingerprints.length + " fingerprints") + sig + keyed;
    }
}
