package org.nearduplicate.lucene;

import java.util.Arrays;

/** One probe of a verified {@link SimHashQuery}: a fingerprint and its signature (null: none). */
record Probe(long fingerprint, byte[] signature) {

    /** Distinct (fingerprint, signature) pairs, by fingerprint then signature. */
    static Probe[] distinctSorted(long[] fingerprints, byte[][] signatures) {
        Probe[] probes = new Probe[fingerprints.length];
        for (int i = 0; i < probes.length; i++)
            probes[i] = new Probe(fingerprints[i], signatures[i] == null ? null : signatures[i].clone());
        Arrays.sort(
            probes,
            (a, b) -> a.fingerprint != b.fingerprint ? Long.compare(a.fingerprint, b.fingerprint) : Arrays.compare(a.signature, b.signature)
        );
        int n = 0;
        for (int i = 0; i < probes.length; i++) {
            if (n == 0
                || probes[i].fingerprint != probes[n - 1].fingerprint
                || Arrays.equals(probes[i].signature, probes[n - 1].signature) == false) {
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
