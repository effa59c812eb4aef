package org.nearduplicate.opensearch.action.check;

import org.nearduplicate.opensearch.common.PlatformActionType;

/** Internal, one shard copy's part of {@link WaitForRefreshAction}. */
public class CopyRefreshAction extends PlatformActionType<WaitForRefreshResponse> {
    public static final String NAME = WaitForRefreshAction.NAME + "[copy]";
    public static final CopyRefreshAction INSTANCE = new CopyRefreshAction();

    private CopyRefreshAction() {
        super(NAME, WaitForRefreshResponse::new);
    }
}
