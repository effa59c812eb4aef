package org.nearduplicate.core.sketch;

import java.math.BigInteger;
import java.util.Locale;

/**
 * Parsing, printing and comparing 64-bit fingerprints.
 *
 * <p>The canonical text form is 16 lower-case hex digits. Only ASCII digits and letters are digits here: a fullwidth
 * or Arabic-Indic digit is not a hex or decimal digit. {@link #parse(String)} also accepts a {@code 0x} prefix,
 * and decimal numbers in the signed ({@code long}) or unsigned (0 .. 2^64-1) range. A string of exactly 16
 * characters without prefix or sign is always read as hex, so that the canonical form never changes meaning; the
 * one ambiguous case, an unsigned decimal of exactly 16 digits, must be given as a number or through
 * {@link #parseDecimal(String)}.
 */
public final class Fingerprints {
    private static final BigInteger UNSIGNED_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final BigInteger SIGNED_MIN = BigInteger.valueOf(Long.MIN_VALUE);

    private Fingerprints() {}

    /** Hamming distance: the number of bits in which the two fingerprints differ. */
    public static int distance(long a, long b) {
        return Long.bitCount(a ^ b);
    }

    /** The canonical form: 16 lower-case hex digits, zero padded. */
    public static String toHex(long fingerprint) {
        String hex = Long.toHexString(fingerprint);
        return hex.length() == 16 ? hex : "0000000000000000".substring(hex.length()) + hex;
    }

    /** The fingerprint as an unsigned decimal number (0 .. 18446744073709551615). */
    public static String toUnsignedDecimal(long fingerprint) {
        return Long.toUnsignedString(fingerprint);
    }

    /** The fingerprint as a signed decimal number, as stored in a {@code long} field. */
    public static String toSignedDecimal(long fingerprint) {
        return Long.toString(fingerprint);
    }

    /**
     * Parses hex ({@code 0x} prefix optional when the string has exactly 16 digits) or decimal (signed or unsigned).
     *
     * @throws IllegalArgumentException naming what is wrong with the string
     */
    public static long parse(String value) {
        if (value == null) {
            throw new IllegalArgumentException("fingerprint must not be null");
        }
        String s = value.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("fingerprint must not be empty");
        }
        if (s.startsWith("0x") || s.startsWith("0X")) {
            return parseHex(s.substring(2), value);
        }
        if (s.length() == 16 && s.charAt(0) != '-' && s.charAt(0) != '+') {
            return parseHex(s, value);
        }
        return parseDecimal(s, value);
    }

    /** Parses exactly 1 to 16 hex digits, without prefix. */
    public static long parseHex(String hex) {
        return parseHex(hex, hex);
    }

    private static long parseHex(String hex, String original) {
        if (hex.isEmpty() || hex.length() > 16) {
            throw new IllegalArgumentException(
                "invalid fingerprint [" + shorten(original) + "]: expected 1 to 16 hex digits, got " + hex.length()
            );
        }
        long result = 0;
        for (int i = 0; i < hex.length(); i++) {
            int digit = hexDigit(hex.charAt(i));
            if (digit < 0) {
                throw new IllegalArgumentException(
                    "invalid fingerprint [" + shorten(original) + "]: [" + hex.charAt(i) + "] is not a hex digit"
                );
            }
            result = (result << 4) | digit;
        }
        return result;
    }

    /**
     * The value of an ASCII hex digit ({@code 0-9}, {@code a-f}, {@code A-F}), or -1. Not {@link Character#digit}, which
     * also accepts the other Unicode digits (fullwidth {@code ８}, Arabic-Indic {@code ٨}) and fullwidth letters.
     */
    static int hexDigit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    /** Parses a signed or unsigned decimal number, whatever its length. */
    public static long parseDecimal(String decimal) {
        if (decimal == null || decimal.trim().isEmpty()) {
            throw new IllegalArgumentException("fingerprint must not be empty");
        }
        return parseDecimal(decimal.trim(), decimal);
    }

    private static long parseDecimal(String s, String original) {
        int start = s.charAt(0) == '-' || s.charAt(0) == '+' ? 1 : 0;
        if (start == s.length() || s.length() > 21) {
            throw new IllegalArgumentException(
                "invalid fingerprint [" + shorten(original) + "]: expected 16 hex digits, 0x-prefixed hex, or a decimal number"
            );
        }
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                throw new IllegalArgumentException(
                    "invalid fingerprint [" + shorten(original) + "]: expected 16 hex digits, 0x-prefixed hex, or a decimal number"
                );
            }
        }
        return fromBigInteger(new BigInteger(s), original);
    }

    /** Accepts a signed long or an unsigned 64-bit value. */
    public static long fromBigInteger(BigInteger value, String original) {
        if (value.compareTo(SIGNED_MIN) < 0 || value.compareTo(UNSIGNED_MAX) > 0) {
            throw new IllegalArgumentException("invalid fingerprint [" + shorten(original) + "]: decimal value out of the 64-bit range");
        }
        return value.longValue();
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...(" + s.length() + " chars)";
    }

    /** Convenience for messages. */
    public static String describe(long fingerprint) {
        return String.format(Locale.ROOT, "%s (%d bits set)", toHex(fingerprint), Long.bitCount(fingerprint));
    }
}
