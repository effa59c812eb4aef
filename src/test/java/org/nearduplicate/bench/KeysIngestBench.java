package org.nearduplicate.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongFunction;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.FullMinima;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * What {@code simhash-v7}'s keys cost at ingest (bench/results/RESULTS-keys-ingest.md), one thread, in process:
 * {@code main(corpusDir, rounds, every)} first checks every document of the corpus (v7's fingerprint and signature are
 * v6's; its stored keys are those of the minima {@link FullMinima} recomputes), then times, interleaved, the best of
 * {@code rounds} rounds over every {@code every}-th document of: v6's sketch; v7's sketch (with the minima); v7's sketch
 * with its stored keys (what the processor does: one pass); v6's sketch followed by a second pass for the keys (what one
 * pass avoids); then the stored keys alone from sketches made beforehand.
 */
public final class KeysIngestBench {
    private KeysIngestBench() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "../shared/eval/public");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int every = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        List<String> texts = SketchDigest.texts(dir);
        SimHasher v6 = new SimHasher(SimHashSettings.DEFAULT_V6);
        SimHasher v7 = new SimHasher(SimHashSettings.DEFAULT_V7);

        int checked = 0, refused = 0;
        for (String text : texts) {
            SimHash six;
            try {
                six = v6.sketch(text);
            } catch (IllegalArgumentException e) {
                refused++;
                continue;
            }
            SimHash seven = v7.sketch(text);
            byte[] packed = StoredKeys.parse(CandidateKeys.V7, StoredKeys.of(SimHashSettings.DEFAULT_V7, seven));
            boolean same = six.fingerprint() == seven.fingerprint()
                && Arrays.equals(six.signature(), seven.signature())
                && Arrays.equals(CandidateKeys.V7.keys(FullMinima.of(v7, text)), CandidateKeys.V7.keysOfPacked(packed));
            if (same == false) throw new AssertionError("v7 differs from v6 + recomputed keys on: " + text.substring(0, 80));
            checked++;
        }
        System.out.println("checked " + checked + " documents (" + refused + " refused by both), all equal");
        for (int version = 4; version <= 7; version++) {
            System.out.println(
                "digest simhash-v" + version + ": " + SketchDigest.digest(new SimHasher(SimHashSettings.defaults(version)), texts)
            );
        }

        List<String> sample = SketchDigest.sample(texts, every);
        ToLongFunction<String> sketch = t -> v6.sketch(t).fingerprint();
        ToLongFunction<String> minima = t -> v7.sketch(t).minima()[0];
        ToLongFunction<String> onePass = t -> StoredKeys.of(SimHashSettings.DEFAULT_V7, v7.sketch(t)).length();
        ToLongFunction<String> twoPasses = t -> {
            long fp = v6.sketch(t).fingerprint();
            return fp + StoredKeys.encode(CandidateKeys.V7, FullMinima.of(v6, t)).length();
        };
        String[] names = {
            "v6 sketch (fingerprint, signature)",
            "v7 sketch (+ the full minima)",
            "v7 sketch + stored keys (one pass: the processor)",
            "v6 sketch + keys by a second pass" };
        List<ToLongFunction<String>> runs = List.of(sketch, minima, onePass, twoPasses);
        double[] best = new double[runs.size()];
        Arrays.fill(best, Double.MAX_VALUE);
        for (int r = 0; r < rounds; r++) {
            for (int j = 0; j < runs.size(); j++) {
                int i = (r + j) % runs.size(); // each path goes first in turn
                best[i] = Math.min(best[i], nanosPerDoc(sample, runs.get(i)));
            }
        }
        // the keys alone, from the minima of sketches made beforehand: what one pass adds to the sketch
        List<SimHash> sketches = new java.util.ArrayList<>();
        for (String t : sample) {
            try {
                sketches.add(v7.sketch(t));
            } catch (IllegalArgumentException e) {
                // refused by both; not timed
            }
        }
        double keysAlone = Double.MAX_VALUE;
        for (int r = 0; r < rounds * 5; r++) {
            long sink = 0, t0 = System.nanoTime();
            for (SimHash made : sketches)
                sink += StoredKeys.of(SimHashSettings.DEFAULT_V7, made).length();
            keysAlone = Math.min(keysAlone, (double) (System.nanoTime() - t0) / sketches.size());
            if (sink == 42) System.out.print("");
        }
        System.out.printf(
            "%n%d documents (every %d-th), best of %d rounds, interleaved (rotating order)%n%n",
            sample.size(),
            every,
            rounds
        );
        System.out.println("| path | ns/doc | vs v6 sketch |");
        System.out.println("|---|---|---|");
        for (int i = 0; i < runs.size(); i++) {
            System.out.printf("| %s | %,.0f | %.3f |%n", names[i], best[i], best[i] / best[0]);
        }
        System.out.printf(
            "| the stored keys alone, from a v7 sketch's minima (best of %d) | %,.0f | %.4f |%n",
            rounds * 5,
            keysAlone,
            keysAlone / best[0]
        );
    }

    private static double nanosPerDoc(List<String> texts, ToLongFunction<String> run) {
        long sink = 0, t0 = System.nanoTime();
        for (String text : texts) {
            try {
                sink += run.applyAsLong(text);
            } catch (IllegalArgumentException e) {
                sink++;
            }
        }
        double ns = (double) (System.nanoTime() - t0) / texts.size();
        if (sink == 42) System.out.print("");
        return ns;
    }
}
