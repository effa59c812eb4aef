package org.nearduplicate.opensearch.index.query.simhash;

import org.apache.lucene.index.IndexReader;

import java.util.Locale;

import org.nearduplicate.core.chance.NullDistribution;
import org.nearduplicate.lucene.SimHashQuery;

/**
 * The explain and profile line of a {@code near_duplicate} query on a shard: the expected chance matches of one probe
 * among the shard's documents, from the measured null distribution ({@link NullDistribution}, docs/engine.md "Chance
 * matches at scale"); "not measured" where it has no rows.
 */
final class SimHashChanceNote {
    private SimHashChanceNote() {}

    /**
     * A probe without a signature is compared on its fingerprint alone, so any such probe makes the estimate the
     * fingerprint's. Null when the shard's reader is not at hand.
     */
    static String of(IndexReader reader, String algorithm, int k, SimHashQuery.Verification verification, SimHashProbe.Resolved probes) {
        if (reader == null) return null;
        int docs = reader.numDocs();
        double minSimilarity = verification == null ? Double.NaN : verification.minSimilarity();
        if (verification != null) {
            for (int i = 0; i < probes.fingerprints().length; i++) {
                if (probes.signatures() == null || probes.signatures()[i] == null) {
                    minSimilarity = Double.NaN;
                    break;
                }
            }
        }
        String prefix = String.format(Locale.ROOT, "expected chance matches per probe among this shard's %,d documents: ", docs);
        NullDistribution.Estimate e = NullDistribution.builtin().estimate(algorithm, k, minSimilarity, NullDistribution.ALL, docs);
        if (e == null) return prefix + "not measured for this algorithm, k and min_similarity";
        return prefix
            + e.text()
            + (e.value() > NullDistribution.WARN_PER_QUERY ? " (more than 1: expect some hits by chance)" : "")
            + " ("
            + e.basis()
            + ")";
    }
}
