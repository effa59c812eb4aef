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
     * From algorithm version 2, a block that is not link dense and reads as a sentence (at least
     * {@link #SENTENCE_MIN_WORDS} words ending in . ! ? or their CJK forms) is content whatever its neighbours: the
     * word-count rules were fitted on news articles, and on short pages (help pages, product pages, e-mails) they keep
     * a different arbitrary subset of the short paragraphs in the HTML page and in its text dump. Navigation labels,
     * menus and link lists rarely end like sentences. Version 3 then drops cookie notices ({@link #isCookieNotice})
     * and headings that head nothing ({@link #dropOrphanHeadings}).
     */
    static boolean[] classify(java.util.List<TextBlock> blocks, int version) {
        boolean keepSentences = version >= 2;
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
            content[i] = isContent && !isCopyrightLine(curr) && (version < 3 || !isCookieNotice(curr));
        }
        if (version >= 3) dropOrphanHeadings(blocks, content);
        return content;
    }

    /** A heading has at most this many words (and does not read as a sentence). */
    static final int HEADING_MAX_WORDS = 5;

    /**
     * Version 3: a heading goes with what it heads. A short block that does not read as a sentence and is not followed
     * by content is the title of a boilerplate section ("About us", "Related topics", "Most read") or a stray label
     * that the word-count rules kept because its long neighbour was content. The HTML page and its text dump cut such
     * labels into blocks differently, so they were kept on one side and not the other. "Followed by content" is read
     * from the classification before this rule, so that dropping one label does not drop the one before it: a list of
     * short items at the end of the main text loses only its last item, not the whole list.
     */
    static void dropOrphanHeadings(java.util.List<TextBlock> blocks, boolean[] content) {
        boolean[] classified = content.clone();
        for (int i = 0; i < blocks.size(); i++) {
            TextBlock b = blocks.get(i);
            boolean nextIsContent = i + 1 < blocks.size() && classified[i + 1];
            if (content[i] && nextIsContent == false && b.words <= HEADING_MAX_WORDS && readsAsSentence(b) == false) content[i] = false;
        }
    }

    /** A cookie notice has at most this many words. */
    static final int COOKIE_NOTICE_MAX_WORDS = 40;
    private static final java.util.regex.Pattern COOKIE_CONSENT = java.util.regex.Pattern.compile(
        "(?i)\\b(use|uses|using|accept|agree|consent|continu\\w*|privacy)\\b|同意|使用|继续"
    );

    /**
     * Version 3: a short block that mentions cookies together with their use or the reader's consent is a consent
     * banner, which templates put on every page (the HTML rules already drop elements named {@code cookie},
     * {@code consent} or {@code gdpr}; a text dump keeps the banner as a sentence). A short paragraph about cookies
     * that also says "use" goes too, on every copy of its page alike.
     */
    static boolean isCookieNotice(TextBlock b) {
        if (b.words > COOKIE_NOTICE_MAX_WORDS) return false;
        return mentionsCookie(b.text) && COOKIE_CONSENT.matcher(b.text).find();
    }

    /** "cookie" anywhere, ASCII case aside: Chinese banners write "Cookie" inside CJK text, without word boundaries. */
    private static boolean mentionsCookie(String t) {
        for (int i = 0; i + 6 <= t.length(); i++) {
            if ((t.charAt(i) | 0x20) == 'c' && t.regionMatches(true, i, "cookie", 0, 6)) return true;
        }
        return false;
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
