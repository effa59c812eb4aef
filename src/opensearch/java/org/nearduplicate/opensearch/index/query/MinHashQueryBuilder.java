package org.nearduplicate.opensearch.index.query;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

/**
 * {@code minhash_similar}: documents whose {@code minhash} signature has estimated Jaccard similarity ≥
 * {@code min_similarity} with a probe, verified from the stored signatures. Everything is {@link ProbeQueryBuilder}'s
 * and {@link MinHashProbe#QUERYING}'s; this class only keeps the Java API that names the options.
 *
 * <pre>
 * {"minhash_similar": {"field": "mh", "signature": "&lt;base64&gt;", "min_similarity": 0.8}}
 * {"minhash_similar": {"field": "mh", "text": "...", "min_similarity": 0.4, "candidates": "lsh"}}
 * {"minhash_similar": {"field": "mh", "like": {"_index": "pages", "_id": "42"}}}
 * </pre>
 *
 * {@code candidates}: see {@link MinHashProbe.Candidates}.
 */
public final class MinHashQueryBuilder extends ProbeQueryBuilder<MinHashQueryBuilder, MinHashProbe, MinHashProbe.QueryOptions> {
    public static final String NAME = MinHashProbe.NAME;

    public MinHashQueryBuilder(String fieldName, MinHashProbe probe) {
        super(MinHashProbe.QUERYING, fieldName, probe);
    }

    public MinHashQueryBuilder(StreamInput in) throws IOException {
        super(MinHashProbe.QUERYING, in);
    }

    private MinHashQueryBuilder(MinHashQueryBuilder original, ProbeRewrite<MinHashProbe> probe) {
        super(original, probe);
    }

    @Override
    protected MinHashQueryBuilder withProbe(ProbeRewrite<MinHashProbe> next) {
        return new MinHashQueryBuilder(this, next);
    }

    public static MinHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        return fromXContent(MinHashProbe.QUERYING, parser, MinHashQueryBuilder::new);
    }

    public double minSimilarity() {
        return options().minSimilarity();
    }

    public MinHashQueryBuilder minSimilarity(double minSimilarity) {
        return options(new MinHashProbe.QueryOptions(minSimilarity, candidates()));
    }

    public MinHashProbe.Candidates candidates() {
        return options().candidates();
    }

    public MinHashQueryBuilder candidates(MinHashProbe.Candidates candidates) {
        return options(new MinHashProbe.QueryOptions(minSimilarity(), candidates));
    }
}
