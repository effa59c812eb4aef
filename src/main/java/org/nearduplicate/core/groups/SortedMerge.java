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
}
