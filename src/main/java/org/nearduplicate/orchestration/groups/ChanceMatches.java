package org.nearduplicate.orchestration.groups;

import java.util.Locale;

import org.nearduplicate.core.chance.NullDistribution;

/**
 * The {@code chance_matches} section of the groups responses: how many of the pairs a run of {@code docs} documents
 * at its k and {@code min_similarity} would join by chance, from the measured null distribution
 * ({@link NullDistribution}, docs/engine.md "Chance matches at scale"), and a warning when they exceed
 * {@link NullDistribution#WARN_MIN_PAIRS} and {@link NullDistribution#WARN_SHARE_OF_DOCUMENTS} of the documents.
 * Settings that were not measured give nulls and say so in {@code basis}. Each adapter renders it.
 *
 * @param pairs       the expected chance pairs among the documents; null when not measured
 * @param perDocument the expected chance partners of one document (rate times the other documents); null likewise
 */
public record ChanceMatches(NullDistribution.Estimate pairs, NullDistribution.Estimate perDocument, String basis, String warning) {

    /** The section of a run; null for a run that did not group (a validation-only write request). */
    public static ChanceMatches of(String algorithm, int maxDistance, double minSimilarity, long docs) {
        if (algorithm == null || maxDistance < 0) return null;
        NullDistribution table = NullDistribution.builtin();
        NullDistribution.Estimate pairs = table.expectedFalsePairs(algorithm, maxDistance, minSimilarity, docs);
        if (pairs == null) {
            return new ChanceMatches(
                null,
                null,
                "not measured for ["
                    + algorithm
                    + "] at k="
                    + maxDistance
                    + (Double.isNaN(minSimilarity) ? " (fingerprint alone)" : " min_similarity=" + minSimilarity)
                    + ": the shipped null distribution has the defaults of simhash-v2, v3 and v4 (v4 at min_similarity "
                    + "0.35) up to the k measured on the public corpus",
                null
            );
        }
        NullDistribution.Estimate perDocument = table.expectedFalseHitsPerQuery(algorithm, maxDistance, minSimilarity, docs);
        String warning = null;
        if (NullDistribution.warnPairs(pairs, docs)) {
            warning = String.format(
                Locale.ROOT,
                "[_near_duplicates] expected chance matches: %s pairs of unrelated documents among %,d documents (%s per "
                    + "document) at %s; above 1 pair and %s%% of the documents, so some groups may join unrelated "
                    + "documents: a smaller max_distance lowers it (docs/engine.md, Chance matches at scale)",
                pairs.text(),
                docs,
                perDocument.text(),
                pairs.basis(),
                NullDistribution.WARN_SHARE_OF_DOCUMENTS * 100
            );
        }
        return new ChanceMatches(pairs, perDocument, pairs.basis(), warning);
    }

    /** The warning, if any, as an HTTP {@code Warning} header's text (braces would read as a log placeholder); or null. */
    public String headerWarning() {
        return warning == null ? null : warning.replace("{}", "()");
    }
}
