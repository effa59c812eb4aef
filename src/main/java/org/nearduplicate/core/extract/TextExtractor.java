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
        List<Boolean> listItems = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        for (int i = 0; i < end; i++) {
            String line = lines.get(i).strip();
            // a paragraph ends at a blank line; list items and lines with links are blocks of their own, so that
            // navigation lists are classified line by line while wrapped running text stays one block
            boolean standalone = LIST_BULLET.matcher(line).find() || LINK_MARKER.matcher(line).find();
            if (line.isEmpty() || standalone) {
                flush(paragraph, blocks, listItems);
                if (standalone) {
                    blocks.add(block(line));
                    listItems.add(LIST_BULLET.matcher(line).find());
                }
            } else {
                if (paragraph.length() > 0) paragraph.append(' ');
                paragraph.append(line);
            }
        }
        flush(paragraph, blocks, listItems);
        boolean[] content = TextBlock.classify(blocks, keepSentences);
        if (keepSentences) dropMenus(blocks, listItems, content); // version 2
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            if (content[i]) sb.append(blocks.get(i).text).append('\n');
        }
        return sb.toString();
    }

    /**
     * Version 2: a run of at least {@link #MENU_MIN_ITEMS} list items that are all short labels (at most
     * {@link #MENU_MAX_WORDS} words, none reading as a sentence) is a menu or a link list of the page's template, as
     * the HTML page's {@code nav}, sidebar and "related" lists are: a text dump loses the markup and the links that
     * tell them apart, not their shape.
     */
    private static void dropMenus(List<TextBlock> blocks, List<Boolean> listItems, boolean[] content) {
        int i = 0;
        while (i < blocks.size()) {
            int end = i;
            while (end < blocks.size() && listItems.get(end) && isLabel(blocks.get(end))) end++;
            if (end - i >= MENU_MIN_ITEMS) {
                for (int j = i; j < end; j++) content[j] = false;
            }
            i = Math.max(end, i + 1);
        }
    }

    static final int MENU_MIN_ITEMS = 4;
    static final int MENU_MAX_WORDS = 8;

    private static boolean isLabel(TextBlock b) {
        return b.words <= MENU_MAX_WORDS && TextBlock.readsAsSentence(b) == false;
    }

    private static void flush(StringBuilder paragraph, List<TextBlock> blocks, List<Boolean> listItems) {
        if (paragraph.length() > 0) {
            listItems.add(false);
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
