package org.nearduplicate.tools.quality;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Issue 25's study of verification signatures: what a second look at the same weighted features buys against chance
 * matches, per byte stored. For every document of a labelled corpus it computes the 64-bit SimHash (the candidate), a
 * 256-bit SimHash of the same features, and full 64-bit MinHash minima of the feature set, from which b-bit MinHash
 * signatures (Li and König, WWW 2010) of m values of b bits are cut. Each rule "64-bit distance <= k and second look"
 * is scored on the labelled pairs (recall, precision, F1 per language) and on every same-language unrelated pair (rate,
 * spread, documents with a false match), as {@link ChanceMatches} does for the 64-bit distance alone.
 *
 * <p>usage: {@code java ... SignatureStudy <corpus-dir> [settings]}
 */
public final class SignatureStudy {
    /** Largest 64-bit distance kept for the unrelated pairs. */
    static final int K_TOP = 20;
    static final int MINHASH_SLOTS = 128;

    record Doc(long sim64, long[] sim256, long[] minima, String lang, String base, boolean valid) {
    }

    /** A rule: the 64-bit distance and a second look. */
    interface Rule {
        String name();

        int k();

        boolean accepts(Doc a, Doc b);
    }

    record Plain(int k) implements Rule {
        public String name() {
            return "sim64 <= " + k;
        }

        public boolean accepts(Doc a, Doc b) {
            return Long.bitCount(a.sim64 ^ b.sim64) <= k;
        }
    }

    record Wide(int k, int maxWide) implements Rule {
        public String name() {
            return "sim64 <= " + k + " and sim256 <= " + maxWide;
        }

        public boolean accepts(Doc a, Doc b) {
            if (Long.bitCount(a.sim64 ^ b.sim64) > k) return false;
            int d = 0;
            for (int i = 0; i < 4; i++)
                d += Long.bitCount(a.sim256[i] ^ b.sim256[i]);
            return d <= maxWide;
        }
    }

    /** b-bit MinHash of m values; estimate (matches/m - 2^-b) / (1 - 2^-b) >= t. */
    record BBit(int k, int m, int b, double t) implements Rule {
        public String name() {
            return "sim64 <= " + k + " and J(" + m + "x" + b + "b) >= " + t;
        }

        public boolean accepts(Doc a, Doc b) {
            if (Long.bitCount(a.sim64 ^ b.sim64) > k) return false;
            return estimate(a, b) >= t;
        }

        double estimate(Doc x, Doc y) {
            long mask = this.b == 64 ? -1L : (1L << this.b) - 1;
            int same = 0;
            for (int i = 0; i < m; i++)
                if (((x.minima[i] ^ y.minima[i]) & mask) == 0) same++;
            double c = this.b >= 32 ? 0 : 1.0 / (1L << this.b);
            return ((double) same / m - c) / (1 - c);
        }
    }

    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    static Doc sketch(SimHasher hasher, Corpus.Doc d, String base) {
        Map<String, Double> weighted;
        try {
            weighted = hasher.weightedFeatures(d.content());
        } catch (RuntimeException e) {
            return new Doc(0, new long[4], new long[MINHASH_SLOTS], d.lang(), base, false);
        }
        long[][] sums = new long[4][64];
        long[] minima = new long[MINHASH_SLOTS];
        java.util.Arrays.fill(minima, Long.MAX_VALUE);
        for (Map.Entry<String, Double> e : weighted.entrySet()) {
            long h = SimHasher.featureHash(e.getKey());
            long w = Math.round(e.getValue() * 65536);
            for (int s = 0; s < 4; s++) {
                long hs = s == 0 ? h : mix(h + s * 0x9E3779B97F4A7C15L);
                for (int bit = 0; bit < 64; bit++)
                    sums[s][bit] += ((hs >>> bit) & 1L) != 0 ? w : -w;
            }
            for (int i = 0; i < MINHASH_SLOTS; i++) {
                long v = mix(h ^ (0x632BE59BD9B4E019L * (i + 1))) >>> 1;
                if (v < minima[i]) minima[i] = v;
            }
        }
        long[] wide = new long[4];
        for (int s = 0; s < 4; s++)
            wide[s] = SimHasher.fingerprintFromSums(sums[s]);
        // mix the minima so that their low bits are uniform (b-bit keeps the lowest b)
        for (int i = 0; i < MINHASH_SLOTS; i++)
            minima[i] = mix(minima[i]);
        return new Doc(wide[0], wide, minima, d.lang(), base, true);
    }

    public static void main(String[] args) throws Exception {
        Corpus corpus = Corpus.load(Path.of(args[0]));
        SimHashSettings settings = args.length > 1 ? QualityReport.parseSettings(args[1]) : SimHashSettings.DEFAULT;
        SimHasher hasher = new SimHasher(settings);
        Map<String, String> groups = corpus.groups();
        List<String> ids = new ArrayList<>(corpus.docs().keySet());
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < ids.size(); i++)
            index.put(ids.get(i), i);
        long t0 = System.nanoTime();
        Doc[] docs = IntStream.range(0, ids.size())
            .parallel()
            .mapToObj(i -> sketch(hasher, corpus.docs().get(ids.get(i)), groups.get(ids.get(i))))
            .toArray(Doc[]::new);
        PrintStream out = System.out;
        out.printf(Locale.ROOT, "# %d documents sketched in %.1f s, settings %s%n", docs.length, (System.nanoTime() - t0) / 1e9, settings);
        // unrelated close pairs
        List<int[]> close = new ArrayList<>();
        Map<String, Long> perLang = new HashMap<>(), perGroup = new HashMap<>();
        for (Doc d : docs) {
            perLang.merge(d.lang, 1L, Long::sum);
            perGroup.merge(d.lang + '\0' + d.base, 1L, Long::sum);
        }
        long unrelatedPairs = 0;
        for (long m : perLang.values())
            unrelatedPairs += m * (m - 1) / 2;
        for (long g : perGroup.values())
            unrelatedPairs -= g * (g - 1) / 2;
        for (int i = 0; i < docs.length; i++) {
            if (docs[i].valid == false) continue;
            for (int j = i + 1; j < docs.length; j++) {
                if (docs[j].valid == false || docs[i].lang.equals(docs[j].lang) == false) continue;
                if (Long.bitCount(docs[i].sim64 ^ docs[j].sim64) <= K_TOP && docs[i].base.equals(docs[j].base) == false) {
                    close.add(new int[] { i, j });
                }
            }
        }
        out.printf(
            Locale.ROOT,
            "# %d unrelated same-language pairs, %d within 64-bit distance %d%n%n",
            unrelatedPairs,
            close.size(),
            K_TOP
        );
        List<Rule> rules = new ArrayList<>();
        for (int k : new int[] { 12, 15, 16, 18, 20 })
            rules.add(new Plain(k));
        for (int k : new int[] { 15, 16, 18, 20 })
            for (int w : new int[] { 56, 60, 64, 68 })
                rules.add(new Wide(k, w));
        int[][] shapes = { { 32, 8 }, { 64, 4 }, { 128, 2 }, { 128, 64 } };
        for (int k : new int[] { 15, 16, 18, 20, 22 })
            for (int[] s : shapes)
                for (double t : new double[] { 0.15, 0.2, 0.25, 0.3, 0.35, 0.4 })
                    rules.add(new BBit(k, s[0], s[1], t));
        out.println("| rule | bytes | R | P | F1 | F1 en | F1 zh | R en | R zh | unrelated | spread | docs w/ false |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Rule rule : rules) {
            Map<String, long[]> counts = new LinkedHashMap<>(); // slice -> tp, fn, fp
            for (Corpus.Pair p : corpus.pairs()) {
                Doc a = docs[index.get(p.a())], b = docs[index.get(p.b())];
                boolean match = a.valid && b.valid && rule.accepts(a, b);
                String lang = a.lang.equals(b.lang) ? a.lang : "cross";
                for (String slice : new String[] { "all", lang }) {
                    long[] c = counts.computeIfAbsent(slice, s -> new long[3]);
                    if (p.duplicate()) c[match ? 0 : 1]++;
                    else if (match) c[2]++;
                }
            }
            int[] falseCount = new int[docs.length];
            long falseMatches = 0;
            List<int[]> falsePairs = new ArrayList<>();
            for (int[] p : close) {
                if (rule.accepts(docs[p[0]], docs[p[1]])) {
                    falseMatches++;
                    falseCount[p[0]]++;
                    falseCount[p[1]]++;
                    falsePairs.add(p);
                }
            }
            int withFalse = 0;
            for (int c : falseCount)
                if (c > 0) withFalse++;
            // spread: without the 1 % of documents with the most false matches
            Integer[] order = IntStream.range(0, docs.length).boxed().toArray(Integer[]::new);
            java.util.Arrays.sort(
                order,
                (x, y) -> falseCount[x] != falseCount[y] ? Integer.compare(falseCount[y], falseCount[x]) : Integer.compare(x, y)
            );
            boolean[] removed = new boolean[docs.length];
            for (int r = 0; r < docs.length / 100; r++)
                removed[order[r]] = true;
            long spreadFalse = falsePairs.stream().filter(p -> removed[p[0]] == false && removed[p[1]] == false).count();
            Map<String, Long> keptLang = new HashMap<>(), keptGroup = new HashMap<>();
            for (int i = 0; i < docs.length; i++) {
                if (removed[i]) continue;
                keptLang.merge(docs[i].lang, 1L, Long::sum);
                keptGroup.merge(docs[i].lang + '\0' + docs[i].base, 1L, Long::sum);
            }
            long spreadPairs = 0;
            for (long m : keptLang.values())
                spreadPairs += m * (m - 1) / 2;
            for (long g : keptGroup.values())
                spreadPairs -= g * (g - 1) / 2;
            int bytes = rule instanceof Wide ? 32 : rule instanceof BBit bb ? 8 + bb.m * bb.b / 8 : 8;
            out.printf(
                Locale.ROOT,
                "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1e | %.1e | %.2f %% |%n",
                rule.name(),
                bytes,
                recall(counts.get("all")),
                precision(counts.get("all")),
                f1(counts.get("all")),
                f1(counts.get("en")),
                f1(counts.get("zh")),
                recall(counts.get("en")),
                recall(counts.get("zh")),
                (double) falseMatches / unrelatedPairs,
                (double) spreadFalse / spreadPairs,
                100.0 * withFalse / docs.length
            );
        }
    }

    static double recall(long[] c) {
        return c == null ? Double.NaN : (double) c[0] / (c[0] + c[1]);
    }

    static double precision(long[] c) {
        return c == null ? Double.NaN : (double) c[0] / (c[0] + c[2]);
    }

    static double f1(long[] c) {
        double p = precision(c), r = recall(c);
        return 2 * p * r / (p + r);
    }
}
