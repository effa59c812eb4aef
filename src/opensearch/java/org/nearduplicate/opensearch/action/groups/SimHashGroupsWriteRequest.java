package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.util.Map;

import org.nearduplicate.core.options.OptionValues;
import org.nearduplicate.orchestration.groups.RequestsPerSecond;

import static org.opensearch.action.ValidateActions.addValidationError;

/**
 * The write-back request: {@code field}, {@code max_distance}, {@code min_similarity}, {@code group_field}, {@code distance_field},
 * {@code batch_size}, {@code requests_per_second}, {@code mode}, and the URL's {@code refresh}; see docs/workflows.md.
 */
public class SimHashGroupsWriteRequest extends GroupsRequest<SimHashGroupsWriteRequest> {
    public static final String DEFAULT_GROUP_FIELD = "duplicate_group";
    public static final String DEFAULT_DISTANCE_FIELD = "duplicate_distance";
    public static final int DEFAULT_BATCH_SIZE = 500;

    private String groupField = DEFAULT_GROUP_FIELD;
    private String distanceField = DEFAULT_DISTANCE_FIELD;
    private int batchSize = DEFAULT_BATCH_SIZE;
    /** Documents written per second; unlimited when not positive (as {@code _update_by_query}'s -1). */
    private float requestsPerSecond = -1;
    /** Set for {@code wait_for_completion=false}: the result is stored in the tasks index (not sent between nodes). */
    private boolean shouldStoreResult;
    /** Only the checks that can fail at once run (index, field, mappings), then an empty answer: nothing is written. */
    private boolean validateOnly;
    /** {@code refresh=true}: the index written to is refreshed after the last update, before the answer. */
    private boolean refresh;

    public SimHashGroupsWriteRequest(String index, String field) {
        super(index, field);
    }

    public SimHashGroupsWriteRequest(StreamInput in) throws IOException {
        super(in);
        field = in.readOptionalString();
        maxDistance = in.readOptionalVInt();
        groupField = in.readString();
        distanceField = in.readString();
        batchSize = in.readVInt();
        requestsPerSecond = in.readFloat();
        validateOnly = in.readBoolean();
        readLast(in);
        refresh = in.readBoolean(); // appended after the 0.8.0 fields (CHANGELOG)
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeOptionalString(field);
        out.writeOptionalVInt(maxDistance);
        out.writeString(groupField);
        out.writeString(distanceField);
        out.writeVInt(batchSize);
        out.writeFloat(requestsPerSecond);
        out.writeBoolean(validateOnly);
        writeLast(out);
        out.writeBoolean(refresh);
    }

    public static SimHashGroupsWriteRequest fromXContent(String index, XContentParser parser) throws IOException {
        SimHashGroupsWriteRequest request = new SimHashGroupsWriteRequest(index, null);
        for (Map.Entry<String, Object> e : parser.map().entrySet()) {
            Object v = e.getValue();
            if (request.parseCommon(e.getKey(), v)) continue;
            switch (e.getKey()) {
                case "group_field" -> request.groupField = OptionValues.string(e.getKey(), v);
                case "distance_field" -> request.distanceField = OptionValues.string(e.getKey(), v);
                case "batch_size" -> request.batchSize = OptionValues.integer(e.getKey(), v);
                case "requests_per_second" -> request.requestsPerSecond = RequestsPerSecond.parse(v);
                default -> throw new IllegalArgumentException("[_near_duplicates/_write] unknown option [" + e.getKey() + "]");
            }
        }
        return request;
    }

    /** The URL parameter that refreshes the written index before the answer. */
    public static final String REFRESH = "refresh";

    /**
     * The {@code refresh} parameter's value, as {@code _update_by_query} takes it: {@code true} or empty (a bare
     * {@code ?refresh}) refreshes the written index before the answer, {@code false} (the default, also when absent,
     * null) does not. {@code wait_for} is refused: a write-back's bulk requests touch its shards over many batches, and
     * waiting for the refresh of the last one would not show the earlier ones; {@code true} shows them all.
     */
    public static boolean parseRefresh(String value) {
        if (value == null || value.equals("false")) return false;
        if (value.isEmpty() || value.equals("true")) return true;
        throw new IllegalArgumentException(
            "[_near_duplicates/_write] ["
                + REFRESH
                + "] must be [true] or [false] (or empty, meaning true), got ["
                + value
                + "]"
                + (value.equals("wait_for")
                    ? ": [wait_for] is not supported, as for _update_by_query; [true] refreshes the index before the answer"
                    : "")
        );
    }

    /** The slowest throttle ({@link RequestsPerSecond#MIN}). */
    public static final float MIN_REQUESTS_PER_SECOND = RequestsPerSecond.MIN;

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = super.validate();
        if (groupField.isEmpty() || distanceField.isEmpty() || groupField.equals(distanceField)) {
            e = addValidationError("[group_field] and [distance_field] must be two different, non-empty field names", e);
        }
        if (field != null && (field.equals(groupField) || field.equals(distanceField))) {
            e = addValidationError("[group_field] and [distance_field] must differ from [field]", e);
        }
        if (batchSize < 1 || batchSize > 10_000) e = addValidationError("[batch_size] must be between 1 and 10000, got " + batchSize, e);
        if (RequestsPerSecond.valid(requestsPerSecond) == false) e = addValidationError(RequestsPerSecond.invalid(requestsPerSecond), e);
        return e;
    }

    /**
     * A copy that only runs the checks which can fail at once: {@code wait_for_completion=false} runs it first, so that
     * such a failure is the answer rather than a task whose stored result is that failure.
     */
    public SimHashGroupsWriteRequest validationOnly() {
        SimHashGroupsWriteRequest copy = new SimHashGroupsWriteRequest(index, field);
        copy.maxDistance = maxDistance;
        copy.minSimilarity = minSimilarity;
        copy.mode = mode;
        copy.groupField = groupField;
        copy.distanceField = distanceField;
        copy.batchSize = batchSize;
        copy.requestsPerSecond = requestsPerSecond;
        copy.refresh = refresh;
        copy.validateOnly = true;
        return copy;
    }

    public boolean validateOnly() {
        return validateOnly;
    }

    public void setShouldStoreResult(boolean shouldStoreResult) {
        this.shouldStoreResult = shouldStoreResult;
    }

    @Override
    public boolean getShouldStoreResult() {
        return shouldStoreResult;
    }

    @Override
    public String getDescription() {
        return describe("groups write")
            + " group_field["
            + groupField
            + "] distance_field["
            + distanceField
            + "]"
            + (refresh ? " refresh" : "");
    }

    /** Whether the written index is refreshed before the answer ({@code refresh=true}). */
    public boolean refresh() {
        return refresh;
    }

    public SimHashGroupsWriteRequest refresh(boolean refresh) {
        this.refresh = refresh;
        return this;
    }

    public String groupField() {
        return groupField;
    }

    public SimHashGroupsWriteRequest groupField(String groupField) {
        this.groupField = groupField;
        return this;
    }

    public String distanceField() {
        return distanceField;
    }

    public SimHashGroupsWriteRequest distanceField(String distanceField) {
        this.distanceField = distanceField;
        return this;
    }

    public int batchSize() {
        return batchSize;
    }

    public SimHashGroupsWriteRequest batchSize(int batchSize) {
        this.batchSize = batchSize;
        return this;
    }

    public float requestsPerSecond() {
        return requestsPerSecond;
    }

    public SimHashGroupsWriteRequest requestsPerSecond(float requestsPerSecond) {
        this.requestsPerSecond = requestsPerSecond;
        return this;
    }
}
