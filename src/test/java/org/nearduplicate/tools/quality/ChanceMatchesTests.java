package org.nearduplicate.tools.quality;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;

/** The chance-match counts against brute force on small synthetic sets, and one set counted by hand. */
public class ChanceMatchesTests extends PlatformTestCase {

    /** Four English documents (groups a, a, b, c) and two Chinese ones (groups d, e), counted by hand. */
    public void testCountsByHand() {
        long[] fp = { 0L, 0b1L, 0b11L, 0b1111L, 0L, 0b111L };
        boolean[] valid = { true, true, true, true, true, true };
        String[] lang = { "en", "en", "en", "en", "zh", "zh" };
        String[] group = { "a", "a", "b", "c", "d", "e" };
        ChanceMatches c = ChanceMatches.compute(fp, valid, lang, group, 4);
        // unrelated pairs: en C(4,2) - 1 (0-1, same group) = 5; zh 1; cross-language pairs never count
        // distances: 0-2: 2, 0-3: 4, 1-2: 1, 1-3: 3, 2-3: 2; zh 4-5: 3
        assertEquals(6, c.at("all", 0).unrelatedPairs());
        assertEquals(5, c.at("lang:en", 0).unrelatedPairs());
        assertEquals(1, c.at("lang:zh", 0).unrelatedPairs());
        long[] allByK = { 0, 1, 3, 5, 6 };
        long[] enByK = { 0, 1, 3, 4, 5 };
        for (int k = 0; k <= 4; k++) {
            assertEquals("k=" + k, allByK[k], c.at("all", k).falseMatches());
            assertEquals("k=" + k, enByK[k], c.at("lang:en", k).falseMatches());
            assertEquals(k >= 3 ? 1 : 0, c.at("lang:zh", k).falseMatches());
        }
        assertEquals(3.0 / 6, c.at("all", 2).rate(), 0);
        assertEquals(4, c.at("all", 2).documentsWithFalseMatch()); // 0, 1, 2, 3 (pairs 0-2, 1-2, 2-3)
        assertEquals(4.0 / 6, c.at("all", 2).documentsWithFalseMatchShare(), 0);
        assertEquals(3.0 / 6 * 1_000_000, c.at("all", 2).falseHitsPerQuery(1_000_000), 1e-6);
        // under 100 documents, 1 % is none: the spread rate is the rate
        assertEquals(0, c.at("all", 2).removedForSpread());
        assertEquals(c.at("all", 2).rate(), c.at("all", 2).spreadRate(), 0);
        // a failed document is in the pairs but never matches
        valid[2] = false;
        ChanceMatches failed = ChanceMatches.compute(fp, valid, lang, group, 4);
        assertEquals(6, failed.at("all", 4).unrelatedPairs());
        assertEquals(3, failed.at("all", 4).falseMatches()); // 0-3, 1-3, 4-5
    }

    /** Random sets with planted near pairs and a few "hub" documents, against a direct count of every definition. */
    public void testAgainstBruteForce() {
        for (int round = 0; round < 5; round++) {
            int n = randomIntBetween(100, 400);
            long[] fp = new long[n];
            boolean[] valid = new boolean[n];
            String[] lang = new String[n], group = new String[n];
            for (int i = 0; i < n; i++) {
                lang[i] = randomFrom("en", "zh", "de");
                group[i] = "g" + randomIntBetween(0, n / 3);
                valid[i] = rarely() == false;
                fp[i] = i > 0 && randomBoolean() ? flip(fp[randomIntBetween(0, i - 1)], randomIntBetween(0, 12)) : randomLong();
            }
            int kMax = randomIntBetween(0, 16);
            ChanceMatches c = ChanceMatches.compute(fp, valid, lang, group, kMax);
            List<String> slices = new ArrayList<>(List.of("all"));
            for (String l : new String[] { "de", "en", "zh" })
                if (Arrays.asList(lang).contains(l)) slices.add("lang:" + l);
            assertEquals(slices, new ArrayList<>(c.slices().keySet()));
            for (String slice : slices) {
                boolean[] in = new boolean[n];
                for (int i = 0; i < n; i++)
                    in[i] = slice.equals("all") || slice.equals("lang:" + lang[i]);
                for (int k = 0; k <= kMax; k++) {
                    ChanceMatches.Rates r = c.at(slice, k);
                    int[] count = new int[n];
                    long pairs = 0, matches = 0;
                    for (int i = 0; i < n; i++)
                        for (int j = i + 1; j < n; j++)
                            if (in[i] && in[j] && unrelated(i, j, lang, group)) {
                                pairs++;
                                if (match(i, j, fp, valid, k)) {
                                    matches++;
                                    count[i]++;
                                    count[j]++;
                                }
                            }
                    int docs = 0, withMatch = 0;
                    for (int i = 0; i < n; i++) {
                        if (in[i]) docs++;
                        if (in[i] && count[i] > 0) withMatch++;
                    }
                    assertEquals(docs, r.documents());
                    assertEquals(pairs, r.unrelatedPairs());
                    assertEquals(slice + " k=" + k, matches, r.falseMatches());
                    assertEquals(withMatch, r.documentsWithFalseMatch());
                    // spread: drop the docs/100 documents with the most matches (ties: lower index), count again
                    int remove = docs / 100;
                    boolean[] kept = in.clone();
                    for (int x = 0; x < remove; x++) {
                        int top = -1;
                        for (int i = 0; i < n; i++)
                            if (kept[i] && (top < 0 || count[i] > count[top])) top = i;
                        kept[top] = false;
                    }
                    long spreadPairs = 0, spreadMatches = 0;
                    for (int i = 0; i < n; i++)
                        for (int j = i + 1; j < n; j++)
                            if (kept[i] && kept[j] && unrelated(i, j, lang, group)) {
                                spreadPairs++;
                                if (match(i, j, fp, valid, k)) spreadMatches++;
                            }
                    assertEquals(remove, r.removedForSpread());
                    assertEquals(spreadPairs, r.spreadPairs());
                    assertEquals(slice + " k=" + k, spreadMatches, r.spreadFalseMatches());
                    assertEquals((double) matches / pairs, r.rate(), 0);
                    assertEquals(matches * 10_000_000.0 / pairs, r.falseHitsPerQuery(10_000_000), 1e-6);
                }
            }
        }
    }

    /** Groups come from the base labels, heavy-edit negatives belong to their base; without labels from positive pairs. */
    public void testGroups() {
        Map<String, Corpus.Doc> docs = new LinkedHashMap<>();
        docs.put("p1", new Corpus.Doc("p1", "en", "text", "x", "p1"));
        docs.put("p2", new Corpus.Doc("p2", "en", "text", "x", "p1"));
        docs.put("p3", new Corpus.Doc("p3", "en", "text", "x", "p1")); // a heavy edit derived from p1
        docs.put("p4", new Corpus.Doc("p4", "en", "text", "x", "p4"));
        Corpus labelled = new Corpus(docs, List.of());
        assertEquals(Map.of("p1", "p1", "p2", "p1", "p3", "p1", "p4", "p4"), labelled.groups());

        Map<String, Corpus.Doc> bare = new LinkedHashMap<>();
        for (String id : new String[] { "a", "b", "c", "d", "e" })
            bare.put(id, new Corpus.Doc(id, "en", "text", "x"));
        Corpus unlabelled = new Corpus(
            bare,
            List.of(
                new Corpus.Pair("a", "b", true, "dup:edit"),
                new Corpus.Pair("c", "d", true, "dup:edit"),
                new Corpus.Pair("b", "d", true, "dup:edit"),
                new Corpus.Pair("a", "e", false, "random")
            )
        );
        Map<String, String> g = unlabelled.groups();
        assertEquals(g.get("a"), g.get("b"));
        assertEquals(g.get("a"), g.get("c"));
        assertEquals(g.get("a"), g.get("d"));
        assertNotEquals(g.get("a"), g.get("e"));
    }

    private static boolean unrelated(int i, int j, String[] lang, String[] group) {
        return lang[i].equals(lang[j]) && group[i].equals(group[j]) == false;
    }

    private static boolean match(int i, int j, long[] fp, boolean[] valid, int k) {
        return valid[i] && valid[j] && Long.bitCount(fp[i] ^ fp[j]) <= k;
    }

    private static long flip(long f, int bits) {
        for (int b = 0; b < bits; b++)
            f ^= 1L << randomIntBetween(0, 63);
        return f;
    }
}
