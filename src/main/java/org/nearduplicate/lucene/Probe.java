package org.nearduplicate.lucene;

import java.util.Arrays;

/**
 * One probe of a verified {@link SimHashQuery}: a fingerprint, its signature (null: none) and its candidate keys
 * (null: none; the concatenated key bytes of {@code core.keys.CandidateKeys#keys}).
 */
record Probe(long fingerprint, byte[] signature, byte[] keys) {

    /** Distinct (fingerprint, signature) pairs, by fingerprint then signature. */
    static Probe[] distinctSorted(long[] fingerprints, byte[][] signatures) {
        return distinctSorted(fingerprints, signatures, null);
    }

    /**
     * Distinct (fingerprint, signature, keys) triples, by fingerprint, then signature, then keys; {@code keys} null:
     * none for any probe.
     */
    static Probe[] distinctSorted(long[] fingerprints, byte[][] signatures, byte[][] keys) {
        Probe[] probes = new Probe[fingerprints.length];
        for (int i = 0; i < probes.length; i++) {
            byte[] k = keys == null || keys[i] == null ? null : keys[i].clone();
            probes[i] = new Probe(fingerprints[i], signatures[i] == null ? null : signatures[i].clone(), k);
        }
        Arrays.sort(probes, (a, b) -> {
            if (a.fingerprint != b.fingerprint) return Long.compare(a.fingerprint, b.fingerprint);
            int c = Arrays.compare(a.signature, b.signature);
            return c != 0 ? c : Arrays.compare(a.keys, b.keys);
        });
        int n = 0;
        for (int i = 0; i < probes.length; i++) {
            if (n == 0
                || probes[i].fingerprint != probes[n - 1].fingerprint
                || Arrays.equals(probes[i].signature, probes[n - 1].signature) == false
                || Arrays.equals(probes[i].keys, probes[n - 1].keys) == false) {
                probes[n++] = probes[i];
            }
        }
        return Arrays.copyOf(probes, n);
    }

    /** Distinct and sorted, without boxing (a probe may hold a million fingerprints). */
    static long[] distinctSorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[n - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return n == sorted.length ? sorted : Arrays.copyOf(sorted, n);
    }
}
