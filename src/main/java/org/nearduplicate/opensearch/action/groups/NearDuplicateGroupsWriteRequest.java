package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.opensearch.common.MaxDistance;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.tasks.Task;

import java.io.IOException;
import java.util.Map;

import static org.opensearch.action.ValidateActions.addValidationError;

/**
 * The write-back request: {@code field}, {@code max_distance}, {@code group_field}, {@code distance_field},
 * {@code batch_size}, {@code requests_per_second}; see docs/workflows.md.
 */
public class NearDuplicateGroupsWriteRequest extends ActionRequest implements IndicesRequest {
    public static final String DEFAULT_GROUP_FIELD = "duplicate_group";
    public static final String DEFAULT_DISTANCE_FIELD = "duplicate_distance";
    public static final int DEFAULT_BATCH_SIZE = 500;

    private final String index;
    private String field;
    private Integer maxDistance;
    private String groupField = DEFAULT_GROUP_FIELD;
    private String distanceField = DEFAULT_DISTANCE_FIELD;
    private int batchSize = DEFAULT_BATCH_SIZE;
    /** Documents written per second; unlimited when not positive (as {@code _update_by_query}'s -1). */
    private float requestsPerSecond = -1;
    /** Set for {@code wait_for_completion=false}: the result is stored in the tasks index (not sent between nodes). */
    private boolean shouldStoreResult;

    public NearDuplicateGroupsWriteRequest(String index, String field) {
        this.index = index;
        this.field = field;
    }

    public NearDuplicateGroupsWriteRequest(StreamInput in) throws IOException {
        super(in);
        index = in.readString();
        field = in.readOptionalString();
        maxDistance = in.readOptionalVInt();
        groupField = in.readString();
        distanceField = in.readString();
        batchSize = in.readVInt();
        requestsPerSecond = in.readFloat();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(index);
        out.writeOptionalString(field);
        out.writeOptionalVInt(maxDistance);
        out.writeString(groupField);
        out.writeString(distanceField);
        out.writeVInt(batchSize);
        out.writeFloat(requestsPerSecond);
    }

    public static NearDuplicateGroupsWriteRequest fromXContent(String index, XContentParser parser) throws IOException {
        NearDuplicateGroupsWriteRequest request = new NearDuplicateGroupsWriteRequest(index, null);
        for (Map.Entry<String, Object> e : parser.map().entrySet()) {
            Object v = e.getValue();
            switch (e.getKey()) {
                case "field" -> request.field = string(e.getKey(), v);
                case MaxDistance.NAME -> request.maxDistance = MaxDistance.parse(v, null);
                case "group_field" -> request.groupField = string(e.getKey(), v);
                case "distance_field" -> request.distanceField = string(e.getKey(), v);
                case "batch_size" -> request.batchSize = integer(e.getKey(), v);
                case "requests_per_second" -> request.requestsPerSecond = requestsPerSecond(v);
                default -> throw new IllegalArgumentException("[_near_duplicates/_write] unknown option [" + e.getKey() + "]");
            }
        }
        return request;
    }

    private static String string(String name, Object v) {
        if (v instanceof String s) return s;
        throw new IllegalArgumentException("[" + name + "] must be a string, got [" + v + "]");
    }

    private static int integer(String name, Object v) {
        if (v instanceof Integer i) return i;
        throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + v + "]");
    }

    /** A positive number, or -1 / "unlimited" for no throttling (the spelling {@code _update_by_query} accepts). */
    public static float requestsPerSecond(Object v) {
        if ("unlimited".equals(v)) return -1;
        if (v instanceof String s) {
            try {
                v = Float.parseFloat(s);
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        if (v instanceof Number n && (n.floatValue() > 0 || n.floatValue() == -1)) return n.floatValue();
        throw new IllegalArgumentException("[requests_per_second] must be a positive number, -1 or \"unlimited\", got [" + v + "]");
    }

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
        if (groupField.isEmpty() || distanceField.isEmpty() || groupField.equals(distanceField)) {
            e = addValidationError("[group_field] and [distance_field] must be two different, non-empty field names", e);
        }
        if (field != null && (field.equals(groupField) || field.equals(distanceField))) {
            e = addValidationError("[group_field] and [distance_field] must differ from [field]", e);
        }
        if (batchSize < 1 || batchSize > 10_000) e = addValidationError("[batch_size] must be between 1 and 10000, got " + batchSize, e);
        return e;
    }

    public void setShouldStoreResult(boolean shouldStoreResult) {
        this.shouldStoreResult = shouldStoreResult;
    }

    @Override
    public boolean getShouldStoreResult() {
        return shouldStoreResult;
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        return new NearDuplicateGroupsTask(id, type, action, getDescription(), parentTaskId, headers);
    }

    @Override
    public String getDescription() {
        return "near_duplicate groups write index[" + index + "] field[" + field + "] max_distance["
            + (maxDistance == null ? "mapping" : maxDistance) + "] group_field[" + groupField + "] distance_field[" + distanceField + "]";
    }

    @Override
    public String[] indices() {
        return new String[] { index };
    }

    @Override
    public IndicesOptions indicesOptions() {
        return IndicesOptions.strictSingleIndexNoExpandForbidClosed();
    }

    public String index() {
        return index;
    }

    public String field() {
        return field;
    }

    public Integer maxDistance() {
        return maxDistance;
    }

    public NearDuplicateGroupsWriteRequest maxDistance(Integer maxDistance) {
        this.maxDistance = maxDistance;
        return this;
    }

    public String groupField() {
        return groupField;
    }

    public NearDuplicateGroupsWriteRequest groupField(String groupField) {
        this.groupField = groupField;
        return this;
    }

    public String distanceField() {
        return distanceField;
    }

    public NearDuplicateGroupsWriteRequest distanceField(String distanceField) {
        this.distanceField = distanceField;
        return this;
    }

    public int batchSize() {
        return batchSize;
    }

    public NearDuplicateGroupsWriteRequest batchSize(int batchSize) {
        this.batchSize = batchSize;
        return this;
    }

    public float requestsPerSecond() {
        return requestsPerSecond;
    }

    public NearDuplicateGroupsWriteRequest requestsPerSecond(float requestsPerSecond) {
        this.requestsPerSecond = requestsPerSecond;
        return this;
    }
}
