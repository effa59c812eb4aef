package org.nearduplicate.tools.quality;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Analysis;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Builds an IDF table (format of {@link org.nearduplicate.core.features.IdfTable}) from the documents of a corpus: document
 * frequencies of the default word features of each document's main content. Features seen in fewer than
 * {@code minDf} documents are left out (they get the maximum idf anyway). Only the content is read, never labels.
 *
 * <p>Usage: {@code IdfBuilder corpus-dir out.tsv.gz [minDf]}.
 */
public final class IdfBuilder {
    private IdfBuilder() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path out = Path.of(args[1]);
        int minDf = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Corpus corpus = Corpus.load(dir);
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        Map<String, AtomicInteger> df = new ConcurrentHashMap<>();
        AtomicInteger documents = new AtomicInteger();
        corpus.docs().values().parallelStream().forEach(d -> {
            try {
                Analysis a = hasher.analyze(d.content(), Integer.MAX_VALUE);
                Set<String> seen = new HashSet<>();
                for (Analysis.WeightedFeature f : a.topFeatures())
                    seen.add(f.feature());
                for (String f : seen)
                    df.computeIfAbsent(f, k -> new AtomicInteger()).incrementAndGet();
                documents.incrementAndGet();
            } catch (EngineInputException e) {
                // documents without features do not count
            }
        });
        TreeMap<String, Integer> sorted = new TreeMap<>();
        df.forEach((f, n) -> { if (n.get() >= minDf && f.indexOf('\t') < 0 && f.indexOf('\n') < 0) sorted.put(f, n.get()); });
        try (
            OutputStream os = new GZIPOutputStream(Files.newOutputStream(out));
            Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8)
        ) {
            w.write("#docs\t" + documents.get() + "\n");
            for (Map.Entry<String, Integer> e : sorted.entrySet())
                w.write(e.getKey() + "\t" + e.getValue() + "\n");
        }
        System.out.println("wrote " + sorted.size() + " features of " + documents.get() + " documents to " + out);
    }
}
