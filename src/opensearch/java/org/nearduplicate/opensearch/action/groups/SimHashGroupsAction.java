package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.opensearch.common.PlatformActionType;

/** {@code POST /{index}/_near_duplicates}: all groups of near-duplicates (within k) of an index. */
public class SimHashGroupsAction extends PlatformActionType<SimHashGroupsResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/groups";
    public static final SimHashGroupsAction INSTANCE = new SimHashGroupsAction();

    private SimHashGroupsAction() {
        super(NAME, SimHashGroupsResponse::new);
    }
}
