package org.nearduplicate;

import org.junit.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

/**
 * The Elasticsearch build's port (src/build/PortToElasticsearch.java), run as the build runs it, on small trees: it
 * renames package and import lines and nothing else, and it fails on a hand-written class that repeats its OpenSearch
 * counterpart's statements, not on one that only shares signatures. A plain JUnit test: it starts a process.
 */
public class PortToElasticsearchTests {
    private static final Path PORT = Path.of("src", "build", "PortToElasticsearch.java");

    private static final String OPENSEARCH_CLASS = """
        package org.nearduplicate.opensearch.action;

        import org.opensearch.core.xcontent.XContentBuilder;
        import org.opensearch.common.unit.TimeValue;
        import org.nearduplicate.opensearch.common.Platform;

        /** Mentions org.opensearch.core.xcontent in a comment, which stays. */
        public class Example {
            String message = "OpenSearch org.opensearch.core.common.Strings";

            int sum(int[] values) {
                int total = 0;
                for (int v : values) {
                    total += v;
                }
                total = total * 2;
                total = total + 1;
                total = total - 3;
                total = Math.max(total, 0);
                return total;
            }
        }
        """;

    private record Run(int status, String output) {
    }

    private static Run port(Path root, String openSearchClass, String handWritten) throws IOException, InterruptedException {
        Path os = root.resolve("os/org/nearduplicate/opensearch/action");
        Path es = root.resolve("es/org/nearduplicate/elasticsearch/action");
        Files.createDirectories(os);
        Files.createDirectories(es);
        Files.writeString(os.resolve("Example.java"), openSearchClass, StandardCharsets.UTF_8);
        if (handWritten != null) Files.writeString(es.resolve("Example.java"), handWritten, StandardCharsets.UTF_8);
        Process process = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            PORT.toString(),
            root.resolve("os").toString(),
            root.resolve("es").toString(),
            root.resolve("out").toString()
        ).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(process.waitFor(), output);
    }

    private static Path tempRoot() throws IOException {
        assumeTrue("the port is read from " + PORT.toAbsolutePath(), Files.isRegularFile(PORT));
        return Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "port");
    }

    @Test
    public void testRenamesPackageAndImportLinesOnly() throws Exception {
        Path root = tempRoot();
        Run run = port(root, OPENSEARCH_CLASS, null);
        assertEquals(run.output(), 0, run.status());
        String ported = Files.readString(root.resolve("out/org/nearduplicate/elasticsearch/action/Example.java"));
        assertTrue(ported.contains("package org.nearduplicate.elasticsearch.action;\n"));
        assertTrue(ported.contains("import org.elasticsearch.xcontent.XContentBuilder;\n"));
        assertTrue(ported.contains("import org.elasticsearch.core.TimeValue;\n"));
        assertTrue(ported.contains("import org.nearduplicate.elasticsearch.common.Platform;\n"));
        // the body, comments and messages stay exactly as written
        String body = OPENSEARCH_CLASS.substring(OPENSEARCH_CLASS.indexOf("/** Mentions"));
        assertTrue(ported.endsWith(body));
        assertTrue(ported.startsWith("// Generated from src/opensearch/java/org/nearduplicate/opensearch/action/Example.java"));
    }

    @Test
    public void testHandWrittenClassThatRepeatsStatementsFails() throws Exception {
        String copy = OPENSEARCH_CLASS.replace("org.opensearch.core.xcontent", "org.elasticsearch.xcontent")
            .replace("org.opensearch.common.unit.TimeValue", "org.elasticsearch.core.TimeValue")
            .replace("package org.nearduplicate.opensearch", "package org.nearduplicate.elasticsearch")
            .replace("org.nearduplicate.opensearch.common", "org.nearduplicate.elasticsearch.common");
        Path root = tempRoot();
        Run run = port(root, OPENSEARCH_CLASS, copy);
        assertNotEquals(0, run.status());
        assertTrue(run.output(), run.output().contains("repeat their OpenSearch counterpart"));
        assertFalse(Files.exists(root.resolve("out/org/nearduplicate/elasticsearch/action/Example.java")));
    }

    @Test
    public void testHandWrittenClassWithOwnLogicPasses() throws Exception {
        String own = """
            package org.nearduplicate.elasticsearch.action;

            public class Example {
                int sum(int[] values) {
                    return java.util.Arrays.stream(values).sum();
                }
            }
            """;
        Run run = port(tempRoot(), OPENSEARCH_CLASS, own);
        assertEquals(run.output(), 0, run.status());
        assertTrue(run.output(), run.output().contains("0 classes ported from org.nearduplicate.opensearch, 1 written by hand"));
    }
}
