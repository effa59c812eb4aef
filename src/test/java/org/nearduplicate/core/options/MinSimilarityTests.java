package org.nearduplicate.core.options;

import org.nearduplicate.PlatformTestCase;

/** One range, one default and one message of {@code min_similarity} for every caller. */
public class MinSimilarityTests extends PlatformTestCase {

    public void testRange() {
        assertEquals(0.0, MinSimilarity.check(0, "q"), 0);
        assertEquals(1.0, MinSimilarity.check(1, "q"), 0);
        assertNull(MinSimilarity.checkOptional(null, "q"));
        InvalidOptionException e = expectThrows(InvalidOptionException.class, () -> MinSimilarity.check(1.5, "q"));
        assertEquals("[q] [min_similarity] must be between 0 and 1, got 1.5", e.getMessage());
        assertEquals("min_similarity", e.option());
        e = expectThrows(InvalidOptionException.class, () -> MinSimilarity.check(Double.NaN, null));
        assertEquals("[min_similarity] must be between 0 and 1, got NaN", e.getMessage());
    }

    public void testParse() {
        assertEquals(0.5, MinSimilarity.parse("0.5", "q"), 0);
        assertEquals(0.25, MinSimilarity.parse(0.25, null), 0);
        InvalidOptionException e = expectThrows(InvalidOptionException.class, () -> MinSimilarity.parse(true, "q"));
        assertEquals("[q] [min_similarity] must be a number, got [true]", e.getMessage());
        e = expectThrows(InvalidOptionException.class, () -> MinSimilarity.parse(-1, "q"));
        assertEquals("[q] [min_similarity] must be between 0 and 1, got -1.0", e.getMessage());
    }
}
