package org.nearduplicate.core.extract;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Text of an HTML page, optionally reduced to the main content.
 *
 * <p>Main-content extraction has two steps, both linear in the page size (jsoup's traversors are iterative, so deep
 * nesting cannot overflow the stack):
 * <ol>
 *   <li>Structural pruning, as Readability does: drop non-content elements (scripts, styles, forms, {@code nav},
 *       {@code aside}, page {@code header}/{@code footer}), elements hidden by inline style, and elements whose class, id or ARIA role
 *       name navigation, sidebars, ads, cookie banners, sharing, related links and the like.</li>
 *   <li>Block classification, as boilerpipe does: the remaining text is cut into blocks at block-level elements and
 *       each block is kept or dropped by its word count, link density and its neighbours' (see
 *       {@link TextBlock#classify}).</li>
 * </ol>
 */
final class HtmlExtractor {
    private static final Set<String> DROP_TAGS = Set.of(
        "script",
        "style",
        "noscript",
        "template",
        "iframe",
        "svg",
        "math",
        "canvas",
        "form",
        "button",
        "select",
        "input",
        "textarea",
        "nav",
        "aside",
        "object",
        "embed",
        "head",
        "dialog",
        "menu"
    );
    /** Dropped unless inside the main content (an article's own header/footer can hold its title). */
    private static final Set<String> PAGE_TAGS = Set.of("header", "footer");
    private static final Set<String> DROP_ROLES = Set.of(
        "navigation",
        "banner",
        "contentinfo",
        "complementary",
        "search",
        "menu",
        "menubar",
        "dialog",
        "alertdialog",
        "toolbar"
    );
    /**
     * Readability's "unlikely candidates", matched against the lower-cased words of class and id names; see
     * {@link #isUnlikelyWord} for the three prefixes that take any suffix. Plain sets, not a regular expression: every
     * element of every page is classified.
     */
    private static final Set<String> UNLIKELY_WORDS = Set.of(
        "ad",
        "ads",
        "adsense",
        "banner",
        "breadcrumb",
        "breadcrumbs",
        "combx",
        "comment",
        "comments",
        "community",
        "cookie",
        "cookies",
        "consent",
        "gdpr",
        "disqus",
        "footer",
        "header",
        "masthead",
        "menu",
        "nav",
        "navbar",
        "navigation",
        "topbar",
        "toolbar",
        "pagination",
        "pager",
        "popup",
        "modal",
        "related",
        "remark",
        "replies",
        "rss",
        "share",
        "sharing",
        "social",
        "shoutbox",
        "sidebar",
        "skyscraper",
        "subscribe",
        "newsletter",
        "widget",
        "supplemental",
        "promo",
        "ticker",
        "similar",
        "tags",
        "catlinks",
        "login",
        "signup",
        "copyright",
        "credits",
        "notice",
        "toc",
        "logo",
        "meta",
        "byline",
        "author",
        "profile"
    );
    /** Readability's "maybe candidates": a class naming content protects an element. */
    private static final Set<String> LIKELY_WORDS = Set.of(
        "article",
        "body",
        "content",
        "main",
        "entry",
        "post",
        "story",
        "text",
        "message",
        "document",
        "postbody"
    );
    private static final Set<String> BLOCK_TAGS = Set.of(
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "blockquote",
        "table",
        "tr",
        "thead",
        "tbody",
        "caption",
        "section",
        "article",
        "main",
        "header",
        "footer",
        "figure",
        "figcaption",
        "address",
        "hr",
        "br",
        "center",
        "body",
        "html",
        "title",
        "details",
        "summary",
        "legend",
        "fieldset"
    );

    private HtmlExtractor() {}

    /** All visible text of the page, one block per line. */
    static String fullText(String html) {
        List<TextBlock> blocks = blocks(parseBody(html), false);
        StringBuilder sb = new StringBuilder();
        for (TextBlock b : blocks)
            sb.append(b.text).append('\n');
        return sb.toString();
    }

    /** The main content of the page, one kept block per line. */
    static String mainText(String html, int version) {
        Element body = parseBody(html);
        prune(body, version);
        List<TextBlock> blocks = blocks(body, version >= 5);
        boolean[] content = TextBlock.classify(blocks, version);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            if (content[i]) sb.append(blocks.get(i).text).append('\n');
        }
        return sb.toString();
    }

    private static Element parseBody(String html) {
        Document doc = Jsoup.parse(html);
        // the title repeats the page's heading and often the site name: it is not main content
        return doc.body();
    }

    /** Removes the non-content elements; see the class comment. */
    private static void prune(Element body, int version) {
        Map<Element, Integer> textLength = textLengths(body);
        int total = Math.max(1, textLength.getOrDefault(body, 0));
        // pages repeat the same class/id names on many elements: classify each distinct name string once
        Map<String, Boolean> unlikelyNames = new HashMap<>();
        Map<String, Boolean> regionNames = new HashMap<>();
        NodeTraversor.filter(new NodeFilter() {
            int mainDepth = 0;

            @Override
            public FilterResult head(Node node, int depth) {
                if (!(node instanceof Element el)) return FilterResult.CONTINUE;
                String tag = el.normalName();
                if (isMainMarker(el)) mainDepth++;
                if (el == body) return FilterResult.CONTINUE;
                if (DROP_TAGS.contains(tag) || isHiddenByStyle(el)) return FilterResult.REMOVE;
                if (PAGE_TAGS.contains(tag) && mainDepth == 0) return FilterResult.REMOVE;
                String role = el.attr("role").toLowerCase(Locale.ROOT);
                if (DROP_ROLES.contains(role)) return FilterResult.REMOVE;
                if (mainDepth > 0 && isMainMarker(el) == false && tag.equals("a") == false && looksUnlikely(el, unlikelyNames)
                    || mainDepth == 0 && looksUnlikely(el, unlikelyNames)) {
                    // a wrapper that holds most of the page's text is layout, not boilerplate; from v5 not when its
                    // name is a page region's, which never wraps the content (a long footer of a short page)
                    if (textLength.getOrDefault(el, 0) * 2 < total) return FilterResult.REMOVE;
                    if (version >= 5 && mainDepth == 0 && namesRegion(el, regionNames)) return FilterResult.REMOVE;
                }
                return FilterResult.CONTINUE;
            }

            @Override
            public FilterResult tail(Node node, int depth) {
                if (node instanceof Element el && isMainMarker(el)) mainDepth--;
                return FilterResult.CONTINUE;
            }
        }, body);
    }

    private static boolean isMainMarker(Element el) {
        String tag = el.normalName();
        return tag.equals("main") || tag.equals("article") || el.attr("role").equalsIgnoreCase("main");
    }

    /**
     * Inline display:none (cookie banners, pop-ups). The {@code hidden} attribute is kept: pages unhide such text with
     * scripts (LibreOffice's platform-specific menu paths), and text renderings of the page include it.
     */
    private static boolean isHiddenByStyle(Element el) {
        String style = el.attr("style");
        if (style.isEmpty()) return false;
        String s = style.toLowerCase(Locale.ROOT).replace(" ", "");
        return s.contains("display:none") || s.contains("visibility:hidden");
    }

    /**
     * Version 5: names of page regions that hold no main content whatever their size. An element with one of these
     * words (and no likely word, {@link #unlikelyNames}) is dropped outside {@code main}/{@code article} even when it
     * holds most of the page's text: a heavy template's footer or sidebar (hundreds of links and an "about" blurb)
     * can outweigh a short page's content. The weaker unlikely words ({@code meta}, {@code author}, {@code comment},
     * {@code ad}, ...) keep the wrapper protection: themes put them on wrappers ({@code has-comments}, {@code with-ads}).
     */
    private static final Set<String> REGION_WORDS = Set.of(
        "footer",
        "sidebar",
        "nav",
        "navbar",
        "navigation",
        "menu",
        "breadcrumb",
        "breadcrumbs",
        "copyright",
        "cookie",
        "cookies",
        "consent"
    );

    private static boolean namesRegion(Element el, Map<String, Boolean> cache) {
        String names = el.className() + " " + el.id();
        if (names.isBlank()) return false;
        return cache.computeIfAbsent(names, HtmlExtractor::regionNames);
    }

    /** True if {@link #unlikelyNames} and one of the words is a {@link #REGION_WORDS region's}. */
    static boolean regionNames(String names) {
        if (unlikelyNames(names) == false) return false;
        for (String word : WORD_SEPARATORS.split(names)) {
            if (REGION_WORDS.contains(word.toLowerCase(Locale.ROOT))) return true;
        }
        return false;
    }

    /** Whitespace, '_' and '-', and where a lower-case ASCII letter meets an upper-case one, as {@link #unlikelyNames} splits. */
    private static final java.util.regex.Pattern WORD_SEPARATORS = java.util.regex.Pattern.compile("[\\s_-]+|(?<=[a-z])(?=[A-Z])");

    private static boolean looksUnlikely(Element el, Map<String, Boolean> cache) {
        String names = el.className() + " " + el.id();
        if (names.isBlank()) return false;
        return cache.computeIfAbsent(names, HtmlExtractor::unlikelyNames);
    }

    /**
     * True if a word of {@code names} is unlikely and none is likely. Words are separated by whitespace, '_' and '-',
     * and split where a lower-case ASCII letter meets an upper-case one ("sideBar" is "side" and "bar").
     */
    static boolean unlikelyNames(String names) {
        boolean unlikely = false;
        int start = 0;
        for (int i = 0; i <= names.length(); i++) {
            int wordEnd;
            int nextStart;
            if (i == names.length()) {
                wordEnd = i;
                nextStart = i;
            } else {
                char c = names.charAt(i);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r' || c == '_' || c == '-') {
                    wordEnd = i;
                    nextStart = i + 1;
                } else if (c >= 'A' && c <= 'Z' && i > start && names.charAt(i - 1) >= 'a' && names.charAt(i - 1) <= 'z') {
                    wordEnd = i;
                    nextStart = i;
                } else {
                    continue;
                }
            }
            if (wordEnd > start) {
                String word = names.substring(start, wordEnd).toLowerCase(Locale.ROOT);
                if (LIKELY_WORDS.contains(word)) return false;
                unlikely |= isUnlikelyWord(word);
            }
            start = nextStart;
        }
        return unlikely;
    }

    /** One of {@link #UNLIKELY_WORDS}, or "advert" or "sponsor" followed by ASCII letters, digits or '_', or "ad" and digits. */
    private static boolean isUnlikelyWord(String w) {
        if (UNLIKELY_WORDS.contains(w)) return true;
        if (w.startsWith("advert")) return asciiWordChars(w, 6, false);
        if (w.startsWith("sponsor")) return asciiWordChars(w, 7, false);
        if (w.startsWith("ad")) return asciiWordChars(w, 2, true);
        return false;
    }

    private static boolean asciiWordChars(String w, int from, boolean digitsOnly) {
        for (int i = from; i < w.length(); i++) {
            char c = w.charAt(i);
            boolean digit = c >= '0' && c <= '9';
            boolean letter = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
            if (digit == false && (digitsOnly || letter == false)) return false;
        }
        return true;
    }

    /** Text length under every element, in one post-order pass. */
    private static Map<Element, Integer> textLengths(Element root) {
        Map<Element, Integer> lengths = new IdentityHashMap<>();
        NodeTraversor.traverse(new NodeVisitor() {
            @Override
            public void head(Node node, int depth) {}

            @Override
            public void tail(Node node, int depth) {
                int len;
                if (node instanceof TextNode t) {
                    len = normalizedLength(t.getWholeText());
                } else if (node instanceof Element el) {
                    len = lengths.getOrDefault(el, 0);
                    lengths.put(el, len);
                } else {
                    return;
                }
                Node parent = node.parentNode();
                if (parent instanceof Element p && node != root) lengths.merge(p, len, Integer::sum);
            }
        }, root);
        return lengths;
    }

    /**
     * {@code TextNode.text().length()} without building the string: jsoup collapses each run of whitespace (and
     * no-break spaces) to one space and drops zero-width spaces and soft hyphens. HtmlExtractorTests pins the equality.
     */
    static int normalizedLength(String text) {
        int length = 0;
        boolean lastWasWhite = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '\u00A0') {
                if (lastWasWhite == false) length++;
                lastWasWhite = true;
            } else if (c != '\u200B' && c != '\u00AD') {
                length++; // a surrogate pair adds its two chars in two steps, like appendCodePoint
                lastWasWhite = false;
            }
        }
        return length;
    }

    /** Only anchors with a target are links; {@code <a id=...>} is a bookmark, often left unclosed. */
    private static boolean isLink(Element el) {
        return el.normalName().equals("a") && el.hasAttr("href");
    }

    /**
     * Cuts the visible text into blocks at block-level elements, counting words inside links. A table row is one
     * block, so that tables of short cells are not mistaken for lists of links.
     */
    private static List<TextBlock> blocks(Element root, boolean labelBarsAreLinks) {
        List<TextBlock> blocks = new ArrayList<>();
        if (root == null) return blocks;
        NodeTraversor.traverse(new NodeVisitor() {
            final StringBuilder text = new StringBuilder();
            int linkedWords = 0;
            int linkDepth = 0;
            int preDepth = 0;

            @Override
            public void head(Node node, int depth) {
                if (node instanceof TextNode t) {
                    String s = preDepth > 0 ? t.getWholeText() : t.text();
                    if (s.isBlank()) {
                        if (text.length() > 0) text.append(' ');
                        return;
                    }
                    if (linkDepth > 0) linkedWords += TextBlock.countWords(s);
                    text.append(s);
                } else if (node instanceof Element el) {
                    String tag = el.normalName();
                    if (BLOCK_TAGS.contains(tag)) flush();
                    if (isLink(el)) linkDepth++;
                    if (tag.equals("td") || tag.equals("th")) text.append(' ');
                    if (tag.equals("pre")) preDepth++;
                    if (tag.equals("img") && el.hasAttr("alt") == false) return;
                }
            }

            @Override
            public void tail(Node node, int depth) {
                if (node instanceof Element el) {
                    String tag = el.normalName();
                    if (isLink(el)) linkDepth--;
                    if (tag.equals("pre")) preDepth--;
                    if (BLOCK_TAGS.contains(tag)) flush();
                    if (node == root) flush();
                }
            }

            private void flush() {
                String s = text.toString().strip();
                text.setLength(0);
                if (s.isEmpty() == false) {
                    int words = TextBlock.countWords(s);
                    // v5: a menu bar or footer row written as plain text ("About | Contact | Privacy") is the link
                    // row it stands for, as a text dump's is (TextExtractor.isLabelBar)
                    if (labelBarsAreLinks && TextExtractor.isLabelBar(s, 5)) linkedWords = words;
                    blocks.add(new TextBlock(s, words, linkedWords));
                }
                linkedWords = 0;
            }
        }, root);
        return blocks;
    }
}
