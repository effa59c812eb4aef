package org.nearduplicate.opensearch.index.query.simhash;

import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;

/** The signature check of a {@code simhash} field whose algorithm has signatures, for the query and the rescorer. */
final class SimHashVerification {
    private SimHashVerification() {}

    /**
     * The verification of a field that has signatures at {@code minSimilarity} (null: the field's default); null for a
     * field without signatures.
     *
     * @throws RuntimeException the shard's failure if {@code minSimilarity} is given for a field without signatures
     */
    static SimHashQuery.Verification of(ShardContext context, SimHashFieldMapper.SimHashFieldType fieldType, Double minSimilarity) {
        if (fieldType.verifies() == false) {
            if (minSimilarity != null) {
                throw context.failure(
                    "["
                        + SimHashProbe.NAME
                        + "] min_similarity needs a field whose algorithm has signatures; field ["
                        + fieldType.name()
                        + "] is mapped with ["
                        + fieldType.algorithm()
                        + "]"
                );
            }
            return null;
        }
        return new SimHashQuery.Verification(
            fieldType.signatureField(),
            minSimilarity != null ? minSimilarity : fieldType.recommendedMinSimilarity()
        );
    }
}
