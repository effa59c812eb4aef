package org.nearduplicate.tools.quality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.nearduplicate.core.SimHashSettings;

/**
 * The operator's quality report: precision and recall of "distance <= k" on the operator's own labelled pairs, as a
 * table (stdout) and an SVG plot of precision, recall and F1 against k, to choose {@code max_distance}.
 *
 * <p>Usage ({@code scripts/quality-report.sh}): {@code --docs docs.jsonl[.gz] --pairs pairs.tsv[.gz] [--k-max N]
 * [--settings key=value,...] [--svg out.svg]}. The files have the format of {@code ../shared/eval}: one JSON document
 * per line ({@code id}, {@code lang}, {@code format}, {@code content}) and tab-separated pairs
 * ({@code a, b, label, kind}).
 */
public final class QualityPlot {
    private QualityPlot() {}

    /** An SVG line chart of precision, recall and F1 (overall) against k. */
    public static String svg(QualityReport.Result r) {
        int width = 640, height = 400, left = 60, right = 130, top = 40, bottom = 50;
        int plotW = width - left - right, plotH = height - top - bottom;
        int kMax = Math.max(1, r.kMax());
        StringBuilder s = new StringBuilder();
        s.append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                width,
                height,
                width,
                height
            )
        );
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        s.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"20\" font-size=\"14\">Precision and recall against max_distance k (best F1 at k = %d)</text>%n",
                left,
                r.bestK()
            )
        );
        // grid and axes
        for (int i = 0; i <= 10; i++) {
            double y = top + plotH * (1 - i / 10.0);
            s.append(
                String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>%n",
                    left,
                    y,
                    left + plotW,
                    y
                )
            );
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>%n", left - 6, y + 4, i / 10.0));
        }
        for (int k = 0; k <= r.kMax(); k++) {
            double x = left + plotW * (double) k / kMax;
            s.append(
                String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#f0f0f0\"/>%n",
                    x,
                    top,
                    x,
                    top + plotH
                )
            );
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x, top + plotH + 16, k));
        }
        s.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>%n",
                left,
                top,
                plotW,
                plotH
            )
        );
        s.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">k (Hamming distance)</text>%n",
                left + plotW / 2,
                height - 12
            )
        );
        String[] names = { "precision", "recall", "F1" };
        String[] colors = { "#1f77b4", "#d62728", "#2ca02c" };
        for (int series = 0; series < 3; series++) {
            StringBuilder points = new StringBuilder();
            for (int k = 0; k <= r.kMax(); k++) {
                QualityReport.Counts c = r.at("all", k);
                double v = series == 0 ? c.precision() : series == 1 ? c.recall() : c.f1();
                double x = left + plotW * (double) k / kMax, y = top + plotH * (1 - v);
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                s.append(
                    String.format(
                        Locale.ROOT,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s at k=%d: %.3f</title></circle>%n",
                        x,
                        y,
                        colors[series],
                        names[series],
                        k,
                        v
                    )
                );
            }
            s.append(
                String.format(
                    Locale.ROOT,
                    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"%s\"/>%n",
                    colors[series],
                    series == 2 ? " stroke-dasharray=\"5,3\"" : "",
                    points.toString().trim()
                )
            );
            int ly = top + 10 + series * 20;
            s.append(
                String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    left + plotW + 12,
                    ly,
                    left + plotW + 36,
                    ly,
                    colors[series]
                )
            );
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", left + plotW + 42, ly + 4, names[series]));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** What the two inputs hold (also in README and docs/workflows.md). */
    static final String INPUT_FORMAT = "input: --docs a JSON-lines file (.gz allowed), one document per line:"
        + " {\"id\": \"...\", \"content\": \"text or HTML\", \"lang\": \"en\", \"format\": \"html\"};"
        + " --pairs a TSV file (.gz allowed) with a header line, then id_a <TAB> id_b <TAB> 1|0 (near-duplicate or not) [<TAB> kind]";

    public static void main(String[] args) throws IOException {
        Path docs = null, pairs = null, svg = Path.of("quality.svg");
        int kMax = 12;
        SimHashSettings settings = SimHashSettings.DEFAULT;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--docs" -> docs = Path.of(args[++i]);
                case "--pairs" -> pairs = Path.of(args[++i]);
                case "--k-max" -> kMax = Integer.parseInt(args[++i]);
                case "--settings" -> settings = QualityReport.parseSettings(args[++i]);
                case "--svg" -> svg = Path.of(args[++i]);
                default -> {
                    System.err.println(
                        "usage: quality-report.sh --docs FILE --pairs FILE [--k-max N] [--settings key=value,...] [--svg out.svg]"
                    );
                    System.exit(args[i].equals("-h") || args[i].equals("--help") ? 0 : 2);
                }
            }
        }
        if (docs == null || pairs == null) {
            System.err.println("usage: quality-report.sh --docs FILE --pairs FILE [--k-max N] [--settings key=value,...] [--svg out.svg]");
            System.exit(2);
        }
        if (kMax < 0 || kMax > 64) {
            System.err.println("error: --k-max must be between 0 and 64, got " + kMax);
            System.exit(2);
        }
        for (Path input : new Path[] { docs, pairs }) {
            if (java.nio.file.Files.isReadable(input) == false) {
                System.err.println(
                    "error: cannot read "
                        + input.toAbsolutePath()
                        + " ("
                        + (java.nio.file.Files.exists(input) ? "not readable" : "no such file")
                        + ")"
                );
                System.err.println(INPUT_FORMAT);
                System.exit(2);
            }
        }
        Corpus corpus;
        try {
            corpus = Corpus.load(docs, pairs);
        } catch (IOException | RuntimeException e) {
            System.err.println("error: cannot read the labelled pairs: " + e.getMessage());
            System.err.println(INPUT_FORMAT);
            System.exit(2);
            return;
        }
        System.out.printf(Locale.ROOT, "# %s + %s: %d documents, %d pairs%n%n", docs, pairs, corpus.docs().size(), corpus.pairs().size());
        QualityReport.Result r = QualityReport.evaluate(corpus, settings, kMax);
        QualityReport.print(r, System.out);
        Files.writeString(svg, svg(r), StandardCharsets.UTF_8);
        System.out.println("plot: " + svg.toAbsolutePath());
    }
}
