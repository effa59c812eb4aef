package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.sketch.Signature;

/** The neutral steps of a groups run: shard merge, the groups' fingerprints, members by component. */
public class GroupMembersTests extends PlatformTestCase {

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
            java.util.Map<String, java.util.Set<String>> expected = RepresentativesBruteForce.groups(
                byId.navigableKeySet(),
                new RepresentativesBruteForce.Relation() {
                    public boolean matches(String a, String b) {
                        return distance(a, b) <= k;
                    }

                    public int agreeing(String a, String b) {
                        return -1;
                    }

                    public int distance(String a, String b) {
                        return Long.bitCount(byId.get(a) ^ byId.get(b));
                    }
                }
            );
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
                assertTrue(members.contains(g.representative()));
                actual.put(g.representative(), members);
            }
            assertEquals("k " + k, expected, actual);
        }
    }

    /** A shard's documents with signatures (null: none). */
    private record SignedDocs(long[] fingerprints, byte[][] signatures, String[] ids) implements GroupMembers.Documents {
        @Override
        public int size() {
            return ids.length;
        }

        @Override
        public long fingerprint(int i) {
            return fingerprints[i];
        }

        @Override
        public byte[] signature(int i) {
            return signatures[i];
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

    /** The verified run as the platform makes it: shard arrays sorted by unit, merged, grouped, members placed. */
    static GroupMembers.Grouped runVerified(List<SignedDocs> shards, int k, double minSimilarity, GroupMembers.Mode mode, long[] pairs) {
        List<long[]> sorted = new ArrayList<>();
        List<byte[]> signatures = new ArrayList<>();
        int total = 0;
        for (SignedDocs d : shards) {
            Integer[] order = new Integer[d.size()];
            for (int i = 0; i < order.length; i++)
                order[i] = i;
            java.util.Arrays.sort(
                order,
                java.util.Comparator.<Integer>comparingLong(i -> d.fingerprints()[i])
                    .thenComparing(i -> d.signatures()[i], java.util.Comparator.nullsFirst(Arrays::compareUnsigned))
            );
            long[] f = new long[order.length];
            byte[] s = new byte[Signature.BYTES * order.length];
            for (int i = 0; i < order.length; i++) {
                f[i] = d.fingerprints()[order[i]];
                if (d.signatures()[order[i]] != null) System.arraycopy(
                    d.signatures()[order[i]],
                    0,
                    s,
                    Signature.BYTES * i,
                    Signature.BYTES
                );
            }
            sorted.add(f);
            signatures.add(randomBoolean() && Arrays.equals(s, new byte[s.length]) ? null : s); // a shard may send none
            total += f.length;
        }
        long[] distinct = new long[total];
        int[] unitStart = new int[total + 1];
        int[] counts = new int[total];
        byte[] unitSignatures = new byte[Signature.BYTES * total];
        int[] merged = GroupMembers.mergeUnits(sorted, signatures, distinct, unitStart, counts, unitSignatures);
        long[] nonEmpty = null;
        byte[] nonEmptySignatures = null;
        for (int s = 0; s < sorted.size(); s++) {
            if (sorted.get(s).length == 0) continue;
            if (nonEmpty != null) {
                nonEmpty = null;
                break;
            }
            nonEmpty = sorted.get(s);
            nonEmptySignatures = signatures.get(s);
        }
        if (nonEmpty != null && nonEmptySignatures != null && randomBoolean()) {
            // one shard: merged in place (as the coordinator does), which must give the same units
            long[] inPlace = nonEmpty.clone();
            byte[] inPlaceSignatures = nonEmptySignatures.clone();
            int[] inPlaceStart = new int[inPlace.length + 1];
            int[] inPlaceCounts = new int[inPlace.length];
            int[] m = GroupMembers.mergeUnitsInPlace(inPlace, inPlaceSignatures, inPlaceStart, inPlaceCounts);
            assertArrayEquals(merged, m);
            assertArrayEquals(Arrays.copyOf(distinct, m[0]), Arrays.copyOf(inPlace, m[0]));
            assertArrayEquals(Arrays.copyOf(unitStart, m[0] + 1), Arrays.copyOf(inPlaceStart, m[0] + 1));
            assertArrayEquals(Arrays.copyOf(counts, m[1]), Arrays.copyOf(inPlaceCounts, m[1]));
            assertArrayEquals(
                Arrays.copyOf(unitSignatures, Signature.BYTES * m[1]),
                Arrays.copyOf(inPlaceSignatures, Signature.BYTES * m[1])
            );
            distinct = inPlace;
            unitStart = inPlaceStart;
            counts = inPlaceCounts;
            unitSignatures = inPlaceSignatures; // not trimmed, as on the coordinator: the slack is never read
        }
        distinct = Arrays.copyOf(distinct, merged[0]);
        unitStart = Arrays.copyOf(unitStart, merged[0] + 1);
        counts = Arrays.copyOf(counts, merged[1]);
        if (randomBoolean()) unitSignatures = Arrays.copyOf(unitSignatures, Signature.BYTES * merged[1]);
        if (merged[0] == merged[1] && randomBoolean()) unitStart = null; // one unit per fingerprint: no starts
        GroupMembers.Rule rule = GroupMembers.Rule.of(k, minSimilarity);
        HammingGroups.Result grouped = HammingGroups.find(
            distinct,
            unitStart,
            counts,
            unitSignatures,
            rule.minAgreeing(),
            k,
            GroupMembers.verifier(unitSignatures, rule),
            HammingGroups.plan(distinct.length, k),
            (done, all) -> {},
            HammingGroups.Workers.CALLER
        );
        pairs[0] = grouped.verifiedPairs();
        GroupMembers.Selection selection = GroupMembers.select(distinct, unitStart, counts, grouped, (bytes, what) -> {});
        if (randomBoolean()) {
            // compacted to the units in groups before the members are placed, as the coordinator does
            GroupMembers.Compacted c = GroupMembers.compact(
                distinct,
                unitStart,
                unitSignatures,
                grouped.roots(),
                selection.pairsOfRoot(),
                selection.fingerprints(),
                (bytes, what) -> {}
            );
            return GroupMembers.group(
                shards,
                c.distinct(),
                c.unitStart(),
                c.unitSignatures(),
                c.root(),
                c.pairsOfRoot(),
                mode,
                rule,
                (bytes, what) -> {},
                () -> {}
            );
        }
        return GroupMembers.group(
            shards,
            distinct,
            unitStart,
            unitSignatures,
            grouped.roots(),
            selection.pairsOfRoot(),
            mode,
            rule,
            (bytes, what) -> {},
            () -> {}
        );
    }

    /** The groups as (representative, member ids). */
    private static java.util.Map<String, java.util.Set<String>> byRepresentative(GroupMembers.Grouped grouped) {
        java.util.Map<String, java.util.Set<String>> groups = new java.util.HashMap<>();
        for (GroupMembers.Group g : grouped.groups()) {
            java.util.Set<String> members = new java.util.TreeSet<>();
            g.members().forEach(m -> members.add(m.id()));
            groups.put(g.representative(), members);
        }
        return groups;
    }

    private static byte[] randomSignature() {
        byte[] s = new byte[Signature.BYTES];
        random().nextBytes(s);
        s[0] |= 1; // never all zeros (which reads as none)
        return s;
    }

    /** {@code signature} with every slot changed ({@code xor} not 0): the two agree on no slot. */
    private static byte[] disagreeing(byte[] signature, int xor) {
        byte[] s = signature.clone();
        for (int i = 0; i < s.length; i++)
            s[i] ^= (byte) xor;
        return s;
    }

    public void testTwoDocumentsWithinKWhoseSignaturesDisagreeAreNoGroup() {
        byte[] a = randomSignature();
        List<SignedDocs> shards = List.of(
            new SignedDocs(new long[] { 0b0 }, new byte[][] { a }, new String[] { "a" }),
            new SignedDocs(new long[] { 0b1 }, new byte[][] { disagreeing(a, 0x5A) }, new String[] { "b" })
        );
        long[] pairs = new long[1];
        for (GroupMembers.Mode mode : GroupMembers.Mode.values()) {
            assertEquals(mode.toString(), List.of(), runVerified(shards, 3, 0.35, mode, pairs).groups());
            assertEquals(0, pairs[0]);
            // without verification (min_similarity 0) they are one group, as before v4
            assertEquals(1, runVerified(shards, 3, 0, mode, pairs).groups().size());
            assertEquals(1, pairs[0]);
        }
        // the same fingerprint, signatures disagreeing: still no group; agreeing (a copy): one
        List<SignedDocs> same = List.of(
            new SignedDocs(new long[] { 7, 7, 7 }, new byte[][] { a, disagreeing(a, 0x0F), a }, new String[] { "x", "y", "z" })
        );
        assertEquals(
            java.util.Map.of("x", java.util.Set.of("x", "z")),
            byRepresentative(runVerified(same, 0, 0.35, GroupMembers.Mode.COMPONENTS, pairs))
        );
        assertEquals(1, pairs[0]);
        // a side without signature is compared on its fingerprint alone
        List<SignedDocs> bare = List.of(
            new SignedDocs(new long[] { 0b0, 0b1 }, new byte[][] { a, null }, new String[] { "a", "b" }),
            new SignedDocs(new long[] { 0b11 }, new byte[][] { disagreeing(a, 0x33) }, new String[] { "c" })
        );
        assertEquals(
            java.util.Map.of("a", java.util.Set.of("a", "b", "c")),
            byRepresentative(runVerified(bare, 2, 0.35, GroupMembers.Mode.COMPONENTS, pairs))
        );
        assertEquals(2, pairs[0]); // a-b and b-c; a-c (within k) disagree
    }

    public void testAVerifiedChainIsNotOneGroupInRepresentativeMode() {
        // A~B and B~C verified (16 of 32 slots agree), A and C within k but agreeing on none
        byte[] x = randomSignature(), y = disagreeing(x, 0x55);
        byte[] b = x.clone();
        System.arraycopy(y, 16, b, 16, 16);
        List<SignedDocs> shards = List.of(
            new SignedDocs(new long[] { 0b000, 0b011 }, new byte[][] { x, y }, new String[] { "a", "c" }),
            new SignedDocs(new long[] { 0b001 }, new byte[][] { b }, new String[] { "b" })
        );
        long[] pairs = new long[1];
        GroupMembers.Grouped reps = runVerified(shards, 2, 0.35, GroupMembers.Mode.REPRESENTATIVE, pairs);
        assertEquals(java.util.Map.of("a", java.util.Set.of("a", "b")), byRepresentative(reps));
        assertEquals(1, reps.groups().get(0).verifiedPairs());
        assertEquals(2, pairs[0]);
        // components mode joins the chain, as it joins any chain
        GroupMembers.Grouped components = runVerified(shards, 2, 0.35, GroupMembers.Mode.COMPONENTS, pairs);
        assertEquals(java.util.Map.of("a", java.util.Set.of("a", "b", "c")), byRepresentative(components));
        assertEquals(2, components.groups().get(0).verifiedPairs());
    }

    public void testADocumentJoinsTheRepresentativeItMatchesMostClosely() {
        // b agrees with a on 16 slots and with c on 24, a and c on 8 (no match): a takes b first (the earlier
        // representative), but b is closer to c, so b joins c and a is left alone
        byte[] x = randomSignature(), y = disagreeing(x, 0x55);
        byte[] b = y.clone();
        System.arraycopy(x, 0, b, 0, 16);
        byte[] c = b.clone();
        System.arraycopy(y, 0, c, 0, 8);
        List<SignedDocs> shards = List.of(
            new SignedDocs(new long[] { 0b000, 0b001 }, new byte[][] { x, b }, new String[] { "a", "b" }),
            new SignedDocs(new long[] { 0b011 }, new byte[][] { c }, new String[] { "c" })
        );
        long[] pairs = new long[1];
        GroupMembers.Grouped reps = runVerified(shards, 2, 0.35, GroupMembers.Mode.REPRESENTATIVE, pairs);
        assertEquals(java.util.Map.of("c", java.util.Set.of("b", "c")), byRepresentative(reps));
        assertEquals(1, reps.groups().get(0).verifiedPairs());
        assertEquals(1, reps.groups().get(0).members().get(1).distance()); // b, one bit from c
        // on equal agreement the smaller distance wins, and on a full tie the earlier representative keeps it
        GroupMembers.Member member = new GroupMembers.Member("m", null, 0b0000, 0, b);
        GroupMembers.Member near = new GroupMembers.Member("r2", null, 0b0001, 0, c);
        GroupMembers.Member far = new GroupMembers.Member("r1", null, 0b0111, 0, c);
        assertTrue(MemberGrouping.closer(member, near, far));
        assertFalse(MemberGrouping.closer(member, far, near));
        assertFalse(MemberGrouping.closer(member, near, near));
        GroupMembers.Member agreeing = new GroupMembers.Member("r3", null, 0b1111, 0, b);
        assertTrue(MemberGrouping.closer(member, agreeing, near)); // 32 slots beat 24, whatever the distance
    }

    /** The rule of a match, brute force: within k and, when both have a signature, agreeing on enough slots. */
    private static boolean matches(long a, byte[] as, long b, byte[] bs, int k, int minAgreeing) {
        if (Long.bitCount(a ^ b) > k) return false;
        return as == null || bs == null || Signature.agreeingSlots(as, 0, bs, 0) >= minAgreeing;
    }

    public void testRandomVerifiedGroupsEqualBruteForce() {
        for (int round = 0; round < 30; round++) {
            int k = randomIntBetween(0, 8);
            double minSimilarity = randomFrom(0.0, 0.2, 0.35, 0.5, 0.8, 1.0);
            int minAgreeing = Signature.minAgreeing(minSimilarity);
            int docs = randomIntBetween(1, 200);
            long[] fingerprints = new long[docs];
            byte[][] signatures = new byte[docs][];
            String[] ids = new String[docs];
            long seed = randomLong();
            byte[][] bases = new byte[randomIntBetween(1, 4)][];
            for (int i = 0; i < bases.length; i++)
                bases[i] = randomSignature();
            for (int i = 0; i < docs; i++) {
                long f = seed ^ (randomIntBetween(0, 2) * 0xFF00FF00FFL);
                for (int flips = randomIntBetween(0, k + 2); flips > 0; flips--)
                    f ^= 1L << randomIntBetween(0, 63);
                // a base's signature with some slots changed: agreement from all slots to about none
                byte[] s = bases[randomIntBetween(0, bases.length - 1)].clone();
                for (int changed = randomIntBetween(0, 32); changed > 0; changed--)
                    s[randomIntBetween(0, 31)] ^= (byte) randomIntBetween(1, 255);
                if (Arrays.equals(s, new byte[Signature.BYTES])) s[0] = 1;
                int copy = i > 0 ? randomIntBetween(0, 4) : 4;
                int of = copy < 4 ? randomIntBetween(0, i - 1) : -1;
                fingerprints[i] = copy <= 1 ? fingerprints[of] : f; // copies: same fingerprint, same or other signature
                signatures[i] = copy == 0 ? signatures[of] : randomIntBetween(0, 9) == 0 ? null : s;
                ids[i] = "d" + i;
            }
            List<SignedDocs> shards = new ArrayList<>();
            for (int from = 0; from < docs;) {
                int to = Math.min(docs, from + randomIntBetween(0, docs));
                shards.add(
                    new SignedDocs(
                        Arrays.copyOfRange(fingerprints, from, to),
                        Arrays.copyOfRange(signatures, from, to),
                        Arrays.copyOfRange(ids, from, to)
                    )
                );
                from = to;
            }
            // brute force over all documents
            int[] parent = new int[docs];
            for (int i = 0; i < docs; i++)
                parent[i] = i;
            long expectedPairs = 0;
            for (int i = 0; i < docs; i++) {
                for (int j = i + 1; j < docs; j++) {
                    if (matches(fingerprints[i], signatures[i], fingerprints[j], signatures[j], k, minAgreeing)) {
                        expectedPairs++;
                        parent[root(parent, i)] = root(parent, j);
                    }
                }
            }
            java.util.Map<Integer, java.util.Set<String>> components = new java.util.HashMap<>();
            for (int i = 0; i < docs; i++)
                components.computeIfAbsent(root(parent, i), x -> new java.util.TreeSet<>()).add(ids[i]);
            java.util.Map<String, java.util.Set<String>> expectedComponents = new java.util.HashMap<>();
            for (java.util.Set<String> c : components.values())
                if (c.size() > 1) expectedComponents.put(((java.util.TreeSet<String>) c).first(), c);
            java.util.TreeMap<String, Integer> byId = new java.util.TreeMap<>();
            for (int i = 0; i < docs; i++)
                byId.put(ids[i], i);
            java.util.Map<String, java.util.Set<String>> expectedReps = RepresentativesBruteForce.groups(
                byId.navigableKeySet(),
                new RepresentativesBruteForce.Relation() {
                    public boolean matches(String a, String b) {
                        int ai = byId.get(a), bi = byId.get(b);
                        return GroupMembersTests.matches(
                            fingerprints[ai],
                            signatures[ai],
                            fingerprints[bi],
                            signatures[bi],
                            k,
                            minAgreeing
                        );
                    }

                    public int agreeing(String a, String b) {
                        byte[] as = signatures[byId.get(a)], bs = signatures[byId.get(b)];
                        return as == null || bs == null ? -1 : Signature.agreeingSlots(as, 0, bs, 0);
                    }

                    public int distance(String a, String b) {
                        return Long.bitCount(fingerprints[byId.get(a)] ^ fingerprints[byId.get(b)]);
                    }
                }
            );
            String what = "k " + k + " min_similarity " + minSimilarity;
            long[] pairs = new long[1];
            assertEquals(
                what,
                expectedComponents,
                byRepresentative(runVerified(shards, k, minSimilarity, GroupMembers.Mode.COMPONENTS, pairs))
            );
            assertEquals(what, expectedPairs, pairs[0]);
            GroupMembers.Grouped reps = runVerified(shards, k, minSimilarity, GroupMembers.Mode.REPRESENTATIVE, pairs);
            assertEquals(what, expectedReps, byRepresentative(reps));
            for (GroupMembers.Group g : reps.groups()) {
                long groupPairs = 0;
                for (GroupMembers.Member m : g.members()) {
                    int mi = byId.get(m.id());
                    assertEquals(Long.bitCount(fingerprints[byId.get(g.representative())] ^ m.fingerprint()), m.distance());
                    for (GroupMembers.Member o : g.members()) {
                        int oi = byId.get(o.id());
                        if (m.id().compareTo(o.id()) < 0
                            && matches(fingerprints[mi], signatures[mi], fingerprints[oi], signatures[oi], k, minAgreeing)) {
                            groupPairs++;
                        }
                    }
                }
                assertEquals(what, groupPairs, g.verifiedPairs());
            }
        }
    }

    private static int root(int[] parent, int x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }
}
