package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.tasks.Task;

import java.io.IOException;
import java.util.Map;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.options.OptionValues;

import static org.opensearch.action.ValidateActions.addValidationError;

/**
 * What the groups request and the write-back request share: one index, its {@code simhash} {@code field} and the
 * optional {@code max_distance} (absent: the field's recommended k), the optional {@code min_similarity} (absent: the
 * field's recommended one; only for a field whose values carry verification signatures), the {@code mode}, their
 * checks, a cancellable task, and the readers of the body's option values. Each request writes its own wire format.
 */
abstract class GroupsRequest<R extends GroupsRequest<R>> extends OneIndexRequest {
    protected String field;
    protected Integer maxDistance;
    /** The signatures' least similarity of a match; null: the field's recommended one. */
    protected Double minSimilarity;
    /** How components become groups; see {@link GroupMembers.Mode}. */
    protected GroupMembers.Mode mode = GroupMembers.Mode.REPRESENTATIVE;

    protected GroupsRequest(String index, String field) {
        super(index);
        this.field = field;
    }

    protected GroupsRequest(StreamInput in) throws IOException {
        super(in);
    }

    /** Writes the index after the parent's fields; each request writes its own after it, then {@link #writeLast}. */
    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(index);
    }

    /** Reads the options both requests write last: {@code mode}, then {@code min_similarity}. */
    protected final void readLast(StreamInput in) throws IOException {
        mode = in.readEnum(GroupMembers.Mode.class);
        minSimilarity = in.readOptionalDouble();
    }

    protected final void writeLast(StreamOutput out) throws IOException {
        out.writeEnum(mode);
        out.writeOptionalDouble(minSimilarity);
    }

    /** The checks of index, field and max_distance; subclasses add theirs to the result. */
    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = null;
        if (index == null || index.isEmpty()) e = addValidationError("an index is required", e);
        if (field == null || field.isEmpty()) e = addValidationError("[field] is required", e);
        if (maxDistance != null) {
            try {
                MaxDistance.check(maxDistance, null);
            } catch (IllegalArgumentException invalid) {
                e = addValidationError(invalid.getMessage(), e);
            }
        }
        if (minSimilarity != null && (minSimilarity >= 0 && minSimilarity <= 1) == false) {
            e = addValidationError("[" + MIN_SIMILARITY + "] must be between 0 and 1, got " + minSimilarity, e);
        }
        return e;
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        return new SimHashGroupsTask(id, type, action, getDescription(), parentTaskId, headers);
    }

    /** What a log line shows of the request (a failure's, a task's): its task description. */
    @Override
    public String toString() {
        return getDescription();
    }

    /** The description's start, shared by both requests' tasks. */
    protected String describe(String what) {
        return "near_duplicate "
            + what
            + " index["
            + index
            + "] field["
            + field
            + "] max_distance["
            + (maxDistance == null ? "mapping" : maxDistance)
            + "]"
            + (minSimilarity == null ? "" : " min_similarity[" + minSimilarity + "]")
            + " mode["
            + mode.jsonName()
            + "]";
    }

    public String field() {
        return field;
    }

    public Integer maxDistance() {
        return maxDistance;
    }

    /** The requested {@code min_similarity}, or null: the field's recommended one. */
    public Double minSimilarity() {
        return minSimilarity;
    }

    @SuppressWarnings("unchecked")
    public R minSimilarity(Double minSimilarity) {
        this.minSimilarity = minSimilarity;
        return (R) this;
    }

    public GroupMembers.Mode mode() {
        return mode;
    }

    @SuppressWarnings("unchecked")
    public R mode(GroupMembers.Mode mode) {
        this.mode = java.util.Objects.requireNonNull(mode);
        return (R) this;
    }

    @SuppressWarnings("unchecked")
    public R maxDistance(Integer maxDistance) {
        this.maxDistance = maxDistance;
        return (R) this;
    }

    /** The body option of the signatures' least similarity. */
    public static final String MIN_SIMILARITY = "min_similarity";

    /** {@code min_similarity}'s value: a number (or a string of one) from 0 to 1. */
    static double minSimilarity(Object v) {
        double d = OptionValues.number(MIN_SIMILARITY, v);
        if ((d >= 0 && d <= 1) == false) throw new IllegalArgumentException("[" + MIN_SIMILARITY + "] must be between 0 and 1, got " + v);
        return d;
    }

    /**
     * Reads one of the options both requests take ({@code field}, {@code max_distance}, {@code min_similarity},
     * {@code mode}); false when {@code name} is none of them.
     */
    protected boolean parseCommon(String name, Object v) {
        switch (name) {
            case "field" -> field = OptionValues.string(name, v);
            case MaxDistance.NAME -> maxDistance = MaxDistance.parse(v, null);
            case MIN_SIMILARITY -> minSimilarity = v == null ? null : minSimilarity(v);
            case "mode" -> mode = GroupMembers.Mode.parse(OptionValues.string(name, v));
            default -> {
                return false;
            }
        }
        return true;
    }

}
