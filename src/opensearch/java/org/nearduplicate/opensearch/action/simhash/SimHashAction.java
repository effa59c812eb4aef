package org.nearduplicate.opensearch.action.simhash;

import org.nearduplicate.opensearch.common.PlatformActionType;

/**
 * {@code _simhash} without an index: fingerprints the request's own input with the request's settings and reads no
 * index, so it is a read-only cluster action ({@code cluster:monitor/*}): a role allows or denies it with a cluster
 * permission and needs no index privilege. With an index, see {@link IndexSimHashAction}.
 */
public class SimHashAction extends PlatformActionType<SimHashResponse> {
    public static final String NAME = "cluster:monitor/near_duplicate/simhash";
    public static final SimHashAction INSTANCE = new SimHashAction();

    private SimHashAction() {
        super(NAME, SimHashResponse::new);
    }
}
