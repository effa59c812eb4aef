package org.nearduplicate.core.chance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Signature;

/**
 * The measured null distribution of the SimHash match: per algorithm, {@code min_similarity} and language slice, how
 * many of the corpus's same-language pairs of <em>unrelated</em> documents (different base documents) match at each
 * k. It turns a setting and an index size into the expected number of chance matches (docs/engine.md, "Chance
 * matches at scale").
 *
 * <p>The data is shipped in the plugin jar ({@value #RESOURCE}), generated from the committed results files
 * {@code bench/results/RESULTS-scale-quality*.md} (the public corpus, 12,087 documents, 38,183,395 unrelated pairs;
 * {@code NullDistributionFileTests} fails when the two drift apart). A line is {@code
 * algorithm<TAB>min_similarity<TAB>slice<TAB>k<TAB>false_pairs<TAB>pairs}, {@code min_similarity} {@code -} for the
 * fingerprint alone; lines starting with {@code #} are comments.
 *
 * <p>What it does not know it says: an algorithm that was not measured (other options, foreign fingerprints), a k
 * beyond the measured range or a {@code min_similarity} of other agreeing slots than a measured one give null, never a
 * guessed number. A k with no
 * unrelated pair in the corpus has rate 0, which only says the rate is below the corpus's resolution of one pair
 * ({@code 1 / pairs}, 2.6e-8 over all languages): its estimates are upper bounds ({@link Estimate#upperBound()}).
 */
public final class NullDistribution {
    /** The class-path resource of the built-in table. */
    public static final String RESOURCE = "/org/nearduplicate/core/chance/null-distribution.tsv";
    /** All languages of the corpus (en 7,345 and zh 4,742 documents): the slice the responses use. */
    public static final String ALL = "all";
    /** {@code min_similarity} of the fingerprint-alone rows. */
    public static final String FINGERPRINT_ALONE = "-";
    /**
     * The groups' warning: expected chance pairs above both this number and {@link #WARN_SHARE_OF_DOCUMENTS} of the
     * documents scanned (docs/engine.md, "Chance matches at scale").
     */
    public static final double WARN_MIN_PAIRS = 1;
    /** The groups' warning: expected chance pairs above this share of the documents scanned (and above 1). */
    public static final double WARN_SHARE_OF_DOCUMENTS = 0.001;
    /** The query's explanation flags more than this many expected chance matches per probe. */
    public static final double WARN_PER_QUERY = 1;

    private static volatile NullDistribution builtin;

    private record Key(String algorithm, String minSimilarity, String slice) {
    }

    /** One slice: the unrelated pairs counted and, per k from 0, how many of them matched. */
    private record Counts(long pairs, long[] falsePairs) {
    }

    private final Map<Key, Counts> table;
    /**
     * The rows with a signature by what their match depends on, the agreeing slots: a row measured at 0.4 answers 0.38
     * too (13 of 32 slots). Keyed by {@link #slotsKey}.
     */
    private final Map<String, Key> bySlots = new HashMap<>();

    private NullDistribution(Map<Key, Counts> table) {
        this.table = table;
        for (Key key : table.keySet()) {
            if (key.minSimilarity().equals(FINGERPRINT_ALONE) == false) {
                int agreeing = Signature.minAgreeing(Double.parseDouble(key.minSimilarity()));
                bySlots.put(slotsKey(key.algorithm(), agreeing, key.slice()), key);
            }
        }
    }

    private static String slotsKey(String algorithm, int agreeing, String slice) {
        return algorithm + '\u0000' + agreeing + '\u0000' + slice;
    }

    /**
     * An expected number of chance matches. {@code upperBound}: the measured rate was 0, so the true value is below
     * {@code value} (the corpus's resolution of one pair, scaled the same way), not 0.
     */
    public record Estimate(double value, boolean upperBound, double rate, long falsePairs, long pairs, String basis) {
        /** {@code value} as {@link #format} writes it, prefixed by "< " for a bound. */
        public String text() {
            return (upperBound ? "< " : "") + format(value);
        }
    }

    /** Scientific below 0.01, three decimals below 1, two below 100, whole numbers with separators from 100 on. */
    public static String format(double x) {
        if (x == 0) return "0";
        if (x < 0.01) return String.format(Locale.ROOT, "%.1e", x);
        if (x < 1) return String.format(Locale.ROOT, "%.3f", x);
        if (x < 100) return String.format(Locale.ROOT, "%.2f", x);
        return String.format(Locale.ROOT, "%,.0f", x);
    }

    /** The table shipped in the plugin jar ({@value #RESOURCE}). */
    public static NullDistribution builtin() {
        NullDistribution b = builtin;
        if (b == null) {
            try (InputStream in = NullDistribution.class.getResourceAsStream(RESOURCE)) {
                if (in == null) throw new IOException("missing class-path resource " + RESOURCE);
                builtin = b = read(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the null distribution " + RESOURCE, e);
            }
        }
        return b;
    }

    /** Reads a table in the format of the class comment. */
    public static NullDistribution read(InputStream in) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        Map<Key, Long> pairs = new HashMap<>();
        Map<Key, List<Long>> falsePairs = new HashMap<>();
        String line;
        int lineNo = 0;
        while ((line = r.readLine()) != null) {
            lineNo++;
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t", -1);
            if (f.length != 6) throw new IOException("null distribution line " + lineNo + ": expected 6 tab-separated fields");
            if (f[1].equals(FINGERPRINT_ALONE) == false) {
                try {
                    Double.parseDouble(f[1]);
                } catch (NumberFormatException e) {
                    throw new IOException("null distribution line " + lineNo + ": min_similarity must be a number or " + FINGERPRINT_ALONE);
                }
            }
            Key key = new Key(f[0], f[1], f[2]);
            int k = Integer.parseInt(f[3]);
            List<Long> counts = falsePairs.computeIfAbsent(key, x -> new ArrayList<>());
            if (k != counts.size()) throw new IOException("null distribution line " + lineNo + ": k must follow " + (counts.size() - 1));
            long n = Long.parseLong(f[5]);
            Long before = pairs.putIfAbsent(key, n);
            if (before != null && before != n) throw new IOException("null distribution line " + lineNo + ": pairs differ within a slice");
            long c = Long.parseLong(f[4]);
            if (c < 0 || c > n || (k > 0 && c < counts.get(k - 1))) {
                throw new IOException("null distribution line " + lineNo + ": false pairs must grow with k, within 0.." + n);
            }
            counts.add(c);
        }
        Map<Key, Counts> table = new HashMap<>();
        for (Map.Entry<Key, List<Long>> e : falsePairs.entrySet()) {
            table.put(e.getKey(), new Counts(pairs.get(e.getKey()), e.getValue().stream().mapToLong(Long::longValue).toArray()));
        }
        return new NullDistribution(Collections.unmodifiableMap(table));
    }

    /**
     * The rows that measure {@code algorithmId} at {@code minSimilarity} (NaN: the fingerprint alone): the id in its
     * canonical form; a {@code simhash-v4} fingerprint alone is {@code simhash-v3}'s, bit for bit (docs/engine.md,
     * "Verified match"), so it reads v3's rows (a v5 fingerprint alone has rows of its own or none); {@code simhash-v7}
     * reads v6's (the same fingerprint and signature, plus keys). Null when not measured.
     */
    private Key key(String algorithmId, double minSimilarity, String slice) {
        SimHashSettings settings = SimHashSettings.fromAlgorithmIdOrNull(algorithmId);
        if (settings == null) return null; // another method, a newer version, foreign options
        settings = settings.sketchSettings(); // v7's fingerprint and signature are v6's: its rows
        if (Double.isNaN(minSimilarity) == false) {
            if (settings.hasSignature() == false) return null;
            return bySlots.get(slotsKey(settings.algorithmId(), Signature.minAgreeing(minSimilarity), slice));
        }
        // only v4 computes v3's fingerprint; from v5 extraction differs, so its fingerprint alone was not measured
        if (settings.version() == SimHashSettings.FIRST_SIGNATURE_VERSION) {
            SimHashSettings.Builder b = new SimHashSettings.Builder(settings);
            b.version = SimHashSettings.FIRST_SIGNATURE_VERSION - 1;
            settings = b.build();
        }
        Key key = new Key(settings.algorithmId(), FINGERPRINT_ALONE, slice);
        return table.containsKey(key) ? key : null;
    }

    /** The largest measured k for this setting and slice; -1 when not measured. */
    public int maxMeasuredK(String algorithmId, double minSimilarity, String slice) {
        Key key = key(algorithmId, minSimilarity, slice);
        return key == null ? -1 : table.get(key).falsePairs().length - 1;
    }

    /**
     * The expected chance matches of one probe against an index of {@code indexSize} documents (the rate times the
     * other {@code indexSize - 1} documents), over all languages of the corpus; null when not measured.
     */
    public Estimate expectedFalseHitsPerQuery(String algorithmId, int k, double minSimilarity, long indexSize) {
        return estimate(algorithmId, k, minSimilarity, ALL, Math.max(0, indexSize - 1));
    }

    /**
     * The expected chance pairs among {@code n} documents (the rate times the n(n-1)/2 pairs), over all languages of
     * the corpus; null when not measured.
     */
    public Estimate expectedFalsePairs(String algorithmId, int k, double minSimilarity, long n) {
        return estimate(algorithmId, k, minSimilarity, ALL, n < 2 ? 0 : n * (double) (n - 1) / 2);
    }

    /** The rate of {@code slice} times {@code comparisons}; null when not measured. */
    public Estimate estimate(String algorithmId, int k, double minSimilarity, String slice, double comparisons) {
        Key key = key(algorithmId, minSimilarity, slice);
        if (key == null || k < 0) return null;
        Counts c = table.get(key);
        if (k >= c.falsePairs().length) return null;
        long hits = c.falsePairs()[k];
        boolean bound = hits == 0 && comparisons > 0;
        double rate = (double) hits / c.pairs();
        double value = (bound ? 1.0 / c.pairs() : rate) * comparisons;
        return new Estimate(value, bound, rate, hits, c.pairs(), basis(key, k, c.pairs()));
    }

    private static String basis(Key key, int k, long pairs) {
        String version = key.algorithm().substring(0, key.algorithm().indexOf(':'));
        return version
            + " k="
            + k
            + (key.minSimilarity().equals(FINGERPRINT_ALONE) ? " fingerprint alone" : " min_similarity=" + key.minSimilarity())
            + ", measured on the public corpus ("
            + (key.slice().equals(ALL) ? "en and zh" : key.slice())
            + ", "
            + String.format(Locale.ROOT, "%,d", pairs)
            + " unrelated pairs)";
    }

    /**
     * Whether the expected chance pairs among {@code docs} documents call for a warning: a point estimate (not a bound)
     * above {@link #WARN_MIN_PAIRS} and above {@link #WARN_SHARE_OF_DOCUMENTS} of the documents.
     */
    public static boolean warnPairs(Estimate pairs, long docs) {
        return pairs != null
            && pairs.upperBound() == false
            && pairs.value() > WARN_MIN_PAIRS
            && pairs.value() > WARN_SHARE_OF_DOCUMENTS * docs;
    }
}
