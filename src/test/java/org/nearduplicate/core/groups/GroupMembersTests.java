package org.nearduplicate.core.groups;

import org.opensearch.test.OpenSearchTestCase;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The neutral steps of a groups run: shard merge, the groups' fingerprints, members by component. */
public class GroupMembersTests extends OpenSearchTestCase {

    /** A shard's documents as parallel lists (the platform's answer, without its wire format). */
    private record Docs(long[] fingerprints, String[] ids) implements GroupMembers.Documents {
        @Override
        public int size() {
            return ids.length;
        }

        @Override
        public long fingerprint(int i) {
            return fingerprints[i];
        }

        @Override
        public String id(int i) {
            return ids[i];
        }

        @Override
        public String routing(int i) {
            return null;
        }

        @Override
        public int textBytes(int i) {
            return ids[i].length();
        }
    }

    public void testMergeCountsEqualFingerprintsAcrossShards() {
        List<long[]> shards = List.of(new long[] { 1, 5, 5, 9 }, new long[0], new long[] { 2, 5, 9 });
        long[] distinct = new long[7];
        int[] counts = new int[7];
        int n = GroupMembers.merge(shards, distinct, counts);
        assertEquals(4, n);
        assertArrayEquals(new long[] { 1, 2, 5, 9 }, Arrays.copyOf(distinct, n));
        assertArrayEquals(new int[] { 1, 1, 3, 2 }, Arrays.copyOf(counts, n));
    }

    public void testGroupsByComponentWithTheSmallestIdAsRepresentative() {
        long[] distinct = { 0b0000, 0b0001, 0xFFFF0000L };
        int[] counts = { 1, 1, 1 };
        HammingGroups.Result grouped = HammingGroups.find(distinct, counts, 1, (done, total) -> {});
        List<String> reserved = new ArrayList<>();
        GroupMembers.Reserve reserve = (bytes, what) -> reserved.add(what);
        GroupMembers.Selection selection = GroupMembers.select(distinct, counts, grouped, reserve);
        assertArrayEquals(new long[] { 0b0000, 0b0001 }, selection.fingerprints());
        assertEquals(2, selection.docs());
        List<Docs> shards = List.of(
            new Docs(new long[] { 0b0001, 0xFFFF0000L }, new String[] { "a", "z" }),
            new Docs(new long[] { 0 }, new String[] { "b" })
        );
        GroupMembers.Grouped result = GroupMembers.group(shards, distinct, grouped.roots(), selection.pairsOfRoot(), reserve, () -> {});
        assertEquals(1, result.groups().size());
        GroupMembers.Group group = result.groups().get(0);
        assertEquals("a", group.representative());
        assertEquals(List.of(new GroupMembers.Member("a", null, 0b0001, 0), new GroupMembers.Member("b", null, 0, 1)), group.members());
        assertEquals(1, group.verifiedPairs());
        assertEquals(List.of("group sizes and pairs", "fingerprints in groups", "members by group", "groups of 3 documents"), reserved);
    }
}
