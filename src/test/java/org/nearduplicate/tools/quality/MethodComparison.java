package org.nearduplicate.tools.quality;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleBiFunction;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.FeatureSettings;
import org.nearduplicate.core.ImatchSettings;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.features.IdfTable;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.ImatchHasher;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Compares the near-duplicate methods on a labelled corpus: for each method, precision / recall / F1 at every
 * threshold, the best threshold overall, the per-language and per-kind breakdown there, and the fingerprinting
 * throughput (documents and MB of input per CPU second, measured with the thread CPU clock around each document, so
 * other load on the machine matters less than for wall time).
 *
 * <p>Every method is a per-document representation plus a pair score; a pair is predicted a duplicate when its score is
 * at least the threshold. Documents a method cannot represent (no words) never match.
 */
public final class MethodComparison {

    /** A method: what it computes per document, how it scores a pair, and the thresholds to sweep. */
    public record Method<R>(String name, String description, Function<String, R> represent, ToDoubleBiFunction<R, R> score,
        double[] thresholds, DoubleFunction<String> label) {
    }

    /** The results of one method. */
    public record Result(Method<?> method, Map<String, QualityReport.Counts[]> slices, int failures, double docsPerCpuSecond,
        double mbPerCpuSecond, double seconds) {
        public QualityReport.Counts at(String slice, int t) {
            return slices.get(slice)[t];
        }

        /** Index of the threshold with the best overall F1 (the first on ties). */
        public int best() {
            int best = 0;
            for (int t = 1; t < method.thresholds().length; t++) {
                if (at("all", t).f1() > at("all", best).f1() + 1e-12) best = t;
            }
            return best;
        }
    }

    private MethodComparison() {}

    static double[] range(double from, double to, double step) {
        int n = (int) Math.round((to - from) / step) + 1;
        double[] t = new double[n];
        for (int i = 0; i < n; i++)
            t[i] = Math.round((from + i * step) * 1e6) / 1e6;
        return t;
    }

    private static final double[] EXACT = { 1.0 };

    private static <R> Method<R> exact(String name, String description, Function<String, R> represent) {
        return new Method<>(name, description, represent, (a, b) -> a.equals(b) ? 1 : 0, EXACT, t -> "equal");
    }

    /** OpenSearch's {@code fingerprint} processor over the raw field: SHA-1 of the raw content (it hashes field values as given). */
    public static Method<String> rawSha1() {
        return exact("raw-sha1", "SHA-1 of the raw content = OpenSearch `fingerprint` processor on the field", ImatchHasher::sha1);
    }

    public static Method<String> textHash() {
        ImatchHasher m = new ImatchHasher(ImatchSettings.DEFAULT);
        return exact("text-hash", "SHA-1 of the normalized main text (`imatch` processor, key `text`)", c -> m.keys(c).text());
    }

    public static Method<String> imatch(double minIdf, double maxIdf) {
        ImatchSettings s = new ImatchSettings(
            ImatchSettings.DEFAULT.contentType(),
            true,
            IdfTable.BUILTIN,
            minIdf,
            maxIdf,
            ImatchSettings.DEFAULT.maxInputChars()
        );
        ImatchHasher m = new ImatchHasher(s);
        return exact("imatch idf[" + minIdf + "," + maxIdf + "]", s.algorithmId(), c -> m.keys(c).imatch());
    }

    public static Method<Long> simhash(String name, SimHashSettings s, int kMax) {
        SimHasher h = new SimHasher(s);
        double[] t = new double[kMax + 1];
        for (int k = 0; k <= kMax; k++)
            t[k] = -k;
        return new Method<>(name, s.algorithmId(), h::fingerprint, (a, b) -> -Fingerprints.distance(a, b), t, v -> "k<=" + (int) -v);
    }

    public static Method<int[]> minhash(String name, MinHashSettings s) {
        MinHasher h = new MinHasher(s);
        return new Method<>(name, s.algorithmId(), h::signature, MinHasher::similarity, range(0.2, 1.0, 0.05), v -> "J>=" + v);
    }

    /** MinHash as the index answers it: candidates share a band of {@code lsh}, then the estimate must reach the threshold. */
    public static Method<int[]> minhashIndexed(String name, MinHashSettings s, Lsh lsh) {
        MinHasher h = new MinHasher(s);
        return new Method<>(
            name,
            s.algorithmId() + " " + lsh.id(),
            h::signature,
            (a, b) -> lsh.shareBand(a, b) ? MinHasher.similarity(a, b) : 0,
            range(0.2, 1.0, 0.05),
            v -> "J>=" + v
        );
    }

    /** The exact Jaccard of the feature sets MinHash estimates (no sketch): the ceiling of MinHash at these features. */
    public static Method<long[]> jaccard(String name, MinHashSettings s) {
        MinHasher h = new MinHasher(s);
        return new Method<>(
            name,
            "exact Jaccard of " + s.algorithmId(),
            h::featureHashes,
            MinHasher::exactJaccard,
            range(0.2, 1.0, 0.05),
            v -> "J>=" + v
        );
    }

    /** A sparse vector of feature hashes (sorted) and unit-length weights, for exact cosine similarity. */
    public record UnitVector(long[] hashes, double[] weights) {
        static UnitVector of(Map<String, Double> features) {
            long[] h = new long[features.size()];
            double[] w = new double[features.size()];
            Integer[] order = new Integer[h.length];
            int i = 0;
            double norm = 0;
            for (Map.Entry<String, Double> e : features.entrySet()) {
                h[i] = SimHasher.featureHash(e.getKey());
                w[i] = e.getValue();
                norm += w[i] * w[i];
                order[i] = i;
                i++;
            }
            Arrays.sort(order, (x, y) -> Long.compare(h[x], h[y]));
            long[] hs = new long[h.length];
            double[] ws = new double[h.length];
            double scale = norm == 0 ? 0 : 1 / Math.sqrt(norm);
            for (int j = 0; j < h.length; j++) {
                hs[j] = h[order[j]];
                ws[j] = w[order[j]] * scale;
            }
            return new UnitVector(hs, ws);
        }

        double cosine(UnitVector o) {
            double dot = 0;
            for (int i = 0, j = 0; i < hashes.length && j < o.hashes.length;) {
                if (hashes[i] == o.hashes[j]) dot += weights[i++] * o.weights[j++];
                else if (hashes[i] < o.hashes[j]) i++;
                else j++;
            }
            return dot;
        }
    }

    /**
     * The exact cosine similarity of the weighted features SimHash hashes (no sketch): the ceiling of SimHash at these
     * features and weights. SimHash estimates the angle: P[bit differs] = angle / pi.
     */
    public static Method<UnitVector> cosine(String name, SimHashSettings s) {
        SimHasher h = new SimHasher(s);
        return new Method<>(
            name,
            "exact cosine of the weighted features of " + s.algorithmId(),
            c -> UnitVector.of(h.weightedFeatures(c)),
            UnitVector::cosine,
            range(0.3, 1.0, 0.01),
            v -> "cos>=" + v
        );
    }

    /**
     * Keyword signature: the top {@code n} words by tf × idf (ties by word), sorted, hashed: an exact key like I-Match,
     * but over the document's most characteristic words.
     */
    public static Method<String> keywords(int n) {
        SimHashSettings.Builder b = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        SimHasher words = new SimHasher(b.build());
        IdfTable idf = IdfTable.builtin(IdfTable.BUILTIN);
        return exact("keywords top-" + n, "SHA-1 of the sorted top-" + n + " words by tf*idf", c -> {
            Map<String, Integer> f = words.features(c);
            List<Map.Entry<String, Integer>> all = new ArrayList<>(f.entrySet());
            all.sort((x, y) -> {
                int cmp = Double.compare(y.getValue() * idf.idf(y.getKey()), x.getValue() * idf.idf(x.getKey()));
                return cmp != 0 ? cmp : x.getKey().compareTo(y.getKey());
            });
            List<String> top = new ArrayList<>();
            for (int i = 0; i < Math.min(n, all.size()); i++)
                top.add(all.get(i).getKey());
            top.sort(null);
            return ImatchHasher.sha1(String.join("\n", top));
        });
    }

    /** The standard set: baselines, exact keys, SimHash, MinHash (estimate, index, exact Jaccard), SpotSigs, keywords. */
    public static List<Method<?>> standardMethods() {
        List<Method<?>> list = new ArrayList<>();
        list.add(rawSha1());
        list.add(textHash());
        list.add(imatch(ImatchSettings.DEFAULT.minIdf(), ImatchSettings.DEFAULT.maxIdf()));
        list.add(imatch(0.0, 100.0));
        list.add(keywords(10));
        list.add(simhash("simhash", SimHashSettings.DEFAULT, 16));
        list.add(simhash("simhash-v1", SimHashSettings.DEFAULT_V1, 16));
        list.add(cosine("cosine (exact)", SimHashSettings.DEFAULT));
        list.add(simhash("simhash spotsigs", spotsigs(SimHashSettings.DEFAULT, 2), 16));
        for (int shingles : new int[] { 1, 2, 3 }) {
            list.add(minhash("minhash w" + shingles, minhashSettings(shingles, false)));
        }
        list.add(minhash("minhash w1 stop", minhashSettings(1, true)));
        MinHashSettings d = MinHashSettings.DEFAULT;
        list.add(minhashIndexed("minhash index", d, defaultLsh()));
        list.add(jaccard("jaccard (exact)", d));
        list.add(minhash("minhash spotsigs", new MinHashSettings(spotsigs(d.features(), 2), d.hashes())));
        return list;
    }

    /** The LSH layout the `minhash` field uses by default. */
    static Lsh defaultLsh() {
        return new Lsh(org.nearduplicate.core.keys.MinHashDefaults.BANDS, org.nearduplicate.core.keys.MinHashDefaults.ROWS);
    }

    static SimHashSettings spotsigs(SimHashSettings base, int chain) {
        SimHashSettings.Builder b = new SimHashSettings.Builder(base);
        b.features = FeatureSettings.Features.SPOTSIGS;
        b.shingleSize = chain;
        return b.build();
    }

    static MinHashSettings minhashSettings(int shingles, boolean stopwords) {
        SimHashSettings.Builder b = new SimHashSettings.Builder(MinHashSettings.DEFAULT.features());
        b.shingleSize = shingles;
        b.stopwords = stopwords;
        return new MinHashSettings(b.build(), MinHashSettings.DEFAULT_HASHES);
    }

    /** Represents every document (in parallel), scores every pair and counts per slice and threshold. */
    public static <R> Result evaluate(Corpus corpus, Method<R> method) {
        long start = System.nanoTime();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpuClock = mx.isCurrentThreadCpuTimeSupported();
        Map<String, R> reps = new ConcurrentHashMap<>();
        AtomicLong cpuNanos = new AtomicLong(), bytes = new AtomicLong(), failures = new AtomicLong();
        corpus.docs().values().parallelStream().forEach(d -> {
            long t0 = cpuClock ? mx.getCurrentThreadCpuTime() : System.nanoTime();
            try {
                reps.put(d.id(), method.represent().apply(d.content()));
            } catch (EngineInputException e) {
                failures.incrementAndGet();
            }
            cpuNanos.addAndGet((cpuClock ? mx.getCurrentThreadCpuTime() : System.nanoTime()) - t0);
            bytes.addAndGet(d.content().getBytes(StandardCharsets.UTF_8).length);
        });
        double[] t = method.thresholds();
        Map<String, QualityReport.Counts[]> slices = new TreeMap<>();
        for (Corpus.Pair p : corpus.pairs()) {
            R a = reps.get(p.a()), b = reps.get(p.b());
            double score = a == null || b == null ? Double.NEGATIVE_INFINITY : method.score().applyAsDouble(a, b);
            for (String name : corpus.sliceNames(p)) {
                QualityReport.Counts[] perT = slices.computeIfAbsent(name, n -> counts(t.length));
                for (int i = 0; i < t.length; i++) {
                    QualityReport.Counts c = perT[i];
                    boolean predicted = score >= t[i] - 1e-9;
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
        double cpuSeconds = Math.max(cpuNanos.get(), 1) / 1e9;
        return new Result(
            method,
            slices,
            (int) failures.get(),
            corpus.docs().size() / cpuSeconds,
            bytes.get() / 1e6 / cpuSeconds,
            (System.nanoTime() - start) / 1e9
        );
    }

    private static QualityReport.Counts[] counts(int n) {
        QualityReport.Counts[] c = new QualityReport.Counts[n];
        for (int i = 0; i < n; i++)
            c[i] = new QualityReport.Counts();
        return c;
    }

    /** The summary table: one row per method at its best threshold. */
    public static void printSummary(List<Result> results, PrintStream out) {
        out.println("| method | best threshold | P | R | F1 | F1 en | F1 zh | docs/s | MB/s | failed |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            int b = r.best();
            QualityReport.Counts c = r.at("all", b);
            out.printf(
                Locale.ROOT,
                "| %s | %s | %.3f | %.3f | %.3f | %s | %s | %.0f | %.2f | %d |%n",
                r.method().name(),
                r.method().label().apply(r.method().thresholds()[b]),
                c.precision(),
                c.recall(),
                c.f1(),
                f1(r, "lang:en", b),
                f1(r, "lang:zh", b),
                r.docsPerCpuSecond(),
                r.mbPerCpuSecond(),
                r.failures()
            );
        }
    }

    /** Per kind at each method's best threshold: recall of positive kinds, false-positive rate of negative kinds. */
    public static void printKinds(List<Result> results, PrintStream out) {
        List<String> kinds = new ArrayList<>();
        for (Result r : results) {
            for (String s : r.slices().keySet()) {
                if ((s.startsWith("pos:") || s.startsWith("neg:")) && kinds.contains(s) == false) kinds.add(s);
            }
        }
        kinds.sort(null);
        StringBuilder header = new StringBuilder("| method |");
        for (String k : kinds)
            header.append(' ').append(k.startsWith("pos:") ? "R " : "FP ").append(k.substring(4)).append(" |");
        out.println(header);
        out.println("|---|" + "---|".repeat(kinds.size()));
        for (Result r : results) {
            int b = r.best();
            StringBuilder row = new StringBuilder("| " + r.method().name() + " |");
            for (String k : kinds) {
                QualityReport.Counts[] c = r.slices().get(k);
                if (c == null) row.append(" - |");
                else if (k.startsWith("pos:")) row.append(String.format(Locale.ROOT, " %.3f |", c[b].recall()));
                else row.append(String.format(Locale.ROOT, " %.4f |", c[b].falsePositiveRate()));
            }
            out.println(row);
        }
    }

    /** The F1 curve of one method over its thresholds. */
    public static void printCurve(Result r, PrintStream out) {
        out.println("### " + r.method().name() + " — " + r.method().description());
        out.printf(Locale.ROOT, "%d failed, %.1f s wall%n%n", r.failures(), r.seconds());
        out.println("| threshold | P | R | F1 | F1 en | F1 zh |");
        out.println("|---|---|---|---|---|---|");
        double[] t = r.method().thresholds();
        for (int i = 0; i < t.length; i++) {
            QualityReport.Counts c = r.at("all", i);
            out.printf(
                Locale.ROOT,
                "| %s | %.3f | %.3f | %.3f | %s | %s |%n",
                r.method().label().apply(t[i]),
                c.precision(),
                c.recall(),
                c.f1(),
                f1(r, "lang:en", i),
                f1(r, "lang:zh", i)
            );
        }
        out.println();
    }

    private static String f1(Result r, String slice, int t) {
        QualityReport.Counts[] c = r.slices().get(slice);
        return c == null ? "-" : String.format(Locale.ROOT, "%.3f", c[t].f1());
    }

    /**
     * Usage: {@code MethodComparison [corpus-dir] [--only name,name,...] [--curves]}; names match the start of a
     * method's name (e.g. {@code minhash} selects every MinHash variant).
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of("../shared/eval/public");
        List<String> only = null;
        boolean curves = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--only" -> only = Arrays.asList(args[++i].split(","));
                case "--curves" -> curves = true;
                case "-h", "--help" -> {
                    System.out.println("usage: quality.sh --methods [corpus-dir] [--only name,...] [--curves]");
                    return;
                }
                default -> dir = Path.of(args[i]);
            }
        }
        if (Files.isDirectory(dir) == false) throw new IllegalArgumentException("no corpus directory " + dir);
        Corpus corpus = Corpus.load(dir);
        System.out.printf(
            Locale.ROOT,
            "# methods on %s: %d documents, %d pairs, %d cores%n%n",
            dir,
            corpus.docs().size(),
            corpus.pairs().size(),
            Runtime.getRuntime().availableProcessors()
        );
        List<Result> results = new ArrayList<>();
        for (Method<?> m : standardMethods()) {
            if (only != null && only.stream().noneMatch(o -> m.name().startsWith(o.trim()))) continue;
            Result r = evaluate(corpus, m);
            results.add(r);
            System.err.printf(Locale.ROOT, "%s: %.1f s%n", m.name(), r.seconds());
            if (curves) printCurve(r, System.out);
        }
        System.out.println("## Best threshold per method\n");
        printSummary(results, System.out);
        System.out.println("\n## Per kind at the best threshold (R = recall of positives, FP = false-positive rate of negatives)\n");
        printKinds(results, System.out);
        System.out.println("\n## Methods\n");
        for (Result r : results)
            System.out.println("* " + r.method().name() + ": " + r.method().description());
    }

}
