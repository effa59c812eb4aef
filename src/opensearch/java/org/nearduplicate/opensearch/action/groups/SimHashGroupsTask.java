package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.tasks.TaskCancelledException;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.tasks.CancellableTask;
import org.opensearch.tasks.Task;

import java.io.IOException;
import java.util.Map;

import org.nearduplicate.orchestration.groups.GroupsTask;
import org.nearduplicate.orchestration.groups.RunProgress;
import org.nearduplicate.orchestration.groups.WriteCounts;

/**
 * The task of a groups run (and of a write-back): cancellable, cancels its shard requests, and shows its progress in
 * {@code _tasks?detailed} and {@code GET _tasks/<id>}.
 */
public class SimHashGroupsTask extends CancellableTask implements GroupsTask {

    private final RunProgress progress = new RunProgress();
    private final WriteCounts counts = new WriteCounts();

    public SimHashGroupsTask(long id, String type, String action, String description, TaskId parentTaskId, Map<String, String> headers) {
        super(id, type, action, description, parentTaskId, headers);
    }

    private Runnable onCancel; // guarded by this

    @Override
    public boolean shouldCancelChildrenOnCancellation() {
        return true;
    }

    /**
     * Runs {@code action} as soon as the task is cancelled (at once if it already is), so that work waiting on a timer,
     * such as a throttled write-back, stops when asked instead of when its delay ends. One action at a time.
     */
    @Override
    public void whenCancelled(Runnable action) {
        synchronized (this) {
            if (isCancelled() == false) {
                onCancel = action;
                return;
            }
        }
        action.run();
    }

    @Override
    protected void onCancelled() {
        Runnable action;
        synchronized (this) {
            action = onCancel;
            onCancel = null;
        }
        if (action != null) action.run();
    }

    @Override
    public WriteCounts writeCounts() {
        return counts;
    }

    @Override
    public RuntimeException cancelled(String what) {
        return new TaskCancelledException(what + " cancelled: " + getReasonCancelled());
    }

    @Override
    public void phase(String phase) {
        progress.phase(phase);
    }

    @Override
    public void tables(int done, int total) {
        progress.tables(done, total);
    }

    @Override
    public void withinTable(long done, long total) {
        progress.withinTable(done, total);
    }

    @Override
    public void documents(long total) {
        progress.documents(total);
    }

    @Override
    public Status getStatus() {
        return new Status(
            progress.phase(),
            progress.tablesDone(),
            progress.tablesTotal(),
            counts.groups.get(),
            counts.toWrite.get(),
            counts.written.get(),
            counts.noops.get(),
            counts.cleared.get(),
            counts.singletons.get(),
            counts.failures.get(),
            counts.batches.get(),
            counts.throttledMillis.get(),
            progress.documentsTotal(),
            progress.documentsScanned()
        );
    }

    /**
     * What {@code _tasks} shows; the write-back counters are -1 / 0 until the write-back starts. Progress in documents:
     * {@code documents_scanned} of {@code documents_total} (the documents with a fingerprint read from the shards)
     * while grouping, then {@code documents_written} (written, unchanged or failed group members) of
     * {@code documents_to_write} while the groups are written back.
     */
    public record Status(String phase, int tablesDone, int tablesTotal, long groups, long toWrite, long written, long noops, long cleared,
        long singletons, long failures, long batches, long throttledMillis, long documentsTotal, long documentsScanned)
        implements
            Task.Status {
        public static final String NAME = "near_duplicate_groups";

        public Status(StreamInput in) throws IOException {
            this(
                in.readString(),
                in.readVInt(),
                in.readVInt(),
                in.readZLong(),
                in.readZLong(),
                in.readVLong(),
                in.readVLong(),
                in.readVLong(),
                in.readVLong(),
                in.readVLong(),
                in.readVLong(),
                in.readVLong(),
                in.readZLong(),
                in.readZLong()
            );
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            out.writeString(phase);
            out.writeVInt(tablesDone);
            out.writeVInt(tablesTotal);
            out.writeZLong(groups);
            out.writeZLong(toWrite);
            out.writeVLong(written);
            out.writeVLong(noops);
            out.writeVLong(cleared);
            out.writeVLong(singletons);
            out.writeVLong(failures);
            out.writeVLong(batches);
            out.writeVLong(throttledMillis);
            out.writeZLong(documentsTotal);
            out.writeZLong(documentsScanned);
        }

        @Override
        public String getWriteableName() {
            return NAME;
        }

        @Override
        public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
            builder.startObject();
            builder.field("phase", phase);
            builder.field("tables_done", tablesDone);
            builder.field("tables_total", tablesTotal);
            if (documentsTotal >= 0) {
                builder.field("documents_total", documentsTotal);
                builder.field("documents_scanned", documentsScanned);
            }
            if (groups >= 0) builder.field("groups", groups);
            if (toWrite >= 0) {
                builder.field("documents_to_write", toWrite);
                builder.field("documents_written", written + noops + failures);
                builder.field("written", written);
                builder.field("noops", noops);
                builder.field("cleared", cleared);
                builder.field("singletons", singletons);
                builder.field("failures", failures);
                builder.field("batches", batches);
                builder.field("throttled_millis", throttledMillis);
            }
            return builder.endObject();
        }
    }
}
