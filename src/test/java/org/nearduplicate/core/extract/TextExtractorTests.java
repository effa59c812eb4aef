package org.nearduplicate.core.extract;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import static org.junit.Assert.assertEquals;

/** The text-dump extractor's shortcuts against the regular expressions they stand for. */
public class TextExtractorTests extends RandomizedTest {

    private static final String[] PIECES = {
        "[",
        "]",
        "[12]",
        "[3",
        "12]",
        "[123456]",
        "*",
        "-",
        "–",
        "•",
        "·",
        "+",
        "1.",
        "12)",
        "1234.",
        " ",
        "  ",
        "\t",
        "\n",
        "|",
        "word",
        "中文",
        "7" };

    /** 20,000 random lines: the list-bullet and link-marker tests agree with {@code find} of their patterns. */
    @Test
    public void testShortcutsAgreeWithThePatterns() {
        for (int i = 0; i < 20_000; i++) {
            StringBuilder line = new StringBuilder();
            for (int n = randomIntBetween(0, 12); n > 0; n--)
                line.append(randomFrom(PIECES));
            String s = line.toString();
            assertEquals(s, TextExtractor.LIST_BULLET.matcher(s).find(), TextExtractor.isListItem(s));
            assertEquals(s, TextExtractor.LINK_MARKER.matcher(s).find(), TextExtractor.hasLinkMarker(s));
        }
    }
}
