package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;

import static org.opensearch.action.ValidateActions.addValidationError;

/**
 * The {@code /{index}/_simhash} request ({@link IndexSimHashAction}): the inputs are fingerprinted with the algorithm
 * and shown with the layout of {@code field}'s mapping in {@code index}, the one index it names ({@link IndicesRequest}),
 * so that a role's index privileges decide who may read that mapping.
 */
public class IndexSimHashRequest extends SimHashRequest implements IndicesRequest {
    private final String index;
    private final String field;

    public IndexSimHashRequest(String index, String field, Input input, Input compareInput, int topFeatures, boolean includeText) {
        super(input, compareInput, Map.of(), null, null, topFeatures, includeText);
        this.index = index;
        this.field = field;
    }

    public IndexSimHashRequest(StreamInput in) throws IOException {
        super(in);
        index = in.readString();
        field = in.readString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(index);
        out.writeString(field);
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = super.validate();
        if (index == null || index.isEmpty()) e = addValidationError("an index is required", e);
        if (field == null || field.isEmpty()) {
            e = addValidationError("[field] (the index's simhash field) is required when an index is given", e);
        }
        if (settings().isEmpty() == false || blocks() != null) {
            e = addValidationError(
                "[settings], [blocks] and [max_distance] come from the mapping when an index is given; leave them out",
                e
            );
        }
        return e;
    }

    public String index() {
        return index;
    }

    public String field() {
        return field;
    }

    @Override
    public String[] indices() {
        return new String[] { index };
    }

    /** As the field-mappings lookup it makes: open indices, a missing index is an error. */
    @Override
    public IndicesOptions indicesOptions() {
        return IndicesOptions.strictExpandOpen();
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && index.equals(((IndexSimHashRequest) o).index) && field.equals(((IndexSimHashRequest) o).field);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), index, field);
    }
}
