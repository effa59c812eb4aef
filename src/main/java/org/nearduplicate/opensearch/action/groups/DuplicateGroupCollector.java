package org.nearduplicate.opensearch.action.groups;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The coordinator's side of the groups computation: receives the documents sharing each block key, one page of the
 * key space at a time, verifies the candidate pairs exactly and unions the verified ones into connected components.
 *
 * <p>Candidate pairs are counted once: a pair of distinct fingerprints is counted under the first block combination
 * in which they share a key (later combinations skip it), and documents with identical fingerprints (which share
 * every key) are counted under combination 0. Documents with an identical fingerprint are handled as one weighted
 * vertex, so a key shared by many exact copies costs one comparison per distinct fingerprint pair, not per document pair.
 */
public final class DuplicateGroupCollector {

    /** One member of a group: its id, fingerprint and distance to the group's representative. */
    public record Member(String id, long fingerprint, int distance) {}

    /** A connected component of the "within k" graph with at least two documents. */
    public record Group(String representative, List<Member> members, long verifiedPairs) {}

    private final BlockLayout layout;
    private final int maxDistance;
    private final Map<String, Integer> node = new HashMap<>();
    private int[] parent = new int[16];
    private long[] fingerprint = new long[16];
    private long[] pairs = new long[16];
    private String[] ids = new String[16];
    private int nodes;
    private long candidatePairs;
    private long verifiedPairs;

    public DuplicateGroupCollector(BlockLayout layout, int maxDistance) {
        // groups are pairs that share a key exactly; block variants (multi-probe) are a query-time technique
        if (maxDistance > layout.exactDistance()) {
            throw new IllegalArgumentException(
                "[max_distance] [" + maxDistance + "] exceeds [" + layout.exactDistance() + "], the largest distance the groups API answers "
                    + "from the keys of this field (blocks [" + layout.blocks() + "], max_distance [" + layout.maxDistance() + "]); "
                    + "find larger distances with [near_duplicate] queries"
            );
        }
        this.layout = layout;
        this.maxDistance = maxDistance;
    }

    /**
     * One key's documents (all shards merged). {@code cancelled} is polled between distinct-fingerprint rows.
     *
     * @throws org.opensearch.core.tasks.TaskCancelledException through {@code cancelled}
     */
    public void addKey(int combination, long[] fps, String[] docIds, int size, Runnable cancelled) {
        if (size < 2) return;
        // distinct fingerprints, each with its documents
        Map<Long, List<String>> byFingerprint = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
            byFingerprint.computeIfAbsent(fps[i], f -> new ArrayList<>(1)).add(docIds[i]);
        }
        long[] distinct = new long[byFingerprint.size()];
        int[] first = new int[distinct.length];
        long[] count = new long[distinct.length];
        int r = 0;
        for (Map.Entry<Long, List<String>> e : byFingerprint.entrySet()) {
            distinct[r] = e.getKey();
            List<String> docs = e.getValue();
            count[r] = docs.size();
            first[r] = vertex(docs.get(0), e.getKey());
            if (combination == 0 && docs.size() > 1) {
                long p = (long) docs.size() * (docs.size() - 1) / 2;
                candidatePairs += p;
                verifiedPairs += p;
                pairs[first[r]] += p;
                for (int j = 1; j < docs.size(); j++) {
                    union(first[r], vertex(docs.get(j), e.getKey()));
                }
            }
            r++;
        }
        for (int i = 0; i < r; i++) {
            if ((i & 63) == 63) cancelled.run();
            for (int j = i + 1; j < r; j++) {
                long diff = distinct[i] ^ distinct[j];
                if (sharedEarlier(diff, combination)) continue;
                long p = count[i] * count[j];
                candidatePairs += p;
                if (Long.bitCount(diff) <= maxDistance) {
                    verifiedPairs += p;
                    pairs[first[i]] += p;
                    union(first[i], first[j]);
                }
            }
        }
    }

    /** Whether two fingerprints differing in {@code diff} already shared a key of a combination before {@code c}. */
    private boolean sharedEarlier(long diff, int c) {
        for (int e = 0; e < c; e++) {
            if ((diff & layout.keptMask(e)) == 0) return true;
        }
        return false;
    }

    private int vertex(String id, long fp) {
        Integer existing = node.get(id);
        if (existing != null) return existing;
        if (nodes == parent.length) {
            int n = nodes * 2;
            parent = Arrays.copyOf(parent, n);
            fingerprint = Arrays.copyOf(fingerprint, n);
            pairs = Arrays.copyOf(pairs, n);
            ids = Arrays.copyOf(ids, n);
        }
        parent[nodes] = nodes;
        fingerprint[nodes] = fp;
        ids[nodes] = id;
        node.put(id, nodes);
        return nodes++;
    }

    private int find(int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    private void union(int a, int b) {
        int ra = find(a), rb = find(b);
        if (ra != rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }

    public long candidatePairs() {
        return candidatePairs;
    }

    public long verifiedPairs() {
        return verifiedPairs;
    }

    /**
     * All groups, sorted by representative (the smallest member id); members sorted by distance to the representative,
     * then id. Vertices are only created for documents in a verified pair, so every component has two or more members.
     */
    public List<Group> groups(Runnable cancelled) {
        Map<Integer, List<Integer>> components = new HashMap<>();
        for (int v = 0; v < nodes; v++) {
            if ((v & 4095) == 4095) cancelled.run();
            components.computeIfAbsent(find(v), x -> new ArrayList<>()).add(v);
        }
        TreeMap<String, Group> sorted = new TreeMap<>();
        for (List<Integer> component : components.values()) {
            if (component.size() < 2) continue;
            int rep = component.get(0);
            long groupPairs = 0;
            for (int v : component) {
                if (ids[v].compareTo(ids[rep]) < 0) rep = v;
                groupPairs += pairs[v];
            }
            long repFp = fingerprint[rep];
            List<Member> members = new ArrayList<>(component.size());
            for (int v : component) {
                members.add(new Member(ids[v], fingerprint[v], Fingerprints.distance(repFp, fingerprint[v])));
            }
            members.sort(Comparator.comparingInt(Member::distance).thenComparing(Member::id));
            sorted.put(ids[rep], new Group(ids[rep], members, groupPairs));
        }
        return new ArrayList<>(sorted.values());
    }
}
