package org.nearduplicate.core.keys;

import static com.carrotsearch.randomizedtesting.RandomizedTest.randomIntBetween;

/** Random English-like text for the keys' tests, always with features to fingerprint. */
final class RandomText {
    private static final String[] WORDS = "the quick brown fox jumps over a lazy dog while seven cats watch from the old red barn roof"
        .split(" ");

    private RandomText() {}

    /** One word no analyzer drops, then {@code words} random words in sentences of 11 (five stopwords have no features). */
    static String of(int words) {
        StringBuilder sb = new StringBuilder("harbor ");
        for (int i = 0; i < words; i++)
            sb.append(WORDS[randomIntBetween(0, WORDS.length - 1)]).append(i % 11 == 10 ? ". " : " ");
        return sb.toString();
    }
}
