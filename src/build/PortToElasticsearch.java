/*
 * The Elasticsearch build's copy of the OpenSearch adapter classes that differ only in package names. Before it
 * compiles, the Elasticsearch build (-Pelasticsearch) writes every class of src/opensearch/java with its package and
 * import lines renamed by the table below; nothing else of a class is touched (no body, comment or message). A class
 * that needs more than that is written by hand in src/elasticsearch/java and replaces its port, and the build fails
 * when such a class repeats a run of its OpenSearch counterpart's code: that logic belongs in shared code.
 *
 *   java src/build/PortToElasticsearch.java <opensearch root> <elasticsearch root> <output root>
 */

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

public class PortToElasticsearch {
    /**
     * Package renames: a qualified name takes the longest matching prefix's replacement. A rename never changes a
     * class's simple name, so a class body compiles unchanged on both platforms.
     */
    static final Map<String, String> PACKAGES = new LinkedHashMap<>();
    static {
        PACKAGES.put("org.nearduplicate.opensearch.", "org.nearduplicate.elasticsearch.");
        PACKAGES.put("org.opensearch.core.xcontent.", "org.elasticsearch.xcontent.");
        PACKAGES.put("org.opensearch.core.ParseField", "org.elasticsearch.xcontent.ParseField");
        PACKAGES.put("org.opensearch.core.action.", "org.elasticsearch.action.");
        PACKAGES.put("org.opensearch.core.common.", "org.elasticsearch.common.");
        PACKAGES.put("org.opensearch.core.rest.", "org.elasticsearch.rest.");
        PACKAGES.put("org.opensearch.core.tasks.", "org.elasticsearch.tasks.");
        PACKAGES.put("org.opensearch.core.index.", "org.elasticsearch.index.");
        PACKAGES.put("org.opensearch.common.inject.", "org.elasticsearch.injection.guice.");
        PACKAGES.put("org.opensearch.common.lease.Releasable", "org.elasticsearch.core.Releasable");
        PACKAGES.put("org.opensearch.common.unit.TimeValue", "org.elasticsearch.core.TimeValue");
        PACKAGES.put("org.opensearch.transport.client.", "org.elasticsearch.client.internal.");
        PACKAGES.put("org.opensearch.", "org.elasticsearch.");
    }

    /**
     * A hand-written class repeats its counterpart when a run of consecutive code lines they share holds this many
     * statements. Declarations and signatures (the same overrides on both platforms) do not count, logic does.
     */
    static final int REPEATED_RUN = 6;

    /** The qualified name renamed, or unchanged when no prefix matches. */
    static String rename(String name) {
        String best = null;
        for (String prefix : PACKAGES.keySet()) {
            if ((name + ".").startsWith(prefix) && (best == null || prefix.length() > best.length())) best = prefix;
        }
        if (best == null) return name;
        String renamed = (PACKAGES.get(best) + (name + ".").substring(best.length()));
        renamed = renamed.substring(0, renamed.length() - 1);
        if (Character.isUpperCase(simpleName(name).charAt(0)) && simpleName(renamed).equals(simpleName(name)) == false) {
            throw new IllegalStateException("a rename may not change a simple name: " + name + " -> " + renamed);
        }
        return renamed;
    }

    private static String simpleName(String name) {
        String last = name.substring(name.lastIndexOf('.') + 1);
        return last.equals("*") ? name : last;
    }

    /** The class with its package and import lines renamed; every other line as it is. */
    static String port(String source) {
        List<String> lines = source.lines().toList();
        StringBuilder out = new StringBuilder(source.length() + 64);
        boolean header = true;
        for (String line : lines) {
            if (header) {
                String declaration = declaration(line);
                if (declaration != null) {
                    int start = line.indexOf(declaration);
                    line = line.substring(0, start) + rename(declaration) + line.substring(start + declaration.length());
                } else if (line.isBlank() == false && comment(line) == false) {
                    header = false;
                }
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** The qualified name of a package or import line, or null for any other line. */
    private static String declaration(String line) {
        String s = line.strip();
        String rest;
        if (s.startsWith("package ")) {
            rest = s.substring("package ".length());
        } else if (s.startsWith("import static ")) {
            rest = s.substring("import static ".length());
        } else if (s.startsWith("import ")) {
            rest = s.substring("import ".length());
        } else {
            return null;
        }
        int end = rest.indexOf(';');
        return end < 0 ? null : rest.substring(0, end).strip();
    }

    private static boolean comment(String line) {
        String s = line.strip();
        return s.startsWith("//") || s.startsWith("/*") || s.startsWith("*");
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: PortToElasticsearch <opensearch root> <elasticsearch root> <output root>");
        }
        Path from = Path.of(args[0], "org/nearduplicate/opensearch");
        Path handWritten = Path.of(args[1], "org/nearduplicate/elasticsearch");
        Path to = Path.of(args[2], "org/nearduplicate/elasticsearch");
        int ported = 0, kept = 0;
        List<String> repeats = new ArrayList<>();
        Set<Path> written = new HashSet<>();
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Path relative = from.relativize(file);
                String portedSource = port(Files.readString(file, StandardCharsets.UTF_8));
                Path own = handWritten.resolve(relative);
                if (Files.exists(own)) {
                    kept++;
                    String run = longestSharedRun(code(Files.readString(own, StandardCharsets.UTF_8)), code(portedSource));
                    if (run != null) repeats.add(own + " repeats " + file + ":\n" + run);
                    continue;
                }
                Path target = to.resolve(relative);
                written.add(target);
                Files.createDirectories(target.getParent());
                String generated = "// Generated from src/opensearch/java/org/nearduplicate/opensearch/"
                    + relative.toString().replace('\\', '/')
                    + " by src/build/PortToElasticsearch.java: edit that file.\n"
                    + portedSource;
                // rewrite only on change, so that an incremental compile stays incremental
                if (Files.exists(target) == false || Files.readString(target, StandardCharsets.UTF_8).equals(generated) == false) {
                    Files.writeString(target, generated, StandardCharsets.UTF_8);
                }
                ported++;
            }
            // a port whose class is now written by hand, or whose source is gone, would compile twice or linger
            try (Stream<Path> old = Files.isDirectory(to) ? Files.walk(to) : Stream.empty()) {
                for (Path stale : old.filter(f -> f.toString().endsWith(".java") && written.contains(f) == false).toList()) {
                    Files.delete(stale);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        System.out.println("[port] " + ported + " classes ported from org.nearduplicate.opensearch, " + kept + " written by hand");
        if (repeats.isEmpty() == false) {
            System.err.println(
                "[port] hand-written classes repeat their OpenSearch counterpart ("
                    + REPEATED_RUN
                    + "+ statements in a run of identical code): move the shared logic below the adapters\n"
                    + String.join("\n", repeats)
            );
            System.exit(1);
        }
    }

    /**
     * The first run of consecutive code lines the two classes share that holds {@link #REPEATED_RUN} statements, or
     * null. Lines are compared without comments, blank lines, imports and leading space.
     */
    static String longestSharedRun(List<String> a, List<String> b) {
        Map<String, List<Integer>> where = new HashMap<>();
        for (int j = 0; j < b.size(); j++) {
            where.computeIfAbsent(b.get(j), k -> new ArrayList<>()).add(j);
        }
        for (int i = 0; i < a.size(); i++) {
            for (int j : where.getOrDefault(a.get(i), List.of())) {
                if (i > 0 && j > 0 && a.get(i - 1).equals(b.get(j - 1))) continue; // not the start of a run
                int n = 0, weight = 0;
                while (i + n < a.size() && j + n < b.size() && a.get(i + n).equals(b.get(j + n))) {
                    if (statement(a.get(i + n))) weight++;
                    n++;
                }
                if (weight >= REPEATED_RUN) return String.join("\n", a.subList(i, i + n));
            }
        }
        return null;
    }

    /** A line that does something: a statement other than a field declaration without a value. */
    static boolean statement(String line) {
        if (line.endsWith(";") == false) return false;
        boolean declaration = (line.startsWith("private ") || line.startsWith("protected ") || line.startsWith("public "))
            && line.contains("=") == false;
        return declaration == false;
    }

    /** The code lines the compiler sees, stripped, without comments, blank lines, package and import lines. */
    static List<String> code(String source) {
        List<String> lines = new ArrayList<>();
        for (String line : withoutComments(source).lines().toList()) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("import ") || s.startsWith("package ")) continue;
            lines.add(s);
        }
        return lines;
    }

    /** The source without its comments; string, text block and character literals are kept as they are. */
    static String withoutComments(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? s.length() : end + 2;
            } else if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                i = end < 0 ? s.length() : end;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? s.length() : end + 3;
                out.append(s, i, end);
                i = end;
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                char quote = s.charAt(i);
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != quote) {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(j + 1, s.length());
                out.append(s, i, j);
                i = j;
            } else {
                out.append(s.charAt(i++));
            }
        }
        return out.toString();
    }
}
