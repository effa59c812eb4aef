package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;
import java.util.Map;

import org.nearduplicate.core.options.OptionValues;

import static org.opensearch.action.ValidateActions.addValidationError;

/** The groups request; see docs/workflows.md for the options. */
public class SimHashGroupsRequest extends GroupsRequest<SimHashGroupsRequest> {
    public static final int DEFAULT_SIZE = 100;
    public static final int DEFAULT_MAX_MEMBERS = 1000;
    /** A response lists at most size x max_members members; larger groups are counted in full and listed in part. */
    public static final int MAX_MEMBERS_LIMIT = 10_000;

    private int size = DEFAULT_SIZE;
    private String after;
    private int maxMembers = DEFAULT_MAX_MEMBERS;

    public SimHashGroupsRequest(String index, String field) {
        super(index, field);
    }

    public SimHashGroupsRequest(StreamInput in) throws IOException {
        super(in);
        field = in.readString();
        maxDistance = in.readOptionalVInt();
        size = in.readVInt();
        after = in.readOptionalString();
        maxMembers = in.readVInt();
        readLast(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(field);
        out.writeOptionalVInt(maxDistance);
        out.writeVInt(size);
        out.writeOptionalString(after);
        out.writeVInt(maxMembers);
        writeLast(out);
    }

    /** Reads the body: {@code field}, {@code max_distance}, {@code min_similarity}, {@code size}, {@code after}, {@code max_members}, {@code mode}. */
    public static SimHashGroupsRequest fromXContent(String index, XContentParser parser) throws IOException {
        Map<String, Object> body = parser.map();
        SimHashGroupsRequest request = new SimHashGroupsRequest(index, null);
        for (Map.Entry<String, Object> e : body.entrySet()) {
            Object v = e.getValue();
            if (request.parseCommon(e.getKey(), v)) continue;
            switch (e.getKey()) {
                case "size" -> request.size = OptionValues.integer(e.getKey(), v);
                case "after" -> request.after = v == null ? null : OptionValues.string(e.getKey(), v);
                case "partitions" -> throw new IllegalArgumentException(
                    "[_near_duplicates] option [partitions] was removed in 0.4.0: the groups are computed from the fingerprints' "
                        + "doc values, for any max_distance, and the near_duplicate breaker bounds their memory"
                );
                case "max_members" -> request.maxMembers = OptionValues.integer(e.getKey(), v);
                default -> throw new IllegalArgumentException("[_near_duplicates] unknown option [" + e.getKey() + "]");
            }
        }
        return request;
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = super.validate();
        if (size < 0 || size > 10_000) e = addValidationError("[size] must be between 0 and 10000, got " + size, e);
        if (maxMembers < 1 || maxMembers > MAX_MEMBERS_LIMIT) {
            e = addValidationError("[max_members] must be between 1 and " + MAX_MEMBERS_LIMIT + ", got " + maxMembers, e);
        }
        return e;
    }

    @Override
    public String getDescription() {
        return describe("groups");
    }

    public int size() {
        return size;
    }

    public SimHashGroupsRequest size(int size) {
        this.size = size;
        return this;
    }

    public String after() {
        return after;
    }

    public SimHashGroupsRequest after(String after) {
        this.after = after;
        return this;
    }

    public int maxMembers() {
        return maxMembers;
    }

    public SimHashGroupsRequest maxMembers(int maxMembers) {
        this.maxMembers = maxMembers;
        return this;
    }
}
