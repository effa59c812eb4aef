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
 *
 * <p>Version 3 reads two more shapes the way the HTML page shows them: a line without letters or digits (a table's
 * {@code |} cell separators and borders, a heading's {@code ====} underline, {@code * * *}) separates blocks as an
 * empty line does, instead of gluing its neighbours into one paragraph the HTML page does not have; and a menu bar or
 * breadcrumb line ({@link #isLabelBar}) counts as linked text, as its links do in HTML.
 */
final class TextExtractor {
    static final Pattern LINK_MARKER = Pattern.compile("\\[\\d{1,5}]");
    private static final Pattern REFERENCE_LINE = Pattern.compile("\\s*\\d{1,5}\\.\\s+\\S+\\s*");
    /** Linked text ends at a separator, another marker or the end of the line. */
    private static final Pattern LINK_TEXT_END = Pattern.compile("[|·•,;:!?()\\[\\]，。；：！？、]| {2,}");
    static final Pattern LIST_BULLET = Pattern.compile("^\\s*(?:[•*+\\-–·]|\\d{1,3}[.)])\\s+");

    private TextExtractor() {}

    static String mainText(String text, int version) {
        // stripped once: the menu-bar pass and the paragraph pass both read every line
        List<String> lines = text.lines().map(String::strip).toList();
        int end = referencesStart(lines);
        List<TextBlock> blocks = new ArrayList<>();
        List<Boolean> listItems = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        int[] paragraphBarWords = { 0 };
        boolean[] bars = version >= 3 ? labelBars(lines, end, version) : new boolean[end];
        for (int i = 0; i < end; i++) {
            String line = lines.get(i);
            if (version >= 3 && isSeparatorLine(line)) line = "";
            // a paragraph ends at a blank line; list items and lines with links are blocks of their own, so that
            // navigation lists are classified line by line while wrapped running text stays one block
            boolean listItem = isListItem(line);
            boolean standalone = listItem || hasLinkMarker(line);
            int barWords = bars[i] ? TextBlock.countWords(line) : 0;
            if (line.isEmpty() || standalone) {
                flush(paragraph, paragraphBarWords, blocks, listItems);
                if (standalone) {
                    blocks.add(block(line, barWords));
                    listItems.add(listItem);
                }
            } else {
                if (paragraph.length() > 0) paragraph.append(' ');
                paragraph.append(line);
                paragraphBarWords[0] += barWords;
            }
        }
        flush(paragraph, paragraphBarWords, blocks, listItems);
        boolean[] content = TextBlock.classify(blocks, version);
        if (version >= 2) dropMenus(blocks, listItems, content);
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
            while (end < blocks.size() && listItems.get(end) && isLabel(blocks.get(end)))
                end++;
            if (end - i >= MENU_MIN_ITEMS) {
                for (int j = i; j < end; j++)
                    content[j] = false;
            }
            i = Math.max(end, i + 1);
        }
    }

    static final int MENU_MIN_ITEMS = 4;
    static final int MENU_MAX_WORDS = 8;

    private static boolean isLabel(TextBlock b) {
        return b.words <= MENU_MAX_WORDS && TextBlock.readsAsSentence(b) == false;
    }

    private static void flush(StringBuilder paragraph, int[] barWords, List<TextBlock> blocks, List<Boolean> listItems) {
        if (paragraph.length() > 0) {
            listItems.add(false);
            blocks.add(block(paragraph.toString(), barWords[0]));
            paragraph.setLength(0);
        }
        barWords[0] = 0;
    }

    /** {@code barWords}: words of the block's menu-bar lines ({@link #labelBars}), which count as linked. */
    private static TextBlock block(String line, int barWords) {
        int linked = 0;
        int markers = 0;
        if (line.indexOf('[') >= 0) { // a marker starts with '[': most paragraphs have none, and indexOf is cheap
            Matcher m = LINK_MARKER.matcher(line);
            while (m.find()) {
                markers++;
                Matcher endMatcher = LINK_TEXT_END.matcher(line);
                int end = endMatcher.find(m.end()) ? endMatcher.start() : line.length();
                linked += Math.min(8, TextBlock.countWords(line.substring(m.end(), end)));
            }
        }
        String clean = markers == 0 ? line : LINK_MARKER.matcher(line).replaceAll("");
        // list items are short lines too; the bullet itself carries no words
        Matcher bullet = LIST_BULLET.matcher(clean);
        if (bullet.lookingAt()) clean = clean.substring(bullet.end());
        return new TextBlock(clean, TextBlock.countWords(clean), linked + barWords);
    }

    /**
     * Whether the line starts with a list bullet. {@link #LIST_BULLET} is anchored ({@code ^}, no MULTILINE), so
     * {@code lookingAt} gives what {@code find} gives without trying every position of a long line.
     */
    static boolean isListItem(String line) {
        return LIST_BULLET.matcher(line).lookingAt();
    }

    /** Whether the line holds a {@code [12]} link marker; the {@code '['} test skips the regular expression on most lines. */
    static boolean hasLinkMarker(String line) {
        return line.indexOf('[') >= 0 && LINK_MARKER.matcher(line).find();
    }

    /**
     * Version 3: the lines that are a menu bar or a breadcrumb ({@link #isLabelBar}) on their own. A line of labels
     * next to another such line is a table row instead (a text dump writes a table one row per line, cells separated
     * by {@code |}), whose cells are text on the HTML page too.
     */
    private static boolean[] labelBars(List<String> lines, int end, int version) {
        boolean[] labels = new boolean[end];
        for (int i = 0; i < end; i++)
            labels[i] = isLabelBar(lines.get(i), version);
        boolean[] bars = new boolean[end];
        for (int i = 0; i < end; i++) {
            bars[i] = labels[i] && (i == 0 || labels[i - 1] == false) && (i + 1 == end || labels[i + 1] == false);
        }
        return bars;
    }

    /** Version 3: no letter or digit in any script, e.g. {@code |}, {@code +----+}, {@code ====}, {@code * * *}. */
    static boolean isSeparatorLine(String line) {
        return line.isEmpty() == false && line.codePoints().noneMatch(Character::isLetterOrDigit);
    }

    /** The separators of a menu bar ({@code Home | About | Contact}) or a breadcrumb ({@code Docs » Guide » Setup}). */
    private static final Pattern LABEL_SEPARATOR = Pattern.compile(" (?:\\||»|›|>) ");
    static final int LABEL_BAR_MIN_LABELS = 3;
    static final int LABEL_MAX_WORDS = 6;

    /**
     * Version 3: at least {@link #LABEL_BAR_MIN_LABELS} labels of at most {@link #LABEL_MAX_WORDS} words separated by
     * {@code " | "}, {@code " » "}, {@code " › "} or {@code " > "}: how text browsers render a menu bar, a footer's
     * link row or a breadcrumb, whose words are links on the HTML page. A sentence or a shell line with one
     * {@code >} has fewer parts. Version 5 tolerates one label in {@link #LABEL_BAR_LONG_SHARE} that is longer (a
     * long page title among a footer's links, the copyright line run into the last label), as long as
     * {@link #LABEL_BAR_MIN_LABELS} labels are short; the same rule reads such rows in HTML
     * ({@code HtmlExtractor}).
     */
    static boolean isLabelBar(String text, int version) {
        if (text.indexOf(" | ") < 0 && text.indexOf(" » ") < 0 && text.indexOf(" › ") < 0 && text.indexOf(" > ") < 0) return false;
        String[] labels = LABEL_SEPARATOR.split(text);
        if (labels.length < LABEL_BAR_MIN_LABELS) return false;
        int longLabels = 0;
        for (String label : labels) {
            if (TextBlock.countWords(label) > LABEL_MAX_WORDS) longLabels++;
        }
        if (version < 5) return longLabels == 0;
        return longLabels * LABEL_BAR_LONG_SHARE <= labels.length && labels.length - longLabels >= LABEL_BAR_MIN_LABELS;
    }

    /** Version 5: at most one label in this many may be longer than {@link #LABEL_MAX_WORDS} words. */
    static final int LABEL_BAR_LONG_SHARE = 5;

    /** Index of a trailing "References" line followed only by numbered URL lines, or the line count. */
    private static int referencesStart(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i);
            if (line.isEmpty() || REFERENCE_LINE.matcher(line).matches()) continue;
            return line.equals("References") || line.equals("Visible links") ? i : lines.size();
        }
        return lines.size();
    }
}
