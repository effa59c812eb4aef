package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;

import org.nearduplicate.orchestration.groups.ChanceMatches;

/**
 * What the groups response and the write-back response share: the run's index, field, k, min_similarity, algorithm,
 * time and documents scanned, first on the wire and in the JSON, and the run's chance matches. Each response writes
 * its counts after them.
 */
public abstract class GroupsResponse extends ActionResponse implements ToXContentObject {
    protected final String index;
    protected final String field;
    protected final int maxDistance;
    /** The run's min_similarity; NaN for a field without signatures (not shown). */
    protected final double minSimilarity;
    /** The field's algorithm id; null for a run that did not group (validation only). */
    protected final String algorithm;
    protected final long tookMillis;
    protected final long docsScanned;

    protected GroupsResponse(
        String index,
        String field,
        int maxDistance,
        double minSimilarity,
        String algorithm,
        long tookMillis,
        long docsScanned
    ) {
        this.index = index;
        this.field = field;
        this.maxDistance = maxDistance;
        this.minSimilarity = minSimilarity;
        this.algorithm = algorithm;
        this.tookMillis = tookMillis;
        this.docsScanned = docsScanned;
    }

    protected GroupsResponse(StreamInput in) throws IOException {
        super(in);
        index = in.readString();
        field = in.readString();
        maxDistance = in.readVInt();
        minSimilarity = in.readDouble();
        algorithm = in.readOptionalString();
        tookMillis = in.readVLong();
        docsScanned = in.readVLong();
    }

    /** Writes the run's fields; the subclass writes its own after them. */
    protected final void writeRun(StreamOutput out) throws IOException {
        out.writeString(index);
        out.writeString(field);
        out.writeVInt(maxDistance);
        out.writeDouble(minSimilarity);
        out.writeOptionalString(algorithm);
        out.writeVLong(tookMillis);
        out.writeVLong(docsScanned);
    }

    /** Starts the response's object with took, index, field, max_distance and min_similarity (when the field verifies). */
    protected final void startRun(XContentBuilder builder) throws IOException {
        builder.startObject();
        builder.field("took", tookMillis);
        builder.field("index", index);
        builder.field("field", field);
        builder.field("max_distance", maxDistance);
        if (Double.isNaN(minSimilarity) == false) builder.field(GroupsRequest.MIN_SIMILARITY, minSimilarity);
    }

    /** Writes {@code "chance_matches": {...}} (see {@link ChanceMatches}) when the run grouped. */
    protected final void chanceMatches(XContentBuilder builder) throws IOException {
        ChanceMatches chance = chanceMatches();
        if (chance == null) return;
        builder.startObject("chance_matches");
        if (chance.pairs() == null) {
            builder.nullField("expected_pairs");
            builder.nullField("per_document");
        } else {
            builder.field("expected_pairs", chance.pairs().value());
            builder.field("per_document", chance.perDocument().value());
            // a rate of 0: nothing seen in the corpus, the values are the corpus's resolution, an upper bound
            builder.field("upper_bound", chance.pairs().upperBound());
            builder.field("summary", chance.pairs().text() + " expected chance pairs, " + chance.perDocument().text() + " per document");
        }
        builder.field("basis", chance.basis());
        if (chance.warning() != null) builder.field("warning", chance.warning());
        builder.endObject();
    }

    public long docsScanned() {
        return docsScanned;
    }

    public int maxDistance() {
        return maxDistance;
    }

    /** The run's min_similarity; NaN for a field without signatures. */
    public double minSimilarity() {
        return minSimilarity;
    }

    /** The field's algorithm id; null for a run that did not group. */
    public String algorithm() {
        return algorithm;
    }

    /** The expected chance matches of the run (docs/engine.md, "Chance matches at scale"); null for a run that did not group. */
    public ChanceMatches chanceMatches() {
        return ChanceMatches.of(algorithm, maxDistance, minSimilarity, docsScanned);
    }
}
