package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionType;

/** Internal, per shard: the block keys of one page of the key space, with the fingerprints and ids sharing them. */
public class NearDuplicateShardKeysAction extends ActionType<NearDuplicateShardKeysResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/groups[keys]";
    public static final NearDuplicateShardKeysAction INSTANCE = new NearDuplicateShardKeysAction();

    private NearDuplicateShardKeysAction() {
        super(NAME, NearDuplicateShardKeysResponse::new);
    }
}
