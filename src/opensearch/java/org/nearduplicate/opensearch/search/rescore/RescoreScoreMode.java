package org.nearduplicate.opensearch.search.rescore;

import java.util.Locale;

/** What the {@code near_duplicate} and {@code minhash_similar} rescorers do with the hits they see. */
public enum RescoreScoreMode {
    /** Drop every hit the shard returns that is not close enough (or has no value); keep the others' scores and order. */
    FILTER,
    /** score = query_weight * score + rescore_weight * closeness, for window hits close enough to the probe. */
    CLOSENESS;

    public static RescoreScoreMode fromString(String value) {
        for (RescoreScoreMode mode : values()) {
            if (mode.name().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("[score_mode] must be one of [filter, closeness], got [" + value + "]");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
