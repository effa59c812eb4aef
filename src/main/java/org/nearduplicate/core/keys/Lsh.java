package org.nearduplicate.core.keys;

import java.util.Locale;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.options.InvalidOptionException;

/**
 * Banded locality-sensitive hashing of MinHash signatures (Indyk and Motwani 1998; Leskovec, Rajaraman and Ullman,
 * "Mining of Massive Datasets", ch. 3.4): the first {@code bands × rows} values are cut into {@code bands} bands of
 * {@code rows} consecutive values; each band gives one index key. Two documents with Jaccard similarity s share at
 * least one key with probability {@code 1 - (1 - s^rows)^bands} (the S-curve), whose steepest point is near
 * {@code (1/bands)^(1/rows)}.
 *
 * <p>Deterministic part: if two signatures disagree in fewer than {@code bands} of the banded positions, some band
 * agrees entirely, so they share a key. A verified query for "estimated similarity ≥ t" over m = bands × rows values is
 * therefore exact whenever {@code floor((1 - t) · m) < bands}; below that bound the keys find a document with
 * probability given by the S-curve.
 *
 * <p>Key bytes: the band number (1 byte) then XXH3-64 (seed 0) of the band's values as big-endian ints (8 bytes).
 */
public record Lsh(int bands, int rows) {
    public static final int KEY_BYTES = 9;
    public static final int MAX_BANDS = 255;
    private static final Hasher64 HASH = Hashing.xxh3_64(0L);

    public Lsh {
        if (bands < 1 || bands > MAX_BANDS) throw new InvalidOptionException(
            "bands",
            "must be between 1 and " + MAX_BANDS + ", got " + bands
        );
        if (rows < 1 || rows > MinHashSettings.MAX_HASHES) throw new InvalidOptionException(
            "rows",
            "must be between 1 and " + MinHashSettings.MAX_HASHES + ", got " + rows
        );
        if ((long) bands * rows > MinHashSettings.MAX_HASHES) {
            throw new InvalidOptionException(
                "bands",
                "x [rows] must be at most " + MinHashSettings.MAX_HASHES + ", got " + bands + " x " + rows
            );
        }
    }

    /** The number of signature values the bands use. */
    public int width() {
        return bands * rows;
    }

    /** Fails unless a signature of {@code m} values has room for the bands. */
    public void checkFits(int m) {
        if (width() > m) {
            throw new InvalidOptionException("bands", "x [rows] = " + width() + " exceeds the signature's " + m + " values");
        }
    }

    /** The keys of {@code signature}, one per band, each {@link #KEY_BYTES} long. */
    public byte[][] keys(int[] signature) {
        checkFits(signature.length);
        byte[][] keys = new byte[bands][];
        byte[] buf = new byte[4 * rows];
        for (int band = 0; band < bands; band++) {
            for (int r = 0; r < rows; r++) {
                int v = signature[band * rows + r];
                buf[4 * r] = (byte) (v >>> 24);
                buf[4 * r + 1] = (byte) (v >>> 16);
                buf[4 * r + 2] = (byte) (v >>> 8);
                buf[4 * r + 3] = (byte) v;
            }
            long h = HASH.hashBytesToLong(buf);
            byte[] key = new byte[KEY_BYTES];
            key[0] = (byte) band;
            for (int i = 0; i < 8; i++) {
                key[1 + i] = (byte) (h >>> (56 - 8 * i));
            }
            keys[band] = key;
        }
        return keys;
    }

    /** Whether some band of {@code a} and {@code b} agrees in all its rows (what sharing a key means, up to 2^-64). */
    public boolean shareBand(int[] a, int[] b) {
        checkFits(a.length);
        checkFits(b.length);
        for (int band = 0; band < bands; band++) {
            boolean same = true;
            for (int r = 0; r < rows && same; r++) {
                same = a[band * rows + r] == b[band * rows + r];
            }
            if (same) return true;
        }
        return false;
    }

    /** The probability that documents of Jaccard similarity {@code s} share a key: {@code 1 - (1 - s^r)^b}. */
    public double candidateProbability(double s) {
        return 1 - Math.pow(1 - Math.pow(s, rows), bands);
    }

    /** The approximate threshold of the S-curve, {@code (1/b)^(1/r)}. */
    public double threshold() {
        return Math.pow(1.0 / bands, 1.0 / rows);
    }

    /**
     * Whether a verified query for estimated similarity ≥ {@code minSimilarity} on signatures of {@code m} values is
     * exact (every such document shares a key): the banded positions may disagree in at most
     * {@code floor((1 - t) · m)} places, which must be fewer than {@code bands}.
     */
    public boolean exactFor(double minSimilarity, int m) {
        return maxMismatches(minSimilarity, m) < bands;
    }

    /** The most positions two signatures of {@code m} values may disagree in and still reach {@code minSimilarity}. */
    public static int maxMismatches(double minSimilarity, int m) {
        // tolerate rounding: t = matches/m exactly must count as reached
        return (int) Math.floor((1 - minSimilarity) * m + 1e-9);
    }

    /** The smallest min_similarity for which the keys are exact on signatures of {@code m} values. */
    public double exactFrom(int m) {
        // mismatches <= bands - 1 <=> similarity >= 1 - (bands - 1) / m
        return Math.max(0, 1 - (double) (bands - 1) / m);
    }

    /**
     * The (bands, rows) with {@code bands × rows ≤ m} that minimizes the area of false candidates plus missed ones
     * around {@code threshold}: {@code ∫_0^t P(s) ds + ∫_t^1 (1 - P(s)) ds} (equal weights, the rule datasketch
     * uses), by numerical integration on 1,000 steps.
     */
    public static Lsh forThreshold(double threshold, int m) {
        if (threshold <= 0 || threshold >= 1) throw new IllegalArgumentException("threshold must be in (0, 1), got " + threshold);
        Lsh best = null;
        double bestError = Double.MAX_VALUE;
        for (int b = 1; b <= Math.min(m, MAX_BANDS); b++) {
            for (int r = 1; (long) b * r <= m; r++) {
                Lsh l = new Lsh(b, r);
                double error = l.falseArea(threshold) + l.missedArea(threshold);
                if (error < bestError - 1e-12) {
                    bestError = error;
                    best = l;
                }
            }
        }
        return best;
    }

    /** ∫_0^t P(s) ds. */
    public double falseArea(double t) {
        return integrate(0, t, false);
    }

    /** ∫_t^1 (1 - P(s)) ds. */
    public double missedArea(double t) {
        return integrate(t, 1, true);
    }

    private double integrate(double from, double to, boolean complement) {
        int steps = 1000;
        double h = (to - from) / steps, sum = 0;
        for (int i = 0; i < steps; i++) {
            double s = from + (i + 0.5) * h;
            double p = candidateProbability(s);
            sum += complement ? 1 - p : p;
        }
        return sum * h;
    }

    /** {@code b=..,r=..} for logs and errors. */
    public String id() {
        return String.format(Locale.ROOT, "b=%d,r=%d", bands, rows);
    }
}
