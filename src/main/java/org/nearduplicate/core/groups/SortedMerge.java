package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.core.sketch.Signature;

import static org.nearduplicate.core.groups.GroupMembers.compareSignatures;

/** The k-way merges of {@link GroupMembers}: the shards' sorted fingerprints into distinct values, units and counts. */
final class SortedMerge {
    private SortedMerge() {}

    static int merge(List<long[]> sortedArrays, long[] distinct, int[] counts) {
        List<long[]> arrays = new ArrayList<>(sortedArrays.size());
        for (long[] a : sortedArrays) {
            if (a.length > 0) arrays.add(a);
        }
        int[] at = new int[arrays.size()];
        int n = 0;
        while (true) {
            int best = -1;
            for (int a = 0; a < arrays.size(); a++) {
                if (at[a] < arrays.get(a).length && (best < 0 || arrays.get(a)[at[a]] < arrays.get(best)[at[best]])) best = a;
            }
            if (best < 0) return n;
            long v = arrays.get(best)[at[best]++];
            if (n > 0 && distinct[n - 1] == v) {
                counts[n - 1]++;
            } else {
                distinct[n] = v;
                counts[n++] = 1;
            }
        }
    }

    static int mergeInPlace(long[] sorted, int[] counts) {
        int n = 0;
        for (long v : sorted) {
            if (n > 0 && sorted[n - 1] == v) {
                counts[n - 1]++;
            } else {
                sorted[n] = v;
                counts[n++] = 1;
            }
        }
        return n;
    }

    static int[] mergeUnitsInPlace(long[] fingerprints, byte[] signatures, int[] unitStart, int[] counts) {
        int n = 0, units = 0;
        for (int i = 0; i < fingerprints.length; i++) {
            long v = fingerprints[i];
            if (n > 0 && fingerprints[n - 1] == v && compareSignatures(signatures, units - 1, signatures, i) == 0) {
                counts[units - 1]++;
                continue;
            }
            if (n == 0 || fingerprints[n - 1] != v) {
                fingerprints[n] = v;
                unitStart[n++] = units;
            }
            if (units != i) System.arraycopy(signatures, i * Signature.BYTES, signatures, units * Signature.BYTES, Signature.BYTES);
            counts[units++] = 1;
        }
        unitStart[n] = units;
        return new int[] { n, units };
    }

    static int[] mergeUnits(
        List<long[]> sortedArrays,
        List<byte[]> signatures,
        long[] distinct,
        int[] unitStart,
        int[] counts,
        byte[] unitSignatures
    ) {
        List<long[]> arrays = new ArrayList<>(sortedArrays.size());
        List<byte[]> sigs = new ArrayList<>(sortedArrays.size());
        for (int s = 0; s < sortedArrays.size(); s++) {
            if (sortedArrays.get(s).length > 0) {
                arrays.add(sortedArrays.get(s));
                sigs.add(signatures.get(s));
            }
        }
        int[] at = new int[arrays.size()];
        int n = 0, units = 0;
        while (true) {
            int best = -1;
            for (int a = 0; a < arrays.size(); a++) {
                if (at[a] >= arrays.get(a).length) continue;
                if (best < 0) {
                    best = a;
                    continue;
                }
                long x = arrays.get(a)[at[a]], y = arrays.get(best)[at[best]];
                if (x < y || (x == y && compareSignatures(sigs.get(a), at[a], sigs.get(best), at[best]) < 0)) best = a;
            }
            if (best < 0) {
                unitStart[n] = units;
                return new int[] { n, units };
            }
            int i = at[best]++;
            long v = arrays.get(best)[i];
            byte[] sig = sigs.get(best);
            if (n > 0 && distinct[n - 1] == v && compareSignatures(unitSignatures, units - 1, sig, i) == 0) {
                counts[units - 1]++;
                continue;
            }
            if (n == 0 || distinct[n - 1] != v) {
                distinct[n] = v;
                unitStart[n++] = units;
            }
            if (sig != null) System.arraycopy(sig, i * Signature.BYTES, unitSignatures, units * Signature.BYTES, Signature.BYTES);
            counts[units++] = 1;
        }
    }
}
