package org.nearduplicate.core.extract;

import java.text.Normalizer;

/**
 * Folds the cosmetic differences that must not change a fingerprint: NFKC (full-width and half-width forms,
 * ligatures, the ellipsis), curly quotes and dashes to ASCII, invisible characters removed, lone surrogates replaced.
 * Case is folded later by the analyzer, whitespace and punctuation by the tokenizer.
 */
public final class TextNormalizer {
    private TextNormalizer() {}

    public static String normalize(String s) {
        String nfkc = Normalizer.normalize(s, Normalizer.Form.NFKC);
        StringBuilder sb = null;
        for (int i = 0; i < nfkc.length(); i++) {
            char c = nfkc.charAt(i);
            char r = fold(c);
            if (Character.isSurrogate(c)) {
                // a valid pair passes; a lone surrogate (broken UTF-16 from a bad decoder) would make Lucene's
                // tokenizer drop the rest of the text, so it becomes U+FFFD, which separates words like punctuation
                if (Character.isHighSurrogate(c) && i + 1 < nfkc.length() && Character.isLowSurrogate(nfkc.charAt(i + 1))) {
                    if (sb != null) sb.append(c).append(nfkc.charAt(i + 1));
                    i++;
                    continue;
                }
                r = '\uFFFD';
            }
            if (r != c && sb == null) {
                sb = new StringBuilder(nfkc.length());
                sb.append(nfkc, 0, i);
            }
            if (sb != null && r != 0) sb.append(r);
        }
        return sb == null ? nfkc : sb.toString();
    }

    /** The replacement of c, or 0 to drop it. */
    private static char fold(char c) {
        return switch (c) {
            case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032', '\u00B4', '\u0060' -> '\'';
            case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\u00AB', '\u00BB' -> '"';
            case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212' -> '-';
            case '\u00AD', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF' -> 0;
            case '\u00A0', '\u3000' -> ' ';
            default -> c;
        };
    }
}
