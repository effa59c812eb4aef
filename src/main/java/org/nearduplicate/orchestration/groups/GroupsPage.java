package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.core.groups.GroupMembers;

/**
 * One page of a run's groups, sorted by representative: at most {@code size} groups after {@code after}, each listing
 * at most {@code max_members} members, and the representative to go on after when more groups follow (else null).
 */
public record GroupsPage(List<GroupsPage.Group> groups, String nextAfter) {

    /** A returned group; {@code size} is the full size even when {@code members} is cut at {@code max_members}. */
    public record Group(String representative, int size, long verifiedPairs, List<GroupMembers.Member> members) {
    }

    public static GroupsPage of(List<GroupMembers.Group> groups, String after, int size, int maxMembers) {
        List<Group> page = new ArrayList<>();
        String nextAfter = null;
        for (GroupMembers.Group g : groups) {
            if (after != null && g.representative().compareTo(after) <= 0) continue;
            if (page.size() < size) {
                List<GroupMembers.Member> members = g.members().size() > maxMembers
                    ? new ArrayList<>(g.members().subList(0, maxMembers))
                    : g.members();
                page.add(new Group(g.representative(), g.members().size(), g.verifiedPairs(), members));
            } else {
                nextAfter = page.isEmpty() ? null : page.get(page.size() - 1).representative();
                break;
            }
        }
        return new GroupsPage(page, nextAfter);
    }
}
