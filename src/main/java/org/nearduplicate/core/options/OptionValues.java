package org.nearduplicate.core.options;

import java.util.Locale;

/**
 * The one rule for option values given as JSON (a REST body, a processor's configuration, an algorithm id), shared by
 * every endpoint and method: numbers may also be given as strings of ASCII digits ({@code "size": "10"} is 10, as
 * OpenSearch coerces numbers), booleans as {@code "true"} / {@code "false"}; anything else is an
 * {@link InvalidOptionException} naming the option. Fullwidth and other Unicode digits are not numbers here (the JDK's
 * parsers would read them).
 */
public final class OptionValues {
    private OptionValues() {}

    /** An integer, or a string of one. */
    public static int integer(String option, Object value) {
        Long n = wholeNumber(value);
        if (n == null || n != n.intValue()) throw new InvalidOptionException(option, "must be an integer, got [" + value + "]");
        return n.intValue();
    }

    /** An integer from {@code min} to {@code max}, or a string of one. */
    public static int integer(String option, Object value, int min, int max) {
        int n = integer(option, value);
        if (n < min || n > max) throw new InvalidOptionException(option, "must be between " + min + " and " + max + ", got " + n);
        return n;
    }

    /** A finite number, or a string of one. */
    public static double number(String option, Object value) {
        Double d = null;
        if (value instanceof Number n) {
            d = n.doubleValue();
        } else if (value instanceof String s && decimal(s.trim())) {
            d = Double.parseDouble(s.trim());
        }
        if (d == null || Double.isFinite(d) == false) throw new InvalidOptionException(option, "must be a number, got [" + value + "]");
        return d;
    }

    /** {@code true} or {@code false}, as a boolean or a string. */
    public static boolean bool(String option, Object value) {
        if (value instanceof Boolean b) return b;
        if ("true".equals(value)) return true;
        if ("false".equals(value)) return false;
        throw new InvalidOptionException(option, "must be true or false, got [" + value + "]");
    }

    public static String string(String option, Object value) {
        if (value instanceof String s) return s;
        throw new InvalidOptionException(option, "must be a string, got [" + value + "]");
    }

    /** A constant of {@code type} by its lower-case name, e.g. {@code "tf_idf"} for {@code TF_IDF}; the message lists them all. */
    public static <E extends Enum<E>> E enumValue(String option, Object value, Class<E> type) {
        String s = string(option, value);
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(s)) return e;
        }
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
        }
        throw new InvalidOptionException(option, "must be one of [" + allowed + "], got [" + s + "]");
    }

    /** The whole number a value holds (an integral JSON number or a string of ASCII digits with an optional sign), or null. */
    public static Long wholeNumber(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof String s && asciiInteger(s.trim())) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                return null; // beyond a long
            }
        }
        return null;
    }

    private static boolean asciiInteger(String s) {
        int start = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
        if (start == s.length()) return false;
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
        }
        return true;
    }

    /** ASCII digits with an optional sign, one point and an exponent: what a JSON number looks like. */
    private static boolean decimal(String s) {
        return s.matches("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    }
}
