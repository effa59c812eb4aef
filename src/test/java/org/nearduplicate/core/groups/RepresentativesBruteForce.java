package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The rule of {@link GroupMembers.Mode#REPRESENTATIVE} written out plainly over all documents, for tests to compare
 * with: in {@code _id} order the first unassigned document is a representative and takes every unassigned document it
 * matches; then every other document joins the representative it matches with the most agreeing signature slots, then
 * the smallest distance, then the earliest. Groups of two or more, as (representative, member ids).
 */
public final class RepresentativesBruteForce {

    /** How two documents relate. */
    public interface Relation {
        boolean matches(String a, String b);

        /** Agreeing signature slots, or -1 when either has no signature. */
        int agreeing(String a, String b);

        int distance(String a, String b);
    }

    private RepresentativesBruteForce() {}

    public static Map<String, Set<String>> groups(SortedSet<String> ids, Relation relation) {
        List<String> order = new ArrayList<>(ids);
        Set<String> assigned = new java.util.HashSet<>();
        List<String> representatives = new ArrayList<>();
        for (int r = 0; r < order.size(); r++) {
            String representative = order.get(r);
            if (assigned.add(representative) == false) continue;
            representatives.add(representative);
            for (String m : order.subList(r + 1, order.size()))
                if (assigned.contains(m) == false && relation.matches(representative, m)) assigned.add(m);
        }
        Map<String, Set<String>> groups = new HashMap<>();
        Set<String> isRepresentative = new java.util.HashSet<>(representatives);
        for (String m : order) {
            if (isRepresentative.contains(m)) continue;
            String best = null;
            for (String r : representatives) {
                if (relation.matches(r, m) == false) continue;
                if (best == null || closer(relation, m, r, best)) best = r;
            }
            String representative = best;
            groups.computeIfAbsent(representative, x -> new TreeSet<>(List.of(representative))).add(m);
        }
        return groups;
    }

    private static boolean closer(Relation relation, String member, String a, String b) {
        int agreeA = relation.agreeing(member, a), agreeB = relation.agreeing(member, b);
        if (agreeA >= 0 && agreeB >= 0 && agreeA != agreeB) return agreeA > agreeB;
        return relation.distance(member, a) < relation.distance(member, b);
    }
}
