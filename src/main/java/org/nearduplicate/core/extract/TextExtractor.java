package org.nearduplicate.core.extract;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Main content of plain text, for text-browser dumps of web pages ({@code lynx -dump}, {@code w3m -dump}) that carry
 * the page's navigation, link lists, ads and footer as lines of text.
 *
 * <p>Paragraphs (wrapped lines are joined), list items and lines with links are the blocks of the same boilerpipe
 * rules used for HTML ({@link TextBlock#classify}); the words after a {@code [12]} link marker count as linked words,
 * and a trailing {@code References} list of URLs is cut off.
 */
final class TextExtractor {
    private static final Pattern LINK_MARKER = Pattern.compile("\\[\\d{1,5}]");
    private static final Pattern REFERENCE_LINE = Pattern.compile("\\s*\\d{1,5}\\.\\s+\\S+\\s*");
    /** Linked text ends at a separator, another marker or the end of the line. */
    private static final Pattern LINK_TEXT_END = Pattern.compile("[|·•,;:!?()\\[\\]，。；：！？、]| {2,}");
    private static final Pattern LIST_BULLET = Pattern.compile("^\\s*(?:[•*+\\-–·]|\\d{1,3}[.)])\\s+");

    private TextExtractor() {}

    static String mainText(String text, boolean keepSentences) {
        List<String> lines = text.lines().toList();
        int end = referencesStart(lines);
        List<TextBlock> blocks = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        for (int i = 0; i < end; i++) {
            String line = lines.get(i).strip();
            // a paragraph ends at a blank line; list items and lines with links are blocks of their own, so that
            // navigation lists are classified line by line while wrapped running text stays one block
            boolean standalone = LIST_BULLET.matcher(line).find() || LINK_MARKER.matcher(line).find();
            if (line.isEmpty() || standalone) {
                flush(paragraph, blocks);
                if (standalone) blocks.add(block(line));
            } else {
                if (paragraph.length() > 0) paragraph.append(' ');
                paragraph.append(line);
            }
        }
        flush(paragraph, blocks);
        boolean[] content = TextBlock.classify(blocks, keepSentences);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            if (content[i]) sb.append(blocks.get(i).text).append('\n');
        }
        return sb.toString();
    }

    private static void flush(StringBuilder paragraph, List<TextBlock> blocks) {
        if (paragraph.length() > 0) {
            blocks.add(block(paragraph.toString()));
            paragraph.setLength(0);
        }
    }

    private static TextBlock block(String line) {
        int linked = 0;
        Matcher m = LINK_MARKER.matcher(line);
        int markers = 0;
        while (m.find()) {
            markers++;
            Matcher endMatcher = LINK_TEXT_END.matcher(line);
            int end = endMatcher.find(m.end()) ? endMatcher.start() : line.length();
            linked += Math.min(8, TextBlock.countWords(line.substring(m.end(), end)));
        }
        String clean = markers == 0 ? line : LINK_MARKER.matcher(line).replaceAll("");
        // list items are short lines too; the bullet itself carries no words
        clean = LIST_BULLET.matcher(clean).replaceFirst("");
        return new TextBlock(clean, TextBlock.countWords(clean), linked);
    }

    /** Index of a trailing "References" line followed only by numbered URL lines, or the line count. */
    private static int referencesStart(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || REFERENCE_LINE.matcher(line).matches()) continue;
            return line.equals("References") || line.equals("Visible links") ? i : lines.size();
        }
        return lines.size();
    }
}
