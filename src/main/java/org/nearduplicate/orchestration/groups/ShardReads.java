package org.nearduplicate.orchestration.groups;

/**
 * The shards of the index a groups run reads, as the platform reaches them: each read is one shard request on the
 * run's field, through the request's index or alias (only the documents a search there sees), as a child of the run's
 * task. A write-back's reads also carry its group fields.
 */
public interface ShardReads {
    /** The index's number of shards. */
    int shards();

    /** The sorted fingerprints (and signatures) of the shard's visible documents. */
    void fingerprints(int shard, Listener<ShardAnswer> listener);

    /**
     * The documents whose fingerprint is one of {@code members} (sorted), with {@code _id}, routing, signature and,
     * for a write-back, what their group fields hold.
     */
    void members(int shard, long[] members, Listener<ShardAnswer> listener);

    /**
     * A page of the write-back's singleton pass: at most {@code limit} documents in no group (their unit is not among
     * {@code inGroups} and {@code inGroupSignatures}) that do not hold their own group yet, by {@code _seq_no} from
     * {@code fromSeqNo} up to {@code toSeqNo} (-1: the shard's last).
     */
    void singletons(
        int shard,
        long[] inGroups,
        byte[] inGroupSignatures,
        long fromSeqNo,
        long toSeqNo,
        int limit,
        Listener<ShardAnswer> listener
    );

    /** The documents without a fingerprint that hold the write-back's group field (to clear). */
    void stale(int shard, Listener<ShardAnswer> listener);
}
