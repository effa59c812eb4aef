package org.nearduplicate.elasticsearch.action.groups;

import java.io.IOException;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.StreamInput;

/**
 * A request on the one index or alias it names, strictly (no wildcards, no closed index), as the groups requests are;
 * the name is the first thing on the wire. Each adapter has its own class of this name: here security may replace the
 * name with its resolution ({@link #indices(String...)}).
 */
abstract class OneIndexRequest extends ActionRequest implements IndicesRequest.Replaceable {
    /** The index or alias named; security may replace it with what it resolved. */
    protected String index;

    protected OneIndexRequest(String index) {
        this.index = index;
    }

    protected OneIndexRequest(StreamInput in) throws IOException {
        super(in);
        this.index = in.readString();
    }

    @Override
    public String[] indices() {
        return new String[] { index };
    }

    /**
     * Security's resolution of the named index or alias (a date math name resolved; wildcards are not expanded with
     * these options). More than one name is kept as a list, which {@code singleIndex} refuses as the API does.
     */
    @Override
    public IndicesRequest indices(String... indices) {
        this.index = indices == null ? null : String.join(",", indices);
        return this;
    }

    @Override
    public IndicesOptions indicesOptions() {
        return IndicesOptions.strictSingleIndexNoExpandForbidClosed();
    }

    public String index() {
        return index;
    }
}
