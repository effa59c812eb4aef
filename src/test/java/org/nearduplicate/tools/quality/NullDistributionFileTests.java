package org.nearduplicate.tools.quality;

import org.junit.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.chance.NullDistribution;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The shipped null distribution ({@link NullDistribution#RESOURCE}) is the committed results files' chance-match
 * tables, nothing else: {@link #generate} rebuilds it from {@code bench/results/RESULTS-scale-quality*.md} and the
 * test compares byte for byte. Each row's count of matching unrelated pairs is recovered from the "hits/q 100M" column
 * (one pair moves it by 100M / 38.2M = 2.6 units, more than its rounding), and the rate and all three "hits/q" cells
 * are printed again from it exactly as {@link QualityReport} prints them, so the counts are the measured ones.
 * Regenerate after a new measurement with {@code main} (test class path, run from the project root), which prints the
 * file.
 */
public class NullDistributionFileTests {

    /** The results files the table comes from, in the file's order (newest algorithm first). */
    static final List<String> SOURCES = List.of(
        "bench/results/RESULTS-scale-quality-v6.md",
        "bench/results/RESULTS-scale-quality-v5-t040.md",
        "bench/results/RESULTS-scale-quality-v5.md",
        "bench/results/RESULTS-scale-quality-v4.md",
        "bench/results/RESULTS-scale-quality.md",
        "bench/results/RESULTS-scale-quality-v2.md"
    );

    private static String resource(String path) throws IOException {
        try (InputStream in = NullDistributionFileTests.class.getResourceAsStream(path)) {
            assertNotNull(path + " is on the test class path (pom.xml, docs-figures)", in);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static final Pattern ALGORITHM = Pattern.compile("^## (simhash-v[0-9]+:\\S+)$", Pattern.MULTILINE);
    private static final Pattern ALL_PAIRS = Pattern.compile("share of all ([0-9,]+) same-language pairs");
    private static final Pattern LANG = Pattern.compile("^lang:([a-z]+): [0-9,]+ documents, ([0-9,]+) unrelated pairs", Pattern.MULTILINE);
    private static final Pattern MIN_SIMILARITY = Pattern.compile("signatures' similarity is >= ([0-9.]+)");

    /** The table's text, from the results files' texts (in {@link #SOURCES} order). */
    static String generate(List<String> results) {
        StringBuilder out = new StringBuilder();
        out.append("# The null distribution of the SimHash match (core.chance.NullDistribution): per algorithm, min_similarity\n");
        out.append("# (- = the fingerprint alone) and language slice, how many of the public corpus's same-language pairs of\n");
        out.append("# unrelated documents (false_pairs of pairs) match at distance k. Generated from the committed results\n");
        out.append("# files by NullDistributionFileTests, which fails when they differ; do not edit by hand. Sources:\n");
        for (String s : SOURCES)
            out.append("#   ").append(s).append('\n');
        out.append("# algorithm\tmin_similarity\tslice\tk\tfalse_pairs\tpairs\n");
        for (String text : results) {
            Matcher a = ALGORITHM.matcher(text);
            assertTrue("a results file names its algorithm", a.find());
            String algorithm = a.group(1);
            SimHashSettings settings = SimHashSettings.fromAlgorithmId(algorithm);
            String minSimilarity = NullDistribution.FINGERPRINT_ALONE;
            if (settings.hasSignature()) {
                Matcher m = MIN_SIMILARITY.matcher(text);
                assertTrue(algorithm + ": the results file states its min_similarity", m.find());
                minSimilarity = m.group(1);
            }
            String body = text.substring(a.end());
            int firstLang = body.indexOf("\nlang:");
            Matcher all = ALL_PAIRS.matcher(body);
            assertTrue(all.find());
            rows(out, algorithm, minSimilarity, NullDistribution.ALL, number(all.group(1)), body.substring(0, firstLang), 7);
            Matcher lang = LANG.matcher(body);
            while (lang.find()) {
                int end = body.indexOf("\n\n", body.indexOf("|---", lang.end()));
                rows(out, algorithm, minSimilarity, lang.group(1), number(lang.group(2)), body.substring(lang.end(), end), 3);
            }
        }
        return out.toString();
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }

    /**
     * The rows of one table whose "unrelated" cell is column {@code rateColumn} (the three "hits/q" cells follow three
     * columns later), checking each count against every cell it was read from.
     */
    private static void rows(
        StringBuilder out,
        String algorithm,
        String minSimilarity,
        String slice,
        long pairs,
        String table,
        int rateColumn
    ) {
        int expectedK = 0;
        for (String line : table.split("\n")) {
            if (line.matches("^\\|\\s*[0-9]+ \\|.*") == false) continue;
            String[] cells = line.split("\\|");
            List<String> c = new ArrayList<>();
            for (int i = 1; i < cells.length; i++)
                c.add(cells[i].trim());
            int k = Integer.parseInt(c.get(0));
            assertEquals(algorithm + " " + slice, expectedK++, k);
            String per100M = c.get(rateColumn + 5);
            long falsePairs = Math.round(Double.parseDouble(per100M.replace(",", "")) * pairs / 1e8);
            double rate = (double) falsePairs / pairs;
            String where = algorithm + " " + slice + " k=" + k;
            assertEquals(where + " unrelated", c.get(rateColumn), QualityReport.rate(rate));
            assertEquals(where + " hits/q 1M", c.get(rateColumn + 3), QualityReport.hits(rate * 1e6));
            assertEquals(where + " hits/q 10M", c.get(rateColumn + 4), QualityReport.hits(rate * 1e7));
            assertEquals(where + " hits/q 100M", per100M, QualityReport.hits(rate * 1e8));
            out.append(algorithm)
                .append('\t')
                .append(minSimilarity)
                .append('\t')
                .append(slice)
                .append('\t')
                .append(k)
                .append('\t')
                .append(falsePairs)
                .append('\t')
                .append(pairs)
                .append('\n');
        }
        assertTrue(algorithm + " " + slice + " has rows", expectedK > 0);
    }

    private static List<String> sources() throws IOException {
        List<String> texts = new ArrayList<>();
        for (String s : SOURCES)
            texts.add(resource("/docs-figures/" + s));
        return texts;
    }

    @Test
    public void testShippedTableEqualsTheResultsFiles() throws IOException {
        assertEquals(generate(sources()), resource(NullDistribution.RESOURCE));
    }

    /** The figures the docs quote for the default (RESULTS-scale-quality-v6.md) come out of the shipped table. */
    @Test
    public void testShippedTableAnswersTheDefault() {
        NullDistribution d = NullDistribution.builtin();
        NullDistribution.Estimate e = d.expectedFalseHitsPerQuery(
            SimHashSettings.DEFAULT.algorithmId(),
            16,
            SimHashSettings.DEFAULT.recommendedMinSimilarity(),
            1_000_001
        );
        assertEquals("1.91", QualityReport.hits(e.value()));
        assertEquals(38_183_395, e.pairs());
    }

    /** Prints the table from the results files (run from the project root with the test class path). */
    public static void main(String[] args) throws IOException {
        List<String> texts = new ArrayList<>();
        for (String s : SOURCES)
            texts.add(java.nio.file.Files.readString(java.nio.file.Path.of(s)));
        System.out.print(generate(texts));
    }
}
