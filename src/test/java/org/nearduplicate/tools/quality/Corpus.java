package org.nearduplicate.tools.quality;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
import java.util.zip.GZIPInputStream;

/**
 * A labelled corpus: {@code docs.jsonl[.gz]} (id, lang, format, content, and the labels group and derived_from; other
 * fields are not read)
 * and {@code pairs.tsv[.gz]} ({@code id_a id_b label kind}, with a header line).
 */
public record Corpus(Map<String, Doc> docs, List<Pair> pairs) {

    /**
     * {@code base} is the id of the base document the document derives from: {@code derived_from} for a heavy-edit
     * negative (its {@code group} is its own id), else {@code group}; null when the file has neither field.
     */
    public record Doc(String id, String lang, String format, String content, String base) {
        public Doc(String id, String lang, String format, String content) {
            this(id, lang, format, content, null);
        }
    }

    public record Pair(String a, String b, boolean duplicate, String kind) {
    }

    /** Reads {@code dir/docs.jsonl.gz} and {@code dir/pairs.tsv.gz} (or the uncompressed names). */
    public static Corpus load(Path dir) throws IOException {
        return load(find(dir, "docs.jsonl"), find(dir, "pairs.tsv"));
    }

    private static Path find(Path dir, String name) throws IOException {
        for (String candidate : new String[] { name + ".gz", name }) {
            Path p = dir.resolve(candidate);
            if (Files.exists(p)) return p;
        }
        throw new IOException("no " + name + "[.gz] in " + dir);
    }

    /** Reads the pairs, then only the documents they mention. */
    public static Corpus load(Path docsFile, Path pairsFile) throws IOException {
        return load(reader(docsFile), reader(pairsFile), pairsFile.toString());
    }

    /** As {@link #load(Path, Path)}, from gzipped streams (e.g. class-path resources); closes them. */
    public static Corpus loadGzipped(InputStream docs, InputStream pairs) throws IOException {
        return load(gzipReader(docs), gzipReader(pairs), "pairs");
    }

    private static BufferedReader gzipReader(InputStream in) throws IOException {
        return new BufferedReader(new InputStreamReader(new GZIPInputStream(in, 1 << 16), StandardCharsets.UTF_8), 1 << 16);
    }

    private static Corpus load(BufferedReader docsReader, BufferedReader pairsReader, String pairsName) throws IOException {
        List<Pair> pairs = readPairs(pairsReader, pairsName);
        Set<String> wanted = new HashSet<>();
        for (Pair p : pairs) {
            wanted.add(p.a());
            wanted.add(p.b());
        }
        Map<String, Doc> docs = new LinkedHashMap<>();
        JsonFactory json = new JsonFactory();
        try (BufferedReader r = docsReader) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) continue;
                Doc d = parseDoc(json, line);
                if (wanted.contains(d.id())) docs.put(d.id(), d);
            }
        }
        for (String id : wanted) {
            if (docs.containsKey(id) == false) throw new IOException("pair mentions unknown document [" + id + "]");
        }
        return new Corpus(docs, pairs);
    }

    static List<Pair> readPairs(BufferedReader reader, String file) throws IOException {
        List<Pair> pairs = new ArrayList<>();
        try (BufferedReader r = reader) {
            String line = r.readLine();
            int lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) continue;
                String[] f = line.split("\t");
                if (f.length < 3 || (f[2].equals("0") == false && f[2].equals("1") == false)) {
                    throw new IOException(file + " line " + lineNo + ": expected id_a<TAB>id_b<TAB>0|1[<TAB>kind]");
                }
                pairs.add(new Pair(f[0], f[1], f[2].equals("1"), f.length > 3 ? f[3] : (f[2].equals("1") ? "dup:unknown" : "unknown")));
            }
        }
        return pairs;
    }

    private static Doc parseDoc(JsonFactory json, String line) throws IOException {
        String id = null, lang = "", format = "", content = null, group = null, derivedFrom = null;
        try (JsonParser p = json.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException(
                "not a JSON object: " + line.substring(0, Math.min(80, line.length()))
            );
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                switch (field) {
                    case "id" -> id = p.getText();
                    case "lang" -> lang = p.getText();
                    case "format" -> format = p.getText();
                    case "content" -> content = p.getText();
                    case "group" -> group = t == JsonToken.VALUE_NULL ? null : p.getText();
                    case "derived_from" -> derivedFrom = t == JsonToken.VALUE_NULL ? null : p.getText();
                    default -> {
                        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) p.skipChildren();
                    }
                }
            }
        }
        if (id == null || content == null) throw new IOException("document without id or content");
        return new Doc(id, lang, format, content, derivedFrom != null ? derivedFrom : group);
    }

    private static BufferedReader reader(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) in = new GZIPInputStream(in, 1 << 16);
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /**
     * Each document's base-document id ({@link Doc#base()}: {@code derived_from}, else {@code group}), or, when a
     * document has neither, its component under the positive pairs (pairs labelled 1 joined transitively; a document
     * without any is its own group). Documents of different bases are unrelated: a heavy-edit negative is related to
     * the group of the base document it was made from (a hard negative, not a chance match).
     */
    public Map<String, String> groups() {
        Map<String, String> parent = new HashMap<>();
        if (hasGroupLabels()) {
            for (Doc d : docs.values())
                parent.put(d.id(), d.base());
            return parent;
        }
        for (String id : docs.keySet())
            parent.put(id, id);
        for (Pair p : pairs) {
            if (p.duplicate() == false) continue;
            String ra = root(parent, p.a()), rb = root(parent, p.b());
            if (ra.equals(rb) == false) parent.put(ra.compareTo(rb) < 0 ? rb : ra, ra.compareTo(rb) < 0 ? ra : rb);
        }
        Map<String, String> groups = new LinkedHashMap<>();
        for (String id : docs.keySet())
            groups.put(id, root(parent, id));
        return groups;
    }

    /** Whether every document carries a base-document label (otherwise {@link #groups()} derives the groups). */
    public boolean hasGroupLabels() {
        return docs.values().stream().allMatch(d -> d.base() != null);
    }

    private static String root(Map<String, String> parent, String id) {
        String r = id;
        while (parent.get(r).equals(r) == false)
            r = parent.get(r);
        while (parent.get(id).equals(r) == false) {
            String next = parent.get(id);
            parent.put(id, r);
            id = next;
        }
        return r;
    }

    /**
     * The slices a pair counts in: {@code all}, its language ({@code cross} for en-zh), and for a positive pair each
     * kind of change it contains ({@code pos:edit}, ...), for a negative its kind ({@code neg:same_site}, ...).
     */
    public List<String> sliceNames(Pair p) {
        String la = docs.get(p.a()).lang(), lb = docs.get(p.b()).lang();
        List<String> names = new ArrayList<>();
        names.add("all");
        names.add("lang:" + (la.equals(lb) ? la : "cross"));
        if (p.duplicate() && p.kind().startsWith("dup:")) {
            for (String part : p.kind().substring(4).split("\\+"))
                names.add("pos:" + part);
        } else {
            names.add((p.duplicate() ? "pos:" : "neg:") + p.kind());
        }
        return names;
    }
}
