package org.nearduplicate;

import org.junit.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.nearduplicate.lucene.BenchAccess;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteRequest;
import org.nearduplicate.opensearch.ingest.SimHashCheckProcessor;
import org.nearduplicate.orchestration.groups.DocList;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * Figures the docs quote from the code's defaults or from a committed results file: a change of the number fails here
 * until the docs move with it.
 */
public class DocsFiguresTests {

    /** A file of the tree, as the build copied it into the test resources ({@code docs-figures/}, see pom.xml). */
    private static String read(String path) throws IOException {
        try (InputStream in = DocsFiguresTests.class.getResourceAsStream("/docs-figures/" + path)) {
            assertNotNull("the build copies " + path + " into the test resources (pom.xml, docs-figures)", in);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The number the first match of {@code regex}'s group 1 holds, thousands separators removed. */
    private static double figure(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue("docs quote no figure for /" + regex + "/", m.find());
        return Double.parseDouble(m.group(1).replace(",", ""));
    }

    /**
     * engine.md's candidate-key frontier and background rates are RESULTS-candidate-keys.md's; the guarantee it states is
     * the code's ({@code SimHashField.MIN_SHARED_KEYS} shared keys of {@code CandidateKeys.V7}).
     */
    @Test
    public void testCandidateKeyFrontierFigures() throws IOException {
        String results = read("bench/results/RESULTS-candidate-keys.md");
        String engine = read("docs/engine.md");
        String section = engine.substring(engine.indexOf("### The guarantee, the frontier, and what grows with N"));
        int shared = org.nearduplicate.orchestration.field.SimHashField.MIN_SHARED_KEYS;
        int guaranteed = new org.nearduplicate.lucene.SimHashQuery.CandidateKeyPath(
            "f",
            org.nearduplicate.core.keys.CandidateKeys.V7,
            shared
        ).guaranteedAgreeing();
        assertEquals(shared, figure(section, "share at least ([0-9]+) of the probe's 28 keys"), 0);
        assertEquals(guaranteed, figure(section, "\\*\\*([0-9]+) or more of\\s+the 32 slots\\*\\*"), 0);
        // the frontier rows: recall (corpus, planted) and rate as the results' summary table has them
        String summary = results.substring(results.indexOf("The frontier (corpus recall"));
        for (String[] scheme : new String[][] {
            { "pairs 3x8+2x4 (1 key)", "pairs 3x8+2x4 (sharing 1 key)" },
            { "pairs 3x8+2x4 (2 keys)", "pairs 3x8+2x4 (sharing 2 keys): the default" },
            { "pairs 3x8+2x4 (3 keys)", "pairs 3x8+2x4 (sharing 3 keys)" },
            { "bands 2x16 (1 key)", "bands 2x16 (sharing 1 key)" },
            { "3-sets 4x8 (1 key)", "3-sets 4x8 (sharing 1 key)" },
            { "bands 4x8 (1 key)", "bands 4x8 (sharing 1 key)" } }) {
            String[] measured = row(summary, Pattern.quote(scheme[0]));
            String[] quoted = row(section, Pattern.quote(scheme[1]));
            assertEquals(scheme[1] + " bytes", measured[0].trim(), quoted[0].trim());
            assertEquals(scheme[1] + " corpus recall", measured[1].trim(), quoted[1].trim());
            assertEquals(scheme[1] + " planted recall", measured[2].trim().replace(" (1 M)", ""), quoted[2].trim());
            assertEquals(scheme[1] + " rate", measured[3].trim(), quoted[3].trim());
        }
        // the background by source
        String background = results.substring(results.indexOf("## Where the unrelated candidates come from"));
        String[] same = row(background, Pattern.quote("same language, same source"));
        String[] other = row(background, Pattern.quote("same language, other source"));
        assertEquals(figure(same[3], "([0-9.e+-]+)"), figure(section, "two-key sharing is ([0-9.e+-]+) within one"), 0);
        assertEquals(figure(other[3], "([0-9.e+-]+)"), figure(section, "within one\\s+source and ([0-9.e+-]+) across"), 0);
        assertEquals(figure(same[2], "([0-9.e+-]+)"), figure(section, "one-key sharing ([0-9.e+-]+) and"), 0);
        assertEquals(figure(other[2], "([0-9.e+-]+)"), figure(section, "one-key sharing [0-9.e+-]+ and ([0-9.e+-]+):"), 0);
        // the real node's recall at 10M
        String repeat = read("bench/results/RESULTS-keys-node-10M-repeat.md");
        assertEquals(
            figure(repeat, "\\*\\*([0-9,]+) of [0-9,]+\\*\\* exact hits found"),
            figure(section, "and ([0-9,]+) of [0-9,]+ exact hits on a real node at 10M"),
            0
        );
    }

    /**
     * README's precision/recall plot is drawn from RESULTS-quality-plot.md: its best-F1 k and the k = 16 row agree with
     * what README says and with its quality table.
     */
    @Test
    public void testQualityPlotFigures() throws IOException {
        String readme = read("README.md");
        String plot = read("docs/images/precision-recall-vs-k.svg");
        String results = read("bench/results/RESULTS-quality-plot.md");
        assertEquals(figure(plot, "best F1 at k = ([0-9]+)"), figure(readme, "The plot's F1 peaks at k = ([0-9]+)"), 0);
        // overall row k = 16 of the plot's data: P, R, F1 as README's table quotes them
        assertEquals(
            figure(results, "(?m)^\\| 16 \\| ([0-9.]+) \\|"),
            figure(readme, "(?m)^\\| \\*\\*16 \\(default\\)\\*\\* \\| ([0-9.]+) \\|"),
            0
        );
        assertEquals(
            figure(results, "(?m)^\\| 16 \\| [0-9.]+ \\| ([0-9.]+) \\|"),
            figure(readme, "(?m)^\\| \\*\\*16 \\(default\\)\\*\\* \\| [0-9.]+ \\| ([0-9.]+) \\|"),
            0
        );
    }

    @Test
    public void testWriteBackFigures() throws IOException {
        String workflows = read("docs/workflows.md");
        assertEquals(
            SimHashGroupsWriteRequest.MIN_REQUESTS_PER_SECOND,
            figure(workflows, "documents written per second, at least ([0-9.]+)"),
            1e-9
        );
        String reliability = read("docs/reliability.md");
        assertEquals(
            SimHashGroupsWriteRequest.MIN_REQUESTS_PER_SECOND,
            figure(reliability, "must be a positive number of at least ([0-9.]+)"),
            1e-9
        );
        assertEquals(DocList.ESTIMATED_BYTES_PER_DOC, figure(reliability, "\\(([0-9]+) bytes per member\\)"), 0);
        assertEquals(SimHashQuery.MAX_QUERY_PROBE_KEYS, figure(reliability, "probe keys per query \\| ≤ ([0-9,]+)"), 0);
    }

    @Test
    public void testCheckFigures() throws IOException {
        String workflows = read("docs/workflows.md");
        assertEquals(SimHashCheckProcessor.REFRESH_MARGIN_MILLIS / 1000.0, figure(workflows, "a margin of ([0-9.]+) s"), 0);
    }

    /**
     * performance.md's {@code near_duplicate_check} at scale (issue 26 item 3): the 10M signed target, its floor of the
     * same run and the batch split (RESULTS-check-10M-signed.md), and the growing index (RESULTS-check-growing.md).
     */
    @Test
    public void testCheckAtScaleFigures() throws IOException {
        String signed = read("bench/results/RESULTS-check-10M-signed.md");
        String growing = read("bench/results/RESULTS-check-growing.md");
        String performance = read("docs/performance.md");
        String[] check = nth(signed, "(?m)^\\| through near_duplicate_check \\| ([0-9]+) \\| ([0-9, ]+) \\|", 0);
        assertEquals(
            check[0] + "** docs/s (rounds " + check[1],
            textAfter(performance, "\\| \\*\\*([0-9]+\\*\\* docs/s \\(rounds [0-9, ]+)\\)")
        );
        assertEquals(
            figure(signed, "(?m)^\\| plain indexing \\| ([0-9]+) \\|"),
            figure(performance, "plain indexing of the same documents \\| ([0-9,]+) docs/s"),
            0
        );
        assertEquals(figure(signed, "Check throughput = \\*\\*([0-9.]+) %"), figure(performance, "the check is ([0-9.]+) % of it"), 0);
        String[] naive = nth(signed, "(?m)^\\| naive: ([0-9]+) \\([^)]*\\) \\| ([0-9]+) \\| \\*\\*([0-9]+) %\\*\\* \\|", 0);
        String[] quoted = nth(
            performance,
            "one pass per probe \\| ([0-9]+) lookups/s \\(([0-9,]+) ms per batch\\): the check reached \\*\\*([0-9]+) %",
            0
        );
        assertEquals(naive[1], quoted[0]);
        assertEquals(naive[0], quoted[1].replace(",", ""));
        assertEquals(naive[2], quoted[2]);
        String[] blocked = nth(signed, "(?m)^\\| blocked: [0-9]+ \\([^)]*\\) \\| ([0-9]+) \\| \\*\\*([0-9]+) %\\*\\* \\|", 0);
        assertEquals(
            blocked[0] + " lookups/s: " + blocked[1] + " %",
            textAfter(performance, "every probe\\) \\| ([0-9]+ lookups/s: [0-9]+ %)")
        );
        String[] split = nth(
            signed,
            "Median round trips: ([0-9.]+) ms per batch as the check sends it, ([0-9.]+) with the ids only, ([0-9.]+) for the query phase"
                + "[^;]*; one search at a time answers ([0-9]+) lookups/s",
            0
        );
        assertEquals(
            Math.round(Double.parseDouble(split[0]))
                + " ms per batch as the check sends them, "
                + Math.round(Double.parseDouble(split[1]))
                + " ms with the ids only",
            textAfter(performance, "\\(`--split-batches`\\): ([0-9]+ ms per batch as the check\\s+sends them, [0-9]+ ms with the ids only)")
                .replaceAll("\\s+", " ")
        );
        assertEquals(Math.round(Double.parseDouble(split[2])), figure(performance, "and ([0-9]+) ms for the query phase alone"), 0);
        assertEquals(
            split[3] + " lookups/s (" + Math.round(Double.parseDouble(split[0])) + " ms per batch)",
            textAfter(performance, "one at a time from a client \\| ([0-9]+ lookups/s \\([0-9]+ ms per batch\\))")
        );
        // the growing index: the rows performance.md quotes, and the extrapolation
        for (String docs : new String[] { "200,000", "500,000" }) {
            String[] row = nth(
                growing,
                "(?m)^\\| "
                    + docs
                    + " \\| ([0-9]+) \\| ([0-9]+) \\(([0-9]+) %\\) \\| ([0-9]+) \\(\\*\\*([0-9]+) %\\*\\*\\) \\| ([0-9]+) % \\|",
                0
            );
            String[] doc = nth(
                performance,
                "(?m)^\\| "
                    + docs
                    + " \\| ([0-9,]+) \\| ([0-9,]+) \\(([0-9]+) %\\) \\| (?:\\*\\*)?([0-9,]+) \\(([0-9]+) %\\)(?:\\*\\*)? \\| ([0-9]+) % \\|",
                0
            );
            for (int i = 0; i < row.length; i++) {
                assertEquals(docs + " column " + i, row[i], doc[i].replace(",", ""));
            }
        }
        assertEquals(
            figure(growing, "simhash \\+ check ~([0-9]+) docs/s"),
            figure(performance, "in the results file\\): ~([0-9]+) docs/s"),
            0
        );
        assertEquals(
            figure(growing, "\\*\\*~([0-9]+) % of plain indexing"),
            figure(performance, "docs/s, \\*\\*~([0-9]+) % of plain indexing\\*\\*"),
            0
        );
        assertEquals(
            figure(growing, "10 % of them \\(([0-9]+)\\)"),
            figure(performance, "as many documents `duplicate` \\(([0-9,]+)\\)"),
            0
        );
    }

    /** The memory check's sizes: the script's defaults, its committed results and what README and reliability.md say. */
    @Test
    public void testMemoryCheckFigures() throws IOException {
        String script = read("scripts/heap_check.py");
        double docs = figure(script.replace("_", ""), "\"--docs\", type=int, default=([0-9]+)");
        double small = figure(script.replace("_", ""), "\"--small-docs\", type=int, default=([0-9]+)");
        double heapMb = figure(script.replace("_", ""), "\"NODEHEAP\", \"([0-9]+)m\"");
        String results = read("bench/results/RESULTS-heap.md");
        assertEquals(docs, figure(results, "--docs ([0-9]+)"), 0);
        assertEquals(heapMb, figure(results, "with a ([0-9]+) MB heap"), 0);
        assertEquals(docs, figure(results, "one shard of ([0-9,]+) documents"), 0);
        assertEquals(small, figure(results, "\\| small \\| ([0-9,]+) \\|"), 0);
        String readme = read("README.md");
        assertEquals(heapMb, figure(readme, "on a node with a ([0-9]+) MB heap and"), 0);
        assertEquals(docs / 1e6, figure(readme, "MB heap and ([0-9]+) million documents"), 0);
        assertEquals(docs, figure(readme, "loads one shard of ([0-9,]+) documents"), 0);
        assertEquals(small, figure(readme, "then a\\s+([0-9,]+)-document index"), 0);
        String reliability = read("docs/reliability.md");
        assertEquals(heapMb, figure(reliability, "a node with a ([0-9]+) MB heap, one shard"), 0);
        assertEquals(docs, figure(reliability, "one shard of ([0-9,]+) documents, each fingerprint twice"), 0);
    }

    /**
     * reliability.md's account of the recent windows' byte bound: the size of an entry at k = 16, the default share of
     * the heap and what it holds on a 1 GB heap, and the heap from which the entry bound binds first.
     */
    @Test
    public void testCheckWindowMemoryFigures() throws IOException {
        String reliability = read("docs/reliability.md");
        long entry = org.nearduplicate.core.window.RecentFingerprints.entryBytes(16, "x".repeat(20), true);
        assertEquals(entry, figure(reliability, "\\(([0-9,]+) bytes for a 20-character `_id` with a signature"), 0);
        var maxBytes = org.nearduplicate.opensearch.ingest.WindowMemory.MAX_NODE_BYTES_SETTING;
        String share = maxBytes.getDefaultRaw(org.opensearch.common.settings.Settings.EMPTY);
        assertEquals("5%", share);
        double fraction = Double.parseDouble(share.replace("%", "")) / 100;
        assertEquals(
            fraction * 100,
            figure(reliability, "`near_duplicate.check.window_max_bytes` \\(node setting, dynamic\\) \\| ([0-9]+)% of the heap"),
            0
        );
        long oneGb = 1L << 30;
        long entries = (long) (oneGb * fraction) / entry;
        assertEquals(entries / 100 * 100, figure(reliability, "about ([0-9,]+) entries on a 1 GB heap"), 0);
        long maxEntries = org.nearduplicate.opensearch.ingest.WindowMemory.MAX_NODE_ENTRIES_SETTING.getDefault(
            org.opensearch.common.settings.Settings.EMPTY
        );
        assertEquals(maxEntries, figure(reliability, "so ([0-9,]+) entries are about"), 0);
        assertEquals(Math.round(maxEntries * entry / 1e8) * 100, figure(reliability, "entries are about ([0-9]+) MB"), 0);
        assertEquals(Math.round(maxEntries * entry / fraction / 1e9), figure(reliability, "from a heap of about ([0-9]+) GB on"), 0);
    }

    /** workflows.md's cost of wait_for_refresh: the ratios and copies found of RESULTS-check-wait.md's tables. */
    @Test
    public void testCheckWaitFigures() throws IOException {
        String results = read("bench/results/RESULTS-check-wait.md");
        String[] tables = results.split("\\| pipeline \\|");
        assertEquals("one node with 4 and 16 concurrent bulks, three nodes", 4, tables.length);
        String workflows = read("docs/workflows.md");
        String row = "\\| check \\(defaults: wait_for_refresh true\\) \\| [0-9]+ \\| ([0-9.]+) \\|";
        assertEquals(figure(tables[1], row), figure(workflows, "on one node\\s+([0-9.]+) of the unwaited"), 0);
        assertEquals(figure(tables[2], row), figure(workflows, "with 4 concurrent bulks\\s+and ([0-9.]+) with 16"), 0);
        assertEquals(figure(tables[3], row), figure(workflows, "on three nodes\\s+with 6, ([0-9.]+),"), 0);
        String found = "\\| ([0-9]+) / 583 \\|";
        assertEquals(
            figure(tables[3].substring(tables[3].indexOf("wait_for_refresh true")), found),
            figure(workflows, "finding\\s+([0-9]+) of 583"),
            0
        );
        assertEquals(
            figure(tables[3].substring(tables[3].indexOf("wait_for_refresh false")), found),
            figure(workflows, "planted copies\\s+against ([0-9]+)\\)"),
            0
        );
    }

    /** The multi-node check's sizes: the script's defaults and what README says (heap, ports, documents with copies). */
    @Test
    public void testMultinodeCheckFigures() throws IOException {
        String script = read("scripts/multinode_check.py");
        double originals = figure(script, "\"--docs\", type=int, default=([0-9]+)");
        double copies = figure(script, "(?m)^COPY_SHARE = ([0-9.]+)") + figure(script, "(?m)^EARLY_COPY_SHARE = ([0-9.]+)");
        double heapMb = figure(script, "\"MULTINODE_HEAP\", \"([0-9]+)m\"");
        double port = figure(script, "\"MULTINODE_PORT\", \"([0-9]+)\"");
        String readme = read("README.md");
        assertEquals(originals * (1 + copies), figure(readme, "ingests about ([0-9,]+) generated texts and planted copies"), 1);
        assertEquals(heapMb, figure(readme, "`target/multinode`, ([0-9]+) MB heaps"), 0);
        assertEquals(port, figure(readme, "three nodes \\(ports ([0-9]+)-"), 0);
        assertEquals(port + 2, figure(readme, "three nodes \\(ports [0-9]+-([0-9]+),"), 0);
    }

    /** README's chance-match figures at the default k and the "at most 1 false hit" table equal the results file's. */
    @Test
    public void testChanceMatchFigures() throws IOException {
        String results = read("bench/results/RESULTS-scale-quality.md");
        String readme = read("README.md");
        // the first table of the results file is the overall one: k | P | R | F1 | ... | unrelated | spread | docs | 1M | 10M | 100M
        String[] k15 = row(results, "15");
        String[] k8 = row(results, "8");
        assertEquals(
            Double.parseDouble(k15[k15.length - 6]),
            Double.parseDouble(textAfter(readme, "has an unrelated-pair rate of\\s+([0-9.e-]+)")),
            0
        );
        assertEquals(
            k15[k15.length - 3] + " / " + k15[k15.length - 2] + " / " + k15[k15.length - 1],
            textAfter(readme, "i\\.e\\. ([0-9., /]+) expected")
        );
        assertEquals(k8[k8.length - 3], textAfter(readme, "\\| 1M \\| [^|]+ \\| 8 \\(([0-9.]+)\\)"));
    }

    /** performance.md's candidate-key path on a real node (issue 40) quotes its committed results files. */
    @Test
    public void testKeysNodeFigures() throws IOException {
        String performance = read("docs/performance.md");
        for (String docs : new String[] { "1M", "10M" }) {
            String results = read("bench/results/RESULTS-keys-node-" + docs + ".md");
            String row = "(?m)^\\| " + docs + " \\(500\\) \\| ";
            // performance.md's row: default p50 | exact p50 | default / exact | less the round trip | recall
            assertEquals(
                figure(results, "\\| default near_duplicate query \\| ([0-9.]+) \\|"),
                figure(performance, row + "([0-9.]+) ms"),
                0
            );
            assertEquals(
                figure(results, "\\| the same with exact: true \\(the column\\) \\| ([0-9.]+) \\|"),
                figure(performance, row + "[0-9.]+ ms \\| ([0-9.]+) ms"),
                0
            );
            assertEquals(
                figure(results, "\\| default near_duplicate query \\|.*\\*\\*([0-9.]+)x\\*\\*"),
                figure(performance, row + "[0-9.]+ ms \\| [0-9.]+ ms \\| \\**([0-9.]+)x"),
                0.0005
            );
            assertEquals(
                figure(results, "default / exact \\*\\*([0-9.]+)x\\*\\*"),
                figure(performance, row + "(?:[^|]+\\| ){3}([0-9.]+)x"),
                0
            );
            assertEquals(
                figure(results, "\\*\\*([0-9,]+) of [0-9,]+\\*\\* exact hits"),
                figure(performance, row + "(?:[^|]+\\| ){4}([0-9,]+) of"),
                0
            );
        }
        String check = read("bench/results/RESULTS-keys-check-10M.md");
        assertEquals(
            figure(check, "Check throughput = \\*\\*([0-9.]+) %\\*\\*"),
            figure(performance, "docs/s \\(([0-9.]+) % of plain\\)\\*\\*"),
            0
        );
        assertEquals(
            figure(check, "\\| through near_duplicate_check \\| ([0-9]+) \\|"),
            figure(performance, "\\*\\*([0-9]+) docs/s \\([0-9.]+ % of plain"),
            0
        );
        assertEquals(
            figure(check, "the default check is \\*\\*([0-9.]+)x\\*\\*"),
            figure(performance, "makes the check ([0-9.]+)x faster"),
            0
        );
        String again = read("bench/results/RESULTS-keys-check-10M-repeat.md");
        assertEquals(
            figure(again, "Check throughput = \\*\\*([0-9.]+) %\\*\\*"),
            figure(performance, "RESULTS-keys-check-10M-repeat\\.md: ([0-9.]+) %"),
            0
        );
        assertEquals(
            figure(again, "the exact path\\): ([0-9.]+) %"),
            figure(performance, "RESULTS-keys-check-10M-repeat\\.md: [0-9.]+ % against\\s+([0-9.]+) %"),
            0
        );
        assertEquals(
            figure(again, "the default check is \\*\\*([0-9.]+)x\\*\\*"),
            figure(performance, "RESULTS-keys-check-10M-repeat\\.md: [^)]*?, ([0-9.]+)x"),
            0
        );
    }

    /** performance.md's paragraph on the real-node scale test quotes its committed results file. */
    @Test
    public void testScaleNodeFigures() throws IOException {
        String results = read("bench/results/RESULTS-scale-node-v3.md");
        String performance = read("docs/performance.md");
        String[][] figures = {
            // results file / performance.md, each regex's group 1
            { "`mode: components`: largest group vs largest labelled group \\| ([0-9,]+)", "makes one group of ([0-9,]+) documents" },
            { "largest labelled group ([0-9]+)", "the largest labelled group has ([0-9]+)" },
            { "default mode: largest group vs largest labelled group \\| ([0-9,]+)", "default mode's largest\\s+group has ([0-9]+)" },
            { "default mode: groups with a filler \\(of them fillers only\\) \\| ([0-9,]+)", "([0-9,]+) of its [0-9,]+ groups contain" },
            { "default mode: groups / documents in groups \\| ([0-9,]+)", "of its ([0-9,]+) groups contain" },
            { "false hits per query \\(mean\\) \\| \\*\\*([0-9.]+)", "\\*\\*([0-9.]+) false hits\\*\\*" },
            { "\\*\\*[0-9.]+\\*\\*: ([0-9.]+) fillers", "\\(([0-9.]+) fillers, [0-9.]+ corpus" },
            { "fillers \\+ ([0-9.]+) corpus", "fillers, ([0-9.]+) corpus" },
            { "probes with at least one false hit \\| ([0-9]+) of", "([0-9]+) of 300 probes have one" },
            { "labelled positive pairs \\| ([0-9.]+)", "at recall ([0-9.]+)" },
            { "tagged duplicate \\| \\*\\*([0-9]+) of 500", "\\*\\*([0-9]+) of 500\\*\\* new fillers" },
            { "i\\.e\\. ([0-9.]+) expected hits per query", "would give ([0-9.]+) hits per query" },
            { "\\| index \\| ([0-9,]+) documents", "RESULTS-scale-node-v3\\.md\\), ([0-9,]+) documents" } };
        for (String[] f : figures) {
            assertEquals(f[1], figure(results, f[0]), figure(performance, f[1]), 0);
        }
    }

    /**
     * README's quality table of the default, simhash-v6 (k = 12, 15, 16), equals the v6 results file's rows, its default row is the code's
     * default k, and the v4 real-node scale figures and the field's bytes per document equal their results files.
     */
    @Test
    public void testVerifiedMatchFigures() throws IOException {
        String results = read("bench/results/RESULTS-scale-quality-v6.md");
        String readme = read("README.md");
        assertEquals(16, org.nearduplicate.core.SimHashSettings.DEFAULT.recommendedMaxDistance());
        double minSimilarity = org.nearduplicate.core.SimHashSettings.DEFAULT.recommendedMinSimilarity();
        assertEquals(0.40, minSimilarity, 0);
        assertEquals(minSimilarity, figure(readme, "`min_similarity` \\(default ([0-9.]+):"), 0);
        assertEquals(minSimilarity, figure(readme, "\\| k \\(min_similarity ([0-9.]+)\\) \\|"), 0);
        assertEquals(minSimilarity, figure(results, "signatures' similarity is >= ([0-9.]+)"), 0);
        for (String k : new String[] { "12", "15", "16" }) {
            // results: k | P | R | F1 | F1 cross | F1 en | F1 zh | unrelated | spread | docs | ...
            String[] r = row(results, k);
            // README: k | precision | recall | F1 | F1 en | F1 zh | unrelated | spread | docs
            String[] m = row(readme, k);
            assertEquals("P at k " + k, r[0], m[0]);
            assertEquals("R at k " + k, r[1], m[1]);
            assertEquals("F1 at k " + k, r[2], m[2].replace("**", ""));
            assertEquals("F1 en at k " + k, r[4], m[3]);
            assertEquals("F1 zh at k " + k, r[5], m[4]);
            assertEquals("unrelated at k " + k, Double.parseDouble(r[6]), Double.parseDouble(m[5].replace("**", "")), 0);
            assertEquals("docs at k " + k, r[8], m[7]);
        }
        String node = read("bench/results/RESULTS-scale-node-v6.md");
        assertEquals(
            figure(node, "false hits per query \\(mean\\) \\| \\*\\*([0-9.]+)"),
            figure(readme, "returns \\*\\*([0-9.]+) false hits\\*\\*"),
            0
        );
        assertEquals(figure(node, "tagged duplicate \\| \\*\\*([0-9]+) of 500"), figure(readme, "tags \\*\\*([0-9]+) of 500\\*\\* new"), 0);
        assertEquals(figure(node, "labelled positive pairs \\| ([0-9.]+)"), figure(readme, "at recall ([0-9.]+) of the probes"), 0);
        assertEquals(figure(node, "default mode: groups with a filler \\(of them fillers only\\) \\| ([0-9,]+)"), 0, 0);
        assertEquals(
            figure(node, "default mode: largest group vs largest labelled group \\| ([0-9,]+)"),
            figure(readme, "has ([0-9]+) members, the size of the largest labelled group"),
            0
        );
        assertEquals(
            "issue 25: the largest default group is no larger than the largest labelled group",
            figure(node, "default mode: largest group vs largest labelled group \\| [0-9,]+ \\(`[^`]+`\\) vs ([0-9,]+)"),
            figure(node, "default mode: largest group vs largest labelled group \\| ([0-9,]+)"),
            0
        );
        String bytes = read("bench/results/RESULTS-field-bytes.md");
        String performance = read("docs/performance.md");
        double perDoc = figure(bytes, "simhash-v4 \\(fingerprint \\+ signature\\) \\| [0-9,]+ \\| [0-9.]+ \\| [0-9.]+ \\| ([0-9.]+)");
        assertEquals(perDoc, figure(performance, "\\| 1M \\| ([0-9.]+) bytes/doc"), 0);
        assertTrue("issue 25: at most 80 bytes per document", perDoc <= 80);
    }

    /**
     * The bytes per document of the default simhash-v7 field (issue 40: at most 256 at 10M on the calibrated documents):
     * performance.md quotes RESULTS-field-bytes-v7.md's rows.
     */
    @Test
    public void testV7FieldBytesFigures() throws IOException {
        String bytes = read("bench/results/RESULTS-field-bytes-v7.md");
        String performance = read("docs/performance.md");
        String keyed = "\\| simhash-v7 \\(default\\) field, KeysModel documents[^|]*\\| ";
        double v7At10M = figure(bytes, keyed + "10,000,000 \\| [0-9.]+ \\| [0-9.]+ \\| ([0-9.]+)");
        double v7At1M = figure(bytes, keyed + "1,000,000 \\| [0-9.]+ \\| [0-9.]+ \\| ([0-9.]+)");
        double v6At10M = figure(bytes, "\\| simhash-v6 field, KeysModel documents \\| 10,000,000 \\| [0-9.]+ \\| [0-9.]+ \\| ([0-9.]+)");
        String distinct = "\\| simhash-v7 \\(default\\) field, every key distinct[^|]*\\| ";
        double distinctAt1M = figure(bytes, distinct + "1,000,000 \\| [0-9.]+ \\| [0-9.]+ \\| ([0-9.]+)");
        double distinctAt10M = figure(bytes, distinct + "10,000,000 \\| [0-9.]+ \\| [0-9.]+ \\| ([0-9.]+)");
        assertEquals(v7At10M, figure(performance, "\\*\\*([0-9.]+) bytes per document at 10M\\*\\* \\(([0-9.]+) at 1M\\)"), 0);
        assertEquals(v7At1M, figure(performance, "bytes per document at 10M\\*\\* \\(([0-9.]+) at 1M\\)"), 0);
        assertEquals(v6At10M, figure(performance, "against ([0-9.]+) \\([0-9.]+\\) for a `simhash-v6` field of the same"), 0);
        assertEquals(v7At10M - v6At10M, figure(performance, "the keys\\s+take ([0-9.]+) of them"), 0.05);
        assertEquals(distinctAt10M, figure(performance, "is ([0-9.]+) bytes per document at 10M, [0-9.]+ bytes per key"), 0);
        assertEquals(distinctAt1M, figure(performance, "bytes per document at 10M, [0-9.]+ bytes per key \\(([0-9.]+) at 1M\\)"), 0);
        assertTrue("issue 40: the default field within 256 bytes per document at 10M", v7At10M <= 256 && distinctAt10M <= 256);
    }

    /**
     * Issue 26's bound on the LSH candidate stage of groups: at 1M units it finds at least 99.5 % of the verified pairs
     * exact enumeration (the brute force) finds; performance.md and workflows.md quote the committed results file.
     */
    @Test
    public void testGroupsLshRecallFigures() throws IOException {
        String results = read("bench/results/RESULTS-groups-lsh-1M-recall.md");
        // brute-force table: N | time | tested | within k | exact verified | exact groups | docs | **recall %** (lsh of exact) | above |
        // whole
        String[] r = row(results.substring(results.indexOf("## Recall against exact enumeration by brute force")), "1000000");
        double recall = Double.parseDouble(r[6].replaceAll("^\\*\\*([0-9.]+) %\\*\\*.*$", "$1"));
        Matcher counts = Pattern.compile("\\(([0-9]+) of ([0-9]+)\\)").matcher(r[6]);
        assertTrue(counts.find());
        long lsh = Long.parseLong(counts.group(1)), exact = Long.parseLong(counts.group(2));
        assertEquals(exact, Long.parseLong(r[3]));
        assertEquals("no LSH pair outside the exact set", "0", r[7]);
        assertTrue("issue 26: recall >= 99.5 % against exact enumeration at 1M, got " + recall, recall >= 99.5);
        assertEquals(100.0 * lsh / exact, recall, 1e-4);
        String performance = read("docs/performance.md");
        assertEquals(exact, figure(performance, "of them \\*\\*([0-9,]+) verified pairs\\*\\*"), 0);
        assertEquals(lsh, figure(performance, "the LSH stage found \\*\\*([0-9,]+): [0-9.]+ % of the exact"), 0);
        assertEquals(
            Math.round(recall * 100) / 100.0,
            figure(performance, "the LSH stage found \\*\\*[0-9,]+: ([0-9.]+) % of the exact"),
            1e-9
        );
        assertEquals(
            Math.round(recall * 100) / 100.0,
            figure(performance, "\\| 1M \\| [^|]+ \\| [^|]+ \\| [^|]+ \\| \\*\\*([0-9.]+) % of the exact"),
            1e-9
        );
        assertEquals(
            Math.round(recall * 100) / 100.0,
            figure(read("docs/workflows.md"), "at 200k units\\s+and ([0-9.]+) % of the exact verified pairs at 1M"),
            1e-9
        );
    }

    /**
     * engine.md's residual section (issue 25 item 5): its table of candidate extraction rules equals ResidualStudy's
     * results file, and the offline replay figures equal bench/scale_offline.py's results files.
     */
    /** performance.md's open point on a band index for the check: recall, candidates and bytes from their results. */
    @Test
    public void testSignatureBandFigures() throws IOException {
        String performance = read("docs/performance.md");
        String bands = read("bench/results/RESULTS-signature-bands.md");
        String bytes = read("bench/results/RESULTS-field-bytes-bands.md");
        for (int b : new int[] { 4, 8, 16 }) {
            String[] study = row(bands, "2 \\| " + b);
            String[] measured = row(bytes, "simhash-v4 \\+ " + b + " band keys of 2 slots");
            String quoted = b == 4
                ? "4\\s+bands keep the field at ([0-9.]+) bytes per document"
                : b + "\\s+bands find [0-9.]+ at ([0-9.]+) bytes";
            assertEquals("bytes, " + b + " bands", measured[3], textAfter(performance, quoted));
            String recall = b == 4 ? "but find ([0-9.]+) of the verified pairs" : b + "\\s+bands find ([0-9.]+) at";
            assertEquals("recall, " + b + " bands", study[0], textAfter(performance, recall));
        }
        String[] four = row(bands, "2 \\| 4");
        assertEquals(four[3].replaceAll(" \\(.*", ""), textAfter(performance, "are\\s+([0-9.e+-]+) of its pairs with 4 bands"));
        assertEquals(four[4].replaceAll(".* / ", ""), textAfter(performance, "i\\.e\\. ([0-9,]+) candidates per probe at 10M"));
        assertEquals(
            row(bytes, "simhash-v4 \\+ 8 band keys of 3 slots")[3],
            textAfter(performance, "8 of them already take the field to ([0-9.]+) bytes")
        );
        String[] wide = row(bands, "3 \\| 16");
        assertEquals(wide[0], textAfter(performance, "\\(3 slots: ([0-9.]+) with 16 bands"));
        assertEquals(wide[4].replaceAll(".* / ", ""), textAfter(performance, "with 16 bands, ([0-9,]+) candidates per probe"));
    }

    /** The offline replay at the default (simhash-v6, min_similarity 0.40). */
    private static String v5Replay() throws IOException {
        return read("bench/results/RESULTS-scale-offline-v6.md");
    }

    @Test
    public void testResidualFigures() throws IOException {
        String results = read("bench/results/RESULTS-residual-rules.md");
        String sketching = read("docs/engine.md");
        String[][] rows = {
            // engine.md's rule / the results file's
            { "v4 default", "default (simhash-v4, k = 16, 12 of 32 slots)" },
            { "no signed match below 32 distinct features", "min-features 32" },
            { "pages whose main text is < 25 % of the visible text need 20 agreeing slots", "template-dominated 0.25: 20 slots" },
            { "drop blocks of <= 8 words that are not sentences", "short-blocks 8" },
            { "drop blocks found in >= 3 near-duplicate groups", "repeated-blocks 3 (groups)" },
            { "drop blocks found in >= 5 near-duplicate groups", "repeated-blocks 5 (groups)" },
            { "drop blocks found in >= 10 near-duplicate groups", "repeated-blocks 10 (groups)" },
            { "drop blocks found in >= 10 documents (copies counted)", "repeated-blocks 10 (documents)" },
            { "drop blocks found in >= 5 documents (copies counted)", "repeated-blocks 5 (documents)" } };
        for (String[] r : rows) {
            // results: R | P | F1 | R en | R zh | F1 en | F1 zh | residual | base pairs | rate | docs
            String[] m = row(results, Pattern.quote(r[1]));
            // engine.md: recall (en / zh) | F1 (en / zh) | residual (base) | rate | docs
            String[] e = row(sketching, Pattern.quote(r[0]));
            for (int i = 0; i < e.length; i++)
                e[i] = e[i].replace("**", "");
            assertEquals(r[0], m[0] + " (" + m[3] + " / " + m[4] + ")", e[0]);
            assertEquals(r[0], m[2] + " (" + m[5] + " / " + m[6] + ")", e[1]);
            assertEquals(r[0], m[7] + " (" + m[8] + ")", e[2]);
            assertEquals(r[0], m[9], e[3]);
            assertEquals(r[0], m[10], e[4]);
        }
        String[] def = row(results, Pattern.quote(rows[0][1]));
        assertEquals(Double.parseDouble(def[7]), figure(sketching, "\\*\\*([0-9,]+) unrelated same-language pairs\\*\\*"), 0);
        assertEquals(Double.parseDouble(def[8]), figure(sketching, "among \\*\\*([0-9,]+) pairs of base\\s+documents\\*\\*"), 0);
        String v4 = read("bench/results/RESULTS-scale-offline-v4.md");
        String r3 = read("bench/results/RESULTS-scale-offline-repeated-blocks-3.md");
        String r5 = read("bench/results/RESULTS-scale-offline-repeated-blocks-5.md");
        String recallEn = "(?m)^\\| en \\| ([0-9.]+) ", recallZh = "(?m)^\\| zh \\| ([0-9.]+) ";
        assertEquals(figure(r5, recallEn), figure(sketching, "recall en ([0-9.]+), zh [0-9.]+;"), 0);
        assertEquals(figure(r5, recallZh), figure(sketching, "recall en [0-9.]+, zh ([0-9.]+);"), 0);
        assertEquals(figure(r3, recallZh), figure(sketching, "Chinese recall is ([0-9.]+), just under"), 0);
        assertTrue(figure(r3, recallZh) < 0.965 && figure(r5, recallZh) >= 0.965 && figure(r5, recallEn) >= 0.965);
        assertEquals(figure(v4, recallEn), figure(sketching, "`RESULTS-scale-offline-v4.md`\\]\\([^)]*\\): ([0-9.]+) / [0-9.]+\\)"), 0);
        assertEquals(figure(v4, recallZh), figure(sketching, "`RESULTS-scale-offline-v4.md`\\]\\([^)]*\\): [0-9.]+ / ([0-9.]+)\\)"), 0);
        String unrelated = "every corpus document \\| [0-9,]+ \\| [0-9]+ \\| [0-9.]+ \\| [0-9]+ \\| [0-9]+ \\| ([0-9.]+) \\|";
        assertEquals(Math.round(figure(v4, unrelated) * 1000) / 1000.0, figure(sketching, "document fall from ([0-9.]+) to"), 1e-9);
        assertEquals(Math.round(figure(r5, unrelated) * 1000) / 1000.0, figure(sketching, "document fall from [0-9.]+ to ([0-9.]+)"), 1e-9);
        assertEquals(figure(r3, unrelated), figure(sketching, "\\(([0-9.]+) at 3 groups\\)"), 0);
        String largest = "\\| default \\(representative\\) \\| [0-9,]+ \\| [0-9,]+ \\| ([0-9]+) ";
        String components = "\\| components \\| [0-9,]+ \\| [0-9,]+ \\| ([0-9]+) ";
        assertEquals(figure(r5, largest), figure(sketching, "largest default-mode group ([0-9]+):"), 0);
        assertEquals(figure(r5, components), figure(sketching, "components` ([0-9]+) instead of"), 0);
        assertEquals(figure(v4, components), figure(sketching, "components` [0-9]+ instead of ([0-9]+)\\)"), 0);
        assertEquals(figure(v4, largest), figure(sketching, "the group of ([0-9]+) documents of two man"), 0);
        assertEquals(
            figure(v4, "Distinct features of their documents: ([0-9]+) to"),
            figure(sketching, "pages are not short in features \\(([0-9]+)-"),
            0
        );
        assertEquals(
            figure(v4, "text and text ([0-9]+)\\."),
            figure(sketching, "\\(([0-9]+) of the [0-9]+\\s+pairs\\s+are two plain texts"),
            0
        );
        // workflows.md's account of the representative mode's second step (each document joins its closest
        // representative): groups mixing labelled documents without and with it, from the same replay
        String workflows = read("docs/workflows.md");
        String mixed = "groups mixing labelled bases: mixed labelled bases ([0-9]+)";
        assertEquals(
            figure(v5Replay(), "Without the second step, default-mode " + mixed),
            figure(workflows, "this step turns ([0-9]+) groups mixing"),
            0
        );
        assertEquals(figure(v5Replay(), "(?m)^Default-mode " + mixed), figure(workflows, "different labelled documents into ([0-9]+),"), 0);
        String largestRow = " \\| [0-9,]+ \\| [0-9,]+ \\| ([0-9]+) ";
        assertEquals(
            figure(v5Replay(), "\\| representative without the second step [^|]*" + largestRow),
            figure(workflows, "and the largest group of ([0-9]+),"),
            0
        );
        assertEquals(
            figure(v5Replay(), "\\| default \\(representative\\)" + largestRow),
            figure(workflows, "two man pages, into ([0-9]+):"),
            0
        );
        // README's account of the node run's false hits (heavy-edit negatives counted apart) and of the replay: the
        // default's (simhash-v5) node run and replay
        String readme = read("README.md");
        String node = read("bench/results/RESULTS-scale-node-v6.md");
        String v5 = v5Replay();
        String v5Loose = read("bench/results/RESULTS-scale-offline-v5.md"); // min_similarity 0.35
        assertEquals(
            figure(node, "corpus documents of another base document \\(([0-9]+) hits in all\\)"),
            figure(readme, "\\): ([0-9]+) hits of unrelated"),
            0
        );
        assertEquals(figure(node, "not false hits\\) \\| ([0-9]+) in all"), figure(readme, "besides\\s+([0-9]+) hits of heavy-edit"), 0);
        assertEquals(
            figure(node, "`like` a random corpus document, k 16\\) \\| ([0-9]+) probes"),
            figure(readme, "unrelated documents in ([0-9]+) queries"),
            0
        );
        assertEquals(
            Math.round(figure(v5, unrelated) * 1000) / 1000.0,
            figure(readme, "the unrelated hits are ([0-9.]+) per\\s+query"),
            1e-9
        );
        assertEquals(
            Math.round(figure(v4, unrelated) * 1000) / 1000.0,
            figure(readme, "the unrelated hits are [0-9.]+ per\\s+query \\([^;]*; v4: ([0-9.]+)\\)"),
            1e-9
        );
        assertEquals(
            Math.round(figure(v5Loose, unrelated) * 1000) / 1000.0,
            figure(readme, "the unrelated hits are [0-9.]+ per\\s+query \\(([0-9.]+) at 0\\.35"),
            1e-9
        );
        assertEquals(figure(v5, components), figure(readme, "`mode: components`' largest is ([0-9]+) \\("), 0);
        assertEquals(figure(v5Loose, components), figure(readme, "`mode: components`' largest is [0-9]+ \\(([0-9]+) at 0\\.35"), 0);
        assertEquals(figure(v5Loose, largest), figure(readme, "at `min_similarity` 0\\.35 it had ([0-9]+):"), 0);
        assertEquals(
            figure(node, "default mode: largest group vs largest labelled group \\| ([0-9,]+)"),
            figure(readme, "The largest group \\(default mode\\)\\s+has ([0-9]+) members"),
            0
        );
        assertEquals(figure(v4, components), figure(readme, "`mode: components`' largest is [0-9]+ \\([^)]*v4: ([0-9]+)\\)"), 0);
        // the replay reproduces the node run: the same groups and the same false hits of its probes
        for (String[] run : new String[][] { { read("bench/results/RESULTS-scale-node-v4.md"), v4 }, { node, v5 } }) {
            assertEquals(figure(run[0], "default mode: largest group vs largest labelled group \\| ([0-9,]+)"), figure(run[1], largest), 0);
            assertEquals(
                figure(run[0], "`mode: components`: largest group vs largest labelled group \\| ([0-9,]+)"),
                figure(run[1], components),
                0
            );
            assertEquals(
                figure(run[0], "false hits per query \\(mean\\) \\| \\*\\*([0-9.]+)"),
                figure(
                    run[1],
                    "the node run's 300 \\(seed 25\\) \\| [0-9]+ \\| [0-9]+ \\| [0-9.]+ \\| [0-9]+ \\| [0-9]+ \\| ([0-9.]+) \\|"
                ),
                1e-9
            );
        }
    }

    /**
     * performance.md's account of the real-node p99 at 10M (the column cache thrashing) and of concurrent segment search
     * quotes the generated tables appended in their results files.
     */
    @Test
    public void testNodeTailAndConcurrentSearchFigures() throws IOException {
        String p99 = read("bench/results/RESULTS-anyk-node-10M-p99.md");
        String performance = read("docs/performance.md");
        // the node tables' k = 16 rows: run 4 (default cache) is appended first, run 3 (15 %) second
        String node16 = "(?m)^\\| 16 \\| [0-9]+ / [0-9]+ \\| [^|]+\\| [^|]+\\| [^|]+\\| [^|]+\\| ([0-9.]+) / ([0-9.]+) \\|";
        String[] defaultCache = nth(p99, node16, 0), largerCache = nth(p99, node16, 1);
        assertEquals(
            defaultCache[0] + " ms against " + defaultCache[1],
            textAfter(performance, "server `took` of \\*\\*([0-9.]+ ms against [0-9.]+)")
        );
        assertEquals(largerCache[0] + " / " + largerCache[1], textAfter(performance, "the rest cost \\(\\*\\*([0-9.]+ / [0-9.]+) ms"));
        String css = read("bench/results/RESULTS-css-10M.md");
        // the second pass of each mode on the 6-segment index (appended first): p50 and the ratio to the floor
        String row = "(?m)^\\| `%s`, 2 slices \\| 16 \\| [0-9]+ \\| column \\| \\*\\*([0-9.]+)\\*\\*[^|]*(?:\\|[^|]*){7}\\| ([0-9.]+)x \\|";
        String[] all = nth(css, String.format(java.util.Locale.ROOT, row, "all"), 1);
        String[] none = nth(css, String.format(java.util.Locale.ROOT, row, "none"), 1);
        assertEquals(
            all[0] + " ms against " + none[0] + " ms for `none` in the quieter pair (" + all[1] + "x against " + none[1] + "x",
            textAfter(
                performance,
                "`all` took\\s+\\*\\*([0-9.]+ ms against [0-9.]+ ms\\*\\* for `none` in the quieter pair \\([0-9.]+x against [0-9.]+x)"
            ).replace("**", "")
        );
    }

    /**
     * performance.md's write-back table (members already right not sent): each row's figures are the results file's
     * groups run, first write and re-run.
     */
    @Test
    public void testWriteSkipFigures() throws IOException {
        String performance = read("docs/performance.md");
        for (String[] row : new String[][] {
            { "1M", "RESULTS-groups-signed-1M-skip.md" },
            { "10M", "RESULTS-groups-signed-10M-skip.md" } }) {
            String results = read("bench/results/" + row[1]);
            String[] quoted = row(performance, row[0] + " \\(\\[" + Pattern.quote(row[1]) + "\\][^|]*");
            // the groups run: its wall time in ms
            double groupsMs = figure(results, "(?m)^\\| 16 \\| 1 \\| ([0-9]+) ms \\|");
            assertEquals(row[0] + " groups", String.format(java.util.Locale.ROOT, "%.1f s", groupsMs / 1000), quoted[0]);
            String[] first = writeRow(results, "## Write-back, first run");
            String[] again = writeRow(results, "## Write-back, re-run, nothing changed");
            assertEquals(row[0] + " first write", String.format(java.util.Locale.ROOT, "%,d s", Math.round(seconds(first[0]))), quoted[1]);
            assertTrue(
                row[0] + " re-run " + quoted[2],
                quoted[2].startsWith(String.format(java.util.Locale.ROOT, "**%.1f s**", seconds(again[0])))
            );
            assertEquals(row[0] + " re-run batches", again[9], quoted[3]);
            assertEquals(row[0] + " unchanged", String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(again[4])), quoted[4]);
            assertEquals(row[0] + " nothing written", "0", again[2]);
        }
        String tenM = read("bench/results/RESULTS-groups-signed-10M-skip.md");
        String again = String.format(java.util.Locale.ROOT, "%.1f s", seconds(writeRow(tenM, "## Write-back, re-run, nothing changed")[0]));
        assertEquals(again, textAfter(performance, "\\*\\*A re-run at 10M now takes ([0-9.]+ s)\\*\\*"));
        assertEquals(again, textAfter(performance, "update sent\\): ([0-9.]+ s) at 10M"));
        String first = String.format(java.util.Locale.ROOT, "%,d s", Math.round(seconds(writeRow(tenM, "## Write-back, first run")[0])));
        assertEquals(first, textAfter(performance, "\\(it took ([0-9,]+ s),"));
        // the open point quotes both again
        assertEquals(first, textAfter(performance, "with two bulk requests in flight,\\s+([0-9,]+ s) with one;"));
        assertEquals(again, textAfter(performance, "re-runs take ([0-9.]+ s)\\):"));
    }

    /**
     * performance.md's "Two bulk requests in flight": the table is the results file's baseline and default first
     * writes, its ratio theirs, and the 10M estimate the 10M first write at that ratio.
     */
    @Test
    public void testWriteInFlightFigures() throws IOException {
        String performance = read("docs/performance.md");
        String results = read("bench/results/RESULTS-groups-signed-1M-inflight.md");
        String[] one = writeRow(results, "## Write-back, first run, one bulk request in flight");
        String[] two = writeRow(results, "## Write-back, first run (");
        String[] oneRow = row(performance, "one bulk request in flight \\(before\\)");
        String[] twoRow = row(performance, "two in flight \\(the default\\)");
        assertEquals(one[1], oneRow[0]);
        assertEquals(String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(one[11])), oneRow[1]);
        double ratio = seconds(two[1]) / seconds(one[1]);
        assertEquals(String.format(java.util.Locale.ROOT, "**%.1f s** (%.2fx)", seconds(two[1]), ratio), twoRow[0]);
        assertEquals(String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(two[11])), twoRow[1]);
        assertEquals(
            String.format(java.util.Locale.ROOT, "%.2fx", ratio),
            textAfter(performance, "Two\\s+requests in flight made a first write ([0-9.]+x) as long")
        );
        // 10M: this file's first write against the one-in-flight run's, and the checked values
        String oneInFlight = read("bench/results/RESULTS-groups-signed-10M-skip.md");
        String twoInFlight = read("bench/results/RESULTS-groups-signed-10M-inflight.md");
        long before = Math.round(seconds(writeRow(oneInFlight, "## Write-back, first run")[0]));
        long after = Math.round(seconds(writeRow(twoInFlight, "## Write-back, first run")[0]));
        String quoted = String.format(java.util.Locale.ROOT, "**%,d s** against %,d s with one in flight in the", after, before);
        assertTrue("10M first write: " + quoted, performance.contains(quoted));
        assertEquals(
            String.format(java.util.Locale.ROOT, "%.2fx", (double) after / before),
            textAfter(performance, "in the\\s+earlier run above \\(([0-9.]+x)\\)")
        );
        assertEquals(
            String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(textAfter(twoInFlight, "found ([0-9]+) distinct values"))),
            textAfter(performance, "checked afterwards \\(([0-9,]+) distinct values over 10M\\)")
        );
        assertEquals(
            String.format(java.util.Locale.ROOT, "%,d s with\ntwo", after),
            textAfter(performance, "1,105 s at 10M with one bulk request in flight, ([0-9,]+ s with\\ntwo)")
        );
        assertEquals(
            String.format(java.util.Locale.ROOT, "%,d s", after),
            textAfter(performance, "with one bulk request in flight; ([0-9,]+ s) with two, below")
        );
        assertEquals(
            String.format(java.util.Locale.ROOT, "%,d s", after),
            textAfter(performance, "takes 14 minutes\\*\\* \\(([0-9,]+ s) with two")
        );
        assertEquals(again(results), textAfter(performance, "the re-run still sends nothing \\(([0-9.]+ s)\\)"));
        // the bound of a first write at 10M: the node's own load of the same documents, and the same run's grouping
        String load = "\\| load \\| `_bulk` \\(5000 docs, 2 threads\\): ([0-9]+) s \\(([0-9]+) docs/s\\)";
        assertEquals(textAfter(twoInFlight, load) + " s", textAfter(performance, "in the first place in ([0-9,]+ s) \\("));
        java.util.regex.Matcher loaded = Pattern.compile(load).matcher(twoInFlight);
        assertTrue(loaded.find());
        assertEquals(
            String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(loaded.group(2))),
            textAfter(performance, "in [0-9,]+ s \\(([0-9,]+)\\s+docs/s, `_bulk` of 5,000")
        );
        assertEquals(
            String.format(
                java.util.Locale.ROOT,
                "%.1f s",
                Long.parseLong(textAfter(twoInFlight, "\\| 16 \\| 1 \\| ([0-9]+) ms \\|")) / 1000.0
            ),
            textAfter(performance, "plus the grouping \\(([0-9.]+ s) in the same run\\)")
        );
        assertEquals(
            writeRow(twoInFlight, "## Write-back, re-run, nothing changed")[0],
            textAfter(performance, "fit in 2 minutes \\(([0-9.]+ s) in that run\\)")
        );
    }

    private static String again(String results) {
        return String.format(java.util.Locale.ROOT, "%.1f s", seconds(writeRow(results, "## Write-back, re-run, nothing changed")[0]));
    }

    /** The cells of the first task row (task id first) after {@code heading}. */
    private static String[] writeRow(String results, String heading) {
        int at = results.indexOf(heading);
        assertTrue("no section " + heading, at >= 0);
        return row(results.substring(at), "`[^`]+`");
    }

    /** A results cell's time ("108 s" or "9656 ms") in seconds. */
    private static double seconds(String cell) {
        if (cell.endsWith(" ms")) return Double.parseDouble(cell.substring(0, cell.length() - 3)) / 1000;
        return Double.parseDouble(cell.substring(0, cell.length() - 2));
    }

    /** performance.md's shared-pass figures: the in-process and node runs' tables, and the code's bounds. */
    @Test
    public void testSharedPassFigures() throws IOException {
        String performance = read("docs/performance.md");
        String inProcess = read("bench/results/RESULTS-shared-scan.md");
        // the last column of each T row: shared / separate
        java.util.function.Function<String, String> ratio = t -> {
            String[] cells = row(inProcess, t);
            return cells[cells.length - 1];
        };
        assertEquals(
            ratio.apply("1")
                + " with T = 1, "
                + ratio.apply("2")
                + " with 2, "
                + ratio.apply("4")
                + " with 4, "
                + ratio.apply("8")
                + " with 8",
            textAfter(performance, "shared against separate passes \\*\\*([^*]+)\\*\\*").replaceAll("\\s+", " ")
        );
        String node = read("bench/results/RESULTS-msearch-10M.md");
        // cells after the first: sequential, not shared, _msearch, one pass, _msearch / not shared, ...
        assertEquals(
            row(node, "4")[4] + " (B = 4), " + row(node, "16")[4] + " (16) and " + row(node, "64")[4] + " (64)",
            textAfter(performance, "single-probe searches took \\*\\*([^*]+)\\*\\*").replaceAll("\\s+", " ")
        );
        assertEquals(
            row(node, "64")[2] + " ms per probe at B = 64 against " + row(node, "64")[0],
            textAfter(performance, "`fingerprints` \\(([0-9.]+ ms per probe at B = 64 against [0-9.]+) ms")
        );
        assertEquals(BenchAccess.sharedMinSlots(), figure(performance, "segment\\s+of ([0-9,]+) documents or more"), 0);
        assertEquals(BenchAccess.sharedMaxHits(), figure(performance, "more than ([0-9,]+) matches there"), 0);
        assertEquals(BenchAccess.sharedMaxHits() / 4, figure(performance, "more than ([0-9,]+) times \\(a quarter of that"), 0);
        assertTrue("k 19 shared at 10M", BenchAccess.sharedAtCount(10_000_000, 19));
        assertFalse("k 20 not shared at 10M", BenchAccess.sharedAtCount(10_000_000, 20));
    }

    /** performance.md's 30M-in-10-shards figures are the two generated runs appended in their results file. */
    @Test
    public void testManyShardsFigures() throws IOException {
        String results = read("bench/results/RESULTS-node-30M-10shards.md");
        String performance = read("docs/performance.md");
        String k16 = "(?m)^\\| 16 \\| [0-9]+ \\| column \\| \\*\\*([0-9.]+)\\*\\* / [0-9.]+ / ([0-9.]+) \\|";
        String[] run1 = nth(results, k16, 0), run2 = nth(results, k16, 1);
        assertEquals(
            run1[0] + " / " + run2[0] + " ms** (p99 " + run1[1] + " / " + run2[1] + " ms)",
            textAfter(performance, "k = 16 p50 \\*\\*([0-9.]+ / [0-9.]+ ms\\*\\* \\(p99 [0-9.]+ / [0-9.]+ ms\\))")
        );
        assertEquals(
            run1[0] + " / " + run1[1] + ", " + run2[0] + " / " + run2[1] + " ms",
            textAfter(performance, "\\| 10 x 3M \\|(?: [^|]+ \\|){3} ([0-9.]+ / [0-9.]+, [0-9.]+ / [0-9.]+ ms) \\|")
        );
        String bytes = textAfter(results, "\\(([0-9,]+) bytes\\) \\|");
        assertEquals(bytes, textAfter(performance, "Columns: ([0-9,]+) bytes in the breaker"));
        assertEquals(30_000_000L * Long.BYTES, Long.parseLong(bytes.replace(",", "")), 10 * 80);
    }

    /**
     * The option tables of docs/engine.md ("Pipeline and options") and of README's processor section, README's query and
     * field defaults and reliability.md's node limits name the code's defaults: moving a default fails here until the
     * docs move with it.
     */
    @Test
    public void testOptionTableDefaults() throws IOException {
        String sketching = read("docs/engine.md");
        String table = sketching.substring(sketching.indexOf("## Pipeline and options"));
        table = table.substring(0, table.indexOf("\n\n", table.indexOf("| option |")));
        String readme = read("README.md");
        String processor = readme.substring(
            readme.indexOf("### 1. The `simhash` ingest processor"),
            readme.indexOf("### 2. The `simhash` field")
        );
        java.util.Map<String, Object> defaults = org.nearduplicate.core.SimHashSettings.DEFAULT.toMap();
        for (java.util.Map.Entry<String, Object> e : defaults.entrySet()) {
            String option = e.getKey();
            String expected = String.valueOf(e.getValue());
            if (option.equals("version")) {
                assertEquals(expected, firstValue(row(processor, "`version`")[0]));
                continue;
            }
            assertEquals("engine.md's default of " + option, expected, firstValue(row(table, "`" + option + "`")[0]));
            if (option.equals("weighting") == false) {
                assertEquals("README's default of " + option, expected, firstValue(row(processor, "`" + option + "`")[0]));
            }
        }
        assertEquals(org.nearduplicate.core.FeatureSettings.MAX_NGRAM_SIZE, figure(row(table, "`ngram_size`")[0], "\\(1-([0-9]+)\\)"), 0);
        String shingle = row(table, "`shingle_size`")[0];
        assertEquals(org.nearduplicate.core.FeatureSettings.MAX_SHINGLE_SIZE, figure(shingle, "\\(1-([0-9]+);"), 0);
        assertEquals(org.nearduplicate.core.SimHashSettings.DEFAULT_V1.shingleSize(), figure(shingle, "v1: ([0-9]+)\\)"), 0);
        assertEquals(
            org.nearduplicate.core.SimHashSettings.DEFAULT_V1.shingleSize(),
            figure(row(processor, "`shingle_size`")[0], "\\(v1: ([0-9]+)\\)"),
            0
        );
        assertEquals(org.nearduplicate.core.SimHashSettings.BUILTIN_IDF, textAfter(row(table, "`idf`")[0], "`([^`]+)` when `tf_idf`"));
        // README: the field's layout defaults and the query's default k per algorithm version
        assertEquals(
            org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper.DEFAULT_BLOCKS,
            figure(readme, "`blocks` \\(default ([0-9]+)\\) blocks of"),
            0
        );
        assertEquals(
            org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper.DEFAULT_MAX_DISTANCE,
            figure(readme, "up to its `max_distance` \\(default ([0-9]+)\\)"),
            0
        );
        String v4to7 = "simhash-v7`, `simhash-v6`, `simhash-v5` and `simhash-v4` fields";
        String[] perVersion = {
            v4to7,
            v4to7,
            v4to7,
            v4to7,
            "simhash-v3` and `simhash-v2` fields",
            "simhash-v3` and `simhash-v2` fields",
            "simhash-v1` fields" };
        int[] versions = { 7, 6, 5, 4, 3, 2, 1 };
        for (int i = 0; i < versions.length; i++) {
            assertEquals(
                "README's default max_distance for simhash-v" + versions[i],
                org.nearduplicate.core.SimHashSettings.defaults(versions[i]).recommendedMaxDistance(),
                figure(readme, "([0-9]+) for `" + Pattern.quote(perVersion[i])),
                0
            );
        }
        // reliability.md: the node ceilings
        String reliability = read("docs/reliability.md");
        assertEquals(
            org.nearduplicate.core.FeatureSettings.DEFAULT_MAX_INPUT_CHARS,
            figure(reliability, "`near_duplicate.max_input_chars` \\(node setting, dynamic\\) \\| ([0-9,]+) chars"),
            0
        );
        assertEquals(
            org.nearduplicate.core.FeatureSettings.DEFAULT_MAX_FEATURES,
            figure(reliability, "`near_duplicate.max_features` \\(node setting, dynamic\\) \\| ([0-9,]+) distinct features"),
            0
        );
    }

    /**
     * README's and engine.md's held-out-like figures (simhash-v5 and simhash-v4 at k = 16) are the rows of
     * RESULTS-heldout-like-t040.md (each version at its default min_similarity: README, engine.md's current default)
     * and of RESULTS-heldout-like.md (both at 0.35: engine.md's comparison of the two extractions), whose first table
     * is v5's and whose section after "## simhash-v4" is v4's.
     */
    @Test
    public void testHeldOutLikeFigures() throws IOException {
        String results = read("bench/results/RESULTS-heldout-like.md");
        String strict5 = read("bench/results/RESULTS-heldout-like-t040.md");
        String current = read("bench/results/RESULTS-heldout-like-v6.md");
        String readme = read("README.md");
        String sketching = read("docs/engine.md");
        // k | P | R | F1 | F1 cross | F1 en | F1 zh | unrelated | spread | docs | ...
        String[] v6 = row(current.substring(current.indexOf("## simhash-v6:")), "16");
        String[] v5 = row(strict5.substring(strict5.indexOf("## simhash-v5:")), "16");
        assertEquals(
            "v5 at 0.40 in both runs",
            String.join("|", v5),
            String.join("|", row(current.substring(current.indexOf("## simhash-v5:")), "16"))
        );
        String[] v4 = row(current.substring(current.indexOf("## simhash-v4:")), "16");
        assertEquals(
            "v4 is verified at its own 0.35 in both runs",
            String.join("|", v4),
            String.join("|", row(results.substring(results.indexOf("## simhash-v4:")), "16"))
        );
        assertEquals(v6[0], textAfter(readme, "version 6 has precision ([0-9.]+), recall"));
        assertEquals(v6[1], textAfter(readme, "version 6 has precision [0-9.]+, recall ([0-9.]+)"));
        assertEquals(v6[2], textAfter(readme, "version 6 has precision [0-9.]+, recall [0-9.]+\\s+and F1 ([0-9.]+)"));
        assertEquals(v6[4], textAfter(readme, "and F1 [0-9.]+ \\(en ([0-9.]+), zh [0-9.]+\\) there"));
        assertEquals(v6[5], textAfter(readme, "and F1 [0-9.]+ \\(en [0-9.]+, zh ([0-9.]+)\\) there"));
        assertEquals(Double.parseDouble(v6[6]), figure(readme, "there, an unrelated-pair rate of ([0-9.e-]+)"), 0);
        assertEquals(v6[8], textAfter(readme, "spread 0 and ([0-9.]+ %) of documents with a\\s+false match"));
        assertEquals(v5[1], textAfter(readme, "version 5 in the same run: recall ([0-9.]+),"));
        assertEquals(v5[2], textAfter(readme, "version 5 in the same run: recall [0-9.]+, F1 ([0-9.]+),"));
        assertEquals(v5[5], textAfter(readme, "version 5 in the same run: recall [0-9.]+, F1 [0-9.]+, zh ([0-9.]+)"));
        assertEquals(v4[1], textAfter(readme, "`simhash-v4` had recall ([0-9.]+), F1"));
        assertEquals(v4[2], textAfter(readme, "`simhash-v4` had recall [0-9.]+, F1 ([0-9.]+)"));
        assertEquals(Double.parseDouble(v4[6]), figure(readme, "and a rate of \\*\\*([0-9.e-]+)\\*\\*"), 0);
        assertEquals(v4[9], textAfter(readme, "\\(([0-9.,]+) false hits per query at 1M"));
        // engine.md's table (both at 0.35): | version | precision | recall | F1 (en / zh) | rate | spread | docs |
        String[] e5 = row(sketching, "\\*\\*`simhash-v5`\\*\\*");
        String[] e4 = row(sketching, "`simhash-v4`");
        String[] loose5 = row(results.substring(results.indexOf("## simhash-v5:")), "16");
        for (String[][] pair : new String[][][] { { e5, loose5 }, { e4, v4 } }) {
            String[] doc = pair[0], measured = pair[1];
            assertEquals(measured[0], doc[0]);
            assertEquals(measured[1], doc[1]);
            assertEquals(measured[2] + " (" + measured[4] + " / " + measured[5] + ")", doc[2]);
            assertEquals(Double.parseDouble(measured[6]), Double.parseDouble(doc[3]), 0);
            assertEquals(measured[8], doc[5]);
        }
        assertEquals(loose5[1], textAfter(sketching, "recall \\(([0-9.]+)\\) stays below the public corpus's"));
        // engine.md's sentence on version 5 at the stricter threshold (min_similarity 0.40, simhash-v6's default)
        assertEquals(v5[0], textAfter(sketching, "min_similarity 0\\.40 \\(`RESULTS-heldout-like-t040\\.md`\\): precision ([0-9.]+),"));
        assertEquals(
            v5[1],
            textAfter(sketching, "min_similarity 0\\.40 \\(`RESULTS-heldout-like-t040\\.md`\\): precision [0-9.]+, recall ([0-9.]+),")
        );
    }

    /** engine.md's residual of simhash-v5 quotes RESULTS-residual-rules-v5.md's rows. */
    @Test
    public void testResidualOfVersion5Figures() throws IOException {
        String results = read("bench/results/RESULTS-residual-rules-v5.md");
        String sketching = read("docs/engine.md");
        String v4 = read("bench/results/RESULTS-residual-rules.md");
        // rule | R | P | F1 | R en | R zh | F1 en | F1 zh | residual pairs | base pairs | rate | docs
        String[] base = row(results, "default \\(simhash-v5, k = 16, 12 of 32 slots\\)");
        String[] old = row(v4, "default \\(simhash-v4, k = 16, 12 of 32 slots\\)");
        String[] five = row(results, "repeated-blocks 5 \\(groups\\)");
        String[] three = row(results, "repeated-blocks 3 \\(groups\\)");
        assertEquals(base[7], textAfter(sketching, "\\n([0-9]+) unrelated same-language pairs of the public corpus still match"));
        assertEquals(base[8], textAfter(sketching, "still match at the default, among ([0-9]+) pairs of base documents"));
        assertEquals(old[7] + " among " + old[8], textAfter(sketching, "\\(version 4: ([0-9]+ among [0-9]+)\\)"));
        assertEquals(
            five[7] + " pairs (" + five[8] + " base\npairs) at recall " + five[0],
            textAfter(sketching, "groups would leave ([0-9]+ pairs \\([0-9]+ base\\npairs\\) at recall [0-9.]+)")
        );
        assertEquals(three[7], textAfter(sketching, "in 3 or more ([0-9]+) pairs"));
    }

    /**
     * performance.md's account of the check's window: RESULTS-window-entries.md (the pass over entries),
     * RESULTS-window.md (the fingerprint column, and the switch in the code) and RESULTS-check-growing-window.md.
     */
    @Test
    public void testCheckWindowFigures() throws IOException {
        String window = read("bench/results/RESULTS-window-entries.md");
        String growing = read("bench/results/RESULTS-check-growing-window.md");
        String performance = read("docs/performance.md");
        // the column's run: | k | block keys | linear scan | ratio | default lookup |
        String column = read("bench/results/RESULTS-window.md");
        String[] c16 = row(column, "16"), c6 = row(column, "6");
        int from = org.nearduplicate.core.window.RecentFingerprints.Lookup.LINEAR_SCAN_FROM_DISTANCE;
        String[] switchRow = row(column, Integer.toString(from));
        assertEquals(
            String.format(
                java.util.Locale.ROOT,
                "%.1f us per checked document against %.1f us",
                Double.parseDouble(c16[1]) / 1000,
                Double.parseDouble(c16[0]) / 1000
            ),
            textAfter(performance, "at k = 16 ([0-9.]+ us per checked document against [0-9.]+ us) with the keys \\(")
        );
        assertEquals(c16[2], textAfter(performance, "us with the keys \\(([0-9.]+x)\\), and"));
        assertEquals(from, figure(performance, "the\\s+scan is faster from k = ([0-9]+) \\("), 0);
        assertEquals(switchRow[2], textAfter(performance, "scan is faster from k = [0-9]+ \\(([0-9.]+x);"));
        assertEquals("LINEAR_SCAN", switchRow[3]);
        assertEquals(from - 1, figure(performance, "at k = ([0-9]+) the keys still are"), 0);
        assertEquals(c6[2], textAfter(performance, "the keys still are, ([0-9.]+x)\\)"));
        assertEquals("BLOCK_KEYS", row(column, Integer.toString(from - 1))[3]);
        assertTrue(Double.parseDouble(switchRow[2].replace("x", "")) < 1 && Double.parseDouble(c6[2].replace("x", "")) > 1);
        // the growing run with the column: its table's rows are the results file's
        String withColumn = read("bench/results/RESULTS-check-growing-column.md");
        for (String docs : new String[] { "100,000", "200,000" }) {
            // results: plain | simhash (%) | check (%) | check / simhash | ...
            String[] r = row(withColumn, docs);
            String[] quoted = null;
            Matcher m = Pattern.compile("(?m)^\\| " + docs + " \\| ([0-9,]+) \\| ([0-9,]+ \\([0-9]+ %\\)) \\| ([^|]+) \\| ([0-9]+ %) \\|$")
                .matcher(performance.substring(performance.indexOf("The same growing run with the column")));
            assertTrue(docs, m.find());
            quoted = new String[] { m.group(1), m.group(2), m.group(3).replace("**", "").trim(), m.group(4) };
            assertEquals(String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(r[0])), quoted[0]);
            assertEquals(r[1].replaceAll("^([0-9]+)", "$1"), quoted[1].replace(",", ""));
            assertEquals(r[2].replace("**", ""), quoted[2].replace(",", ""));
            assertEquals(r[3], quoted[3]);
            assertTrue(docs, Integer.parseInt(r[2].replaceAll(".*\\(\\**([0-9]+) %.*", "$1")) > 40);
        }
        // the second run, to 500,000 documents
        String to500k = read("bench/results/RESULTS-check-growing-column-500k.md");
        String percent = ".*\\(\\**([0-9]+) %.*";
        String secondRun = performance.substring(performance.indexOf("second run to 500,000 documents"));
        assertEquals(
            row(to500k, "100,000")[2].replaceAll(percent, "$1")
                + " % at 100,000 and "
                + row(to500k, "200,000")[2].replaceAll(percent, "$1")
                + " % at 200,000",
            textAfter(secondRun, "gave ([0-9]+ % at 100,000 and [0-9]+ % at 200,000)")
        );
        for (String docs : new String[] { "300,000", "500,000" }) {
            String[] r = row(to500k, docs);
            Matcher m = Pattern.compile("(?m)^\\| " + docs + " \\| ([0-9,]+) \\| ([0-9,]+ \\([0-9]+ %\\)) \\| ([^|]+) \\| ([0-9]+ %) \\|$")
                .matcher(secondRun);
            assertTrue(docs, m.find());
            assertEquals(String.format(java.util.Locale.ROOT, "%,d", Long.parseLong(r[0])), m.group(1));
            assertEquals(r[1], m.group(2).replace(",", ""));
            assertEquals(r[2].replace("**", ""), m.group(3).replace("**", "").replace(",", "").trim());
            assertEquals(r[3], m.group(4));
        }
        assertEquals(
            Double.parseDouble(row(to500k, "500,000")[2].replaceAll(percent, "$1")),
            figure(performance, "under it beyond \\(([0-9]+) % at\\s+500,000 documents"),
            0
        );
        // | k | block keys | linear scan | ratio | default lookup |
        String[] k16 = row(window, "16"), k8 = row(window, "8"), k10 = row(window, "10");
        assertEquals(
            Math.round(Double.parseDouble(k16[0]) / 1000),
            figure(performance, "at k = 16\\s+([0-9]+) us per checked document"),
            0
        );
        assertEquals(
            Math.round(Double.parseDouble(k16[1]) / 1000),
            figure(performance, "with the keys against ([0-9]+) us with one pass"),
            0
        );
        assertEquals(k16[2], textAfter(performance, "us with one pass \\(([0-9.]+x)\\)"));
        assertEquals(k8[2], textAfter(performance, "at k = 8 the keys\\s+stayed faster \\(([0-9.]+x)\\)"));
        assertEquals(k10[2], textAfter(performance, "so the switch was at k = 10 \\(([0-9.]+x)\\)"));
        assertEquals("LINEAR_SCAN", k10[3]);
        // | documents | plain | simhash (% of plain) | check (% of plain) | check / simhash | ...
        String[] at200k = row(growing, "200,000");
        assertEquals(
            at200k[2].replace("**", ""),
            textAfter(performance, "\\| 200,000 \\| [0-9,]+ \\| [^|]+ \\| \\*\\*([0-9,]+ \\([0-9]+ %\\))\\*\\*").replace(",", "")
        );
    }

    /** methods.md's prose on MinHash through its index quotes the method table above it. */
    @Test
    public void testMethodsProseMatchesItsTable() throws IOException {
        String methods = read("docs/methods.md");
        String[] index = row(methods, "\\*\\*minhash through the index\\*\\* \\(default, 32 bands × 4 rows\\)");
        String[] brute = row(methods, "\\*\\*minhash word bigrams \\(default\\)\\*\\*");
        assertEquals(index[3].replace("**", ""), textAfter(methods, "through the 32 × 4 index the F1 at J ≥ 0.4 is ([0-9.]+), against"));
        assertEquals(brute[3].replace("**", ""), textAfter(methods, "the F1 at J ≥ 0.4 is [0-9.]+, against\\s+([0-9.]+) by brute force"));
        String readme = read("README.md");
        String[] k12 = row(read("bench/results/RESULTS-scale-quality-v6.md"), "12");
        assertEquals(k12[0], textAfter(readme, "`simhash-v6`: precision ([0-9.]+), F1\\s+[0-9.]+, the quality table"));
        assertEquals(k12[2], textAfter(readme, "`simhash-v6`: precision [0-9.]+, F1\\s+([0-9.]+), the quality table"));
    }

    /** README's and performance.md's ingest ratios are those of the ingest results files (v6, the default, v5 and v4). */
    @Test
    public void testIngestRatiosMatchTheirResults() throws IOException {
        String readme = read("README.md"), performance = read("docs/performance.md");
        String rerun = textAfter(
            read("bench/results/RESULTS-ingest-v5-rerun.md"),
            "Fingerprinting ingest throughput = \\*\\*([0-9.]+) %\\*\\*"
        );
        assertEquals(rerun, textAfter(readme, "a second run of the same command gave ([0-9.]+) %"));
        String rerun6 = textAfter(
            read("bench/results/RESULTS-ingest-v6-rerun.md"),
            "Fingerprinting ingest throughput = \\*\\*([0-9.]+) %\\*\\*"
        );
        assertEquals(rerun6, textAfter(readme, "; ([0-9.]+) % in a second run, `bench/results/RESULTS-ingest-v6-rerun\\.md`"));
        assertEquals(rerun6, textAfter(performance, "RESULTS-ingest-v6-rerun\\.md`: \\*\\*([0-9.]+) %\\*\\*"));
        assertTrue(
            "issue 25: ingest with fingerprinting >= 55 % of plain indexing, both runs of simhash-v6 (the default of 0.8.0)",
            Double.parseDouble(rerun6) >= 55
                && Double.parseDouble(
                    textAfter(read("bench/results/RESULTS-ingest-v6.md"), "Fingerprinting ingest throughput = \\*\\*([0-9.]+) %\\*\\*")
                ) >= 55
        );
        assertEquals(rerun, textAfter(performance, "RESULTS-ingest-v5-rerun\\.md`;[^*]*\\*\\*([0-9.]+) %\\*\\*"));
        // simhash-v7, the default: the quiet run is quoted first, the two loaded runs after it
        String quiet = read("bench/results/RESULTS-ingest-v7-quiet.md");
        String ratio7 = textAfter(quiet, "Fingerprinting ingest throughput = \\*\\*([0-9.]+) %\\*\\*");
        assertTrue(
            "issue 40: ingest with fingerprinting at the default (simhash-v7) >= 50 % of plain indexing",
            Double.parseDouble(ratio7) >= 50
        );
        assertEquals("simhash-v7", row(quiet, "simhash pipeline \\+ simhash field")[0]);
        String v6SameRun = textAfter(quiet, "`simhash-v6`: \\*\\*([0-9.]+) %\\*\\*");
        assertEquals(
            ratio7,
            textAfter(
                readme,
                "runs at ([0-9.]+) % of the throughput of plain indexing of the same\\s+pages with the same analyzer for `simhash-v7`"
            )
        );
        assertEquals(v6SameRun, textAfter(readme, "`simhash-v6` ran at ([0-9.]+) % in the same rounds"));
        assertEquals(ratio7, textAfter(performance, "\\*\\*`simhash-v7` \\([^)]*quiet machine\\): ([0-9.]+) %\\*\\*"));
        assertEquals(v6SameRun, textAfter(performance, "`simhash-v6` field ran\\s+at ([0-9.]+) %"));
        String loaded = textAfter(read("bench/results/RESULTS-ingest-v7.md"), "Fingerprinting ingest throughput = \\*\\*([0-9.]+) %\\*\\*");
        String loadedAgain = textAfter(
            read("bench/results/RESULTS-ingest-v7-rerun.md"),
            "Fingerprinting ingest throughput = \\*\\*([0-9.]+) %\\*\\*"
        );
        assertEquals(loaded, textAfter(performance, "\\*\\*`simhash-v7`\\s+\\([^)]*loaded\\): ([0-9.]+) %\\*\\*"));
        assertEquals(loadedAgain, textAfter(performance, "54.9 % in the same rounds\\) and ([0-9.]+) %"));
        assertEquals(
            loaded + " % and " + loadedAgain + " %",
            textAfter(readme, "keys cost about 3 %; ([0-9.]+ % and [0-9.]+ %) in two runs")
        );
        for (String version : new String[] { "v6", "v5", "v4" }) {
            String results = read("bench/results/RESULTS-ingest-" + version + ".md");
            String ratio = textAfter(results, "Fingerprinting ingest throughput = \\*\\*([0-9.]+) %\\*\\*");
            assertTrue(
                "README quotes " + ratio + " % for simhash-" + version,
                Pattern.compile(
                    Pattern.quote(ratio)
                        + " % (of the throughput of plain indexing of the same\\s+pages with the same analyzer )?for `simhash-"
                        + version
                        + "`"
                ).matcher(readme).find()
            );
            assertTrue(
                "performance.md quotes " + ratio + " % for simhash-" + version,
                Pattern.compile("\\*\\*`simhash-" + version + "` \\([^)]*\\): " + Pattern.quote(ratio) + " %\\*\\*")
                    .matcher(performance)
                    .find()
            );
        }
    }

    /** The first value of an option-table cell: its first word, backticks and thousands separators removed. */
    private static String firstValue(String cell) {
        Matcher m = Pattern.compile("^`?([^`,;( ]+(?:,[0-9]{3})*)`?").matcher(cell.trim());
        assertTrue("no value in [" + cell + "]", m.find());
        String v = m.group(1);
        return v.matches("[0-9,]+") ? v.replace(",", "") : v;
    }

    /**
     * The groups at the default settings on a real node (issue 26 item 2): performance.md's rows quote the node's wall
     * times, breaker peak and verified and candidate pairs of the committed results files, and every run there was
     * exact (verified pairs equal to the in-process HammingGroups on the same units).
     */
    @Test
    public void testSignedGroupsOnANodeFigures() throws IOException {
        String performance = read("docs/performance.md");
        for (String[] entry : new String[][] {
            { "1M", "RESULTS-groups-signed-1M.md" },
            { "10M", "RESULTS-groups-signed-10M.md" },
            { "10M, CPU re-run", "RESULTS-groups-signed-10M-cpu.md" },
            { "1M, 2 threads", "RESULTS-groups-signed-1M-threads.md" },
            { "10M, 2 threads", "RESULTS-groups-signed-10M-threads.md" },
            { "1M, `simhash-v6` field, same run as the next", "RESULTS-groups-v7-1M-v6.md" },
            { "1M, `simhash-v7` (the default, with keys)", "RESULTS-groups-v7-1M-v7.md" },
            { "300k, Elasticsearch 8.19, 2 threads", "RESULTS-groups-signed-300k-es.md" } }) {
            String size = entry[0], file = entry[1];
            String results = read("bench/results/" + file);
            Matcher m = Pattern.compile(
                "(?m)^\\| 16 \\| (\\d) \\| ([^|]+?) \\| ([^|]+?) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| [^|]+ \\| ([^|]+?) \\| ([0-9.]+) MB \\([0-9.]+% of limit\\) \\| (yes|\\*\\*NO\\*\\*) \\|$"
            ).matcher(results);
            StringBuilder walls = new StringBuilder();
            double breaker = 0;
            String verified = null, candidates = null;
            while (m.find()) {
                assertEquals(file + " run " + m.group(1) + " exact", "yes", m.group(10));
                walls.append(walls.length() == 0 ? "" : " / ").append(m.group(2));
                breaker = Math.max(breaker, Double.parseDouble(m.group(9)));
                verified = m.group(5);
                candidates = m.group(4);
            }
            assertNotNull(file + " has runs", verified);
            Matcher row = Pattern.compile("(?m)^\\| " + Pattern.quote(size) + " \\(\\[" + Pattern.quote(file) + "\\][^|]*\\|(.*)\\|\\s*$")
                .matcher(performance);
            assertTrue("performance.md has a row for " + file, row.find());
            String[] cells = row.group(1).split("\\|");
            assertEquals(walls.toString(), cells[0].trim().replace("**", ""));
            assertEquals(breaker, figure(cells[1], "([0-9.]+) MB"), 0);
            assertEquals(Double.parseDouble(verified), figure(cells[3], "([0-9,]+)"), 0);
            assertEquals(Double.parseDouble(candidates), figure(cells[4], "([0-9,]+)"), 0);
        }
        // the band passes on two threads: the in-process times and speed-up of the results file, the batch and the
        // per-thread memory of the code
        String[] lsh = row(read("bench/results/RESULTS-groups-lsh-threads.md"), "10000000");
        Matcher times = Pattern.compile("([0-9.]+) s \\(1 thread\\); ([0-9.]+) s \\(2 threads, ([0-9.]+)x; same result: yes\\)")
            .matcher(lsh[3]);
        assertTrue(lsh[3], times.find());
        assertTrue(
            performance.contains(
                "from " + times.group(1) + " s on one thread to **" + times.group(2) + " s on two (" + times.group(3) + "x)**"
            )
        );
        assertTrue(
            performance.contains(
                "in batches of " + String.format(java.util.Locale.ROOT, "%,d", org.nearduplicate.core.groups.HammingGroups.LSH_VERIFY_BATCH)
            )
        );
        assertTrue(
            performance.contains(
                "(plus " + Math.round(org.nearduplicate.core.groups.HammingGroups.lshBytesPerThread() / 1024.0) + " KB per thread"
            )
        );
        // where a 10M run goes: the phases and GC time of the results file, as performance.md quotes them
        String phases = read("bench/results/RESULTS-groups-signed-10M-phases.md");
        Matcher run = Pattern.compile(
            "run 1: (reading fingerprints [0-9.]+-[0-9.]+ s), (grouping \\(lsh bands\\) [0-9.]+-[0-9.]+ s), (reading group members [0-9.]+-[0-9.]+ s); GC (\\d+) ms"
        ).matcher(phases);
        assertTrue("phases in the results file", run.find());
        String quoted = performance.replaceAll("\\s+", " ");
        assertTrue(
            quoted.contains(
                run.group(1) + ", " + run.group(2) + ", " + run.group(3) + "; the node's garbage collection took " + run.group(4) + " ms"
            )
        );
        // the default limit of the near_duplicate breaker, as the docs give it
        String limit = org.nearduplicate.opensearch.sketching.SketchingService.BREAKER_LIMIT_SETTING.getDefaultRaw(
            org.opensearch.common.settings.Settings.EMPTY
        );
        assertTrue(
            read("docs/reliability.md").contains("| `near_duplicate.breaker.limit` (node setting, dynamic) | " + limit + " of the heap")
        );
        assertTrue(read("README.md").contains("(`near_duplicate.breaker.limit`, default " + limit + " of the heap"));
    }

    /** The groups of the {@code n}-th (from 0) match of {@code regex} in {@code text}. */
    private static String[] nth(String text, String regex, int n) {
        Matcher m = Pattern.compile(regex).matcher(text);
        for (int i = 0; i <= n; i++) {
            assertTrue("match " + i + " of /" + regex + "/", m.find());
        }
        String[] groups = new String[m.groupCount()];
        for (int g = 0; g < groups.length; g++) {
            groups[g] = m.group(g + 1);
        }
        return groups;
    }

    /** The cells of the first table row of {@code text} whose first cell is {@code first} (or {@code **first (default)**}). */
    private static String[] row(String text, String first) {
        Matcher m = Pattern.compile("(?m)^\\|\\s*(?:\\*\\*)?" + first + "(?: \\(default\\))?(?:\\*\\*)? \\|(.*)\\|\\s*$").matcher(text);
        assertTrue("no row " + first, m.find());
        String[] cells = m.group(1).split("\\|");
        for (int i = 0; i < cells.length; i++)
            cells[i] = cells[i].trim();
        return cells;
    }

    private static String textAfter(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue("docs quote nothing for /" + regex + "/", m.find());
        return m.group(1).trim();
    }

    /** README's cost of the stats counters (section 7) is the one of bench/results/RESULTS-stats-cost.md. */
    @Test
    public void testStatsCostFigures() throws IOException {
        String results = read("bench/results/RESULTS-stats-cost.md");
        String readme = read("README.md");
        String interleaved = results.substring(results.indexOf("| work (interleaved"));
        assertEquals(
            figure(interleaved, "(?m)^\\| fingerprint of one typical page[^|]*\\|[^|]*\\|[^|]*\\|[^|]*\\| ([0-9.]+) \\|"),
            figure(readme, "a fingerprint of a typical page ([0-9.]+)×"),
            0
        );
        assertEquals(
            figure(interleaved, "(?m)^\\| near_duplicate query, k = 16, column path[^|]*\\|[^|]*\\|[^|]*\\|[^|]*\\| ([0-9.]+) \\|"),
            figure(readme, "at k = 16 ([0-9.]+)× on the column path"),
            0
        );
        assertEquals(
            figure(interleaved, "(?m)^\\| near_duplicate query, k = 16, keys path[^|]*\\|[^|]*\\|[^|]*\\|[^|]*\\| ([0-9.]+) \\|"),
            figure(readme, "and ([0-9.]+)× on the keys path"),
            0
        );
        assertEquals(
            figure(results, "(?m)^\\| near_duplicate query, k = 16, keys path[^|]*\\|[^|]*\\|[^|]*\\| ([0-9.]+) \\|"),
            figure(readme, "\\(JMH, separate forks: ([0-9.]+)×"),
            0
        );
        assertEquals(
            figure(results, "(?m)^\\| counter increment[^|]*\\| 1 \\| ([0-9.]+) "),
            figure(readme, "A bare counter increment takes ([0-9.]+) ns"),
            0
        );
        assertEquals(
            figure(results, "(?m)^\\| counter increment[^|]*\\| 2 \\| ([0-9.]+) "),
            figure(readme, "\\(([0-9.]+) ns with 2 threads on one counter\\)"),
            0
        );
    }
}
