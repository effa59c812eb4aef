package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Explanation;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.opensearch.common.ShardContext;

/**
 * The method-specific part of a probe rescorer ({@code near_duplicate}, {@code minhash_similar}): its name, its
 * threshold option (how it is parsed, checked, written and rendered) and the comparison of a hit's doc value with the
 * resolved probe. Everything else (the probe, the mode and the weights, the window, the rewrite, the rescoring and the
 * explanation) is the rescorer skeleton's ({@code ProbeRescorerBuilder}, {@code ProbeRescorer}); a method describes
 * itself with one of these next to its probe, e.g. {@code SimHashRescoring}.
 *
 * @param <P> the method's probe
 * @param <T> the threshold, e.g. {@code max_distance} (null: the mapping's) or {@code min_similarity}
 */
public interface ProbeRescoring<P extends Probe<?, P>, T> extends ProbeMethod<P> {

    /** The threshold of a rescorer that does not name one. */
    T defaultThreshold();

    /**
     * Checks a threshold set on the builder.
     *
     * @throws IllegalArgumentException if it is out of range
     */
    T checkThreshold(T threshold);

    T readThreshold(StreamInput in) throws IOException;

    void writeThreshold(StreamOutput out, T threshold) throws IOException;

    /** Renders the threshold into the rescorer's object (or nothing, if it is the mapping's). */
    void thresholdToXContent(XContentBuilder builder, T threshold) throws IOException;

    /** True if the key {@code current}, at the parser's current token, is the threshold's. */
    boolean isThreshold(String current, XContentParser parser);

    /** Reads the threshold at the parser's current token; a 400 if it is invalid. */
    T parseThreshold(XContentParser parser) throws IOException;

    /** What a parse that failed with {@code e} (outside the probe's and the options' own 400s) throws. */
    default RuntimeException parseFailure(XContentParser parser, IllegalArgumentException e) {
        return e;
    }

    /**
     * The comparison of a shard's hits with the probe: the target field checked, the probe resolved for it.
     *
     * @throws RuntimeException the shard's failure if the field is not of the method's type or the probe
     *         cannot be resolved for it
     */
    Closeness closeness(ShardContext context, String field, P probe, T threshold);

    /** A shard's comparison of its hits with a resolved probe, read from doc values. */
    interface Closeness {
        /** The rescorer's name in explanations, e.g. {@code near_duplicate}. */
        String rescorer();

        /** What the closeness is called in explanations, e.g. {@code closeness} or {@code similarity}. */
        String closenessName();

        /** Reads the values of one leaf forward only (doc ids must not go down). */
        LeafCloseness leaf(LeafReaderContext leaf) throws IOException;

        /** One segment document's comparison with the probe, for the explanation. */
        HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException;
    }

    /** One leaf's closeness to the probe. */
    interface LeafCloseness {
        /** The closeness added in closeness mode, or NaN if the segment document is not close enough or has no value. */
        float closeness(int segmentDoc) throws IOException;
    }

    /**
     * What the explanation says of one hit: whether it is within the probe's bound, its closeness (what closeness mode
     * adds, times the rescore weight) as an explanation, how the closeness is computed (e.g. {@code 1 / (1 + distance)})
     * and the comparison in words.
     */
    record HitCheck(boolean within, Explanation closeness, String formula, String description) {
    }
}
