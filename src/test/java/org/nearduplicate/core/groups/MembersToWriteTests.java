package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;

import org.nearduplicate.PlatformTestCase;

/** The write-back's member updates: every member whose fields do not hold its group yet, once, in group order. */
public class MembersToWriteTests extends PlatformTestCase {

    public void testSkipsMembersAlreadyRightAndCountsThem() {
        WrittenGroup hash = new WrittenGroup();
        List<GroupMembers.Member> first = List.of(
            new GroupMembers.Member("a", null, 1L, 0, null, hash.state("a", 0)), // the representative, already right
            new GroupMembers.Member("b", "r1", 2L, 3, null, hash.state("a", 2)), // right group, wrong distance
            new GroupMembers.Member("c", null, 3L, 5, null, WrittenGroup.UNKNOWN) // never written
        );
        List<GroupMembers.Member> second = List.of(
            new GroupMembers.Member("d", null, 4L, 0, null, hash.state("d", 0)),
            new GroupMembers.Member("e", null, 5L, 1, null, hash.state("d", 1))
        );
        List<GroupMembers.Group> groups = List.of(new GroupMembers.Group("a", first, 2), new GroupMembers.Group("d", second, 1));
        AtomicInteger unchanged = new AtomicInteger();
        MembersToWrite members = new MembersToWrite(groups, unchanged::incrementAndGet);
        List<MembersToWrite.Update> updates = new ArrayList<>();
        while (members.hasNext()) {
            assertTrue("asking again changes nothing", members.hasNext());
            updates.add(members.next());
        }
        assertEquals(List.of(new MembersToWrite.Update("b", "r1", "a", 3), new MembersToWrite.Update("c", null, "a", 5)), updates);
        assertEquals(3, unchanged.get());
        assertFalse(members.hasNext());
        expectThrows(NoSuchElementException.class, members::next);
        assertFalse(new MembersToWrite(List.of(), () -> fail("nothing to skip")).hasNext());
    }
}
