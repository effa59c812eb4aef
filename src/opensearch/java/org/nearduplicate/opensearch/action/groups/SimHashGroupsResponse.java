package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.core.groups.SignatureBands;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.orchestration.groups.GroupsPage.Group;
import org.nearduplicate.orchestration.groups.RunSummary;

/** Counts and one page of groups. */
public class SimHashGroupsResponse extends GroupsResponse {

    private final long candidatePairs;
    private final long verifiedPairs;
    private final long groupCount;
    private final long docsInGroups;
    private final HammingGroups.Plan plan;
    private final List<Group> groups;
    private final String nextAfter;

    public SimHashGroupsResponse(
        RunSummary run,
        long candidatePairs,
        long verifiedPairs,
        long groupCount,
        long docsInGroups,
        HammingGroups.Plan plan,
        List<Group> groups,
        String nextAfter
    ) {
        super(run);
        this.candidatePairs = candidatePairs;
        this.verifiedPairs = verifiedPairs;
        this.groupCount = groupCount;
        this.docsInGroups = docsInGroups;
        this.plan = plan;
        this.groups = groups;
        this.nextAfter = nextAfter;
    }

    public SimHashGroupsResponse(StreamInput in) throws IOException {
        super(in);
        candidatePairs = in.readVLong();
        verifiedPairs = in.readVLong();
        groupCount = in.readVLong();
        docsInGroups = in.readVLong();
        plan = new HammingGroups.Plan(in.readVInt(), in.readVInt(), in.readVInt(), in.readVInt(), in.readDouble(), in.readVInt());
        int n = in.readVInt();
        groups = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String rep = in.readString();
            int size = in.readVInt();
            long pairs = in.readVLong();
            int m = in.readVInt();
            List<GroupMembers.Member> members = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                members.add(new GroupMembers.Member(in.readString(), in.readOptionalString(), in.readLong(), in.readVInt()));
            }
            groups.add(new Group(rep, size, pairs, members));
        }
        nextAfter = in.readOptionalString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        writeRun(out);
        out.writeVLong(candidatePairs);
        out.writeVLong(verifiedPairs);
        out.writeVLong(groupCount);
        out.writeVLong(docsInGroups);
        out.writeVInt(plan.blocks());
        out.writeVInt(plan.keyBlocks());
        out.writeVInt(plan.tables());
        out.writeVInt(plan.bucketBits());
        out.writeDouble(plan.estimatedComparisons());
        out.writeVInt(plan.lshPartitions());
        out.writeVInt(groups.size());
        for (Group g : groups) {
            out.writeString(g.representative());
            out.writeVInt(g.size());
            out.writeVLong(g.verifiedPairs());
            out.writeVInt(g.members().size());
            for (GroupMembers.Member m : g.members()) {
                out.writeString(m.id());
                out.writeOptionalString(m.routing());
                out.writeLong(m.fingerprint());
                out.writeVInt(m.distance());
            }
        }
        out.writeOptionalString(nextAfter);
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        startRun(builder);
        builder.startObject("counts");
        builder.field("docs_scanned", run.docsScanned());
        builder.field("candidate_pairs", candidatePairs);
        builder.field("verified_pairs", verifiedPairs);
        builder.field("groups", groupCount);
        builder.field("docs_in_groups", docsInGroups);
        builder.endObject();
        chanceMatches(builder);
        // how the run was cut (Manku's tables): what the cost of another max_distance would be is in docs/workflows.md
        // exact: every pair within k (Manku's tables); lsh: candidates from bands of the signatures, every one verified,
        // a pair at the min_similarity threshold found with probability recall_at_threshold (more agreeing ones: higher)
        builder.startObject("plan");
        builder.field("candidates", plan.candidates());
        if (plan.lsh()) {
            builder.field("bands", SignatureBands.BANDS);
            builder.field("slots_per_band", SignatureBands.SLOTS_PER_BAND);
            builder.field("passes", plan.tables());
            if (Double.isNaN(run.minSimilarity()) == false) {
                builder.field("recall_at_threshold", SignatureBands.recallAt(Signature.minAgreeing(run.minSimilarity())));
            }
            builder.field("exact_estimated_comparisons", (long) plan.estimatedComparisons());
        } else {
            builder.field("blocks", plan.blocks());
            builder.field("key_blocks", plan.keyBlocks());
            builder.field("tables", plan.tables());
        }
        builder.endObject();
        builder.startArray("groups");
        for (Group g : groups) {
            builder.startObject();
            builder.field("representative", g.representative());
            builder.field("size", g.size());
            builder.field("verified_pairs", g.verifiedPairs());
            builder.startArray("members");
            for (GroupMembers.Member m : g.members()) {
                builder.startObject().field("_id", m.id());
                if (m.routing() != null) builder.field("_routing", m.routing());
                builder.field("fingerprint", Fingerprints.toHex(m.fingerprint())).field("distance", m.distance()).endObject();
            }
            builder.endArray();
            builder.endObject();
        }
        builder.endArray();
        if (nextAfter != null) {
            builder.field("next_after", nextAfter);
        }
        builder.endObject();
        return builder;
    }

    @Override
    protected Map<String, Object> counts() {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("candidate_pairs", candidatePairs);
        counts.put("verified_pairs", verifiedPairs);
        counts.put("groups", groupCount);
        counts.put("docs_in_groups", docsInGroups);
        counts.put("page", groups.size() + " groups");
        if (nextAfter != null) counts.put("next_after", nextAfter);
        return counts;
    }

    public long candidatePairs() {
        return candidatePairs;
    }

    public long verifiedPairs() {
        return verifiedPairs;
    }

    public long groupCount() {
        return groupCount;
    }

    public long docsInGroups() {
        return docsInGroups;
    }

    public List<Group> groups() {
        return groups;
    }

    public String nextAfter() {
        return nextAfter;
    }
}
