package org.nearduplicate.core.extract;

/** A run of text between block boundaries, with the counts the boilerplate classifier needs. */
final class TextBlock {
    final String text;
    /** Words; a CJK character counts as half a word, about the length of a Chinese word. */
    final int words;
    /** Words inside links. */
    final int linkedWords;

    TextBlock(String text, int words, int linkedWords) {
        this.text = text;
        this.words = words;
        this.linkedWords = Math.min(linkedWords, words);
    }

    double linkDensity() {
        return words == 0 ? 0 : (double) linkedWords / words;
    }

    /** Counts words the way {@link #words} is defined; CJK characters are summed in halves. */
    static int countWords(CharSequence s) {
        int latinWords = 0;
        int cjk = 0;
        boolean inWord = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (isCjk(c)) {
                cjk++;
                inWord = false;
            } else if (Character.isLetterOrDigit(c)) {
                if (!inWord) latinWords++;
                inWord = true;
            } else {
                inWord = false;
            }
        }
        return latinWords + (cjk + 1) / 2;
    }

    static boolean isCjk(char c) {
        return (c >= '\u3400' && c <= '\u9FFF') || (c >= '\uF900' && c <= '\uFAFF') || (c >= '\u3040' && c <= '\u30FF');
    }

    /**
     * Boilerpipe's word-count rules (Kohlschütter et al., "Boilerplate Detection using Shallow Text Features", WSDM
     * 2010, NumWordsRulesClassifier): a block is content unless it is link dense, or short among short neighbours.
     * With {@code keepSentences} (algorithm version 2), a block that is not link dense and reads as a sentence (at
     * least {@link #SENTENCE_MIN_WORDS} words ending in . ! ? or their CJK forms) is content whatever its neighbours:
     * the word-count rules were fitted on news articles, and on short pages (help pages, product pages, e-mails) they
     * keep a different arbitrary subset of the short paragraphs in the HTML page and in its text dump. Navigation
     * labels, menus and link lists rarely end like sentences.
     */
    static boolean[] classify(java.util.List<TextBlock> blocks, boolean keepSentences) {
        boolean[] content = new boolean[blocks.size()];
        TextBlock empty = new TextBlock("", 0, 0);
        for (int i = 0; i < blocks.size(); i++) {
            TextBlock prev = i > 0 ? blocks.get(i - 1) : empty;
            TextBlock curr = blocks.get(i);
            TextBlock next = i + 1 < blocks.size() ? blocks.get(i + 1) : empty;
            boolean isContent;
            if (curr.linkDensity() <= 0.333333) {
                if (prev.linkDensity() <= 0.555556) {
                    isContent = curr.words > 16 || next.words > 15 || prev.words > 4;
                } else {
                    isContent = curr.words > 40 || next.words > 17;
                }
            } else {
                isContent = false;
            }
            if (isContent == false && keepSentences && curr.linkDensity() <= 0.333333) isContent = readsAsSentence(curr);
            content[i] = isContent && !isCopyrightLine(curr);
        }
        return content;
    }

    /** A sentence has at least this many words (8 CJK characters). */
    static final int SENTENCE_MIN_WORDS = 4;
    /** Ends like a sentence: terminal punctuation, then optionally a closing quote or bracket. */
    private static final java.util.regex.Pattern SENTENCE_END = java.util.regex.Pattern.compile("[.!?。！？][\"'”’)）」』]?\\s*$");

    static boolean readsAsSentence(TextBlock b) {
        return b.words >= SENTENCE_MIN_WORDS && SENTENCE_END.matcher(b.text).find();
    }

    private static final java.util.regex.Pattern COPYRIGHT = java.util.regex.Pattern.compile(
        "(?i)^\\W{0,3}(©|\\(c\\)|copyright\\b|版权所有|all rights reserved)|\\b(all rights reserved)\\b|版权所有|icp备"
    );

    /** Short copyright, "all rights reserved" and ICP licence lines, which templates repeat on every page. */
    static boolean isCopyrightLine(TextBlock b) {
        return b.words <= 20 && mayBeCopyright(b.text) && COPYRIGHT.matcher(b.text).find();
    }

    /**
     * False when {@link #COPYRIGHT} cannot match: it needs one of these strings, ASCII case aside. Most short blocks
     * are not copyright lines, and a few substring searches cost less than the pattern's attempt at every position.
     */
    private static boolean mayBeCopyright(String text) {
        if (text.indexOf('\u00A9') >= 0 || text.contains("版权所有")) return true;
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        return lower.contains("(c)") || lower.contains("copyright") || lower.contains("all rights reserved") || lower.contains("icp备");
    }
}
