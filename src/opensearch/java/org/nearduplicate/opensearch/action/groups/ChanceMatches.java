package org.nearduplicate.opensearch.action.groups;

import org.opensearch.common.logging.HeaderWarning;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Locale;

import org.nearduplicate.core.chance.NullDistribution;

/**
 * The {@code chance_matches} section of the groups responses: how many of the pairs a run of {@code docs} documents
 * at its k and {@code min_similarity} would join by chance, from the measured null distribution
 * ({@link NullDistribution}, docs/engine.md "Chance matches at scale"), and a warning when they exceed
 * {@link NullDistribution#WARN_MIN_PAIRS} and {@link NullDistribution#WARN_SHARE_OF_DOCUMENTS} of the documents.
 * Settings that were not measured give nulls and say so in {@code basis}.
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

    /** Writes {@code "chance_matches": {...}} into the object {@code builder} is in. */
    public void toXContent(XContentBuilder builder) throws IOException {
        builder.startObject("chance_matches");
        if (pairs == null) {
            builder.nullField("expected_pairs");
            builder.nullField("per_document");
        } else {
            builder.field("expected_pairs", pairs.value());
            builder.field("per_document", perDocument.value());
            // a rate of 0: nothing seen in the corpus, the values are the corpus's resolution, an upper bound
            builder.field("upper_bound", pairs.upperBound());
            builder.field("summary", pairs.text() + " expected chance pairs, " + perDocument.text() + " per document");
        }
        builder.field("basis", basis);
        if (warning != null) builder.field("warning", warning);
        builder.endObject();
    }

    /** Adds the warning, if any, as an HTTP {@code Warning} header of the response being built on this thread. */
    public void addHeaderWarning() {
        if (warning != null) HeaderWarning.addWarning(warning.replace("{}", "()"));
    }
}
