package org.nearduplicate.core.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;

/**
 * The platform-neutral steps of a groups run around {@link HammingGroups}: the k-way merge of the shards' sorted
 * fingerprints into distinct values and counts, the choice of the fingerprints whose component holds two or more
 * documents, and the grouping of the documents read back by component. The adapter only moves the arrays between
 * nodes and accounts their memory: every allocation here is announced to a {@link Reserve} first, in the same order
 * and with the same labels whatever the platform.
 *
 * <p><b>Verification.</b> When the documents carry verification signatures ({@code simhash-v4}), the unit of grouping
 * is the distinct (fingerprint, signature) pair: {@link #mergeUnits} gives them, {@link #verifier} is the
 * {@link HammingGroups.Verifier} of a {@link Rule}, and {@link Mode#REPRESENTATIVE} requires the same {@link Rule} of every
 * member with its representative. Signatures are kept flat, {@link Signature#BYTES} bytes per position; a position
 * without signature holds {@link Signature#BYTES} zero bytes ({@link #NO_SIGNATURE}; a computed signature has them with
 * probability 2^-256, and one given as zeros is compared on its fingerprint alone).
 */
public final class GroupMembers {

    /**
     * A member of a group: its document, fingerprint and distance to the representative's fingerprint, its signature
     * (null: none; not part of the response, kept for the write-back's stale pass) and what its group fields held when
     * it was read ({@link WrittenGroup}; {@link WrittenGroup#UNKNOWN} when not read: not part of the response, nor of
     * equality).
     */
    public record Member(String id, String routing, long fingerprint, int distance, byte[] signature, long written) {
        public Member(String id, String routing, long fingerprint, int distance) {
            this(id, routing, fingerprint, distance, null, WrittenGroup.UNKNOWN);
        }

        public Member(String id, String routing, long fingerprint, int distance, byte[] signature) {
            this(id, routing, fingerprint, distance, signature, WrittenGroup.UNKNOWN);
        }

        /** The same member at another distance. */
        Member at(int newDistance) {
            return new Member(id, routing, fingerprint, newDistance, signature, written);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Member m
                && m.fingerprint == fingerprint
                && m.distance == distance
                && m.id.equals(id)
                && java.util.Objects.equals(m.routing, routing)
                && Arrays.equals(m.signature, signature);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, routing, fingerprint, distance) * 31 + Arrays.hashCode(signature);
        }

        @Override
        public String toString() {
            return "Member[" + id + (routing == null ? "" : "/" + routing) + " " + Fingerprints.toHex(fingerprint) + " d=" + distance + "]";
        }
    }

    /**
     * The rule of a match: fingerprints within {@code maxDistance} and, when both sides carry a signature, at least
     * {@code minAgreeing} agreeing slots ({@link Signature#minAgreeing} of the run's {@code min_similarity}). A side
     * without signature is compared on its fingerprint alone.
     */
    public record Rule(int maxDistance, int minAgreeing) {
        /** Fingerprints within {@code maxDistance}, no verification. */
        public static Rule unverified(int maxDistance) {
            return new Rule(maxDistance, 0);
        }

        /** The rule of {@code min_similarity} (NaN: no verification). */
        public static Rule of(int maxDistance, double minSimilarity) {
            return new Rule(maxDistance, Double.isNaN(minSimilarity) ? 0 : Signature.minAgreeing(minSimilarity));
        }

        public boolean matches(long a, byte[] aSignature, long b, byte[] bSignature) {
            return Fingerprints.distance(a, b) <= maxDistance && verifies(aSignature, bSignature);
        }

        /** The signatures' part of the rule: true when either is null. */
        public boolean verifies(byte[] a, byte[] b) {
            return a == null || b == null || minAgreeing == 0 || Signature.agreesOnAtLeast(a, b, 0, minAgreeing);
        }
    }

    /** The flat form of "no signature" (see the class comment). */
    private static final byte[] NO_SIGNATURE = new byte[Signature.BYTES];

    /** The signature at {@code position} of a flat array, or null when it holds none (or the array is null). */
    public static byte[] signatureAt(byte[] flat, int position) {
        if (flat == null) return null;
        int from = position * Signature.BYTES;
        if (Arrays.equals(flat, from, from + Signature.BYTES, NO_SIGNATURE, 0, Signature.BYTES)) return null;
        return Arrays.copyOfRange(flat, from, from + Signature.BYTES);
    }

    /** Whether position {@code position} of a flat array holds no signature. */
    static boolean hasNoSignature(byte[] flat, int position) {
        int from = position * Signature.BYTES;
        return Arrays.equals(flat, from, from + Signature.BYTES, NO_SIGNATURE, 0, Signature.BYTES);
    }

    /** Compares two positions of flat signature arrays, unsigned byte by byte ("no signature" first). */
    public static int compareSignatures(byte[] a, int aPosition, byte[] b, int bPosition) {
        byte[] x = a == null ? NO_SIGNATURE : a, y = b == null ? NO_SIGNATURE : b;
        int i = a == null ? 0 : aPosition * Signature.BYTES, j = b == null ? 0 : bPosition * Signature.BYTES;
        return Arrays.compareUnsigned(x, i, i + Signature.BYTES, y, j, j + Signature.BYTES);
    }

    /**
     * The {@link HammingGroups.Verifier} of {@code rule} over units whose signatures are {@code unitSignatures} (flat,
     * {@link Signature#BYTES} per unit): two units match unless both carry a signature and they agree on fewer than
     * {@code rule.minAgreeing()} slots.
     */
    public static HammingGroups.Verifier verifier(byte[] unitSignatures, Rule rule) {
        if (unitSignatures == null || rule.minAgreeing() == 0) return HammingGroups.ANY;
        int minAgreeing = rule.minAgreeing();
        return (u, v) -> {
            if (hasNoSignature(unitSignatures, u) || hasNoSignature(unitSignatures, v)) return true;
            return Signature.agreeingSlots(unitSignatures, u * Signature.BYTES, unitSignatures, v * Signature.BYTES) >= minAgreeing;
        };
    }

    /**
     * A group of two or more documents around {@code representative}: its smallest {@code _id} in {@link Mode#COMPONENTS},
     * the representative every member matches in {@link Mode#REPRESENTATIVE}.
     */
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

        /** The verification signature of document {@code i}, or null (none, or a field without signatures). */
        default byte[] signature(int i) {
            return null;
        }

        /** What document {@code i}'s group fields held when read ({@link WrittenGroup}), or {@link WrittenGroup#UNKNOWN}. */
        default long written(int i) {
            return WrittenGroup.UNKNOWN;
        }
    }

    /**
     * How the documents of one component of the "within k" graph become groups. {@link #COMPONENTS}: the component is
     * the group (a chain a~b~c joins a and c even when they are far apart), around its smallest {@code _id}.
     * {@link #REPRESENTATIVE}: the component's documents are taken in {@code _id} order; the first one not yet assigned
     * is a representative and takes every unassigned document of the component that matches it by the run's {@link
     * Rule} (within k of its fingerprint, and verified when both carry a signature); repeat until every document is
     * assigned. Then every other document joins the representative it matches most closely (most agreeing signature
     * slots, then the smallest distance, then the earliest representative), so a document is not kept by an early
     * representative it barely matches when a later one is its close copy. Every member matches its representative, a
     * group's id is its representative's {@code _id}, and a representative left without members is in no group.
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
        return SortedMerge.merge(sortedArrays, distinct, counts);
    }

    /**
     * {@link #merge} of one shard's sorted array, in place: its first {@code n} entries become the distinct values
     * (the rest is garbage), {@code counts} (sized for every entry) their counts. No second copy of the fingerprints,
     * which a run over one shard would otherwise hold twice while it merges.
     *
     * @return the number of distinct values
     */
    public static int mergeInPlace(long[] sorted, int[] counts) {
        return SortedMerge.mergeInPlace(sorted, counts);
    }

    /**
     * {@link #mergeUnits} of one shard's arrays (sorted by fingerprint then signature), in place: the first {@code n}
     * fingerprints become the distinct ones and the first {@code units} signatures the units' (the rest of each array
     * is garbage); {@code unitStart} (one more than the entries) and {@code counts} are filled as {@link #mergeUnits}
     * fills them. A run over one shard then holds its fingerprints and signatures once, not twice.
     *
     * @return the number of distinct fingerprints and the number of units
     */
    public static int[] mergeUnitsInPlace(long[] fingerprints, byte[] signatures, int[] unitStart, int[] counts) {
        return SortedMerge.mergeUnitsInPlace(fingerprints, signatures, unitStart, counts);
    }

    /**
     * Merges the shards' arrays, sorted by fingerprint then signature ({@link #compareSignatures}), into the distinct
     * fingerprints, their units (the distinct (fingerprint, signature) pairs) and the units' counts and signatures.
     * {@code signatures.get(s)} holds {@link Signature#BYTES} bytes per fingerprint of shard {@code s}, or is null (no
     * signatures). Fingerprint {@code f} gets units {@code unitStart[f]} to {@code unitStart[f + 1] - 1}; the arrays
     * are sized for every document (and {@code unitStart} one more).
     *
     * @return the number of distinct fingerprints and the number of units
     */
    public static int[] mergeUnits(
        List<long[]> sortedArrays,
        List<byte[]> signatures,
        long[] distinct,
        int[] unitStart,
        int[] counts,
        byte[] unitSignatures
    ) {
        List<long[]> arrays = new ArrayList<>(sortedArrays.size());
        List<byte[]> sigs = new ArrayList<>(sortedArrays.size());
        for (int s = 0; s < sortedArrays.size(); s++) {
            if (sortedArrays.get(s).length > 0) {
                arrays.add(sortedArrays.get(s));
                sigs.add(signatures.get(s));
            }
        }
        int[] at = new int[arrays.size()];
        int n = 0, units = 0;
        while (true) {
            int best = -1;
            for (int a = 0; a < arrays.size(); a++) {
                if (at[a] >= arrays.get(a).length) continue;
                if (best < 0) {
                    best = a;
                    continue;
                }
                long x = arrays.get(a)[at[a]], y = arrays.get(best)[at[best]];
                if (x < y || (x == y && compareSignatures(sigs.get(a), at[a], sigs.get(best), at[best]) < 0)) best = a;
            }
            if (best < 0) {
                unitStart[n] = units;
                return new int[] { n, units };
            }
            int i = at[best]++;
            long v = arrays.get(best)[i];
            byte[] sig = sigs.get(best);
            if (n > 0 && distinct[n - 1] == v && compareSignatures(unitSignatures, units - 1, sig, i) == 0) {
                counts[units - 1]++;
                continue;
            }
            if (n == 0 || distinct[n - 1] != v) {
                distinct[n] = v;
                unitStart[n++] = units;
            }
            if (sig != null) System.arraycopy(sig, i * Signature.BYTES, unitSignatures, units * Signature.BYTES, Signature.BYTES);
            counts[units++] = 1;
        }
    }

    /**
     * The fingerprints of the groups: of the components {@code grouped} found, those holding two or more documents.
     *
     * @param fingerprints sorted, of the fingerprints in groups
     * @param docs how many documents have them
     * @param pairsOfRoot per component root, its verified pairs
     * @param identicalPairs pairs of documents with the same fingerprint
     * @param scratchBytes bytes {@link #select} reserved for its own work, garbage once it returned: the caller gives
     *     them back
     */
    public record Selection(long[] fingerprints, long docs, long[] pairsOfRoot, long identicalPairs, long scratchBytes) {
    }

    /** Selects the fingerprints of every group from the distinct fingerprints, their counts and their components. */
    public static Selection select(long[] distinct, int[] counts, HammingGroups.Result grouped, Reserve reserve) {
        return select(distinct, null, counts, grouped, reserve);
    }

    /**
     * {@link #select(long[], int[], HammingGroups.Result, Reserve)} over units ({@code unitStart} as in
     * {@link #mergeUnits}, null: one unit per fingerprint): the selection's fingerprints are those of the units in
     * groups, each once; {@code pairsOfRoot} is indexed by unit, and is the result's own array of pairs per unit,
     * folded into the roots in place ({@link HammingGroups.Result#pairsByRoot}): nothing more is allocated for it. The
     * documents per component ({@code 4 * units} bytes) are the selection's {@link Selection#scratchBytes}.
     */
    public static Selection select(long[] distinct, int[] unitStart, int[] counts, HammingGroups.Result grouped, Reserve reserve) {
        int n = counts.length;
        reserve.reserve(4L * n, "group sizes and pairs");
        int[] root = grouped.roots();
        int[] docsOfRoot = new int[n];
        for (int i = 0; i < n; i++)
            docsOfRoot[root[i]] = (int) Math.min(Integer.MAX_VALUE, (long) docsOfRoot[root[i]] + counts[i]);
        int wanted = 0;
        long wantedDocs = 0;
        for (int f = 0; f < distinct.length; f++) {
            boolean in = false;
            for (int u = unitStart == null ? f : unitStart[f]; u < (unitStart == null ? f + 1 : unitStart[f + 1]); u++) {
                if (docsOfRoot[root[u]] > 1) {
                    in = true;
                    wantedDocs += counts[u];
                }
            }
            if (in) wanted++;
        }
        reserve.reserve(8L * wanted, "fingerprints in groups");
        long[] inGroups = new long[wanted];
        for (int f = 0, w = 0; f < distinct.length; f++) {
            boolean in = false;
            for (int u = unitStart == null ? f : unitStart[f]; u < (unitStart == null ? f + 1 : unitStart[f + 1]); u++) {
                if (docsOfRoot[root[u]] > 1) in = true;
            }
            if (in) inGroups[w++] = distinct[f];
        }
        long identicalPairs = 0;
        for (int c : counts)
            identicalPairs += (long) c * (c - 1) / 2;
        // a component of one document has no pair: the roots' sums are those of the components with two or more
        return new Selection(inGroups, wantedDocs, grouped.pairsByRoot(), identicalPairs, 4L * n);
    }

    /**
     * What reading the members back needs of a run, compacted to the units in groups: their fingerprints (sorted, each
     * once), their units' starts and signatures, and per unit its group's index into {@code pairsOfRoot} (the group's
     * verified pairs). {@link #group} takes them as it takes the whole run's arrays, so the run's arrays over every
     * unit (fingerprints, signatures, counts, components) can be given back before the members are read.
     */
    public record Compacted(long[] distinct, int[] unitStart, byte[] unitSignatures, int[] root, long[] pairsOfRoot) {
    }

    /**
     * Compacts a run's arrays ({@code distinct}, {@code unitStart} and {@code unitSignatures} as {@link #mergeUnits}
     * gives them, {@code unitStart} and {@code unitSignatures} null without units; {@code root} and
     * {@code pairsOfRoot} as {@link #select} leaves them) to the units in groups: those whose component has pairs.
     * {@code inGroups} is the selection's fingerprints, which the result shares. Reserves what it allocates first;
     * {@code pairsOfRoot} is left garbage (its roots' entries are overwritten).
     */
    public static Compacted compact(
        long[] distinct,
        int[] unitStart,
        byte[] unitSignatures,
        int[] root,
        long[] pairsOfRoot,
        long[] inGroups,
        Reserve reserve
    ) {
        int units = root.length;
        int groupedUnits = 0, groups = 0;
        for (int u = 0; u < units; u++) {
            if (pairsOfRoot[root[u]] == 0) continue;
            groupedUnits++;
            if (root[u] == u) groups++;
        }
        // with signatures the compacted units keep their starts (one unit per fingerprint when unitStart is null), so
        // that a document is placed by its signature too
        boolean perUnit = unitStart != null || unitSignatures != null;
        reserve.reserve(
            (perUnit ? 4L * (inGroups.length + 1) : 0) + (unitSignatures != null ? (long) Signature.BYTES * groupedUnits : 0) + 4L
                * groupedUnits + 8L * groups,
            "units in groups"
        );
        int[] compactStart = perUnit ? new int[inGroups.length + 1] : null;
        byte[] compactSignatures = unitSignatures != null ? new byte[Signature.BYTES * groupedUnits] : null;
        int[] compactRoot = new int[groupedUnits];
        long[] groupPairs = new long[groups];
        // a root comes before its component's other units (the smallest index): its entry of pairsOfRoot then turns
        // into -(its group's index + 1), which they read
        int f = 0, cu = 0, g = 0;
        for (int d = 0; d < distinct.length; d++) {
            boolean any = false;
            int from = unitStart != null ? unitStart[d] : d, to = unitStart != null ? unitStart[d + 1] : d + 1;
            for (int u = from; u < to; u++) {
                long pairs = pairsOfRoot[root[u]];
                if (pairs == 0) continue;
                if (any == false) {
                    if (perUnit) compactStart[f] = cu;
                    any = true;
                }
                if (root[u] == u) {
                    groupPairs[g] = pairs;
                    pairsOfRoot[u] = -(++g);
                }
                compactRoot[cu] = (int) (-pairsOfRoot[root[u]] - 1);
                if (compactSignatures != null) {
                    System.arraycopy(unitSignatures, u * Signature.BYTES, compactSignatures, cu * Signature.BYTES, Signature.BYTES);
                }
                cu++;
            }
            if (any) {
                if (distinct[d] != inGroups[f]) throw new IllegalStateException("the selection's fingerprints differ from the run's");
                f++;
            }
        }
        if (perUnit) compactStart[f] = cu;
        if (f != inGroups.length || cu != groupedUnits || g != groups) throw new IllegalStateException("compaction miscounted");
        return new Compacted(inGroups, compactStart, compactSignatures, compactRoot, groupPairs);
    }

    /** The groups of {@link #group} and the bytes reserved for their objects (they stay with the groups). */
    public record Grouped(List<Group> groups, long bytes) {
    }

    /**
     * The members read from the shards, grouped by component (the representatives: {@link Mode}); groups sorted by
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
        return group(lists, distinct, null, null, root, pairsOfRoot, Mode.COMPONENTS, Rule.unverified(0), reserve, checkCancelled);
    }

    /** {@link #group(List, long[], int[], byte[], int[], long[], Mode, Rule, Reserve, Runnable)} without units or verification. */
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
        return group(lists, distinct, null, null, root, pairsOfRoot, mode, Rule.unverified(maxDistance), reserve, checkCancelled);
    }

    /**
     * As {@link #group(List, long[], int[], long[], Reserve, Runnable)} with the groups of {@code mode} by {@code rule},
     * over units ({@code unitStart} and {@code unitSignatures} as {@link #mergeUnits} gives them, both null: one unit
     * per fingerprint, and {@code root} and {@code pairsOfRoot} indexed by unit). A document is placed by its unit (its
     * fingerprint and signature); one whose unit is not among them, or is in no group, was written during the run and
     * is left out. In {@link Mode#REPRESENTATIVE} mode a component may split into several groups (and documents left
     * alone are in none); a group's {@code verifiedPairs} is then the number of pairs of its members that match by
     * {@code rule}. It also reserves 13 bytes per document (assigned flags, a group's units and counts).
     */
    public static Grouped group(
        List<? extends Documents> lists,
        long[] distinct,
        int[] unitStart,
        byte[] unitSignatures,
        int[] root,
        long[] pairsOfRoot,
        Mode mode,
        Rule rule,
        Reserve reserve,
        Runnable checkCancelled
    ) {
        Compacted run = new Compacted(distinct, unitStart, unitSignatures, root, pairsOfRoot);
        return MemberGrouping.group(lists, run, mode, rule, reserve, checkCancelled);
    }

}
