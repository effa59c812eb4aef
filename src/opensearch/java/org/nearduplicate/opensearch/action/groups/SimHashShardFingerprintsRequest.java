package org.nearduplicate.opensearch.action.groups;

import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.search.internal.AliasFilter;

import java.io.IOException;

import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.opensearch.common.AuthorizedShardRequest;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.orchestration.groups.SortedFingerprints;

/**
 * One shard's part of a groups run. Without {@code members}: every live document's fingerprint. With {@code members}
 * (sorted, distinct): the documents whose fingerprint is one of them, with their {@code _id}, routing and signature.
 * The write-back's stale pass may give {@code memberSignatures} too: its members are then units (fingerprint and
 * signature; sorted by fingerprint, which may repeat), and a document is a member only if its unit is one of them.
 * The singleton pass asks for one page of the documents with a fingerprint that are in no group and do not carry their
 * own {@code _id} as group yet, by {@code _seq_no} range.
 */
public class SimHashShardFingerprintsRequest extends AuthorizedShardRequest<SimHashShardFingerprintsRequest> {
    private final ShardId shardId;
    private final String field;
    private final long[] members;
    /** {@link Signature#BYTES} per member (zeros: none), or null: members are fingerprints alone. */
    private final byte[] memberSignatures;
    /** Set for the write-back's stale pass: documents holding this field whose fingerprint is not in {@code members}. */
    private final String staleField;
    /** The filter of the alias the run was asked through: documents it hides are not read. */
    private final AliasFilter aliasFilter;
    /**
     * Set for the write-back's singleton pass (with {@code staleField}, the group field): one page of the visible
     * documents with a fingerprint whose unit is not among {@code members} and whose group is not already their own
     * {@code _id} at distance 0 (this field).
     */
    private final String distanceField;
    /** The singleton pass's page: {@code _seq_no} from (inclusive), to (inclusive; -1: the shard's current maximum). */
    private final long fromSeqNo;
    private final long toSeqNo;
    /** The singleton pass's page: at most this many documents. */
    private final int limit;
    /**
     * Set for the write-back's members pass: every member found also carries what these group fields hold
     * ({@link org.nearduplicate.core.groups.WrittenGroup}), so that members already right are not written again.
     */
    private final String writtenGroupField;
    private final String writtenDistanceField;

    public SimHashShardFingerprintsRequest(ShardId shardId, String field, long[] members, AliasFilter aliasFilter) {
        this(shardId, field, members, null, aliasFilter);
    }

    public SimHashShardFingerprintsRequest(ShardId shardId, String field, long[] members, String staleField, AliasFilter aliasFilter) {
        this(shardId, field, members, null, staleField, aliasFilter);
    }

    public SimHashShardFingerprintsRequest(
        ShardId shardId,
        String field,
        long[] members,
        byte[] memberSignatures,
        String staleField,
        AliasFilter aliasFilter
    ) {
        this(shardId, field, members, memberSignatures, staleField, null, 0, -1, 0, null, null, aliasFilter);
    }

    /** The write-back's members pass: the members with what {@code groupField} and {@code distanceField} hold. */
    public SimHashShardFingerprintsRequest(
        ShardId shardId,
        String field,
        long[] members,
        AliasFilter aliasFilter,
        String groupField,
        String distanceField
    ) {
        this(
            shardId,
            field,
            membersPass(members, groupField, distanceField),
            null,
            null,
            null,
            0,
            -1,
            0,
            groupField,
            distanceField,
            aliasFilter
        );
    }

    /** One page of the write-back's singleton pass (see {@link #distanceField()}). */
    public SimHashShardFingerprintsRequest(
        ShardId shardId,
        String field,
        long[] members,
        byte[] memberSignatures,
        String groupField,
        String distanceField,
        long fromSeqNo,
        long toSeqNo,
        int limit,
        AliasFilter aliasFilter
    ) {
        this(
            shardId,
            field,
            singletonPage(members, groupField, distanceField, limit),
            memberSignatures,
            groupField,
            distanceField,
            fromSeqNo,
            toSeqNo,
            limit,
            null,
            null,
            aliasFilter
        );
    }

    private SimHashShardFingerprintsRequest(
        ShardId shardId,
        String field,
        long[] members,
        byte[] memberSignatures,
        String staleField,
        String distanceField,
        long fromSeqNo,
        long toSeqNo,
        int limit,
        String writtenGroupField,
        String writtenDistanceField,
        AliasFilter aliasFilter
    ) {
        super(shardId.getIndexName());
        if (memberSignatures != null && (members == null || memberSignatures.length != Signature.BYTES * members.length)) {
            throw new IllegalArgumentException("one signature per member");
        }
        this.shardId = shardId;
        this.field = field;
        this.members = members;
        this.memberSignatures = memberSignatures;
        this.staleField = staleField;
        this.aliasFilter = aliasFilter == null ? AliasFilter.EMPTY : aliasFilter;
        this.distanceField = distanceField;
        this.fromSeqNo = fromSeqNo;
        this.toSeqNo = toSeqNo;
        this.limit = limit;
        this.writtenGroupField = writtenGroupField;
        this.writtenDistanceField = writtenDistanceField;
    }

    private static long[] membersPass(long[] members, String groupField, String distanceField) {
        if (members == null || (groupField == null) != (distanceField == null)) {
            throw new IllegalArgumentException("a members pass reads both group fields or neither");
        }
        return members;
    }

    private static long[] singletonPage(long[] members, String groupField, String distanceField, int limit) {
        if (members == null || groupField == null || distanceField == null || limit < 1) {
            throw new IllegalArgumentException("a singleton page needs members, both fields and a positive limit");
        }
        return members;
    }

    public SimHashShardFingerprintsRequest(StreamInput in) throws IOException {
        super(in);
        shardId = new ShardId(in);
        field = in.readString();
        members = in.readBoolean() ? SortedFingerprints.read(StreamWire.in(in)) : null;
        memberSignatures = in.readBoolean() ? in.readByteArray() : null;
        staleField = in.readOptionalString();
        aliasFilter = Platform.readAliasFilter(in);
        distanceField = in.readOptionalString();
        fromSeqNo = in.readZLong();
        toSeqNo = in.readZLong();
        limit = in.readVInt();
        writtenGroupField = in.readOptionalString();
        writtenDistanceField = in.readOptionalString();
        readAuthorization(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        shardId.writeTo(out);
        out.writeString(field);
        out.writeBoolean(members != null);
        if (members != null) SortedFingerprints.write(StreamWire.out(out), members, members.length);
        out.writeBoolean(memberSignatures != null);
        if (memberSignatures != null) out.writeByteArray(memberSignatures);
        out.writeOptionalString(staleField);
        aliasFilter.writeTo(out);
        out.writeOptionalString(distanceField);
        out.writeZLong(fromSeqNo);
        out.writeZLong(toSeqNo);
        out.writeVInt(limit);
        out.writeOptionalString(writtenGroupField);
        out.writeOptionalString(writtenDistanceField);
        writeAuthorization(out);
    }

    /** The group field whose values the members pass reads with each member, or null. */
    public String writtenGroupField() {
        return writtenGroupField;
    }

    /** The distance field read with {@link #writtenGroupField()}, or null. */
    public String writtenDistanceField() {
        return writtenDistanceField;
    }

    @Override
    public ActionRequestValidationException validate() {
        return validateNonNullIndex();
    }

    public ShardId shardId() {
        return shardId;
    }

    public String field() {
        return field;
    }

    /** The fingerprints whose documents are wanted, sorted and distinct; null for the fingerprints pass. */
    public long[] members() {
        return members;
    }

    /** The members' signatures ({@link Signature#BYTES} each, zeros: none), or null: members are fingerprints alone. */
    public byte[] memberSignatures() {
        return memberSignatures;
    }

    public String staleField() {
        return staleField;
    }

    public AliasFilter aliasFilter() {
        return aliasFilter;
    }

    /** The distance field of a singleton page (its group field is {@link #staleField()}); null for the other passes. */
    public String distanceField() {
        return distanceField;
    }

    public long fromSeqNo() {
        return fromSeqNo;
    }

    /** The last {@code _seq_no} of the pass, or -1 on its first page: the shard's current maximum. */
    public long toSeqNo() {
        return toSeqNo;
    }

    public int limit() {
        return limit;
    }

    /** What a log line shows of the request (a shard failure's): the shard, the field and the pass with its size. */
    @Override
    public String toString() {
        String pass;
        if (members == null) {
            pass = "fingerprints";
        } else if (distanceField != null) {
            pass = "singletons of " + members.length + " units, _seq_no[" + fromSeqNo + ".." + toSeqNo + "] limit[" + limit + "]";
        } else if (staleField != null) {
            pass = "stale [" + staleField + "] beside " + members.length + " members";
        } else {
            pass = "members of "
                + members.length
                + " fingerprints"
                + (writtenGroupField == null ? "" : " with [" + writtenGroupField + "]");
        }
        return "near_duplicate shard fingerprints " + shardId + " field[" + field + "] pass[" + pass + "]";
    }
}
