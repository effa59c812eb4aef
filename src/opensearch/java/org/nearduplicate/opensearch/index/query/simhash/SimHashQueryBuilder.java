package org.nearduplicate.opensearch.index.query.simhash;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.opensearch.common.MaxDistanceParsing;
import org.nearduplicate.opensearch.index.query.ProbeQueryBuilder;
import org.nearduplicate.opensearch.index.query.ProbeRewrite;

/**
 * {@code near_duplicate}: documents whose {@code simhash} fingerprint is within {@code max_distance} bits of a probe.
 * Everything is {@link ProbeQueryBuilder}'s and {@link SimHashQuerying}'s; this class only keeps the Java API
 * that names the options.
 *
 * <pre>
 * {"near_duplicate": {"field": "fp", "fingerprint": "8f3a...", "max_distance": 3}}
 * {"near_duplicate": {"field": "fp", "like": {"_index": "pages", "_id": "42"}}}
 * </pre>
 *
 * Up to the mapping's {@code max_distance} the block-key index answers; beyond it only with {@code allow_scan: true}
 * (an exact scan of every fingerprint). On a {@code simhash-v7} field, probes that carry candidate keys are answered
 * from them unless {@code exact} is true.
 */
public final class SimHashQueryBuilder extends ProbeQueryBuilder<SimHashQueryBuilder, SimHashProbe, SimHashQueryOptions> {
    public static final String NAME = SimHashProbe.NAME;
    public static final ParseField MAX_DISTANCE_FIELD = MaxDistanceParsing.FIELD;
    public static final ParseField ALLOW_SCAN_FIELD = SimHashQueryOptions.ALLOW_SCAN_FIELD;
    public static final ParseField EXACT_FIELD = SimHashQueryOptions.EXACT_FIELD;

    public SimHashQueryBuilder(String fieldName, SimHashProbe probe) {
        super(SimHashQuerying.INSTANCE, fieldName, probe);
    }

    public SimHashQueryBuilder(StreamInput in) throws IOException {
        super(SimHashQuerying.INSTANCE, in);
    }

    private SimHashQueryBuilder(SimHashQueryBuilder original, ProbeRewrite<SimHashProbe> probe) {
        super(original, probe);
    }

    @Override
    protected SimHashQueryBuilder withProbe(ProbeRewrite<SimHashProbe> next) {
        return new SimHashQueryBuilder(this, next);
    }

    public static SimHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        return fromXContent(SimHashQuerying.INSTANCE, parser, SimHashQueryBuilder::new);
    }

    /** The maximum Hamming distance; null means the mapping's {@code max_distance}. */
    public Integer maxDistance() {
        return options().maxDistance();
    }

    public SimHashQueryBuilder maxDistance(Integer maxDistance) {
        return options(options().withMaxDistance(maxDistance));
    }

    public boolean allowScan() {
        return options().allowScan();
    }

    /** Allows distances beyond the indexed {@code max_distance}, answered by reading every fingerprint. */
    public SimHashQueryBuilder allowScan(boolean allowScan) {
        return options(options().withAllowScan(allowScan));
    }

    public boolean exact() {
        return options().exact();
    }

    /**
     * Answers every segment exactly (the column, the doc values or the block keys), never from the probes' candidate
     * keys ({@code simhash-v7} fields): every verified match, at the cost of the exact path.
     */
    public SimHashQueryBuilder exact(boolean exact) {
        return options(options().withExact(exact));
    }
}
