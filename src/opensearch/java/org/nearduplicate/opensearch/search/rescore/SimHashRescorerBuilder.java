package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.opensearch.index.query.ProbeRewrite;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashRescoring;

/**
 * {@code near_duplicate} rescorer: re-ranks the top {@code window_size} hits of every shard (or filters every hit a
 * shard returns) by their fingerprint's Hamming distance to a probe. Everything is {@link ProbeRescorerBuilder}'s and
 * {@link SimHashRescoring}'s; this class only keeps the Java API that names the threshold {@code max_distance}.
 *
 * <pre>
 * "rescore": {"window_size": 100, "near_duplicate": {"field": "fp", "fingerprint": "...", "max_distance": 6,
 *             "score_mode": "closeness", "query_weight": 0.1, "rescore_weight": 1}}
 * </pre>
 */
public final class SimHashRescorerBuilder extends ProbeRescorerBuilder<SimHashRescorerBuilder, SimHashProbe, Integer> {
    public static final String NAME = SimHashProbe.NAME;

    public SimHashRescorerBuilder(String fieldName, SimHashProbe probe) {
        super(SimHashRescoring.INSTANCE, fieldName, probe);
    }

    public SimHashRescorerBuilder(StreamInput in) throws IOException {
        super(SimHashRescoring.INSTANCE, in);
    }

    private SimHashRescorerBuilder(SimHashRescorerBuilder original, ProbeRewrite<SimHashProbe> probe) {
        super(original, probe);
    }

    @Override
    protected SimHashRescorerBuilder withProbe(ProbeRewrite<SimHashProbe> next) {
        return new SimHashRescorerBuilder(this, next);
    }

    public static SimHashRescorerBuilder fromXContent(XContentParser parser) throws IOException {
        return fromXContent(SimHashRescoring.INSTANCE, parser, SimHashRescorerBuilder::new);
    }

    public Integer maxDistance() {
        return threshold();
    }

    /** Null: the mapping's {@code max_distance}. Any value 0..64 works (the rescorer reads doc values). */
    public SimHashRescorerBuilder maxDistance(Integer maxDistance) {
        return threshold(maxDistance);
    }
}
