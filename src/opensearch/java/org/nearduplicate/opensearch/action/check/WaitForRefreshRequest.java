package org.nearduplicate.opensearch.action.check;

import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Arrays;

/**
 * The indices (names, aliases or patterns, as a search names them) whose started shard copies to wait for, with the
 * search's indices options, and how long to wait at most.
 */
public class WaitForRefreshRequest extends ActionRequest implements IndicesRequest.Replaceable {
    private String[] indices;
    private final IndicesOptions indicesOptions;
    private final TimeValue timeout;

    public WaitForRefreshRequest(String[] indices, IndicesOptions indicesOptions, TimeValue timeout) {
        this.indices = indices;
        this.indicesOptions = indicesOptions;
        this.timeout = timeout;
    }

    public WaitForRefreshRequest(StreamInput in) throws IOException {
        super(in);
        this.indices = in.readStringArray();
        this.indicesOptions = IndicesOptions.readIndicesOptions(in);
        this.timeout = in.readTimeValue();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeStringArray(indices);
        indicesOptions.writeIndicesOptions(out);
        out.writeTimeValue(timeout);
    }

    @Override
    public ActionRequestValidationException validate() {
        if (indices == null || indices.length == 0) {
            ActionRequestValidationException e = new ActionRequestValidationException();
            e.addValidationError("no index to wait for");
            return e;
        }
        return null;
    }

    @Override
    public String[] indices() {
        return indices;
    }

    @Override
    public WaitForRefreshRequest indices(String... indices) {
        this.indices = indices;
        return this;
    }

    @Override
    public IndicesOptions indicesOptions() {
        return indicesOptions;
    }

    public TimeValue timeout() {
        return timeout;
    }

    @Override
    public String toString() {
        return "WaitForRefreshRequest[indices=" + Arrays.toString(indices) + ", timeout=" + timeout + "]";
    }
}
