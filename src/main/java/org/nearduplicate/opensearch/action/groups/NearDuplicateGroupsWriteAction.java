package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionType;

/** {@code POST /{index}/_near_duplicates/_write}: computes the groups and writes them into the documents, as a task. */
public class NearDuplicateGroupsWriteAction extends ActionType<NearDuplicateGroupsWriteResponse> {
    public static final String NAME = "indices:data/write/near_duplicate/groups";
    public static final NearDuplicateGroupsWriteAction INSTANCE = new NearDuplicateGroupsWriteAction();

    private NearDuplicateGroupsWriteAction() {
        super(NAME, NearDuplicateGroupsWriteResponse::new);
    }
}
