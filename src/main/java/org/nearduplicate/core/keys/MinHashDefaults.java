package org.nearduplicate.core.keys;

/**
 * The default LSH layout of the {@code minhash} field for the default 128 values: 32 bands of 4 rows. Its S-curve has
 * its steepest point near (1/32)^(1/4) = 0.42 and finds a pair of Jaccard 0.5 with probability 0.87, 0.6 with 0.99;
 * the verified query is exact (independent of the S-curve) for min_similarity >= 1 - 31/128 = 0.758. See
 * docs/methods.md.
 */
public final class MinHashDefaults {
    public static final int BANDS = 32;
    public static final int ROWS = 4;

    private MinHashDefaults() {}
}
