package org.nearduplicate.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.tools.quality.Corpus;

/**
 * The output and cost of the {@code sketch} path of versions 4 to 6 on the evaluation corpus, with only the APIs every
 * release has: run against two builds' engine classes (bench/results/RESULTS-keys-ingest.md), equal digests mean
 * byte-identical fingerprints and signatures. {@code main(corpusDir, rounds, every)}: a SHA-256 over every document's
 * fingerprint and signature of each version (documents sorted by id; input errors count as a fixed marker), then the
 * best of {@code rounds} timed rounds of the v6 sketch over every {@code every}-th document.
 */
public final class SketchDigest {
    private SketchDigest() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "../shared/eval/public");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int every = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        List<String> texts = texts(dir);
        for (int version = 4; version <= 6; version++) {
            System.out.println(
                "digest simhash-v"
                    + version
                    + " ("
                    + texts.size()
                    + " docs): "
                    + digest(new SimHasher(SimHashSettings.defaults(version)), texts)
            );
        }
        List<String> sample = sample(texts, every);
        SimHasher v6 = new SimHasher(SimHashSettings.DEFAULT_V6);
        double best = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            best = Math.min(best, nanosPerDoc(sample, v6));
        }
        System.out.printf("v6 sketch, best of %d rounds over %d docs: %.0f ns/doc%n", rounds, sample.size(), best);
    }

    /** The corpus's texts, sorted by document id. */
    static List<String> texts(Path dir) throws Exception {
        return new TreeMap<>(Corpus.load(dir).docs()).values().stream().map(Corpus.Doc::content).toList();
    }

    static List<String> sample(List<String> texts, int every) {
        return java.util.stream.IntStream.range(0, texts.size()).filter(i -> i % every == 0).mapToObj(texts::get).toList();
    }

    static String digest(SimHasher hasher, List<String> texts) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String text : texts) {
            SimHash s;
            try {
                s = hasher.sketch(text);
            } catch (IllegalArgumentException e) {
                sha.update((byte) 'E');
                continue;
            }
            sha.update(ByteBuffer.allocate(8).putLong(s.fingerprint()).array());
            if (s.signature() != null) sha.update(s.signature());
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** One round of {@code hasher.sketch} over the texts, in ns per document (the sum of fingerprints is printed away). */
    static double nanosPerDoc(List<String> texts, SimHasher hasher) {
        long sink = 0, t0 = System.nanoTime();
        for (String text : texts) {
            try {
                sink += hasher.sketch(text).fingerprint();
            } catch (IllegalArgumentException e) {
                sink++;
            }
        }
        double ns = (double) (System.nanoTime() - t0) / texts.size();
        if (sink == 42) System.out.print("");
        return ns;
    }
}
