package org.nearduplicate.tools.quality;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Analysis;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Issue 25 item 5: the unrelated pairs that still match at the default ({@link SimHashSettings#VERSION}, k = 16, 12 agreeing slots of
 * the real {@link Signature}), and what candidate extraction rules would do to them. Every rule works on the default
 * extraction's main text (one kept block per line, {@link SimHasher#extractText}) and fingerprints what is left with the
 * default features (the same pipeline with {@code content_type=text,extract=none}: for the unchanged text this gives the
 * default fingerprint and signature bit for bit, which the tool checks). A rule is scored like {@link QualityReport}:
 * recall, precision and F1 on the labelled pairs per language, and the unrelated same-language pairs that match
 * (different base document as {@link Corpus#groups} defines it: a heavy-edit negative belongs to its base's group).
 *
 * <p>Rules measured (none is part of any algorithm version; they are candidates):
 * <ul>
 * <li>{@code min-features N}: a document with fewer than N distinct features matches nothing (no signed match);</li>
 * <li>{@code template-dominated S: 20 slots}: a pair with a page whose main text is below S of its visible text (the
 * full text, extraction off) needs 20 agreeing slots instead of 12;</li>
 * <li>{@code short-blocks W}: blocks of at most W words that do not read as a sentence are dropped (menu lines,
 * headline lists, site headings that extraction kept because they are not link dense);</li>
 * <li>{@code repeated-blocks T (groups)}: a block that occurs in T or more near-duplicate groups of the index (the
 * default's components, so that copies of one page count once) is dropped: text a site repeats on different pages;</li>
 * <li>{@code repeated-blocks T (documents)}: the same, counted over documents (copies count each time).</li>
 * </ul>
 *
 * <p>usage ({@code scripts/residual.sh}): {@code ResidualStudy <corpus-dir> [--out FILE] [--dump DIR] [--residual]}:
 * {@code --out} writes the table as a results file; {@code --dump} writes, for the default and two rules (DIR/default,
 * DIR/repeated-groups-3, DIR/repeated-groups-5), the sketches ({@code docs.tsv}: id, fingerprint, signature,
 * features, main-text characters) and every pair within k = 16 with its agreeing slots ({@code pairs.tsv}), which
 * {@code bench/scale_offline.py} reads; {@code --residual} lists the unrelated pairs the default matches.
 */
public final class ResidualStudy {
    static final int K = 16;
    static final int MIN_AGREEING = Signature.minAgreeing(SimHashSettings.DEFAULT.recommendedMinSimilarity());

    record Sketch(long fingerprint, byte[] signature, int features, boolean valid) {
        static final Sketch INVALID = new Sketch(0, null, 0, false);
    }

    record Score(String rule, long[] all, long[] en, long[] zh, long residual, int basePairs, int docsWithFalse, long unrelated, int docs) {
    }

    private final Corpus corpus;
    private final List<String> ids;
    private final Corpus.Doc[] docs;
    private final String[] base;
    private final Map<String, Integer> index = new HashMap<>();
    private final SimHasher textHasher = new SimHasher(QualityReport.parseSettings("content_type=text,extract=none"));
    private final String[][] blocks;
    /** Characters of the main text over characters of all visible text (extraction off). */
    private final double[] mainShare;
    /** Documents whose sketch through the text path differs from the direct one (must be 0). */
    private int textPathDiffers = -1;

    ResidualStudy(Corpus corpus) {
        this.corpus = corpus;
        Map<String, String> groups = corpus.groups();
        ids = new ArrayList<>(corpus.docs().keySet());
        docs = new Corpus.Doc[ids.size()];
        base = new String[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            docs[i] = corpus.docs().get(ids.get(i));
            base[i] = groups.get(ids.get(i));
            index.put(ids.get(i), i);
        }
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        SimHasher full = new SimHasher(QualityReport.parseSettings("extract=none"));
        blocks = new String[docs.length][];
        mainShare = new double[docs.length];
        IntStream.range(0, docs.length).parallel().forEach(i -> {
            try {
                String main = hasher.extractText(docs[i].content());
                blocks[i] = main.split("\n");
                mainShare[i] = (double) main.strip().length() / Math.max(1, full.extractText(docs[i].content()).strip().length());
            } catch (EngineInputException e) {
                blocks[i] = new String[0];
            }
        });
    }

    /** The default sketches, straight from the content, and a check that the text path reproduces them. */
    Sketch[] defaults() {
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        Sketch[] direct = sketchAll(i -> docs[i].content(), hasher);
        Sketch[] viaText = sketchAll(i -> String.join("\n", blocks[i]) + "\n", textHasher);
        int differ = 0;
        for (int i = 0; i < docs.length; i++) {
            if (direct[i].valid != viaText[i].valid
                || (direct[i].valid
                    && (direct[i].fingerprint != viaText[i].fingerprint
                        || java.util.Arrays.equals(direct[i].signature, viaText[i].signature) == false))) differ++;
        }
        System.out.printf(Locale.ROOT, "# text path vs direct: %d of %d documents differ%n", differ, docs.length);
        textPathDiffers = differ;
        return direct;
    }

    private Sketch[] sketchAll(Function<Integer, String> text, SimHasher hasher) {
        Sketch[] out = new Sketch[docs.length];
        IntStream.range(0, docs.length).parallel().forEach(i -> {
            try {
                String t = text.apply(i);
                if (t == null || t.isBlank()) {
                    out[i] = Sketch.INVALID;
                    return;
                }
                Analysis a = hasher.analyze(t, 0);
                out[i] = new Sketch(a.fingerprint(), a.signature(), a.featureCount(), true);
            } catch (EngineInputException e) {
                out[i] = Sketch.INVALID;
            }
        });
        return out;
    }

    /** Sketches of the main text after dropping the blocks {@code drop} rejects (all dropped: the text unchanged). */
    Sketch[] withBlocks(java.util.function.BiPredicate<Integer, String> drop) {
        return sketchAll(i -> {
            StringBuilder sb = new StringBuilder();
            for (String b : blocks[i])
                if (b.isBlank() == false && drop.test(i, b) == false) sb.append(b).append('\n');
            return sb.length() == 0 ? String.join("\n", blocks[i]) + "\n" : sb.toString();
        }, textHasher);
    }

    static boolean matches(Sketch a, Sketch b, int minFeatures) {
        return matches(a, b, minFeatures, MIN_AGREEING);
    }

    static boolean matches(Sketch a, Sketch b, int minFeatures, int minAgreeing) {
        if (a.valid == false || b.valid == false) return false;
        if (a.features < minFeatures || b.features < minFeatures) return false;
        return Fingerprints.distance(a.fingerprint, b.fingerprint) <= K
            && Signature.agreeingSlots(a.signature, 0, b.signature, 0) >= minAgreeing;
    }

    /**
     * The rule's match: {@code strictBelowShare} > 0 asks 20 agreeing slots (min_similarity ~0.6) of a pair with a
     * page whose main text is below that share of its visible text (a template-dominated page).
     */
    boolean matches(Sketch[] s, int i, int j, int minFeatures, double strictBelowShare) {
        boolean strict = strictBelowShare > 0 && (mainShare[i] < strictBelowShare || mainShare[j] < strictBelowShare);
        return matches(s[i], s[j], minFeatures, strict ? 20 : MIN_AGREEING);
    }

    Score score(String rule, Sketch[] s, int minFeatures, List<int[]> residualOut) {
        return score(rule, s, minFeatures, 0, residualOut);
    }

    Score score(String rule, Sketch[] s, int minFeatures, double strictBelowShare, List<int[]> residualOut) {
        long[] all = new long[3], en = new long[3], zh = new long[3]; // tp, fn, fp
        for (Corpus.Pair p : corpus.pairs()) {
            int a = index.get(p.a()), b = index.get(p.b());
            boolean match = matches(s, a, b, minFeatures, strictBelowShare);
            String lang = docs[a].lang().equals(docs[b].lang()) ? docs[a].lang() : "cross";
            for (long[] c : new long[][] { all, lang.equals("en") ? en : lang.equals("zh") ? zh : null }) {
                if (c == null) continue;
                if (p.duplicate()) c[match ? 0 : 1]++;
                else if (match) c[2]++;
            }
        }
        long residual = 0, unrelated = 0;
        Set<String> basePairs = new HashSet<>();
        boolean[] withFalse = new boolean[docs.length];
        Map<String, Long> perLang = new HashMap<>(), perGroup = new HashMap<>();
        for (int i = 0; i < docs.length; i++) {
            perLang.merge(docs[i].lang(), 1L, Long::sum);
            perGroup.merge(docs[i].lang() + '\0' + base[i], 1L, Long::sum);
        }
        for (long m : perLang.values())
            unrelated += m * (m - 1) / 2;
        for (long g : perGroup.values())
            unrelated -= g * (g - 1) / 2;
        for (int i = 0; i < docs.length; i++) {
            if (s[i].valid == false) continue;
            for (int j = i + 1; j < docs.length; j++) {
                if (base[i].equals(base[j]) || docs[i].lang().equals(docs[j].lang()) == false) continue;
                if (matches(s, i, j, minFeatures, strictBelowShare)) {
                    residual++;
                    withFalse[i] = withFalse[j] = true;
                    basePairs.add(base[i].compareTo(base[j]) < 0 ? base[i] + "~" + base[j] : base[j] + "~" + base[i]);
                    if (residualOut != null) residualOut.add(new int[] { i, j });
                }
            }
        }
        int docsWithFalse = 0;
        for (boolean w : withFalse)
            if (w) docsWithFalse++;
        return new Score(rule, all, en, zh, residual, basePairs.size(), docsWithFalse, unrelated, docs.length);
    }

    static double recall(long[] c) {
        return (double) c[0] / (c[0] + c[1]);
    }

    static double precision(long[] c) {
        return (double) c[0] / (c[0] + c[2]);
    }

    static double f1(long[] c) {
        double p = precision(c), r = recall(c);
        return 2 * p * r / (p + r);
    }

    static void print(PrintStream out, Score s) {
        out.printf(
            Locale.ROOT,
            "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %d | %d | %.1e | %.2f %% |%n",
            s.rule,
            recall(s.all),
            precision(s.all),
            f1(s.all),
            recall(s.en),
            recall(s.zh),
            f1(s.en),
            f1(s.zh),
            s.residual,
            s.basePairs,
            (double) s.residual / s.unrelated,
            100.0 * s.docsWithFalse / s.docs
        );
    }

    // words as TextBlock counts them (a CJK character is half a word), and its sentence test
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?。！？][\"'”’)）」』]?\\s*$");

    static int words(String s) {
        int latin = 0, cjk = 0;
        boolean inWord = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c >= '\u3400' && c <= '\u9FFF') || (c >= '\uF900' && c <= '\uFAFF') || (c >= '\u3040' && c <= '\u30FF')) {
                cjk++;
                inWord = false;
            } else if (Character.isLetterOrDigit(c)) {
                if (inWord == false) latin++;
                inWord = true;
            } else {
                inWord = false;
            }
        }
        return latin + (cjk + 1) / 2;
    }

    static boolean readsAsSentence(String b) {
        return words(b) >= 4 && SENTENCE_END.matcher(b).find();
    }

    static String normalizeBlock(String b) {
        return b.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /** Per normalized block, the number of distinct keys (of {@code keyOf}) of the documents holding it. */
    Map<String, Integer> blockFrequency(int[] keyOf) {
        Map<String, Set<Integer>> holders = new HashMap<>();
        for (int i = 0; i < docs.length; i++) {
            for (String b : blocks[i]) {
                if (b.isBlank()) continue;
                holders.computeIfAbsent(normalizeBlock(b), x -> new HashSet<>()).add(keyOf[i]);
            }
        }
        Map<String, Integer> df = new HashMap<>(holders.size() * 2);
        holders.forEach((b, h) -> df.put(b, h.size()));
        return df;
    }

    /** The components of the default's matches over all documents (any language): copies of one page share one. */
    int[] components(Sketch[] s) {
        int n = docs.length;
        int[] parent = IntStream.range(0, n).toArray();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (matches(s[i], s[j], 0)) {
                    int a = root(parent, i), b = root(parent, j);
                    if (a != b) parent[Math.max(a, b)] = Math.min(a, b);
                }
            }
        }
        for (int i = 0; i < n; i++)
            parent[i] = root(parent, i);
        return parent;
    }

    private static int root(int[] p, int x) {
        while (p[x] != x) {
            p[x] = p[p[x]];
            x = p[x];
        }
        return x;
    }

    void dump(Path dir, Sketch[] s) throws IOException {
        Files.createDirectories(dir);
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("docs.tsv"), StandardCharsets.UTF_8))) {
            w.println("id\tfingerprint\tsignature\tfeatures\tmain_chars");
            for (int i = 0; i < docs.length; i++) {
                w.printf(
                    Locale.ROOT,
                    "%s\t%s\t%s\t%d\t%d%n",
                    ids.get(i),
                    s[i].valid ? Fingerprints.toHex(s[i].fingerprint) : "",
                    s[i].valid ? java.util.HexFormat.of().formatHex(s[i].signature) : "",
                    s[i].features,
                    String.join("\n", blocks[i]).length()
                );
            }
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("pairs.tsv"), StandardCharsets.UTF_8))) {
            w.println("a\tb\tdistance\tagreeing");
            for (int i = 0; i < docs.length; i++) {
                if (s[i].valid == false) continue;
                for (int j = i + 1; j < docs.length; j++) {
                    if (s[j].valid == false) continue;
                    int d = Fingerprints.distance(s[i].fingerprint, s[j].fingerprint);
                    if (d <= K) w.printf(
                        Locale.ROOT,
                        "%s\t%s\t%d\t%d%n",
                        ids.get(i),
                        ids.get(j),
                        d,
                        Signature.agreeingSlots(s[i].signature, 0, s[j].signature, 0)
                    );
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        Corpus corpus = Corpus.load(Path.of(args[0]));
        ResidualStudy study = new ResidualStudy(corpus);
        PrintStream out = System.out;
        Sketch[] base = study.defaults();
        out.printf(Locale.ROOT, "# %d documents, default sketches in %.0f s%n", study.docs.length, (System.nanoTime() - t0) / 1e9);
        for (int a = 1; a < args.length; a++) {
            if (args[a].equals("--residual")) {
                List<int[]> residual = new ArrayList<>();
                study.score("default", base, 0, residual);
                for (int[] p : residual) {
                    out.printf(
                        Locale.ROOT,
                        "%s %s | bases %s %s | d %d | agreeing %d | features %d %d%n  A: %s%n  B: %s%n",
                        study.ids.get(p[0]),
                        study.ids.get(p[1]),
                        study.base[p[0]],
                        study.base[p[1]],
                        Fingerprints.distance(base[p[0]].fingerprint, base[p[1]].fingerprint),
                        Signature.agreeingSlots(base[p[0]].signature, 0, base[p[1]].signature, 0),
                        base[p[0]].features,
                        base[p[1]].features,
                        snippet(study.blocks[p[0]]),
                        snippet(study.blocks[p[1]])
                    );
                }
                return;
            }
        }
        String dumpDir = null, outFile = null;
        for (int a = 1; a < args.length; a++) {
            if (args[a].equals("--dump")) dumpDir = args[++a];
            if (args[a].equals("--out")) outFile = args[++a];
        }
        if (dumpDir != null) study.dump(Path.of(dumpDir, "default"), base);
        StringBuilder table = new StringBuilder();
        table.append(
            "| rule | R | P | F1 | R en | R zh | F1 en | F1 zh | residual pairs | base pairs | unrelated-pair rate | docs with a false match |\n"
        );
        table.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        java.util.function.Consumer<Score> row = sc -> {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            print(new PrintStream(bytes, true, StandardCharsets.UTF_8), sc);
            String line = bytes.toString(StandardCharsets.UTF_8);
            out.print(line);
            table.append(line);
        };
        row.accept(study.score("default (" + SimHashSettings.VERSION + ", k = 16, 12 of 32 slots)", base, 0, null));
        for (int n : new int[] { 16, 32, 48, 64 })
            row.accept(study.score("min-features " + n, base, n, null));
        for (double share : new double[] { 0.25, 0.4 })
            row.accept(study.score("template-dominated " + share + ": 20 slots", base, 0, share, null));
        for (int w : new int[] { 5, 8, 12 }) {
            row.accept(study.score("short-blocks " + w, study.withBlocks((i, b) -> words(b) <= w && readsAsSentence(b) == false), 0, null));
        }
        int[] comp = study.components(base);
        Map<String, Integer> byGroup = study.blockFrequency(comp);
        Map<String, Integer> byDoc = study.blockFrequency(IntStream.range(0, study.docs.length).toArray());
        for (int t : new int[] { 3, 5, 10, 20 }) {
            Sketch[] s = study.withBlocks((i, b) -> byGroup.getOrDefault(normalizeBlock(b), 0) >= t);
            row.accept(study.score("repeated-blocks " + t + " (groups)", s, 0, null));
            if (dumpDir != null && (t == 3 || t == 5)) study.dump(Path.of(dumpDir, "repeated-groups-" + t), s);
        }
        for (int t : new int[] { 5, 10, 20 }) {
            Sketch[] s = study.withBlocks((i, b) -> byDoc.getOrDefault(normalizeBlock(b), 0) >= t);
            row.accept(study.score("repeated-blocks " + t + " (documents)", s, 0, null));
        }
        Sketch[] combined = study.withBlocks(
            (i, b) -> byGroup.getOrDefault(normalizeBlock(b), 0) >= 5 || (words(b) <= 8 && readsAsSentence(b) == false)
        );
        row.accept(study.score("repeated-blocks 5 (groups) + short-blocks 8", combined, 0, null));
        Sketch[] repeated3 = study.withBlocks((i, b) -> byGroup.getOrDefault(normalizeBlock(b), 0) >= 3);
        row.accept(study.score("repeated-blocks 3 (groups) + template-dominated 0.25: 20 slots", repeated3, 0, 0.25, null));
        out.printf(Locale.ROOT, "# %.0f s in all%n", (System.nanoTime() - t0) / 1e9);
        if (outFile != null) {
            String md = "# The residual of the verified match, and candidate extraction rules (issue 25 item 5)\n\n"
                + "Generated by `ResidualStudy` (`src/test/java/org/nearduplicate/tools/quality/ResidualStudy.java`); do not edit by hand.\n\n"
                + "```sh\n"
                + System.getProperty(
                    "residual.command",
                    "java -cp <test classpath> org.nearduplicate.tools.quality.ResidualStudy ../shared/eval/public --out ..."
                )
                + "\n```\n\n"
                + String.format(
                    Locale.ROOT,
                    "Date %s; corpus %s, %d documents; the default's sketches reproduced through the text path for every document "
                        + "(%s). Match: 64-bit distance <= %d and >= %d of 32 agreeing signature slots ("
                        + SimHashSettings.VERSION
                        + " at its defaults). "
                        + "Residual pairs: same-language pairs of different base documents (a heavy-edit negative counts with its base, "
                        + "`Corpus.groups`) that match; base pairs: distinct unordered pairs of their bases. None of the rules is part "
                        + "of an algorithm version.%n%n",
                    java.time.Instant.now(),
                    args[0],
                    study.docs.length,
                    study.textPathDiffers + " differ",
                    K,
                    MIN_AGREEING
                )
                + table
                + "\nRules: `min-features N`: a document with fewer than N distinct features matches nothing. "
                + "`template-dominated S: 20 slots`: a pair with a page whose main text is below S of its visible text needs 20 "
                + "agreeing slots (min_similarity ~0.6) instead of 12. `short-blocks W`: main-text blocks of at most W words that do "
                + "not read as a sentence are dropped before the features. `repeated-blocks T (groups)`: a block (whitespace and "
                + "case folded) found in T or more near-duplicate groups of the corpus (components of the default's matches, so "
                + "copies of one page count once) is dropped; `(documents)`: counted over documents, copies each time. A page "
                + "left without blocks keeps its text. The block frequencies are counted over this very corpus (in-sample).\n";
            Files.writeString(Path.of(outFile), md);
        }
    }

    static String snippet(String[] blocks) {
        String t = String.join(" / ", blocks).replaceAll("\\s+", " ");
        return t.length() + " chars, " + blocks.length + " blocks: " + t.substring(0, Math.min(200, t.length()));
    }
}
