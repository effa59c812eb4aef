package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionType;

/** {@code POST /{index}/_near_duplicates}: all groups of near-duplicates (within k) of an index. */
public class NearDuplicateGroupsAction extends ActionType<NearDuplicateGroupsResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/groups";
    public static final NearDuplicateGroupsAction INSTANCE = new NearDuplicateGroupsAction();

    private NearDuplicateGroupsAction() {
        super(NAME, NearDuplicateGroupsResponse::new);
    }
}
