package org.nearduplicate.opensearch.index.query.minhash;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.opensearch.index.query.ProbeQueryBuilder;
import org.nearduplicate.opensearch.index.query.ProbeRewrite;

/**
 * {@code minhash_similar}: documents whose {@code minhash} signature has estimated Jaccard similarity ≥
 * {@code min_similarity} with a probe, verified from the stored signatures. Everything is {@link ProbeQueryBuilder}'s
 * and {@link MinHashQuerying}'s; this class only keeps the Java API that names the options.
 *
 * <pre>
 * {"minhash_similar": {"field": "mh", "signature": "&lt;base64&gt;", "min_similarity": 0.8}}
 * {"minhash_similar": {"field": "mh", "text": "...", "min_similarity": 0.4, "candidates": "lsh"}}
 * {"minhash_similar": {"field": "mh", "like": {"_index": "pages", "_id": "42"}}}
 * </pre>
 *
 * {@code candidates}: see {@link MinHashQueryOptions.Candidates}.
 */
public final class MinHashQueryBuilder extends ProbeQueryBuilder<MinHashQueryBuilder, MinHashProbe, MinHashQueryOptions> {
    public static final String NAME = MinHashProbe.NAME;

    public MinHashQueryBuilder(String fieldName, MinHashProbe probe) {
        super(MinHashQuerying.INSTANCE, fieldName, probe);
    }

    public MinHashQueryBuilder(StreamInput in) throws IOException {
        super(MinHashQuerying.INSTANCE, in);
    }

    private MinHashQueryBuilder(MinHashQueryBuilder original, ProbeRewrite<MinHashProbe> probe) {
        super(original, probe);
    }

    @Override
    protected MinHashQueryBuilder withProbe(ProbeRewrite<MinHashProbe> next) {
        return new MinHashQueryBuilder(this, next);
    }

    public static MinHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        return fromXContent(MinHashQuerying.INSTANCE, parser, MinHashQueryBuilder::new);
    }

    public double minSimilarity() {
        return options().minSimilarity();
    }

    public MinHashQueryBuilder minSimilarity(double minSimilarity) {
        return options(options().withMinSimilarity(minSimilarity));
    }

    public MinHashQueryOptions.Candidates candidates() {
        return options().candidates();
    }

    public MinHashQueryBuilder candidates(MinHashQueryOptions.Candidates candidates) {
        return options(options().withCandidates(candidates));
    }
}
