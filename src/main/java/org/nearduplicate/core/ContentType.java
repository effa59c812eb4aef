package org.nearduplicate.core;

import java.util.Locale;

import org.nearduplicate.core.options.InvalidOptionException;

/** How the input is read. {@link #AUTO} decides per document with {@link #detect(String)}. */
public enum ContentType {
    TEXT,
    HTML,
    AUTO;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ContentType fromId(String id) {
        for (ContentType t : values()) {
            if (t.id().equals(id)) return t;
        }
        throw new InvalidOptionException("content_type", "must be one of [text, html, auto], got [" + id + "]");
    }

    /**
     * HTML when the text starts (after whitespace and a BOM) with a doctype, a comment or a tag, or when it contains
     * any of a few structural tags early on; otherwise text. Looks at a bounded prefix only.
     */
    public static ContentType detect(String content) {
        int n = Math.min(content.length(), 4096);
        int i = 0;
        while (i < n && (Character.isWhitespace(content.charAt(i)) || content.charAt(i) == '\uFEFF'))
            i++;
        if (i < n && content.charAt(i) == '<') {
            int j = i + 1;
            if (j < n && (content.charAt(j) == '!' || content.charAt(j) == '?' || Character.isLetter(content.charAt(j)))) {
                return HTML;
            }
        }
        String head = content.substring(i, n).toLowerCase(Locale.ROOT);
        for (String marker : new String[] { "<html", "<body", "<div", "<p>", "<p ", "<br", "<table", "<article" }) {
            if (head.contains(marker)) return HTML;
        }
        return TEXT;
    }
}
