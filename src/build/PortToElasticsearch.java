/*
 * The Elasticsearch adapter's classes that differ from the OpenSearch adapter's only in names (packages, imports and a
 * few types) are not kept twice: the Elasticsearch build (-Pelasticsearch) writes them from org.nearduplicate.opensearch
 * with the renames below before it compiles. A class that differs in more than names is written by hand in
 * src/elasticsearch/java/org/nearduplicate/elasticsearch and replaces its port; when a hand-written class has become the same
 * code as its port (comments, blank space and import order aside), the port fails, naming it: delete it.
 *
 *   java src/build/PortToElasticsearch.java <source root> <hand-written root> <output root>
 */

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

public class PortToElasticsearch {
    /** Literal renames, in order: the specific ones before the package-wide ones. */
    static final List<Map.Entry<String, String>> RENAMES = List.of(
        Map.entry("org.nearduplicate.opensearch", "org.nearduplicate.elasticsearch"),
        Map.entry("org.opensearch.core.xcontent.", "org.elasticsearch.xcontent."),
        Map.entry("org.opensearch.core.ParseField", "org.elasticsearch.xcontent.ParseField"),
        Map.entry("org.opensearch.core.action.", "org.elasticsearch.action."),
        Map.entry("org.opensearch.core.common.", "org.elasticsearch.common."),
        Map.entry("org.opensearch.core.rest.", "org.elasticsearch.rest."),
        Map.entry("org.opensearch.core.tasks.", "org.elasticsearch.tasks."),
        Map.entry("org.opensearch.core.index.", "org.elasticsearch.index."),
        Map.entry("org.opensearch.common.inject.", "org.elasticsearch.injection.guice."),
        Map.entry("org.opensearch.common.lease.Releasable", "org.elasticsearch.core.Releasable"),
        Map.entry("org.opensearch.common.unit.TimeValue", "org.elasticsearch.core.TimeValue"),
        Map.entry("org.opensearch.transport.client.", "org.elasticsearch.client.internal."),
        Map.entry("org.opensearch.", "org.elasticsearch.")
    );

    /** Whole-word renames: types, and the platform's name in comments and messages. */
    static final Map<String, String> TYPES = Map.of(
        "QueryShardContext",
        "SearchExecutionContext",
        "OpenSearchStatusException",
        "ElasticsearchStatusException",
        "OpenSearchException",
        "ElasticsearchException",
        "OpenSearch",
        "Elasticsearch"
    );

    /**
     * API differences that are one pattern each: Elasticsearch's ActionType takes no response reader, its streams
     * ({@code in}, {@code out}) name the generic map and the list methods differently, and its search context looks
     * fields up with {@code getFieldType}.
     */
    static final List<Map.Entry<Pattern, String>> PATTERNS = List.of(
        Map.entry(Pattern.compile("super\\(NAME,\\s*\\w+::new\\)"), "super(NAME)"),
        Map.entry(Pattern.compile("\\bin\\.readStringList\\(\\)"), "in.readStringCollectionAsList()"),
        Map.entry(Pattern.compile("\\bin\\.readList\\("), "in.readCollectionAsList("),
        Map.entry(Pattern.compile("\\bin\\.readMap\\(\\)"), "in.readGenericMap()"),
        Map.entry(Pattern.compile("\\bout\\.writeMap\\((\\w+)\\)"), "out.writeGenericMap($1)"),
        Map.entry(Pattern.compile("\\bcontext\\.fieldMapper\\("), "context.getFieldType(")
    );

    static final Pattern WORD = Pattern.compile("\\b(" + String.join("|", TYPES.keySet()) + ")\\b");

    static String port(String source) {
        for (Map.Entry<String, String> rename : RENAMES) {
            source = source.replace(rename.getKey(), rename.getValue());
        }
        Matcher m = WORD.matcher(source);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, TYPES.get(m.group(1)));
        }
        source = m.appendTail(out).toString();
        for (Map.Entry<Pattern, String> pattern : PATTERNS) {
            source = pattern.getKey().matcher(source).replaceAll(pattern.getValue());
        }
        return source;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: PortToElasticsearch <source root> <hand-written root> <output root>");
        }
        Path from = Path.of(args[0], "org/nearduplicate/opensearch");
        Path handWritten = Path.of(args[1], "org/nearduplicate/elasticsearch");
        Path to = Path.of(args[2], "org/nearduplicate/elasticsearch");
        int ported = 0, kept = 0;
        List<Path> redundant = new ArrayList<>();
        Set<Path> written = new HashSet<>();
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Path relative = from.relativize(file);
                Path own = handWritten.resolve(relative);
                if (Files.exists(own)) {
                    kept++;
                    if (code(Files.readString(own, StandardCharsets.UTF_8)).equals(
                        code(port(Files.readString(file, StandardCharsets.UTF_8)))
                    )) {
                        redundant.add(own);
                    }
                    continue;
                }
                Path target = to.resolve(relative);
                written.add(target);
                Files.createDirectories(target.getParent());
                String ported_ = port(Files.readString(file, StandardCharsets.UTF_8));
                // rewrite only on change, so that an incremental compile stays incremental
                if (Files.exists(target) == false || Files.readString(target, StandardCharsets.UTF_8).equals(ported_) == false) {
                    Files.writeString(target, ported_, StandardCharsets.UTF_8);
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
        if (redundant.isEmpty() == false) {
            System.err.println("[port] these hand-written classes are the same code as their ports; delete them: " + redundant);
            System.exit(1);
        }
    }

    /** What the compiler sees: the imports as a set, the rest without comments and blank space. */
    static String code(String source) {
        String stripped = withoutComments(source);
        List<String> imports = new ArrayList<>();
        StringBuilder rest = new StringBuilder();
        for (String line : stripped.split("\n")) {
            if (line.startsWith("import ")) {
                imports.add(line.strip());
            } else {
                rest.append(line).append(' ');
            }
        }
        imports.sort(null);
        return String.join("\n", imports) + "\n" + rest.toString().replaceAll("\\s+", "");
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
