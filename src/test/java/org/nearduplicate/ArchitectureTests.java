package org.nearduplicate;

import org.junit.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

/**
 * The layering the README's Architecture section promises, read from the sources: no package cycles, an engine
 * ({@code org.nearduplicate.core}) without OpenSearch types, Lucene queries without OpenSearch types, an adapter whose
 * shared helpers are OpenSearch code (platform-neutral rules live in the engine, so a second platform writes only its
 * adapter), and no tools in the plugin's main code. A plain JUnit test: it reads files, which the OpenSearch test
 * framework's agent forbids.
 */
public class ArchitectureTests {
    /** The platform-neutral code: engine, Lucene queries and orchestration. */
    private static final Path MAIN = Path.of("src", "main", "java");
    /** One adapter per platform, each compiled only by its own build. */
    private static final Path OPENSEARCH = Path.of("src", "opensearch", "java");
    private static final Path ELASTICSEARCH = Path.of("src", "elasticsearch", "java");
    private static final Pattern REFERENCE = Pattern.compile(
        "\\b((?:org\\.nearduplicate|org\\.opensearch|org\\.elasticsearch)(?:\\.[a-z]\\w*)+)\\.[A-Z]"
    );

    /** Package -> the packages its files name (imports and fully qualified names), over the given source roots. */
    private static Map<String, Set<String>> references(Path... roots) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Path root : roots) {
            assumeTrue("the sources are read from " + root.toAbsolutePath(), Files.isDirectory(root));
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String pkg = root.relativize(file.getParent()).toString().replace(file.getFileSystem().getSeparator(), ".");
                    Set<String> to = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
                    Matcher m = REFERENCE.matcher(Files.readString(file));
                    while (m.find()) {
                        if (m.group(1).equals(pkg) == false) to.add(m.group(1));
                    }
                }
            }
        }
        return graph;
    }

    private static Map<String, Set<String>> references() throws IOException {
        return references(MAIN, OPENSEARCH);
    }

    private static boolean platform(String target) {
        return target.startsWith("org.opensearch")
            || target.startsWith("org.elasticsearch")
            || target.startsWith("org.nearduplicate.opensearch")
            || target.startsWith("org.nearduplicate.elasticsearch");
    }

    /** src/main/java is shared by both builds: no class of it names a platform type or an adapter. */
    @Test
    public void testSharedCodeIsFreeOfPlatforms() throws IOException {
        Map<String, Set<String>> offending = new TreeMap<>();
        references(MAIN).forEach((pkg, to) -> {
            for (String target : to) {
                if (platform(target)) offending.computeIfAbsent(pkg, k -> new TreeSet<>()).add(target);
            }
        });
        assertEquals(Map.of(), offending);
    }

    @Test
    public void testElasticsearchAdapterHasNoCycles() throws IOException {
        assertNoCycles(references(MAIN, ELASTICSEARCH));
    }

    @Test
    public void testNoPackageCycles() throws IOException {
        assertNoCycles(references());
    }

    private static void assertNoCycles(Map<String, Set<String>> graph) {
        for (String start : graph.keySet()) {
            // a cycle through start: start reaches itself
            Deque<String> todo = new ArrayDeque<>(graph.get(start));
            Set<String> seen = new HashSet<>();
            while (todo.isEmpty() == false) {
                String next = todo.pop();
                assertNotEquals("package cycle through " + start, start, next);
                if (seen.add(next)) todo.addAll(graph.getOrDefault(next, Set.of()));
            }
        }
    }

    @Test
    public void testEngineAndLuceneQueriesAreFreeOfOpenSearch() throws IOException {
        Map<String, Set<String>> graph = references();
        Map<String, Set<String>> offending = new HashMap<>();
        graph.forEach((pkg, to) -> {
            if (pkg.startsWith("org.nearduplicate.core") || pkg.equals("org.nearduplicate.lucene")) {
                for (String target : to) {
                    if (platform(target)) {
                        offending.computeIfAbsent(pkg, k -> new TreeSet<>()).add(target);
                    }
                }
            }
        });
        assertEquals(Map.of(), offending);
        assertTrue(
            "the engine packages exist",
            graph.keySet()
                .containsAll(
                    List.of(
                        "org.nearduplicate.core.extract",
                        "org.nearduplicate.core.features",
                        "org.nearduplicate.core.sketch",
                        "org.nearduplicate.core.keys",
                        "org.nearduplicate.core.options",
                        "org.nearduplicate.core.groups",
                        "org.nearduplicate.core.window"
                    )
                )
        );
    }

    /**
     * {@code org.nearduplicate.opensearch.common} holds the adapter's shared helpers (token parsing, the mapping reader):
     * each of its classes names an OpenSearch type. A class that needs none is a platform-neutral rule (an option's
     * range, the value contract, a default) and belongs in {@code org.nearduplicate.core}, where another platform's
     * adapter reuses it.
     */
    @Test
    public void testAdapterHelpersAreOpenSearchCode() throws IOException {
        Path common = OPENSEARCH.resolve(Path.of("org", "nearduplicate", "opensearch", "common"));
        assumeTrue("the sources are read from " + OPENSEARCH.toAbsolutePath(), Files.isDirectory(common));
        Set<String> neutral = new TreeSet<>();
        int classes = 0;
        try (Stream<Path> files = Files.list(common)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                classes++;
                if (Files.readString(file).contains("org.opensearch.") == false) neutral.add(file.getFileName().toString());
            }
        }
        assertEquals("platform-neutral classes in opensearch.common: move them to core", Set.of(), neutral);
        assertTrue("opensearch.common has classes", classes > 0);
    }

    @Test
    public void testNoToolsInThePlugin() throws IOException {
        for (String pkg : references().keySet()) {
            assertFalse(pkg, pkg.startsWith("org.nearduplicate.tools") || pkg.startsWith("org.nearduplicate.bench"));
        }
    }
}
