package org.nearduplicate.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

/**
 * The v6 {@code sketch} path of two builds of the engine in one JVM, rounds interleaved, so that the load of a shared
 * machine falls on both alike (bench/results/RESULTS-keys-ingest.md). Run with the test classes and the dependencies on
 * the class path but no engine classes: {@code main(corpusDir, rounds, every, classesA, classesB)} loads
 * {@code org.nearduplicate.core} from each directory in a class loader of its own and names only strings and
 * {@code Object}s here. Prints the best round of each, in ns per document.
 */
public final class SketchAB {
    private SketchAB() {}

    public static void main(String[] args) throws Throwable {
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int every = Integer.parseInt(args[2]);
        List<String> sample = SketchDigest.sample(SketchDigest.texts(dir), every);
        MethodHandle[] sketch = { sketcher(Path.of(args[3])), sketcher(Path.of(args[4])) };
        double[] best = { Double.MAX_VALUE, Double.MAX_VALUE };
        for (int r = 0; r < rounds; r++) {
            for (int b = 0; b < 2; b++) {
                int which = (r + b) % 2; // alternate which build goes first
                best[which] = Math.min(best[which], nanosPerDoc(sample, sketch[which]));
            }
        }
        System.out.printf("%d documents, best of %d interleaved rounds%n", sample.size(), rounds);
        System.out.printf("A %s: %,.0f ns/doc%nB %s: %,.0f ns/doc%nB / A: %.3f%n", args[3], best[0], args[4], best[1], best[1] / best[0]);
    }

    /** {@code text -> new SimHasher(SimHashSettings.DEFAULT).sketch(text).fingerprint()} of the engine in {@code classes}. */
    private static MethodHandle sketcher(Path classes) throws Throwable {
        ClassLoader loader = new URLClassLoader(new URL[] { classes.toUri().toURL() }, SketchAB.class.getClassLoader());
        Class<?> settingsClass = loader.loadClass("org.nearduplicate.core.SimHashSettings");
        Class<?> hasherClass = loader.loadClass("org.nearduplicate.core.sketch.SimHasher");
        Class<?> sketchClass = loader.loadClass("org.nearduplicate.core.sketch.SimHash");
        Object settings = settingsClass.getField("DEFAULT").get(null);
        Object hasher = hasherClass.getConstructor(settingsClass).newInstance(settings);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle sketch = lookup.findVirtual(hasherClass, "sketch", MethodType.methodType(sketchClass, String.class)).bindTo(hasher);
        MethodHandle fingerprint = lookup.findVirtual(sketchClass, "fingerprint", MethodType.methodType(long.class));
        return MethodHandles.filterReturnValue(sketch, fingerprint).asType(MethodType.methodType(long.class, String.class));
    }

    private static double nanosPerDoc(List<String> texts, MethodHandle sketch) throws Throwable {
        long sink = 0, t0 = System.nanoTime();
        for (String text : texts) {
            try {
                sink += (long) sketch.invokeExact(text);
            } catch (IllegalArgumentException e) {
                sink++;
            }
        }
        double ns = (double) (System.nanoTime() - t0) / texts.size();
        if (sink == 42) System.out.print("");
        return ns;
    }
}
