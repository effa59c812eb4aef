package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.opensearch.common.PlatformActionType;

/**
 * Internal, per shard: the fingerprints of the shard's live documents (sorted), or, given a set of fingerprints, the
 * {@code _id} and routing of the documents holding one of them.
 */
public class SimHashShardFingerprintsAction extends PlatformActionType<SimHashShardFingerprintsResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/groups[fingerprints]";
    public static final SimHashShardFingerprintsAction INSTANCE = new SimHashShardFingerprintsAction();

    private SimHashShardFingerprintsAction() {
        super(NAME, SimHashShardFingerprintsResponse::new);
    }
}
