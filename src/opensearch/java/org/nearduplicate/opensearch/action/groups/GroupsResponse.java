package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.nearduplicate.orchestration.groups.ChanceMatches;
import org.nearduplicate.orchestration.groups.RunSummary;

/**
 * What the groups response and the write-back response share: the run's summary ({@link RunSummary}), first on the
 * wire and in the JSON, and the run's chance matches. Each response writes its counts after them.
 */
public abstract class GroupsResponse extends ActionResponse implements ToXContentObject {
    protected final RunSummary run;

    protected GroupsResponse(RunSummary run) {
        this.run = run;
    }

    protected GroupsResponse(StreamInput in) throws IOException {
        super(in);
        String index = in.readString();
        String field = in.readString();
        int maxDistance = in.readVInt();
        double minSimilarity = in.readDouble();
        run = new RunSummary(index, field, maxDistance, minSimilarity, in.readOptionalString(), in.readVLong(), in.readVLong());
    }

    /** Writes the run's fields; the subclass writes its own after them. */
    protected final void writeRun(StreamOutput out) throws IOException {
        out.writeString(run.index());
        out.writeString(run.field());
        out.writeVInt(run.maxDistance());
        out.writeDouble(run.minSimilarity());
        out.writeOptionalString(run.algorithm());
        out.writeVLong(run.tookMillis());
        out.writeVLong(run.docsScanned());
    }

    /** Starts the response's object with took, index, field, max_distance and min_similarity (when the field verifies). */
    protected final void startRun(XContentBuilder builder) throws IOException {
        builder.startObject();
        builder.field("took", run.tookMillis());
        builder.field("index", run.index());
        builder.field("field", run.field());
        builder.field("max_distance", run.maxDistance());
        if (Double.isNaN(run.minSimilarity()) == false) builder.field(GroupsRequest.MIN_SIMILARITY, run.minSimilarity());
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

    /**
     * What a log line shows of the response (a background write's outcome is logged by the task's listener): the
     * run, then the response's counts, as {@code Name[index=..., field=..., ...]}.
     */
    @Override
    public final String toString() {
        StringBuilder b = new StringBuilder(getClass().getSimpleName()).append('[');
        b.append("index=").append(run.index()).append(", field=").append(run.field());
        b.append(", max_distance=").append(run.maxDistance());
        if (Double.isNaN(run.minSimilarity()) == false) b.append(", min_similarity=").append(run.minSimilarity());
        b.append(", took=").append(run.tookMillis()).append("ms, docs_scanned=").append(run.docsScanned());
        for (Map.Entry<String, Object> count : counts().entrySet()) {
            b.append(", ").append(count.getKey()).append('=').append(count.getValue());
        }
        return b.append(']').toString();
    }

    /** The response's own values for {@link #toString()}, in the order of its JSON (lists shortened). */
    protected abstract Map<String, Object> counts();

    /** At most the first {@code max} items of {@code items}, and how many more there are. */
    protected static String shortList(List<?> items, int max) {
        if (items.size() <= max) return items.toString();
        return items.subList(0, max) + " and " + (items.size() - max) + " more";
    }

    public long docsScanned() {
        return run.docsScanned();
    }

    public int maxDistance() {
        return run.maxDistance();
    }

    /** The run's min_similarity; NaN for a field without signatures. */
    public double minSimilarity() {
        return run.minSimilarity();
    }

    /** The field's algorithm id; null for a run that did not group. */
    public String algorithm() {
        return run.algorithm();
    }

    /** The expected chance matches of the run (docs/engine.md, "Chance matches at scale"); null for a run that did not group. */
    public ChanceMatches chanceMatches() {
        return run.chanceMatches();
    }
}
