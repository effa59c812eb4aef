package org.nearduplicate.core.options;

import java.util.HashMap;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.SimHashSettings;

/** One rule for option values everywhere: numbers also as ASCII digit strings; errors typed with the option's name. */
public class OptionValuesTests extends PlatformTestCase {

    public void testNumbersMayBeStringsOfAsciiDigits() {
        assertEquals(10, OptionValues.integer("size", 10));
        assertEquals(10, OptionValues.integer("size", "10"));
        assertEquals(10, OptionValues.integer("size", " 10 "));
        assertEquals(10, OptionValues.integer("size", 10L));
        assertEquals(-3, OptionValues.integer("size", "-3"));
        assertEquals(0.5, OptionValues.number("min_idf", "0.5"), 0);
        assertEquals(2e3, OptionValues.number("min_idf", "2e3"), 0);
        assertTrue(OptionValues.bool("ignore_missing", "true"));
        for (Object bad : new Object[] { "１０", "10.5", 10.5, "ten", true, null, 1L << 40, "" }) {
            InvalidOptionException e = expectThrows(InvalidOptionException.class, () -> OptionValues.integer("size", bad));
            assertEquals("size", e.option());
            assertEquals("[size] must be an integer, got [" + bad + "]", e.getMessage());
            assertEquals("must be an integer, got [" + bad + "]", e.problem());
        }
        for (Object bad : new Object[] { "NaN", "Infinity", Double.NaN, "٣", "x", false }) {
            expectThrows(InvalidOptionException.class, () -> OptionValues.number("min_idf", bad));
        }
        expectThrows(InvalidOptionException.class, () -> OptionValues.bool("ignore_missing", "yes"));
        InvalidOptionException range = expectThrows(InvalidOptionException.class, () -> OptionValues.integer("batch_size", 0, 1, 10));
        assertEquals("[batch_size] must be between 1 and 10, got 0", range.getMessage());
    }

    /** The engines' settings report the option they refuse by type, not only in the message. */
    public void testEngineSettingsNameTheOptionTheyRefuse() {
        Map<String, Object> simhash = new HashMap<>(Map.of("shingle_size", "２"));
        InvalidOptionException e = expectThrows(InvalidOptionException.class, () -> SimHashSettings.fromMap(simhash));
        assertEquals("shingle_size", e.option());
        Map<String, Object> minhash = new HashMap<>(Map.of(MinHashSettings.HASHES, "many"));
        InvalidOptionException m = expectThrows(InvalidOptionException.class, () -> MinHashSettings.fromMap(minhash));
        assertEquals(MinHashSettings.HASHES, m.option());
        assertEquals("[hashes] must be an integer, got [many]", m.getMessage());
    }
}
