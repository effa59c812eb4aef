package org.nearduplicate.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** What the benchmarks' results files share: number formats, percentiles, the machine's facts. */
public final class Report {
    private Report() {}

    /** A figure with 3 significant digits or so ("n/a" for NaN). */
    public static String f(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
    }

    public static String mb(long bytes) {
        return bytes < 0 ? "n/a" : f(bytes / 1048576.0) + " MB";
    }

    /** One Markdown table row: {@code | a | b | c |} and a newline. */
    public static String row(Object... cells) {
        StringBuilder b = new StringBuilder("|");
        for (Object cell : cells)
            b.append(' ').append(cell).append(" |");
        return b.append('\n').toString();
    }

    /** Milliseconds, as seconds from 100 s on. */
    public static String secs(double ms) {
        return ms >= 100_000 ? f(ms / 1000) + " s" : f(ms) + " ms";
    }

    public static String hex(long v) {
        return String.format("%016x", v);
    }

    /** The p-th percentile (nearest rank) of sorted nanoseconds, in ms. */
    public static double pct(long[] sorted, double p) {
        int idx = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 1e6;
    }

    /** A command's output (stdout and stderr), trimmed; "?" when it cannot run. */
    public static String cmd(String... c) {
        try {
            Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    /** SplitMix64's finalizer: the seeded data sets' hash of an index. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
