package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.orchestration.groups.RunSummary;

/**
 * What a write-back did: the groups found and the documents written (members), given their own group (singletons),
 * left unchanged, cleared and failed.
 */
public class SimHashGroupsWriteResponse extends GroupsResponse {

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
        RunSummary run,
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
        super(run);
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
        writeRun(out);
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
        startRun(builder);
        builder.field("docs_scanned", run.docsScanned());
        builder.field("groups", groups);
        builder.field("docs_in_groups", docsInGroups);
        chanceMatches(builder);
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
}
