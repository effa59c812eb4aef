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

    private static GroupMembers.Grouped run(List<Docs> shards, int k, GroupMembers.Mode mode) {
        List<long[]> sorted = new ArrayList<>();
        int total = 0;
        for (Docs d : shards) {
            long[] f = d.fingerprints().clone();
            Arrays.sort(f);
            sorted.add(f);
            total += f.length;
        }
        long[] distinct = new long[total];
        int[] counts = new int[total];
        int n = GroupMembers.merge(sorted, distinct, counts);
        distinct = Arrays.copyOf(distinct, n);
        counts = Arrays.copyOf(counts, n);
        HammingGroups.Result grouped = HammingGroups.find(distinct, counts, k, (done, all) -> {});
        GroupMembers.Selection selection = GroupMembers.select(distinct, counts, grouped, (bytes, what) -> {});
        return GroupMembers.group(shards, distinct, grouped.roots(), selection.pairsOfRoot(), mode, k, (bytes, what) -> {}, () -> {});
    }

    public void testAChainSplitsInRepresentativeModeAndJoinsInComponentsMode() {
        // a~b (1 bit), b~c (1 bit), a and c 2 bits apart, k = 1
        List<Docs> shards = List.of(new Docs(new long[] { 0b00, 0b01, 0b11 }, new String[] { "a", "b", "c" }));
        GroupMembers.Grouped reps = run(shards, 1, GroupMembers.Mode.REPRESENTATIVE);
        assertEquals(1, reps.groups().size());
        assertEquals("a", reps.groups().get(0).representative());
        assertEquals(
            List.of(new GroupMembers.Member("a", null, 0, 0), new GroupMembers.Member("b", null, 1, 1)),
            reps.groups().get(0).members()
        );
        assertEquals(1, reps.groups().get(0).verifiedPairs());
        GroupMembers.Grouped components = run(shards, 1, GroupMembers.Mode.COMPONENTS);
        assertEquals(1, components.groups().size());
        assertEquals(3, components.groups().get(0).members().size());
        assertEquals(2, components.groups().get(0).members().get(2).distance()); // c, two bits from a
        assertEquals(2, components.groups().get(0).verifiedPairs());
    }

    public void testRandomGroupsInBothModes() {
        for (int round = 0; round < 20; round++) {
            int k = randomIntBetween(0, 6);
            int docs = randomIntBetween(1, 300);
            long[] fingerprints = new long[docs];
            String[] ids = new String[docs];
            long seed = randomLong();
            for (int i = 0; i < docs; i++) {
                // clusters around a few seeds, a few bits flipped: chains are likely
                long f = seed ^ (randomIntBetween(0, 3) * 0xFF00FF00FFL);
                for (int flips = randomIntBetween(0, k + 2); flips > 0; flips--)
                    f ^= 1L << randomIntBetween(0, 63);
                fingerprints[i] = randomBoolean() && i > 0 ? fingerprints[randomIntBetween(0, i - 1)] : f;
                ids[i] = "d" + i;
            }
            List<Docs> shards = new ArrayList<>();
            for (int from = 0; from < docs;) {
                int to = Math.min(docs, from + randomIntBetween(0, docs));
                shards.add(new Docs(Arrays.copyOfRange(fingerprints, from, to), Arrays.copyOfRange(ids, from, to)));
                from = to;
            }
            java.util.TreeMap<String, Long> byId = new java.util.TreeMap<>();
            for (int i = 0; i < docs; i++)
                byId.put(ids[i], fingerprints[i]);

            // components: the connected components of all pairs within k (union-find over all documents)
            int[] parent = new int[docs];
            for (int i = 0; i < docs; i++)
                parent[i] = i;
            for (int i = 0; i < docs; i++)
                for (int j = i + 1; j < docs; j++)
                    if (Long.bitCount(fingerprints[i] ^ fingerprints[j]) <= k) parent[root(parent, i)] = root(parent, j);
            java.util.Map<Integer, java.util.Set<String>> byRoot = new java.util.HashMap<>();
            for (int i = 0; i < docs; i++)
                byRoot.computeIfAbsent(root(parent, i), x -> new java.util.TreeSet<>()).add(ids[i]);
            java.util.Set<java.util.Set<String>> expectedComponents = new java.util.HashSet<>();
            for (java.util.Set<String> c : byRoot.values())
                if (c.size() > 1) expectedComponents.add(c);
            java.util.Set<java.util.Set<String>> components = new java.util.HashSet<>();
            for (GroupMembers.Group g : run(shards, k, GroupMembers.Mode.COMPONENTS).groups()) {
                java.util.Set<String> members = new java.util.TreeSet<>();
                g.members().forEach(m -> members.add(m.id()));
                components.add(members);
            }
            assertEquals(expectedComponents, components);

            // representatives: the rule over all documents in id order
            java.util.Map<String, java.util.Set<String>> expected = new java.util.HashMap<>();
            java.util.Set<String> assigned = new java.util.HashSet<>();
            for (String r : byId.keySet()) {
                if (assigned.add(r) == false) continue;
                java.util.Set<String> group = new java.util.TreeSet<>();
                group.add(r);
                for (String m : byId.tailMap(r, false).keySet()) {
                    if (assigned.contains(m) == false && Long.bitCount(byId.get(r) ^ byId.get(m)) <= k) {
                        assigned.add(m);
                        group.add(m);
                    }
                }
                if (group.size() > 1) expected.put(r, group);
            }
            java.util.Map<String, java.util.Set<String>> actual = new java.util.HashMap<>();
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (GroupMembers.Group g : run(shards, k, GroupMembers.Mode.REPRESENTATIVE).groups()) {
                java.util.Set<String> members = new java.util.TreeSet<>();
                for (GroupMembers.Member m : g.members()) {
                    assertTrue(m.id() + " in two groups", seen.add(m.id()));
                    assertTrue(m.distance() <= k);
                    assertEquals(Long.bitCount(byId.get(g.representative()) ^ m.fingerprint()), m.distance());
                    members.add(m.id());
                }
                assertEquals(g.representative(), ((java.util.TreeSet<String>) members).first());
                actual.put(g.representative(), members);
            }
            assertEquals("k " + k, expected, actual);
        }
    }

    private static int root(int[] parent, int x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }
}
