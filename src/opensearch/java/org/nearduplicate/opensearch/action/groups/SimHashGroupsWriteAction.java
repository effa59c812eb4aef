package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.opensearch.common.PlatformActionType;

/** {@code POST /{index}/_near_duplicates/_write}: computes the groups and writes them into the documents, as a task. */
public class SimHashGroupsWriteAction extends PlatformActionType<SimHashGroupsWriteResponse> {
    public static final String NAME = "indices:data/write/near_duplicate/groups";
    public static final SimHashGroupsWriteAction INSTANCE = new SimHashGroupsWriteAction();

    private SimHashGroupsWriteAction() {
        super(NAME, SimHashGroupsWriteResponse::new);
    }
}
