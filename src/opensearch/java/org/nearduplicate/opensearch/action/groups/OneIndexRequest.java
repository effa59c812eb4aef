package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionRequest;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.core.common.io.stream.StreamInput;

import java.io.IOException;

/**
 * A request on the one index or alias it names, strictly (no wildcards, no closed index), as the groups requests are;
 * the name is the first thing on the wire. Each adapter has its own class of this name: Elasticsearch's security may
 * replace the name with its resolution.
 */
abstract class OneIndexRequest extends ActionRequest implements IndicesRequest {
    protected final String index;

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

    @Override
    public IndicesOptions indicesOptions() {
        return IndicesOptions.strictSingleIndexNoExpandForbidClosed();
    }

    public String index() {
        return index;
    }
}
