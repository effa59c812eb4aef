package org.nearduplicate.elasticsearch.common;

import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.common.io.stream.Writeable;

/** An action's name and the reader of its response from the transport (which only OpenSearch needs). */
public class PlatformActionType<R extends ActionResponse> extends ActionType<R> {
    protected PlatformActionType(String name, Writeable.Reader<R> responseReader) {
        super(name);
    }
}
