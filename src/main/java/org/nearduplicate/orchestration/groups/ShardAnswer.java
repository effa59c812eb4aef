package org.nearduplicate.orchestration.groups;

import org.nearduplicate.core.groups.GroupMembers;

/**
 * One shard's answer to a {@link ShardReads} read: the field's algorithm, whether its values carry verification
 * signatures, and either the sorted fingerprints of its visible documents (the fingerprints pass) or the documents
 * wanted (members, a singleton page, documents to clear).
 */
public interface ShardAnswer {
    String algorithm();

    /** Whether the field's algorithm carries verification signatures (its matches are verified). */
    boolean verifies();

    /** The fingerprints pass: one entry per visible document, sorted (signed order); null for a documents answer. */
    long[] fingerprints();

    /** The fingerprints pass's signatures, one per fingerprint, or null (none in the shard). */
    byte[] signatures();

    /** The fingerprints, handed over: the answer lets go of them so that they can be collected once merged. */
    long[] takeFingerprints();

    /** The signatures, handed over with {@link #takeFingerprints}. */
    byte[] takeSignatures();

    /** A documents answer: the documents found; null for the fingerprints pass. */
    GroupMembers.Documents docs();

    /** A singleton page: the {@code _seq_no} the next page starts from. */
    long nextSeqNo();

    /** A singleton page: the pass's last {@code _seq_no} (-1: the shard has no document). */
    long toSeqNo();

    /** Heap held by this answer, for the breaker. */
    long ramBytes();
}
