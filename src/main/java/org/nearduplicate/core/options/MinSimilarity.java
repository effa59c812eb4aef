package org.nearduplicate.core.options;

/**
 * The one rule of {@code min_similarity}, the least similarity of two sketches' signatures (the share of agreeing
 * slots): a number from 0 to 1, for every caller (the {@code near_duplicate} and {@code minhash_similar} queries and
 * rescorers, the groups APIs, the Lucene queries). Where it is absent a SimHash field uses its algorithm's recommended
 * value; {@code minhash_similar} uses {@link #MINHASH_DEFAULT}.
 */
public final class MinSimilarity {
    public static final String NAME = "min_similarity";
    public static final double MIN = 0;
    public static final double MAX = 1;
    /** The {@code minhash_similar} query's and rescorer's value when the request names none. */
    public static final double MINHASH_DEFAULT = 0.4;

    private MinSimilarity() {}

    /**
     * @param owner named first in the message, e.g. {@code minhash_similar} (null: none)
     * @throws InvalidOptionException if {@code value} is NaN or outside 0..1:
     *         {@code [owner] [min_similarity] must be between 0 and 1, got 1.5}
     */
    public static double check(double value, String owner) {
        if ((value >= MIN && value <= MAX) == false) {
            throw new InvalidOptionException(owner, NAME, "must be between 0 and 1, got " + value);
        }
        return value;
    }

    /** {@link #check} that lets null (absent) through. */
    public static Double checkOptional(Double value, String owner) {
        return value == null ? null : check(value, owner);
    }

    /** Reads a value of a parsed map (a REST body, a configuration): a number or a string of one, 0..1. */
    public static double parse(Object value, String owner) {
        try {
            return check(OptionValues.number(NAME, value), owner);
        } catch (InvalidOptionException e) {
            if (owner == null || e.getMessage().startsWith("[" + owner + "]")) throw e;
            throw new InvalidOptionException(owner, NAME, e.problem());
        }
    }
}
