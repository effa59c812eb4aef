package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionType;

/**
 * Internal, per shard: the fingerprints of the shard's live documents (sorted), or, given a set of fingerprints, the
 * {@code _id} and routing of the documents holding one of them.
 */
public class NearDuplicateShardFingerprintsAction extends ActionType<NearDuplicateShardFingerprintsResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/groups[fingerprints]";
    public static final NearDuplicateShardFingerprintsAction INSTANCE = new NearDuplicateShardFingerprintsAction();

    private NearDuplicateShardFingerprintsAction() {
        super(NAME, NearDuplicateShardFingerprintsResponse::new);
    }
}
