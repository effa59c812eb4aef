package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.orchestration.groups.RunSummary;

/**
 * What a write-back did: the groups found and the documents written (members), given their own group (singletons),
 * left unchanged, cleared and failed; with {@code refresh=true}, whether the refresh of the index that followed
 * succeeded on every shard ({@code refreshed}) and the shards' failures if not.
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
    /** The refresh's outcome; {@link Refresh#NOT_ASKED} without {@code refresh=true}. */
    private final Refresh refresh;

    /**
     * Whether the refresh after the write made every written document searchable ({@code refreshed}), and what failed
     * if not (a shard's failure, or the refresh request's own).
     */
    public record Refresh(boolean asked, boolean refreshed, List<String> failures) {
        public static final Refresh NOT_ASKED = new Refresh(false, false, List.of());

        public Refresh {
            failures = List.copyOf(failures);
        }

        /** A refresh that reached every shard. */
        public static Refresh done() {
            return new Refresh(true, true, List.of());
        }

        /** A refresh that failed, wholly or on some shards. */
        public static Refresh failed(List<String> failures) {
            return new Refresh(true, false, failures);
        }
    }

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
        this(
            run,
            groups,
            docsInGroups,
            written,
            noops,
            cleared,
            singletons,
            batches,
            throttledMillis,
            failureCount,
            failures,
            Refresh.NOT_ASKED
        );
    }

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
        List<String> failures,
        Refresh refresh
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
        this.refresh = java.util.Objects.requireNonNull(refresh);
    }

    /** This response with the outcome of the refresh that followed the write. */
    public SimHashGroupsWriteResponse withRefresh(Refresh refresh) {
        return new SimHashGroupsWriteResponse(
            run,
            groups,
            docsInGroups,
            written,
            noops,
            cleared,
            singletons,
            batches,
            throttledMillis,
            failureCount,
            failures,
            refresh
        );
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
        // appended after the 0.8.0 fields (CHANGELOG)
        boolean asked = in.readBoolean();
        boolean refreshed = in.readBoolean();
        refresh = asked ? new Refresh(true, refreshed, Arrays.asList(in.readStringArray())) : Refresh.NOT_ASKED;
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
        out.writeBoolean(refresh.asked());
        out.writeBoolean(refresh.refreshed());
        if (refresh.asked()) out.writeStringCollection(refresh.failures());
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
        if (refresh.asked()) {
            builder.field("refreshed", refresh.refreshed());
            if (refresh.refreshed() == false) builder.array("refresh_failures", refresh.failures().toArray(new String[0]));
        }
        return builder.endObject();
    }

    @Override
    protected Map<String, Object> counts() {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("groups", groups);
        counts.put("docs_in_groups", docsInGroups);
        counts.put("written", written);
        counts.put("noops", noops);
        counts.put("cleared", cleared);
        counts.put("singletons", singletons);
        counts.put("batches", batches);
        counts.put("throttled_millis", throttledMillis);
        counts.put("failed", failureCount);
        if (failures.isEmpty() == false) counts.put("failures", shortList(failures, 3));
        if (refresh.asked()) {
            counts.put("refreshed", refresh.refreshed());
            if (refresh.refreshed() == false) counts.put("refresh_failures", shortList(refresh.failures(), 3));
        }
        return counts;
    }

    /** The outcome of the refresh that followed the write ({@link Refresh#NOT_ASKED} without {@code refresh=true}). */
    public Refresh refresh() {
        return refresh;
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
