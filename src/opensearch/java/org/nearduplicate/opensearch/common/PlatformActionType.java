package org.nearduplicate.opensearch.common;

import org.opensearch.action.ActionType;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.Writeable;

/** An action's name and the reader of its response from the transport (which only OpenSearch needs). */
public class PlatformActionType<R extends ActionResponse> extends ActionType<R> {
    protected PlatformActionType(String name, Writeable.Reader<R> responseReader) {
        super(name, responseReader);
    }
}
