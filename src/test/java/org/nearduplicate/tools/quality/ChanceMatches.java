package org.nearduplicate.tools.quality;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Chance matches at scale: how often two unrelated documents (of different base documents, same language) fall within
 * distance k, counted exactly over every such pair of a corpus (issue 25). A heavy-edit negative counts as a document of
 * the base document it was made from ({@link Corpus#groups()}): it is a hard negative, whose rate does not grow with
 * the index, not a chance match.
 *
 * <p>For each slice ({@code all} and {@code lang:xx}) and each k: the unrelated-pair rate (false matches / unrelated
 * pairs), the "spread" rate (the same after removing the 1 % of the slice's documents with the most false matches, so
 * that a few degenerate documents do not set the rate), the share of documents with at least one false match, and the
 * expected false hits per query at index size N, rate × N.
 *
 * <p>Documents without a fingerprint (they failed) count in the pairs but never match, as in
 * {@link QualityReport#evaluate}.
 */
public final class ChanceMatches {
    /** The index sizes the false hits per query are extrapolated to. */
    public static final long[] SIZES = { 1_000_000L, 10_000_000L, 100_000_000L };
    /** The largest k counted; pairs closer than this are kept in memory, so a far larger k would hold most pairs. */
    public static final int K_CAP = 24;

    /** One slice at one k. */
    public record Rates(int documents, long unrelatedPairs, long falseMatches, int documentsWithFalseMatch, int removedForSpread,
        long spreadPairs, long spreadFalseMatches) {
        public double rate() {
            return unrelatedPairs == 0 ? Double.NaN : (double) falseMatches / unrelatedPairs;
        }

        public double spreadRate() {
            return spreadPairs == 0 ? Double.NaN : (double) spreadFalseMatches / spreadPairs;
        }

        public double documentsWithFalseMatchShare() {
            return documents == 0 ? Double.NaN : (double) documentsWithFalseMatch / documents;
        }

        /** Expected false hits of one query against an index of {@code n} documents: rate × n. */
        public double falseHitsPerQuery(long n) {
            return rate() * n;
        }
    }

    /** Slice name -> rates per k (index k, 0..kMax). */
    private final Map<String, Rates[]> slices;
    private final int kMax;

    private ChanceMatches(Map<String, Rates[]> slices, int kMax) {
        this.slices = slices;
        this.kMax = kMax;
    }

    public int kMax() {
        return kMax;
    }

    public Map<String, Rates[]> slices() {
        return slices;
    }

    public Rates at(String slice, int k) {
        return slices.get(slice)[k];
    }

    /**
     * Counts over every pair {@code i < j} with {@code lang[i] == lang[j]} and {@code group[i] != group[j]}.
     *
     * @param fingerprints one per document
     * @param valid whether the document has a fingerprint (false: it never matches)
     * @param lang the documents' languages
     * @param group the documents' base-document ids
     * @param kMax counted up to min(kMax, {@link #K_CAP})
     */
    public static ChanceMatches compute(long[] fingerprints, boolean[] valid, String[] lang, String[] group, int kMax) {
        return compute(fingerprints, valid, lang, group, kMax, (i, j) -> true);
    }

    /** A second look at a pair within k (documents i and j): the verification of {@code simhash-v4}. */
    public interface PairCheck {
        boolean matches(int i, int j);
    }

    /** As {@link #compute(long[], boolean[], String[], String[], int)}, counting only pairs that {@code check} accepts. */
    public static ChanceMatches compute(long[] fingerprints, boolean[] valid, String[] lang, String[] group, int kMax, PairCheck check) {
        int n = fingerprints.length;
        int kTop = Math.min(kMax, K_CAP);
        // documents by language: only same-language pairs are compared
        Map<String, List<Integer>> byLang = new LinkedHashMap<>();
        for (int i = 0; i < n; i++)
            byLang.computeIfAbsent(lang[i], l -> new ArrayList<>()).add(i);
        // close unrelated pairs (distance <= kTop): a, b, distance
        List<int[]> close = new ArrayList<>();
        for (List<Integer> docs : byLang.values()) {
            int[] ids = docs.stream().mapToInt(Integer::intValue).toArray();
            for (int x = 0; x < ids.length; x++) {
                int i = ids[x];
                if (valid[i] == false) continue;
                long fi = fingerprints[i];
                for (int y = x + 1; y < ids.length; y++) {
                    int j = ids[y];
                    if (valid[j] == false) continue;
                    int d = Long.bitCount(fi ^ fingerprints[j]);
                    if (d <= kTop && group[i].equals(group[j]) == false && check.matches(i, j)) close.add(new int[] { i, j, d });
                }
            }
        }
        Map<String, int[]> sliceDocs = new LinkedHashMap<>();
        int[] all = new int[n];
        for (int i = 0; i < n; i++)
            all[i] = i;
        sliceDocs.put("all", all);
        for (String l : new TreeSet<>(byLang.keySet()))
            sliceDocs.put("lang:" + l, byLang.get(l).stream().mapToInt(Integer::intValue).toArray());
        Map<String, Rates[]> slices = new LinkedHashMap<>();
        for (Map.Entry<String, int[]> e : sliceDocs.entrySet()) {
            int[] docs = e.getValue();
            boolean[] inSlice = new boolean[n];
            for (int i : docs)
                inSlice[i] = true;
            long pairs = unrelatedPairs(docs, inSlice, lang, group);
            Rates[] perK = new Rates[kTop + 1];
            for (int k = 0; k <= kTop; k++) {
                int[] count = new int[n];
                long falseMatches = 0;
                for (int[] p : close) {
                    if (p[2] <= k && inSlice[p[0]] && inSlice[p[1]]) {
                        count[p[0]]++;
                        count[p[1]]++;
                        falseMatches++;
                    }
                }
                int withFalse = 0;
                for (int i : docs)
                    if (count[i] > 0) withFalse++;
                // spread: drop the 1 % of the slice's documents with the most false matches (ties: lower index first)
                int remove = docs.length / 100;
                Integer[] order = Arrays.stream(docs).boxed().toArray(Integer[]::new);
                Arrays.sort(order, (a, b) -> count[a] != count[b] ? Integer.compare(count[b], count[a]) : Integer.compare(a, b));
                boolean[] kept = inSlice.clone();
                for (int r = 0; r < remove; r++)
                    kept[order[r]] = false;
                int[] keptDocs = Arrays.stream(docs).filter(i -> kept[i]).toArray();
                long spreadPairs = unrelatedPairs(keptDocs, kept, lang, group);
                long spreadFalse = 0;
                for (int[] p : close)
                    if (p[2] <= k && kept[p[0]] && kept[p[1]]) spreadFalse++;
                perK[k] = new Rates(docs.length, pairs, falseMatches, withFalse, remove, spreadPairs, spreadFalse);
            }
            slices.put(e.getKey(), perK);
        }
        return new ChanceMatches(slices, kTop);
    }

    /** Same-language pairs of different groups among {@code docs}: per language C(m, 2) minus the same-group pairs. */
    private static long unrelatedPairs(int[] docs, boolean[] member, String[] lang, String[] group) {
        Map<String, Long> perLang = new HashMap<>();
        Map<String, Long> perGroup = new HashMap<>();
        for (int i : docs) {
            if (member[i] == false) continue;
            perLang.merge(lang[i], 1L, Long::sum);
            perGroup.merge(lang[i] + '\u0000' + group[i], 1L, Long::sum);
        }
        long pairs = 0;
        for (long m : perLang.values())
            pairs += m * (m - 1) / 2;
        for (long g : perGroup.values())
            pairs -= g * (g - 1) / 2;
        return pairs;
    }
}
