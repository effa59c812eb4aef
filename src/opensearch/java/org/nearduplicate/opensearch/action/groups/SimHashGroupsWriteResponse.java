package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * What a write-back did: the groups found and the documents written (members), given their own group (singletons),
 * left unchanged, cleared and failed.
 */
public class SimHashGroupsWriteResponse extends ActionResponse implements ToXContentObject {

    private final String index;
    private final String field;
    private final int maxDistance;
    /** The run's min_similarity; NaN for a field without signatures (not shown). */
    private final double minSimilarity;
    /** The field's algorithm id; null for a run that did not group (validation only). */
    private final String algorithm;
    private final long tookMillis;
    private final long docsScanned;
    private final long groups;
    private final long docsInGroups;
    private final long written;
    private final long noops;
    private final long cleared;
    /** Documents in no group given their own {@code _id} as group (those that already had it are not counted). */
    private final long singletons;
    private final long batches;
    private final long throttledMillis;
    private final long failureCount;
    private final List<String> failures;

    public SimHashGroupsWriteResponse(
        String index,
        String field,
        int maxDistance,
        double minSimilarity,
        String algorithm,
        long tookMillis,
        long docsScanned,
        long groups,
        long docsInGroups,
        long written,
        long noops,
        long cleared,
        long singletons,
        long batches,
        long throttledMillis,
        long failureCount,
        List<String> failures
    ) {
        this.index = index;
        this.field = field;
        this.maxDistance = maxDistance;
        this.minSimilarity = minSimilarity;
        this.algorithm = algorithm;
        this.tookMillis = tookMillis;
        this.docsScanned = docsScanned;
        this.groups = groups;
        this.docsInGroups = docsInGroups;
        this.written = written;
        this.noops = noops;
        this.cleared = cleared;
        this.singletons = singletons;
        this.batches = batches;
        this.throttledMillis = throttledMillis;
        this.failureCount = failureCount;
        this.failures = failures;
    }

    public SimHashGroupsWriteResponse(StreamInput in) throws IOException {
        super(in);
        index = in.readString();
        field = in.readString();
        maxDistance = in.readVInt();
        minSimilarity = in.readDouble();
        algorithm = in.readOptionalString();
        tookMillis = in.readVLong();
        docsScanned = in.readVLong();
        groups = in.readVLong();
        docsInGroups = in.readVLong();
        written = in.readVLong();
        noops = in.readVLong();
        cleared = in.readVLong();
        singletons = in.readVLong();
        batches = in.readVLong();
        throttledMillis = in.readVLong();
        failureCount = in.readVLong();
        failures = Arrays.asList(in.readStringArray()); // as writeStringCollection wrote it
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(index);
        out.writeString(field);
        out.writeVInt(maxDistance);
        out.writeDouble(minSimilarity);
        out.writeOptionalString(algorithm);
        out.writeVLong(tookMillis);
        out.writeVLong(docsScanned);
        out.writeVLong(groups);
        out.writeVLong(docsInGroups);
        out.writeVLong(written);
        out.writeVLong(noops);
        out.writeVLong(cleared);
        out.writeVLong(singletons);
        out.writeVLong(batches);
        out.writeVLong(throttledMillis);
        out.writeVLong(failureCount);
        out.writeStringCollection(failures);
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        builder.field("took", tookMillis);
        builder.field("index", index);
        builder.field("field", field);
        builder.field("max_distance", maxDistance);
        if (Double.isNaN(minSimilarity) == false) builder.field(GroupsRequest.MIN_SIMILARITY, minSimilarity);
        builder.field("docs_scanned", docsScanned);
        builder.field("groups", groups);
        builder.field("docs_in_groups", docsInGroups);
        ChanceMatches chance = chanceMatches();
        if (chance != null) chance.toXContent(builder);
        builder.field("written", written);
        builder.field("noops", noops);
        builder.field("cleared", cleared);
        builder.field("singletons", singletons);
        builder.field("batches", batches);
        builder.field("throttled_millis", throttledMillis);
        builder.field("failed", failureCount);
        builder.array("failures", failures.toArray(new String[0]));
        return builder.endObject();
    }

    public long groups() {
        return groups;
    }

    public long docsInGroups() {
        return docsInGroups;
    }

    public long written() {
        return written;
    }

    public long noops() {
        return noops;
    }

    public long cleared() {
        return cleared;
    }

    /** Documents in no group given their own {@code _id} as group by this run. */
    public long singletons() {
        return singletons;
    }

    public long failureCount() {
        return failureCount;
    }

    public List<String> failures() {
        return failures;
    }

    public long batches() {
        return batches;
    }

    public long throttledMillis() {
        return throttledMillis;
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
