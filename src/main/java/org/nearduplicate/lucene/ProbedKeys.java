package org.nearduplicate.lucene;

import org.apache.lucene.util.BytesRef;

import java.util.Arrays;

import org.nearduplicate.core.keys.BlockLayout;

/**
 * The probed keys in term order (the probes' own keys and, beyond the layout's exact distance, their variants), and
 * per key the probe's check value of its combination (see {@link BlockLayout#check}) with the distance left for
 * the check bits once the key's own (how many of its bits differ from the probe's key) is spent.
 */
record ProbedKeys(BytesRef[] keys, KeyPostings.FrequencyCheck frequencyCheck) {

    /** The {@code n} keys {@code fingerprints} look up at {@code maxDistance} on {@code layout}, with their checks. */
    static ProbedKeys build(BlockLayout layout, long[] fingerprints, int maxDistance, int n) {
        BytesRef[] keys = new BytesRef[n];
        long[] checks = new long[n];
        int[] budgets = new int[n];
        record Probed(BytesRef key, long check, int distance) {
        }
        Probed[] probed = new Probed[n];
        int[] next = { 0 };
        for (long probe : fingerprints) {
            long[] combinationChecks = new long[layout.keyCount()];
            for (int c = 0; c < combinationChecks.length; c++) {
                combinationChecks[c] = layout.check(probe, c);
            }
            layout.probeKeys(probe, maxDistance, (combination, key, keyDistance) -> {
                probed[next[0]++] = new Probed(new BytesRef(key), combinationChecks[combination], keyDistance);
            });
        }
        // in term order, so that the terms dictionary is walked forward
        Arrays.sort(probed, (a, b) -> a.key().compareTo(b.key()));
        for (int i = 0; i < n; i++) {
            keys[i] = probed[i].key();
            checks[i] = probed[i].check();
            budgets[i] = maxDistance - probed[i].distance();
        }
        return new ProbedKeys(keys, new KeyPostings.FrequencyCheck(checks, budgets));
    }
}
