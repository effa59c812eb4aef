package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.nearduplicate.core.sketch.Fingerprints;

/**
 * The platform-neutral steps of a groups run around {@link HammingGroups}: the k-way merge of the shards' sorted
 * fingerprints into distinct values and counts, the choice of the fingerprints whose component holds two or more
 * documents, and the grouping of the documents read back by component. The adapter only moves the arrays between
 * nodes and accounts their memory: every allocation here is announced to a {@link Reserve} first, in the same order
 * and with the same labels whatever the platform.
 */
public final class GroupMembers {

    /** A member of a group: its document, fingerprint and distance to the representative's fingerprint. */
    public record Member(String id, String routing, long fingerprint, int distance) {
    }

    /** A group of two or more documents; {@code representative} is its smallest {@code _id}. */
    public record Group(String representative, List<Member> members, long verifiedPairs) {
    }

    /** Documents read back from one shard: fingerprint, {@code _id} and routing by position. */
    public interface Documents {
        int size();

        long fingerprint(int i);

        String id(int i);

        /** The custom routing of document {@code i}, or null. */
        String routing(int i);

        /** The UTF-8 length of document {@code i}'s id and routing. */
        int textBytes(int i);
    }

    /** Memory accounting (a platform's circuit breaker): throws the platform's exception when {@code bytes} cannot be had. */
    public interface Reserve {
        void reserve(long bytes, String what);
    }

    /** Heap of one member once grouped, beyond its id's and routing's bytes: the record, two strings, list slots. */
    public static final long MEMBER_BYTES = 32 + 2 * 40 + 8;
    /** Heap of one group beyond its members: the record and its list. */
    public static final long GROUP_BYTES = 32 + 40;

    private GroupMembers() {}

    /** Merges the shards' sorted arrays into {@code distinct} and {@code counts}; returns the number of distinct values. */
    public static int merge(List<long[]> sortedArrays, long[] distinct, int[] counts) {
        List<long[]> arrays = new ArrayList<>(sortedArrays.size());
        for (long[] a : sortedArrays) {
            if (a.length > 0) arrays.add(a);
        }
        int[] at = new int[arrays.size()];
        int n = 0;
        while (true) {
            int best = -1;
            for (int a = 0; a < arrays.size(); a++) {
                if (at[a] < arrays.get(a).length && (best < 0 || arrays.get(a)[at[a]] < arrays.get(best)[at[best]])) best = a;
            }
            if (best < 0) return n;
            long v = arrays.get(best)[at[best]++];
            if (n > 0 && distinct[n - 1] == v) {
                counts[n - 1]++;
            } else {
                distinct[n] = v;
                counts[n++] = 1;
            }
        }
    }

    /**
     * The fingerprints of the groups: of the components {@code grouped} found, those holding two or more documents.
     *
     * @param fingerprints sorted, of the fingerprints in groups
     * @param docs how many documents have them
     * @param pairsOfRoot per component root, its verified pairs
     * @param identicalPairs pairs of documents with the same fingerprint
     */
    public record Selection(long[] fingerprints, long docs, long[] pairsOfRoot, long identicalPairs) {
    }

    /** Selects the fingerprints of every group from the distinct fingerprints, their counts and their components. */
    public static Selection select(long[] distinct, int[] counts, HammingGroups.Result grouped, Reserve reserve) {
        int n = distinct.length;
        reserve.reserve(12L * n, "group sizes and pairs");
        int[] root = grouped.roots();
        int[] docsOfRoot = new int[n];
        for (int i = 0; i < n; i++)
            docsOfRoot[root[i]] = (int) Math.min(Integer.MAX_VALUE, (long) docsOfRoot[root[i]] + counts[i]);
        int wanted = 0;
        long wantedDocs = 0;
        for (int i = 0; i < n; i++) {
            if (docsOfRoot[root[i]] > 1) {
                wanted++;
                wantedDocs += counts[i];
            }
        }
        reserve.reserve(8L * wanted, "fingerprints in groups");
        long[] inGroups = new long[wanted];
        long[] pairsOfRoot = new long[n];
        for (int i = 0, w = 0; i < n; i++) {
            if (docsOfRoot[root[i]] < 2) continue;
            inGroups[w++] = distinct[i];
            pairsOfRoot[root[i]] += grouped.pairsAt(i);
        }
        long identicalPairs = 0;
        for (int c : counts)
            identicalPairs += (long) c * (c - 1) / 2;
        return new Selection(inGroups, wantedDocs, pairsOfRoot, identicalPairs);
    }

    /** The groups of {@link #group} and the bytes reserved for their objects (they stay with the groups). */
    public record Grouped(List<Group> groups, long bytes) {
    }

    /**
     * The members read from the shards, grouped by component; representative = smallest {@code _id}; groups sorted by
     * representative, members by distance then id. A document whose fingerprint is not among {@code distinct} was
     * written during the run and is left out, as is a component left with one member (its partners were deleted).
     * Reserves {@code 8 * documents} bytes of sort keys (garbage once this returns) and then the groups' objects.
     *
     * @param root per distinct fingerprint, its component's root ({@link HammingGroups.Result#roots})
     * @param checkCancelled runs every 1024 groups; throws to stop
     */
    public static Grouped group(
        List<? extends Documents> lists,
        long[] distinct,
        int[] root,
        long[] pairsOfRoot,
        Reserve reserve,
        Runnable checkCancelled
    ) {
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
                int at = Arrays.binarySearch(distinct, docs.fingerprint(i));
                if (at < 0) continue; // a fingerprint written during the run
                byRoot[found++] = ((long) root[at] << 32) | (base + i);
            }
        }
        Arrays.sort(byRoot, 0, found);
        int[] starts = new int[lists.size() + 1];
        for (int l = 0; l < lists.size(); l++)
            starts[l + 1] = starts[l] + lists.get(l).size();
        reserve.reserve(objectBytes, "groups of " + total + " documents");
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
                    members.add(new Member(docs.id(i), docs.routing(i), docs.fingerprint(i), 0));
                }
                Member rep = members.get(0);
                for (Member m : members)
                    if (m.id().compareTo(rep.id()) < 0) rep = m;
                for (int m = 0; m < members.size(); m++) {
                    Member member = members.get(m);
                    int distance = Fingerprints.distance(rep.fingerprint(), member.fingerprint());
                    members.set(m, new Member(member.id(), member.routing(), member.fingerprint(), distance));
                }
                members.sort(Comparator.comparingInt(Member::distance).thenComparing(Member::id));
                groups.add(new Group(rep.id(), members, pairsOfRoot[component]));
            }
            from = to;
        }
        groups.sort(Comparator.comparing(Group::representative));
        return new Grouped(groups, objectBytes);
    }
}
