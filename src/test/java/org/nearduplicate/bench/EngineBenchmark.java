package org.nearduplicate.bench;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.tools.quality.Corpus;

/**
 * Fingerprinting throughput on real documents of the evaluation corpus (the first 200 of each language and format),
 * next to running only the word analyzer over the same documents' extracted text. One operation processes the whole
 * sample; {@link #main} runs the benchmarks single-threaded and prints MB/s per core (MB of UTF-8 input).
 */
@State(Scope.Benchmark)
public class EngineBenchmark {
    @Param({ "en-html", "en-text", "zh-html", "zh-text" })
    public String sample;

    /**
     * The algorithm version: 6 (the default) is 5 with Chinese segmented by dictionary; 5 is 4 with more extraction rules;
     * 4 adds the verification signature to 3's fingerprint.
     */
    @Param({ "6", "5", "4" })
    public int version;

    private List<String> documents;
    private List<String> extracted;
    private SimHasher hasher;
    private Analyzer analyzer;
    private long chars;

    static List<String> sampleDocuments(String sample) throws IOException {
        String lang = sample.substring(0, 2), format = sample.substring(3);
        Corpus corpus = Corpus.load(Path.of(System.getProperty("eval.dir", "../shared/eval"), "public"));
        List<String> docs = new ArrayList<>();
        for (Corpus.Doc d : corpus.docs().values()) {
            if (d.lang().equals(lang) && d.format().equals(format) && docs.size() < 200) docs.add(d.content());
        }
        return docs;
    }

    @Setup(Level.Trial)
    public void load() throws IOException {
        hasher = new SimHasher(SimHashSettings.defaults(version));
        analyzer = org.nearduplicate.core.features.FeaturePipeline.newWordAnalyzer(SimHashSettings.DEFAULT.featureSettings());
        documents = sampleDocuments(sample);
        extracted = new ArrayList<>();
        for (String d : documents) {
            extracted.add(hasher.extractText(d));
            chars += d.length();
        }
    }

    @Benchmark
    public void fingerprint(Blackhole bh) {
        for (String d : documents)
            bh.consume(hasher.fingerprint(d));
    }

    /** Usage: {@code EngineBenchmark [jmh options]}, e.g. {@code -wi 1 -i 3 -f 1 -w 2s -r 3s}. */
    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.runner.options.Options options = new org.openjdk.jmh.runner.options.CommandLineOptions(args);
        options = new org.openjdk.jmh.runner.options.OptionsBuilder().parent(options)
            .include(EngineBenchmark.class.getSimpleName())
            .threads(1)
            .build();
        var results = new org.openjdk.jmh.runner.Runner(options).run();
        System.out.println("\n| benchmark | sample | version | ops/s | MB/s per core (UTF-8 input) |\n|---|---|---|---|---|");
        java.util.Map<String, Long> bytes = new java.util.HashMap<>();
        for (var r : results) {
            String sample = r.getParams().getParam("sample");
            String version = r.getParams().getParam("version");
            long b = bytes.computeIfAbsent(sample, s -> {
                try {
                    return sampleDocuments(s).stream().mapToLong(d -> d.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).sum();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            double opsPerSecond = r.getPrimaryResult().getScore();
            System.out.printf(
                java.util.Locale.ROOT,
                "| %s | %s | %s | %.2f | %.1f |%n",
                r.getParams().getBenchmark().replaceAll(".*\\.", ""),
                sample,
                version,
                opsPerSecond,
                opsPerSecond * b / 1e6
            );
        }
    }

    /** The baseline: only the analyzer over the already extracted text. */
    @Benchmark
    public void analyzerOnly(Blackhole bh) throws IOException {
        for (String text : extracted) {
            try (TokenStream ts = analyzer.tokenStream("f", text)) {
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                ts.reset();
                while (ts.incrementToken())
                    bh.consume(term.length());
                ts.end();
            }
        }
    }
}
