package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.groups.GroupMembers;

/** One page of groups, the throttle's spelling and the task's progress: the neutral parts of the groups APIs. */
public class GroupsPageTests extends PlatformTestCase {

    private static GroupMembers.Group group(String representative, int members) {
        List<GroupMembers.Member> list = new ArrayList<>();
        for (int i = 0; i < members; i++)
            list.add(new GroupMembers.Member(representative + i, null, i, i));
        return new GroupMembers.Group(representative, list, members - 1);
    }

    public void testPageCutsGroupsAndMembersAndSaysWhereToGoOn() {
        List<GroupMembers.Group> groups = List.of(group("a", 3), group("b", 1), group("c", 5), group("d", 2));
        GroupsPage first = GroupsPage.of(groups, null, 2, 2);
        assertEquals(List.of("a", "b"), first.groups().stream().map(GroupsPage.Group::representative).toList());
        assertEquals(3, first.groups().get(0).size()); // the full size, the members cut at max_members
        assertEquals(2, first.groups().get(0).members().size());
        assertEquals("b", first.nextAfter());
        GroupsPage next = GroupsPage.of(groups, first.nextAfter(), 2, 10);
        assertEquals(List.of("c", "d"), next.groups().stream().map(GroupsPage.Group::representative).toList());
        assertNull(next.nextAfter());
        assertEquals(0, GroupsPage.of(groups, "d", 2, 10).groups().size());
    }

    public void testRequestsPerSecond() {
        assertEquals(-1f, RequestsPerSecond.parse("unlimited"), 0f);
        assertEquals(-1f, RequestsPerSecond.parse(-1), 0f);
        assertEquals(2.5f, RequestsPerSecond.parse("2.5"), 0f);
        assertEquals(RequestsPerSecond.MIN, RequestsPerSecond.parse(0.01), 0f);
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> RequestsPerSecond.parse("0"));
        assertEquals("[requests_per_second] must be a positive number of at least 0.01, -1 or \"unlimited\", got [0.0]", e.getMessage()); // the
                                                                                                                                          // parsed
                                                                                                                                          // value
        assertTrue(RequestsPerSecond.valid(-1));
        assertFalse(RequestsPerSecond.valid(0));
        assertFalse(RequestsPerSecond.valid(Float.NaN));
    }

    public void testProgressInDocuments() {
        RunProgress progress = new RunProgress();
        assertEquals(-1, progress.documentsScanned());
        progress.documents(1000);
        progress.phase("grouping");
        progress.tables(1, 4);
        progress.withinTable(50, 100);
        assertEquals(375, progress.documentsScanned()); // (1 + 0.5) / 4 of the documents
        progress.phase("writing groups");
        assertEquals(1000, progress.documentsScanned());
        assertEquals("writing groups", progress.phase());
    }
}
