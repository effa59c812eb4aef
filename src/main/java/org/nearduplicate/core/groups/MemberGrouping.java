package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.nearduplicate.core.groups.GroupMembers.Compacted;
import org.nearduplicate.core.groups.GroupMembers.Documents;
import org.nearduplicate.core.groups.GroupMembers.Group;
import org.nearduplicate.core.groups.GroupMembers.Grouped;
import org.nearduplicate.core.groups.GroupMembers.Member;
import org.nearduplicate.core.groups.GroupMembers.Mode;
import org.nearduplicate.core.groups.GroupMembers.Reserve;
import org.nearduplicate.core.groups.GroupMembers.Rule;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;

import static org.nearduplicate.core.groups.GroupMembers.GROUP_BYTES;
import static org.nearduplicate.core.groups.GroupMembers.MEMBER_BYTES;
import static org.nearduplicate.core.groups.GroupMembers.compareSignatures;
import static org.nearduplicate.core.groups.GroupMembers.hasNoSignature;

/**
 * {@link GroupMembers#group}: the documents read back from the shards, sorted by component, become groups, whole
 * ({@link Mode#COMPONENTS}) or split around representatives ({@link Mode#REPRESENTATIVE}).
 */
final class MemberGrouping {
    private MemberGrouping() {}

    /** {@link GroupMembers#group(List, long[], int[], byte[], int[], long[], Mode, Rule, Reserve, Runnable)} of {@code run}. */
    static Grouped group(List<? extends Documents> lists, Compacted run, Mode mode, Rule rule, Reserve reserve, Runnable checkCancelled) {
        long[] distinct = run.distinct(), pairsOfRoot = run.pairsOfRoot();
        int[] unitStart = run.unitStart(), root = run.root();
        byte[] unitSignatures = run.unitSignatures();
        long total = 0;
        long objectBytes = 0;
        for (Documents docs : lists) {
            total += docs.size();
            for (int i = 0; i < docs.size(); i++)
                objectBytes += MEMBER_BYTES + 2L * docs.textBytes(i);
        }
        objectBytes += GROUP_BYTES * (total / 2);
        // every member as (component, member index), sorted: a group's members are then one run
        reserve.reserve(8L * total, "members by group");
        long[] byRoot = new long[Math.toIntExact(total)];
        int found = 0;
        for (int l = 0, base = 0; l < lists.size(); base += lists.get(l).size(), l++) {
            Documents docs = lists.get(l);
            for (int i = 0; i < docs.size(); i++) {
                int at = unit(distinct, unitStart, unitSignatures, docs.fingerprint(i), docs.signature(i));
                if (at < 0 || pairsOfRoot[root[at]] == 0) continue; // written during the run, or in no group
                byRoot[found++] = ((long) root[at] << 32) | (base + i);
            }
        }
        Arrays.sort(byRoot, 0, found);
        int[] starts = new int[lists.size() + 1];
        for (int l = 0; l < lists.size(); l++)
            starts[l + 1] = starts[l] + lists.get(l).size();
        reserve.reserve(objectBytes, "groups of " + total + " documents");
        boolean[] assigned = null;
        int[] chosen = null;
        if (mode == Mode.REPRESENTATIVE) {
            // the flags and positions, and one group's distinct fingerprints and counts at a time (at most every document's)
            reserve.reserve(16L + found + 16L + 4L * found + 16L + 12L * found, "representatives");
            assigned = new boolean[found];
            chosen = new int[found];
        }
        List<Group> groups = new ArrayList<>();
        for (int from = 0; from < found;) {
            int component = (int) (byRoot[from] >>> 32);
            int to = from + 1;
            while (to < found && (int) (byRoot[to] >>> 32) == component)
                to++;
            if (groups.size() % 1024 == 0) checkCancelled.run();
            if (to - from >= 2) { // fewer: its partners were deleted during the run
                List<Member> members = new ArrayList<>(to - from);
                for (int m = from; m < to; m++) {
                    int global = (int) byRoot[m];
                    int l = Arrays.binarySearch(starts, global);
                    if (l < 0) l = -l - 2;
                    while (l + 1 < starts.length && starts[l + 1] == global)
                        l++; // empty lists share a start
                    Documents docs = lists.get(l);
                    int i = global - starts[l];
                    members.add(new Member(docs.id(i), docs.routing(i), docs.fingerprint(i), 0, docs.signature(i), docs.written(i)));
                }
                if (mode == Mode.COMPONENTS) {
                    groups.add(group(members, pairsOfRoot[component]));
                } else {
                    representatives(members, rule, assigned, chosen, groups, checkCancelled);
                }
            }
            from = to;
        }
        groups.sort(Comparator.comparing(Group::representative));
        return new Grouped(groups, objectBytes);
    }

    /** The unit of a document: its fingerprint's unit with the same signature; -1 when there is none. */
    private static int unit(long[] distinct, int[] unitStart, byte[] unitSignatures, long fingerprint, byte[] signature) {
        int f = Arrays.binarySearch(distinct, fingerprint);
        if (f < 0 || unitStart == null) return f;
        for (int u = unitStart[f]; u < unitStart[f + 1]; u++) {
            if (signature == null ? hasNoSignature(unitSignatures, u) : compareSignatures(unitSignatures, u, signature, 0) == 0) return u;
        }
        return -1;
    }

    /** The group of {@code members} around their smallest id ({@link Mode#COMPONENTS}). */
    private static Group group(List<Member> members, long verifiedPairs) {
        Member rep = members.get(0);
        for (Member m : members)
            if (m.id().compareTo(rep.id()) < 0) rep = m;
        return group(rep, members, verifiedPairs);
    }

    /** The group of {@code members} around {@code rep}: distances to it, members sorted by distance then id. */
    private static Group group(Member rep, List<Member> members, long verifiedPairs) {
        for (int m = 0; m < members.size(); m++) {
            Member member = members.get(m);
            int distance = Fingerprints.distance(rep.fingerprint(), member.fingerprint());
            members.set(m, member.at(distance));
        }
        members.sort(Comparator.comparingInt(Member::distance).thenComparing(Member::id));
        return new Group(rep.id(), members, verifiedPairs);
    }

    /**
     * One component's groups in {@link Mode#REPRESENTATIVE} mode. The representatives: in {@code _id} order, the first
     * unassigned document takes every unassigned document that matches it by {@code rule}. Then every other document
     * joins the representative it matches {@linkplain #closer most closely}, which is the one that took it or a later
     * one; a representative left without members is in no group. {@code assigned} and {@code chosen} have room for
     * the component.
     */
    private static void representatives(
        List<Member> component,
        Rule rule,
        boolean[] assigned,
        int[] chosen,
        List<Group> groups,
        Runnable checkCancelled
    ) {
        component.sort(Comparator.comparing(Member::id));
        int n = component.size();
        Arrays.fill(assigned, 0, n, false);
        int representatives = 0; // chosen[0, representatives) are the representatives' positions, in _id order
        long work = 0;
        for (int r = 0; r < n; r++) {
            if (assigned[r]) continue;
            assigned[r] = true;
            chosen[representatives++] = r;
            Member representative = component.get(r);
            for (int m = r + 1; m < n; m++) {
                Member candidate = component.get(m);
                if (assigned[m] == false
                    && rule.matches(
                        representative.fingerprint(),
                        representative.signature(),
                        candidate.fingerprint(),
                        candidate.signature()
                    )) {
                    assigned[m] = true;
                }
            }
            work += n - r;
            if (work >= 1 << 20) {
                work = 0;
                checkCancelled.run();
            }
        }
        if (representatives == n) return; // every document is its own representative: no group
        // from here on assigned[] marks the representatives
        Arrays.fill(assigned, 0, n, false);
        for (int i = 0; i < representatives; i++)
            assigned[chosen[i]] = true;
        List<List<Member>> members = new ArrayList<>(representatives);
        for (int i = 0; i < representatives; i++)
            members.add(null);
        for (int m = 0; m < n; m++) {
            if (assigned[m]) continue;
            Member member = component.get(m);
            int best = -1, bestAgreeing = -1, bestDistance = Integer.MAX_VALUE; // the best one's closeness, kept
            for (int i = 0; i < representatives; i++) {
                Member representative = component.get(chosen[i]);
                if (rule.matches(representative.fingerprint(), representative.signature(), member.fingerprint(), member.signature())) {
                    int agreeing = agreeing(member, representative);
                    int distance = Fingerprints.distance(member.fingerprint(), representative.fingerprint());
                    if (best < 0 || closer(agreeing, distance, bestAgreeing, bestDistance)) {
                        best = i;
                        bestAgreeing = agreeing;
                        bestDistance = distance;
                    }
                }
            }
            work += representatives;
            if (work >= 1 << 20) {
                work = 0;
                checkCancelled.run();
            }
            if (members.get(best) == null) members.set(best, new ArrayList<>(List.of(component.get(chosen[best]))));
            members.get(best).add(member);
        }
        for (int i = 0; i < representatives; i++) {
            List<Member> group = members.get(i);
            if (group != null) groups.add(group(group.get(0), group, pairsWithin(group, rule, checkCancelled)));
        }
    }

    /**
     * Whether {@code member} is closer to representative {@code a} than to {@code b} (both matching it, {@code b} the
     * earlier in {@code _id} order): more agreeing signature slots when all three carry one (the Jaccard estimate, the
     * verified similarity), then the smaller Hamming distance; on a tie the earlier representative stays.
     */
    static boolean closer(Member member, Member a, Member b) {
        return closer(
            agreeing(member, a),
            Fingerprints.distance(member.fingerprint(), a.fingerprint()),
            agreeing(member, b),
            Fingerprints.distance(member.fingerprint(), b.fingerprint())
        );
    }

    /** {@link #closer(Member, Member, Member)} on each side's agreeing slots ({@code -1}: no signature) and distance. */
    private static boolean closer(int agreeingA, int distanceA, int agreeingB, int distanceB) {
        if (agreeingA >= 0 && agreeingB >= 0 && agreeingA != agreeingB) return agreeingA > agreeingB;
        return distanceA < distanceB;
    }

    /** The slots on which two members' signatures agree; {@code -1} when either has none. */
    private static int agreeing(Member a, Member b) {
        return a.signature() == null || b.signature() == null ? -1 : Signature.agreeingSlots(a.signature(), 0, b.signature(), 0);
    }

    /** The pairs of {@code members} that match by {@code rule}, counted over their distinct units (fingerprint, signature). */
    private static long pairsWithin(List<Member> members, Rule rule, Runnable checkCancelled) {
        Member[] units = members.toArray(new Member[0]);
        Comparator<Member> byUnit = Comparator.comparingLong(Member::fingerprint)
            .thenComparing(Member::signature, Comparator.nullsFirst(Arrays::compareUnsigned));
        Arrays.sort(units, byUnit);
        int d = 0;
        int[] counts = new int[units.length];
        for (int i = 0; i < units.length; i++) {
            if (d > 0 && byUnit.compare(units[d - 1], units[i]) == 0) {
                counts[d - 1]++;
            } else {
                units[d] = units[i];
                counts[d++] = 1;
            }
        }
        long pairs = 0;
        for (int i = 0; i < d; i++) {
            pairs += (long) counts[i] * (counts[i] - 1) / 2;
            for (int j = i + 1; j < d; j++) {
                if (rule.matches(units[i].fingerprint(), units[i].signature(), units[j].fingerprint(), units[j].signature())) {
                    pairs += (long) counts[i] * counts[j];
                }
            }
            if (i % 1024 == 1023) checkCancelled.run();
        }
        return pairs;
    }
}
