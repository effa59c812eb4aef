package org.nearduplicate.core.extract;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

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
        "script", "style", "noscript", "template", "iframe", "svg", "math", "canvas", "form", "button", "select", "input",
        "textarea", "nav", "aside", "object", "embed", "head", "dialog", "menu"
    );
    /** Dropped unless inside the main content (an article's own header/footer can hold its title). */
    private static final Set<String> PAGE_TAGS = Set.of("header", "footer");
    private static final Set<String> DROP_ROLES = Set.of(
        "navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar", "dialog", "alertdialog", "toolbar"
    );
    /** Readability's "unlikely candidates", matched against class/id words. */
    private static final Pattern UNLIKELY = Pattern.compile(
        "ads?|advert\\w*|adsense|sponsor\\w*|banner|breadcrumbs?|combx|comments?|community|cookies?|consent|gdpr|disqus|"
            + "footer|header|masthead|menu|nav|navbar|navigation|topbar|toolbar|pagination|pager|popup|modal|related|"
            + "remark|replies|rss|share|sharing|social|shoutbox|sidebar|skyscraper|subscribe|newsletter|widget|"
            + "supplemental|promo|ticker|similar|tags|catlinks|login|signup|copyright|credits|notice|toc|logo|"
            + "meta|byline|author|profile|ad\\d*"
    );
    /** Readability's "maybe candidates": a class naming content protects an element. */
    private static final Pattern LIKELY = Pattern.compile("article|body|content|main|entry|post|story|text|message|document|postbody");
    private static final Pattern WORD_SPLIT = Pattern.compile("[\\s_\\-]+|(?<=[a-z])(?=[A-Z])");
    private static final Set<String> BLOCK_TAGS = Set.of(
        "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table",
        "tr", "thead", "tbody", "caption", "section", "article", "main", "header", "footer", "figure",
        "figcaption", "address", "hr", "br", "center", "body", "html", "title", "details", "summary", "legend", "fieldset"
    );

    private HtmlExtractor() {}

    /** All visible text of the page, one block per line. */
    static String fullText(String html) {
        List<TextBlock> blocks = blocks(parseBody(html));
        StringBuilder sb = new StringBuilder();
        for (TextBlock b : blocks) sb.append(b.text).append('\n');
        return sb.toString();
    }

    /** The main content of the page, one kept block per line. */
    static String mainText(String html, boolean keepSentences) {
        Element body = parseBody(html);
        prune(body);
        List<TextBlock> blocks = blocks(body);
        boolean[] content = TextBlock.classify(blocks, keepSentences);
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
    private static void prune(Element body) {
        Map<Element, Integer> textLength = textLengths(body);
        int total = Math.max(1, textLength.getOrDefault(body, 0));
        // pages repeat the same class/id names on many elements: classify each distinct name string once
        Map<String, Boolean> unlikelyNames = new HashMap<>();
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
                    // a wrapper that holds most of the page's text is layout, not boilerplate
                    if (textLength.getOrDefault(el, 0) * 2 < total) return FilterResult.REMOVE;
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

    private static boolean looksUnlikely(Element el, Map<String, Boolean> cache) {
        String names = el.className() + " " + el.id();
        if (names.isBlank()) return false;
        return cache.computeIfAbsent(names, HtmlExtractor::unlikelyNames);
    }

    private static boolean unlikelyNames(String names) {
        boolean unlikely = false;
        for (String word : WORD_SPLIT.split(names)) {
            String w = word.toLowerCase(Locale.ROOT);
            if (w.isEmpty()) continue;
            if (LIKELY.matcher(w).matches()) return false;
            if (UNLIKELY.matcher(w).matches()) unlikely = true;
        }
        return unlikely;
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
                    len = t.text().length();
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

    /** Only anchors with a target are links; {@code <a id=...>} is a bookmark, often left unclosed. */
    private static boolean isLink(Element el) {
        return el.normalName().equals("a") && el.hasAttr("href");
    }

    /**
     * Cuts the visible text into blocks at block-level elements, counting words inside links. A table row is one
     * block, so that tables of short cells are not mistaken for lists of links.
     */
    private static List<TextBlock> blocks(Element root) {
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
                    blocks.add(new TextBlock(s, TextBlock.countWords(s), linkedWords));
                }
                linkedWords = 0;
            }
        }, root);
        return blocks;
    }
}
