package org.nearduplicate.core.features;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.options.InvalidOptionException;

/**
 * Inverse document frequencies. The file format is UTF-8 text, optionally gzipped: a first line {@code
 * #docs<TAB>N}, then one {@code feature<TAB>document frequency} per line. The weight is the smoothed {@code
 * idf = ln((N + 1) / (df + 1)) + 1}, so a feature missing from the table counts as the rarest.
 */
public final class IdfTable {
    /** The table shipped in the plugin jar; see docs/engine.md for the corpus it was built from. */
    public static final String BUILTIN = SimHashSettings.BUILTIN_IDF;
    private static final String RESOURCE_DIR = "/org/nearduplicate/core/idf/";
    private static final Map<String, IdfTable> BUILTINS = new ConcurrentHashMap<>();

    private final String name;
    private final long documents;
    private final Map<String, Integer> documentFrequency;

    public IdfTable(String name, long documents, Map<String, Integer> documentFrequency) {
        this.name = name;
        this.documents = documents;
        this.documentFrequency = Map.copyOf(documentFrequency);
    }

    public String name() {
        return name;
    }

    public long documents() {
        return documents;
    }

    public double idf(String feature) {
        int df = documentFrequency.getOrDefault(feature, 0);
        return StrictMath.log((documents + 1.0) / (df + 1.0)) + 1.0;
    }

    /** A table shipped as a class-path resource ({@code org/nearduplicate/core/idf/<name>.tsv.gz}). */
    public static IdfTable builtin(String name) {
        return BUILTINS.computeIfAbsent(name, n -> {
            try (InputStream in = IdfTable.class.getResourceAsStream(RESOURCE_DIR + n + ".tsv.gz")) {
                if (in == null) throw new InvalidOptionException(
                    "idf",
                    "unknown table [" + n + "]; the built-in table is [" + BUILTIN + "]"
                );
                return read(n, new GZIPInputStream(in));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read IDF table [" + n + "]", e);
            }
        });
    }

    /** Reads a table in the format described in the class comment (not gzipped). */
    public static IdfTable read(String name, InputStream in) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String header = r.readLine();
        if (header == null || header.startsWith("#docs\t") == false) {
            throw new IOException("IDF table [" + name + "] must start with a [#docs<TAB>N] line");
        }
        long docs = Long.parseLong(header.substring(6).trim());
        Map<String, Integer> df = new HashMap<>();
        String line;
        int lineNo = 1;
        while ((line = r.readLine()) != null) {
            lineNo++;
            int tab = line.lastIndexOf('\t');
            if (tab <= 0) throw new IOException("IDF table [" + name + "] line " + lineNo + ": expected feature<TAB>count");
            df.put(line.substring(0, tab), Integer.parseInt(line.substring(tab + 1)));
        }
        return new IdfTable(name, docs, df);
    }
}
