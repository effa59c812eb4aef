package org.nearduplicate.opensearch.action.check;

import org.nearduplicate.opensearch.common.PlatformActionType;

/**
 * Internal, for {@code near_duplicate_check}: answers once the writes that every started shard copy of the named
 * indices had when it was asked are searchable on that copy, as {@code refresh=wait_for} waits for one write. A read
 * action, so the privileges that let a user search the target let them wait for it.
 */
public class WaitForRefreshAction extends PlatformActionType<WaitForRefreshResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/wait_for_refresh";
    public static final WaitForRefreshAction INSTANCE = new WaitForRefreshAction();

    private WaitForRefreshAction() {
        super(NAME, WaitForRefreshResponse::new);
    }
}
