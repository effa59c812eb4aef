package org.nearduplicate.tools.quality;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Precision, recall and F1 of "Hamming distance <= k" as the near-duplicate test, on a labelled corpus, for k = 0 ..
 * kMax; per language and per kind of pair; and the chance matches at scale of every k ({@link ChanceMatches}). Operators run it (scripts/quality.sh) on their own labelled pairs to
 * choose k.
 */
public final class QualityReport {
    /** Counts for one slice of the pairs at one k. */
    public static final class Counts {
        public long tp, fp, fn, tn;

        public double precision() {
            return tp + fp == 0 ? 1 : (double) tp / (tp + fp);
        }

        public double recall() {
            return tp + fn == 0 ? 1 : (double) tp / (tp + fn);
        }

        public double f1() {
            double p = precision(), r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        public double falsePositiveRate() {
            return fp + tn == 0 ? 0 : (double) fp / (fp + tn);
        }

        public long positives() {
            return tp + fn;
        }

        public long negatives() {
            return fp + tn;
        }
    }

    /** Results of one settings variant: slice name -> counts per k. */
    public record Result(SimHashSettings settings, int kMax, Map<String, Counts[]> slices, int failures, double seconds,
        ChanceMatches chance) {
        /** Without chance matches (their columns print as "-"). */
        public Result(SimHashSettings settings, int kMax, Map<String, Counts[]> slices, int failures, double seconds) {
            this(settings, kMax, slices, failures, seconds, null);
        }

        public Counts at(String slice, int k) {
            return slices.get(slice)[k];
        }

        /** The k with the best overall F1 (the smallest on ties). */
        public int bestK() {
            int best = 0;
            for (int k = 1; k <= kMax; k++) {
                if (at("all", k).f1() > at("all", best).f1()) best = k;
            }
            return best;
        }
    }

    private QualityReport() {}

    /** As below, at the settings' recommended {@code min_similarity}. */
    public static Result evaluate(Corpus corpus, SimHashSettings settings, int kMax) {
        return evaluate(corpus, settings, kMax, settings.recommendedMinSimilarity());
    }

    /**
     * Fingerprints every document of the corpus and scores every pair. Documents that fail never match. From
     * {@code simhash-v4} a match is also verified: the signatures' Jaccard estimate reaches {@code minSimilarity}.
     */
    public static Result evaluate(Corpus corpus, SimHashSettings settings, int kMax, double minSimilarity) {
        long start = System.nanoTime();
        SimHasher hasher = new SimHasher(settings);
        Map<String, Long> fingerprints = new ConcurrentHashMap<>();
        Map<String, byte[]> signatures = new ConcurrentHashMap<>();
        int[] failures = new int[1];
        corpus.docs().values().parallelStream().forEach(d -> {
            try {
                SimHash sketch = hasher.sketch(d.content());
                fingerprints.put(d.id(), sketch.fingerprint());
                if (sketch.hasSignature()) signatures.put(d.id(), sketch.signature());
            } catch (EngineInputException e) {
                synchronized (failures) {
                    failures[0]++;
                }
            }
        });
        int minAgreeing = Signature.minAgreeing(minSimilarity);
        Map<String, Counts[]> slices = new TreeMap<>();
        for (Corpus.Pair p : corpus.pairs()) {
            Long a = fingerprints.get(p.a()), b = fingerprints.get(p.b());
            int distance = a == null || b == null ? Integer.MAX_VALUE : Fingerprints.distance(a, b);
            byte[] sa = signatures.get(p.a()), sb = signatures.get(p.b());
            if (sa != null && sb != null && Signature.agreeingSlots(sa, 0, sb, 0) < minAgreeing) distance = Integer.MAX_VALUE;
            for (String name : corpus.sliceNames(p)) {
                Counts[] perK = slices.computeIfAbsent(name, n -> newCounts(kMax));
                for (int k = 0; k <= kMax; k++) {
                    Counts c = perK[k];
                    boolean predicted = distance <= k;
                    if (p.duplicate()) {
                        if (predicted) c.tp++;
                        else c.fn++;
                    } else {
                        if (predicted) c.fp++;
                        else c.tn++;
                    }
                }
            }
        }
        ChanceMatches chance = chanceMatches(corpus, fingerprints, signatures, minAgreeing, kMax);
        return new Result(settings, kMax, slices, failures[0], (System.nanoTime() - start) / 1e9, chance);
    }

    /** Chance matches over every same-language pair of documents of different base documents (issue 25). */
    static ChanceMatches chanceMatches(Corpus corpus, Map<String, Long> fingerprints, int kMax) {
        return chanceMatches(corpus, fingerprints, Map.of(), 0, kMax);
    }

    /** As above, a pair whose documents both have a signature also needs {@code minAgreeing} agreeing slots. */
    static ChanceMatches chanceMatches(
        Corpus corpus,
        Map<String, Long> fingerprints,
        Map<String, byte[]> signatures,
        int minAgreeing,
        int kMax
    ) {
        Map<String, String> groups = corpus.groups();
        int n = corpus.docs().size(), i = 0;
        byte[][] sig = new byte[n][];
        long[] fp = new long[n];
        boolean[] valid = new boolean[n];
        String[] lang = new String[n], group = new String[n];
        for (Corpus.Doc d : corpus.docs().values()) {
            Long f = fingerprints.get(d.id());
            valid[i] = f != null;
            fp[i] = f == null ? 0 : f;
            lang[i] = d.lang();
            group[i] = groups.get(d.id());
            sig[i] = signatures.get(d.id());
            i++;
        }
        return ChanceMatches.compute(
            fp,
            valid,
            lang,
            group,
            kMax,
            (x, y) -> sig[x] == null || sig[y] == null || Signature.agreeingSlots(sig[x], 0, sig[y], 0) >= minAgreeing
        );
    }

    private static Counts[] newCounts(int kMax) {
        Counts[] c = new Counts[kMax + 1];
        for (int k = 0; k <= kMax; k++)
            c[k] = new Counts();
        return c;
    }

    /**
     * Prints the per-k table (with the chance-match columns of {@link ChanceMatches}, overall), the chance matches per
     * language next to precision and recall, and the per-kind breakdown at the best k.
     */
    public static void print(Result r, PrintStream out) {
        out.println("## " + r.settings().algorithmId());
        out.printf(Locale.ROOT, "%d documents failed; %.1f s%n%n", r.failures(), r.seconds());
        List<String> langs = r.slices().keySet().stream().filter(s -> s.startsWith("lang:")).toList();
        StringBuilder header = new StringBuilder("|  k | P     | R     | F1    |");
        for (String l : langs)
            header.append(String.format(Locale.ROOT, " F1 %-5s|", l.substring(5)));
        header.append(SCALE_HEADER);
        out.println(header);
        out.println("|" + "---|".repeat(4 + langs.size() + SCALE_COLUMNS));
        for (int k = 0; k <= r.kMax(); k++) {
            Counts all = r.at("all", k);
            StringBuilder row = new StringBuilder(
                String.format(Locale.ROOT, "| %2d | %.3f | %.3f | %.3f |", k, all.precision(), all.recall(), all.f1())
            );
            for (String l : langs) {
                Counts c = r.at(l, k);
                row.append(String.format(Locale.ROOT, " %.3f    |", c.positives() == 0 ? Double.NaN : c.f1()));
            }
            row.append(scaleCells(r.chance(), "all", k));
            out.println(row);
        }
        printChanceMatches(r, out);
        int best = r.bestK();
        out.printf(Locale.ROOT, "%nbest k = %d (F1 %.3f)%n", best, r.at("all", best).f1());
        // k = 8 is the largest distance the index layouts are tested for; show it next to the best k
        int recommended = r.settings().recommendedMaxDistance();
        java.util.TreeSet<Integer> ks = new java.util.TreeSet<>(List.of(best));
        if (r.kMax() >= 8) ks.add(8);
        if (r.kMax() >= recommended) ks.add(recommended); // the query's default k for this version
        for (int k : ks) {
            out.printf(Locale.ROOT, "%nBy kind at k = %d:%n%n", k);
            out.println("| slice | pairs | recall (pos) / false-positive rate (neg) |");
            out.println("|---|---|---|");
            for (Map.Entry<String, Counts[]> e : r.slices().entrySet()) {
                Counts c = e.getValue()[k];
                if (e.getKey().startsWith("pos:")) {
                    out.printf(Locale.ROOT, "| %s | %d | recall %.3f |%n", e.getKey(), c.positives(), c.recall());
                } else if (e.getKey().startsWith("neg:")) {
                    out.printf(Locale.ROOT, "| %s | %d | FP rate %.4f |%n", e.getKey(), c.negatives(), c.falsePositiveRate());
                } else if (e.getKey().startsWith("lang:")) {
                    out.printf(
                        Locale.ROOT,
                        "| %s | %d | P %.3f R %.3f F1 %.3f |%n",
                        e.getKey(),
                        c.positives() + c.negatives(),
                        c.precision(),
                        c.recall(),
                        c.f1()
                    );
                }
            }
        }
        out.println();
    }

    private static final String SCALE_HEADER = " unrelated | spread | docs w/ false match | hits/q 1M | hits/q 10M | hits/q 100M |";
    private static final int SCALE_COLUMNS = 6;

    /** The six chance-match cells of one slice at one k ("-" where not computed). */
    static String scaleCells(ChanceMatches chance, String slice, int k) {
        if (chance == null || chance.slices().containsKey(slice) == false || k > chance.kMax()) return " - |".repeat(SCALE_COLUMNS);
        ChanceMatches.Rates c = chance.at(slice, k);
        StringBuilder s = new StringBuilder();
        s.append(' ').append(rate(c.rate())).append(" |");
        s.append(' ').append(rate(c.spreadRate())).append(" |");
        s.append(String.format(Locale.ROOT, " %.1f %% |", 100 * c.documentsWithFalseMatchShare()));
        for (long n : ChanceMatches.SIZES)
            s.append(' ').append(hits(c.falseHitsPerQuery(n))).append(" |");
        return s.toString();
    }

    /** A pair rate: 0, or two significant digits in scientific notation. */
    static String rate(double x) {
        if (Double.isNaN(x)) return "-";
        return x == 0 ? "0" : String.format(Locale.ROOT, "%.1e", x);
    }

    /** Expected false hits per query: scientific below 0.01, else two decimals, else whole numbers from 100 on. */
    static String hits(double x) {
        if (Double.isNaN(x)) return "-";
        if (x == 0) return "0";
        if (x < 0.01) return String.format(Locale.ROOT, "%.1e", x);
        if (x < 100) return String.format(Locale.ROOT, "%.2f", x);
        return String.format(Locale.ROOT, "%,.0f", x);
    }

    /** Per language: precision and recall next to the chance-match columns, per k. */
    static void printChanceMatches(Result r, PrintStream out) {
        ChanceMatches chance = r.chance();
        if (chance == null) return;
        ChanceMatches.Rates total = chance.at("all", 0);
        out.printf(
            Locale.ROOT,
            "%nChance matches: \"unrelated\" is the share of all %,d same-language pairs of documents of different base"
                + " documents within distance k (counted exactly); \"spread\" the same after removing the 1 %% of documents"
                + " with the most false matches (%d of %,d); \"docs w/ false match\" the share of documents with at least"
                + " one; \"hits/q N\" the expected false hits of one query against N documents, rate × N.%n",
            total.unrelatedPairs(),
            total.removedForSpread(),
            total.documents()
        );
        for (Map.Entry<String, ChanceMatches.Rates[]> e : chance.slices().entrySet()) {
            String slice = e.getKey();
            if (slice.startsWith("lang:") == false) continue;
            ChanceMatches.Rates first = e.getValue()[0];
            out.printf(
                Locale.ROOT,
                "%n%s: %,d documents, %,d unrelated pairs (spread without %d documents)%n%n",
                slice,
                first.documents(),
                first.unrelatedPairs(),
                first.removedForSpread()
            );
            out.println("|  k | P     | R     |" + SCALE_HEADER);
            out.println("|" + "---|".repeat(3 + SCALE_COLUMNS));
            for (int k = 0; k <= r.kMax(); k++) {
                Counts c = r.slices().containsKey(slice) ? r.at(slice, k) : null;
                out.println(
                    String.format(
                        Locale.ROOT,
                        "| %2d | %.3f | %.3f |",
                        k,
                        c == null ? Double.NaN : c.precision(),
                        c == null ? Double.NaN : c.recall()
                    ) + scaleCells(chance, slice, k)
                );
            }
        }
    }

    /** Settings from {@code key=value,...} (option names of {@link SimHashSettings}) or from an algorithm id. */
    static SimHashSettings parseSettings(String spec) {
        if (spec.startsWith(SimHashSettings.VERSION) || spec.startsWith("simhash-")) return SimHashSettings.fromAlgorithmId(spec);
        Map<String, Object> options = new HashMap<>();
        if (spec.isBlank() == false && spec.equals("default") == false) {
            for (String kv : spec.split(",")) {
                int eq = kv.indexOf('=');
                if (eq <= 0) throw new IllegalArgumentException("expected key=value, got [" + kv + "]");
                options.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
        }
        SimHashSettings s = SimHashSettings.fromMap(options);
        if (options.isEmpty() == false) throw new IllegalArgumentException("unknown options " + options.keySet());
        return s;
    }

    /**
     * Usage: {@code QualityReport [corpus-dir] [--pairs pairs.tsv] [--docs docs.jsonl] [--k-max N] [--settings SPEC]...
     * [--alternatives]}; SPEC is {@code key=value,...} or an algorithm id; without --settings the defaults are used, and
     * --alternatives adds the standard comparison variants.
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of("../shared/eval/public");
        Path pairs = null, docs = null;
        int kMax = 12;
        List<SimHashSettings> variants = new ArrayList<>();
        boolean alternatives = false;
        boolean ceilings = true;
        Double requestedSimilarity = null; // null: each variant's recommended one
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--pairs" -> pairs = Path.of(args[++i]);
                case "--docs" -> docs = Path.of(args[++i]);
                case "--k-max" -> kMax = Integer.parseInt(args[++i]);
                case "--settings" -> variants.add(parseSettings(args[++i]));
                case "--alternatives" -> alternatives = true;
                case "--no-ceilings" -> ceilings = false;
                case "--min-similarity" -> requestedSimilarity = Double.parseDouble(args[++i]);
                case "-h", "--help" -> {
                    System.out.println(
                        "usage: quality.sh [corpus-dir] [--pairs FILE] [--docs FILE] [--k-max N] [--settings key=value,...]... [--alternatives] [--no-ceilings] [--min-similarity T]"
                    );
                    return;
                }
                default -> dir = Path.of(args[i]);
            }
        }
        if (variants.isEmpty()) variants.add(SimHashSettings.DEFAULT);
        if (alternatives) variants.addAll(alternatives());
        Corpus corpus;
        if (pairs != null || docs != null) {
            corpus = Corpus.load(docs != null ? docs : dir.resolve("docs.jsonl.gz"), pairs != null ? pairs : dir.resolve("pairs.tsv.gz"));
        } else {
            if (Files.isDirectory(dir) == false) throw new IllegalArgumentException("no corpus directory " + dir);
            corpus = Corpus.load(dir);
        }
        System.out.printf(Locale.ROOT, "# corpus %s: %d documents, %d pairs%n%n", dir, corpus.docs().size(), corpus.pairs().size());
        Map<String, Result> summary = new LinkedHashMap<>();
        for (SimHashSettings s : variants) {
            double minSimilarity = requestedSimilarity != null ? requestedSimilarity : s.recommendedMinSimilarity();
            Result r = evaluate(corpus, s, kMax, minSimilarity);
            if (s.hasSignature()) {
                System.out.printf(
                    Locale.ROOT,
                    "Verified at min_similarity %s: at least %d of %d signature slots agree.%n%n",
                    minSimilarity,
                    Signature.minAgreeing(minSimilarity),
                    Signature.SLOTS
                );
            }
            print(r, System.out);
            summary.put(s.algorithmId(), r);
            if (ceilings) printCeilings(corpus, r, System.out);
        }
        if (summary.size() > 1) {
            System.out.println("## summary (best k per variant)\n");
            System.out.println("| settings | best k | P | R | F1 | F1 en | F1 zh |");
            System.out.println("|---|---|---|---|---|---|---|");
            for (Result r : summary.values()) {
                int k = r.bestK();
                System.out.printf(
                    Locale.ROOT,
                    "| %s | %d | %.3f | %.3f | %.3f | %s | %s |%n",
                    r.settings().algorithmId(),
                    k,
                    r.at("all", k).precision(),
                    r.at("all", k).recall(),
                    r.at("all", k).f1(),
                    f1(r, "lang:en", k),
                    f1(r, "lang:zh", k)
                );
            }
        }
    }

    /** One column of the ceilings table: a method's counts per slice at its best threshold. */
    private record Column(String name, String threshold, Map<String, Counts[]> slices, int index) {
        Counts at(String slice) {
            Counts[] c = slices.get(slice);
            return c == null ? null : c[index];
        }
    }

    private static Column column(MethodComparison.Result r) {
        int b = r.best();
        return new Column(r.method().name(), r.method().label().apply(r.method().thresholds()[b]), r.slices(), b);
    }

    /**
     * Sketch loss and feature loss as two numbers: next to SimHash at its best k, the exact cosine similarity of the same
     * weighted features (what SimHash estimates), and MinHash's estimate next to the exact Jaccard of its shingles, each
     * at its own best threshold, per language and per kind of change.
     */
    static void printCeilings(Corpus corpus, Result simhash, PrintStream out) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("simhash", "k<=" + simhash.bestK(), simhash.slices(), simhash.bestK()));
        columns.add(column(MethodComparison.evaluate(corpus, MethodComparison.cosine("cosine (exact)", simhash.settings()))));
        org.nearduplicate.core.MinHashSettings minhash = org.nearduplicate.core.MinHashSettings.DEFAULT;
        columns.add(column(MethodComparison.evaluate(corpus, MethodComparison.minhash("minhash", minhash))));
        columns.add(column(MethodComparison.evaluate(corpus, MethodComparison.jaccard("jaccard (exact)", minhash))));
        out.println("### Ceilings: the sketches against the exact similarity they estimate\n");
        out.println(
            "SimHash estimates the cosine of its weighted features; MinHash the Jaccard of its shingles ("
                + minhash.algorithmId()
                + "). 1 - ceiling is the features' loss, ceiling - sketch the sketch's loss; each column at"
                + " its own best threshold. F1 for languages, recall for positive kinds, false-positive rate for negative kinds.\n"
        );
        StringBuilder header = new StringBuilder("| slice |");
        for (Column c : columns)
            header.append(' ').append(c.name()).append(" (").append(c.threshold()).append(") |");
        out.println(header);
        out.println("|---|" + "---|".repeat(columns.size()));
        List<String> slices = new ArrayList<>(simhash.slices().keySet());
        slices.sort((a, b) -> Integer.compare(rank(a), rank(b)) != 0 ? Integer.compare(rank(a), rank(b)) : a.compareTo(b));
        for (String slice : slices) {
            if (slice.equals("lang:cross")) continue;
            StringBuilder row = new StringBuilder("| " + slice + " |");
            for (Column c : columns) {
                Counts n = c.at(slice);
                if (n == null) row.append(" - |");
                else if (slice.startsWith("neg:")) row.append(String.format(Locale.ROOT, " %.4f |", n.falsePositiveRate()));
                else if (slice.startsWith("pos:")) row.append(String.format(Locale.ROOT, " %.3f |", n.recall()));
                else row.append(String.format(Locale.ROOT, " %.3f |", n.f1()));
            }
            out.println(row);
        }
        double sketch = columns.get(0).at("all").f1(), cosine = columns.get(1).at("all").f1();
        double minhashF1 = columns.get(2).at("all").f1(), jaccard = columns.get(3).at("all").f1();
        out.printf(
            Locale.ROOT,
            "%nSimHash: feature loss %.3f, sketch loss %.3f; MinHash: feature loss %.3f, sketch loss %.3f (F1)%n%n",
            1 - cosine,
            cosine - sketch,
            1 - jaccard,
            jaccard - minhashF1
        );
    }

    private static int rank(String slice) {
        if (slice.equals("all")) return 0;
        if (slice.startsWith("lang:")) return 1;
        if (slice.startsWith("pos:")) return 2;
        return 3;
    }

    private static String f1(Result r, String slice, int k) {
        return r.slices().containsKey(slice) ? String.format(Locale.ROOT, "%.3f", r.at(slice, k).f1()) : "-";
    }

    /** The comparison variants: extraction off, character n-grams, and the other weightings. */
    static List<SimHashSettings> alternatives() {
        List<SimHashSettings> list = new ArrayList<>();
        for (String spec : new String[] {
            "extract=none",
            "features=char_ngrams,ngram_size=3",
            "features=char_ngrams,ngram_size=4",
            "weighting=log_tf",
            "weighting=binary",
            "weighting=tf_idf",
            "shingle_size=2",
            "stopwords=false" }) {
            SimHashSettings s = parseSettings(spec);
            if (s.equals(SimHashSettings.DEFAULT) == false) list.add(s);
        }
        return list;
    }
}
