package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.opensearch.index.query.ProbeRewrite;
import org.nearduplicate.opensearch.index.query.minhash.MinHashProbe;
import org.nearduplicate.opensearch.index.query.minhash.MinHashRescoring;

/**
 * {@code minhash_similar} rescorer: re-ranks (or filters) the hits of every shard by their signature's estimated
 * Jaccard similarity to a probe. Everything is {@link ProbeRescorerBuilder}'s and {@link MinHashRescoring}'s;
 * this class only keeps the Java API that names the threshold {@code min_similarity}.
 *
 * <pre>
 * "rescore": {"window_size": 100, "minhash_similar": {"field": "mh", "like": {"_index": "pages", "_id": "42"},
 *             "min_similarity": 0.5, "score_mode": "closeness", "query_weight": 0.1, "rescore_weight": 1}}
 * </pre>
 */
public final class MinHashRescorerBuilder extends ProbeRescorerBuilder<MinHashRescorerBuilder, MinHashProbe, Double> {
    public static final String NAME = MinHashProbe.NAME;

    public MinHashRescorerBuilder(String fieldName, MinHashProbe probe) {
        super(MinHashRescoring.INSTANCE, fieldName, probe);
    }

    public MinHashRescorerBuilder(StreamInput in) throws IOException {
        super(MinHashRescoring.INSTANCE, in);
    }

    private MinHashRescorerBuilder(MinHashRescorerBuilder original, ProbeRewrite<MinHashProbe> probe) {
        super(original, probe);
    }

    @Override
    protected MinHashRescorerBuilder withProbe(ProbeRewrite<MinHashProbe> next) {
        return new MinHashRescorerBuilder(this, next);
    }

    public static MinHashRescorerBuilder fromXContent(XContentParser parser) throws IOException {
        return fromXContent(MinHashRescoring.INSTANCE, parser, MinHashRescorerBuilder::new);
    }

    public double minSimilarity() {
        return threshold();
    }

    public MinHashRescorerBuilder minSimilarity(double minSimilarity) {
        return threshold(minSimilarity);
    }
}
