package org.nearduplicate.core;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;

/**
 * The one parser of {@code max_distance}, the Hamming radius k, for every caller (the query, the rescorer, the
 * {@code near_duplicate_check} processor, the {@code _near_duplicates} API): an integer, or an integer string, from 0 to
 * 64. Absent means the recommended distance {@link #RECOMMENDED}, or less when the field promises less ({@link #orField}).
 * Whether a component can answer a given k (the index's layout, the recent-fingerprints window) is that
 * component's check, not a second range of the option. No platform types: a platform's parser reads its own tokens
 * into a value and hands it to {@link #parse(Object, String)} (OpenSearch: {@code MaxDistanceParsing}). It lives
 * next to {@link SimHashSettings}, whose recommended k it reads ({@code core.options} is below both).
 */
public final class MaxDistance {
    public static final String NAME = "max_distance";
    public static final int MIN = 0;
    /** A 64-bit fingerprint's largest Hamming distance. */
    public static final int MAX = 64;
    /**
     * The default k of the default algorithm ({@link SimHashSettings#recommendedMaxDistance()}; docs/engine.md says how
     * it was chosen). Larger k finds more edited copies and more chance matches. Fields of other algorithms keep their
     * own default ({@link #recommended(String)}).
     */
    public static final int RECOMMENDED = SimHashSettings.DEFAULT.recommendedMaxDistance();

    private MaxDistance() {}

    /**
     * @param owner named in the message, e.g. {@code near_duplicate}
     * @throws IllegalArgumentException if {@code k} is outside 0..64
     */
    public static int check(int k, String owner) {
        if (k < MIN || k > MAX) {
            throw new InvalidOptionException(owner, NAME, "must be between " + MIN + " and " + MAX + ", got " + k);
        }
        return k;
    }

    /** {@link #check} that lets null (absent) through. */
    public static Integer checkOptional(Integer k, String owner) {
        return k == null ? null : check(k, owner);
    }

    /**
     * Reads a value of a parsed map (a REST body, a processor's configuration) or of a token: an integer or an integer
     * string, 0..64; null stays null (absent).
     */
    public static Integer parse(Object value, String owner) {
        if (value == null) return null;
        Long k = OptionValues.wholeNumber(value); // the rule of every option: numbers also as strings of ASCII digits
        if (k == null || k != k.intValue()) {
            throw new InvalidOptionException(owner, NAME, "must be an integer between " + MIN + " and " + MAX + ", got [" + value + "]");
        }
        return check(k.intValue(), owner);
    }

    /**
     * The one default rule: the requested k; when none was given, {@link #RECOMMENDED} capped by what the field promises
     * (its mapped {@code max_distance}, e.g. 3 for indices made before any-k layouts, or what the caller answers from it).
     */
    public static int orField(Integer requested, int fieldMaxDistance) {
        return requested != null ? requested : Math.min(RECOMMENDED, fieldMaxDistance);
    }

    /** {@link #orField(Integer, int)} for a field whose fingerprints were made by {@code algorithm}: its own recommended k. */
    public static int orField(Integer requested, int fieldMaxDistance, String algorithm) {
        return requested != null ? requested : Math.min(recommended(algorithm), fieldMaxDistance);
    }

    /**
     * {@link #orField(Integer, int)} for a field whose fingerprints were made with {@code settings} (null: not by this
     * engine), as a field type holds them parsed: its own recommended k, without parsing the algorithm id again.
     */
    public static int orField(Integer requested, int fieldMaxDistance, SimHashSettings settings) {
        return requested != null ? requested : Math.min(recommended(settings), fieldMaxDistance);
    }

    /** The recommended k of fingerprints made with {@code settings}; {@link #RECOMMENDED} for null (made outside this engine). */
    public static int recommended(SimHashSettings settings) {
        return settings == null ? RECOMMENDED : settings.recommendedMaxDistance();
    }

    /**
     * The recommended k of fingerprints made by {@code algorithm} (12 for {@code simhash-v1}, 15 for {@code simhash-v2}
     * and {@code simhash-v3}); {@link #RECOMMENDED} for fingerprints this engine did not make. For callers that only have the id (a mapping in the
     * cluster state, a shard's answer); a field type answers {@link #recommended(SimHashSettings)} from its parsed settings.
     */
    public static int recommended(String algorithm) {
        // a mapping checked when it was created; an id from a newer release keeps the default
        return recommended(SimHashSettings.fromAlgorithmIdOrNull(algorithm));
    }
}
