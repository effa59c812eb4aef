package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionType;

/** {@code POST /{index}/_near_duplicates}: all groups of near-duplicates (within k) of an index. */
public class SimHashGroupsAction extends ActionType<SimHashGroupsResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/groups";
    public static final SimHashGroupsAction INSTANCE = new SimHashGroupsAction();

    private SimHashGroupsAction() {
        super(NAME, SimHashGroupsResponse::new);
    }
}
