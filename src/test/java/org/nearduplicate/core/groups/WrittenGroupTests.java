package org.nearduplicate.core.groups;

import java.nio.charset.StandardCharsets;

import org.nearduplicate.PlatformTestCase;

/** The write-back's record of what a document's group fields hold. */
public class WrittenGroupTests extends PlatformTestCase {

    public void testSameValuesSameStateOtherwiseDifferent() {
        WrittenGroup hash = new WrittenGroup();
        String group = randomUnicodeOfLengthBetween(1, 40);
        int distance = randomIntBetween(0, 64);
        long state = hash.state(group, distance);
        assertNotEquals(WrittenGroup.UNKNOWN, state);
        assertEquals(state, new WrittenGroup().state(group, distance));
        // the shard hashes the doc values' UTF-8 bytes, at an offset
        byte[] bytes = group.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[bytes.length + 7];
        System.arraycopy(bytes, 0, padded, 3, bytes.length);
        assertEquals(state, hash.state(padded, 3, bytes.length, distance));
        assertNotEquals(state, hash.state(group, distance + 1));
        assertNotEquals(state, hash.state(group + "x", distance));
        // a group value and a distance never run into each other
        assertNotEquals(hash.state("a1", 0), hash.state("a", 1));
    }

    public void testAMemberHoldsItsGroupOnlyWhenItsFieldsWereReadAndAgree() {
        WrittenGroup hash = new WrittenGroup();
        long state = hash.state("rep", 3);
        assertTrue(hash.holds(new GroupMembers.Member("m", null, 1, 3, null, state), "rep"));
        assertFalse(hash.holds(new GroupMembers.Member("m", null, 1, 4, null, state), "rep"));
        assertFalse(hash.holds(new GroupMembers.Member("m", null, 1, 3, null, state), "other"));
        assertFalse(hash.holds(new GroupMembers.Member("m", null, 1, 3), "rep"));
    }
}
