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

    /**
     * How the documents of one component of the "within k" graph become groups. {@link #COMPONENTS}: the component is
     * the group (a chain a~b~c joins a and c even when they are far apart). {@link #REPRESENTATIVE}: the component's
     * documents are taken in {@code _id} order; the first one not yet assigned is a representative and its group is
     * every unassigned document of the component within k of the representative's fingerprint; repeat until every
     * document is assigned. Every member is then within k of its representative, whose {@code _id} is the group's
     * smallest; a representative left alone is in no group.
     */
    public enum Mode {
        REPRESENTATIVE,
        COMPONENTS;

        /** The name in a request body. */
        public String jsonName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The mode named {@code name} in a request body. */
        public static Mode parse(String name) {
            for (Mode m : values()) {
                if (m.jsonName().equals(name)) return m;
            }
            throw new IllegalArgumentException("[mode] must be [representative] or [components], got [" + name + "]");
        }
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
        return group(lists, distinct, root, pairsOfRoot, Mode.COMPONENTS, 0, reserve, checkCancelled);
    }

    /**
     * As {@link #group(List, long[], int[], long[], Reserve, Runnable)} with the groups of {@code mode} at
     * {@code maxDistance}. In {@link Mode#REPRESENTATIVE} mode a component may split into several groups (and
     * documents left alone are in none); a group's {@code verifiedPairs} is then the number of pairs of its members
     * within {@code maxDistance}. It also reserves 13 bytes per document (assigned flags, a group's fingerprints and counts).
     */
    public static Grouped group(
        List<? extends Documents> lists,
        long[] distinct,
        int[] root,
        long[] pairsOfRoot,
        Mode mode,
        int maxDistance,
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
        boolean[] assigned = null;
        if (mode == Mode.REPRESENTATIVE) {
            // the flags, and one group's distinct fingerprints and counts at a time (at most every document's)
            reserve.reserve(16L + found + 16L + 12L * found, "representatives");
            assigned = new boolean[found];
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
                    members.add(new Member(docs.id(i), docs.routing(i), docs.fingerprint(i), 0));
                }
                if (mode == Mode.COMPONENTS) {
                    groups.add(group(members, pairsOfRoot[component]));
                } else {
                    representatives(members, maxDistance, assigned, groups, checkCancelled);
                }
            }
            from = to;
        }
        groups.sort(Comparator.comparing(Group::representative));
        return new Grouped(groups, objectBytes);
    }

    /** The group of {@code members}: representative = smallest id, distances to it, sorted by distance then id. */
    private static Group group(List<Member> members, long verifiedPairs) {
        Member rep = members.get(0);
        for (Member m : members)
            if (m.id().compareTo(rep.id()) < 0) rep = m;
        for (int m = 0; m < members.size(); m++) {
            Member member = members.get(m);
            int distance = Fingerprints.distance(rep.fingerprint(), member.fingerprint());
            members.set(m, new Member(member.id(), member.routing(), member.fingerprint(), distance));
        }
        members.sort(Comparator.comparingInt(Member::distance).thenComparing(Member::id));
        return new Group(rep.id(), members, verifiedPairs);
    }

    /**
     * One component's groups in {@link Mode#REPRESENTATIVE} mode: in {@code _id} order, the first unassigned document
     * takes every unassigned document within {@code k} of its fingerprint. {@code assigned} has room for the component.
     */
    private static void representatives(List<Member> component, int k, boolean[] assigned, List<Group> groups, Runnable checkCancelled) {
        component.sort(Comparator.comparing(Member::id));
        int n = component.size();
        Arrays.fill(assigned, 0, n, false);
        long work = 0;
        for (int r = 0; r < n; r++) {
            if (assigned[r]) continue;
            assigned[r] = true;
            long fingerprint = component.get(r).fingerprint();
            List<Member> members = null;
            for (int m = r + 1; m < n; m++) {
                if (assigned[m] == false && Fingerprints.distance(fingerprint, component.get(m).fingerprint()) <= k) {
                    assigned[m] = true;
                    if (members == null) {
                        members = new ArrayList<>();
                        members.add(component.get(r));
                    }
                    members.add(component.get(m));
                }
            }
            work += n - r;
            if (work >= 1 << 20) {
                work = 0;
                checkCancelled.run();
            }
            if (members != null) groups.add(group(members, pairsWithin(members, k, checkCancelled)));
        }
    }

    /** The pairs of {@code members} within {@code k}, counted over their distinct fingerprints. */
    private static long pairsWithin(List<Member> members, int k, Runnable checkCancelled) {
        long[] fingerprints = new long[members.size()];
        for (int m = 0; m < fingerprints.length; m++)
            fingerprints[m] = members.get(m).fingerprint();
        Arrays.sort(fingerprints);
        int d = 0;
        int[] counts = new int[fingerprints.length];
        for (int i = 0; i < fingerprints.length; i++) {
            if (d > 0 && fingerprints[d - 1] == fingerprints[i]) {
                counts[d - 1]++;
            } else {
                fingerprints[d] = fingerprints[i];
                counts[d++] = 1;
            }
        }
        long pairs = 0;
        for (int i = 0; i < d; i++) {
            pairs += (long) counts[i] * (counts[i] - 1) / 2;
            for (int j = i + 1; j < d; j++) {
                if (Fingerprints.distance(fingerprints[i], fingerprints[j]) <= k) pairs += (long) counts[i] * counts[j];
            }
            if (i % 1024 == 1023) checkCancelled.run();
        }
        return pairs;
    }
}
