package org.nearduplicate.core.extract;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.Locale;
import java.util.regex.Pattern;

import org.jsoup.nodes.TextNode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The hand-written checks of the extractor against the definitions they replaced for speed (regular expressions and
 * jsoup's own text normalization): any difference would change fingerprints.
 */
public class HtmlExtractorTests extends RandomizedTest {
    /** Readability's patterns, as simhash-v1 and v2 were released with them. */
    private static final Pattern UNLIKELY = Pattern.compile(
        "ads?|advert\\w*|adsense|sponsor\\w*|banner|breadcrumbs?|combx|comments?|community|cookies?|consent|gdpr|disqus|"
            + "footer|header|masthead|menu|nav|navbar|navigation|topbar|toolbar|pagination|pager|popup|modal|related|"
            + "remark|replies|rss|share|sharing|social|shoutbox|sidebar|skyscraper|subscribe|newsletter|widget|"
            + "supplemental|promo|ticker|similar|tags|catlinks|login|signup|copyright|credits|notice|toc|logo|"
            + "meta|byline|author|profile|ad\\d*"
    );
    private static final Pattern LIKELY = Pattern.compile("article|body|content|main|entry|post|story|text|message|document|postbody");
    private static final Pattern WORD_SPLIT = Pattern.compile("[\\s_\\-]+|(?<=[a-z])(?=[A-Z])");
    private static final Pattern COPYRIGHT = Pattern.compile(
        "(?i)^\\W{0,3}(©|\\(c\\)|copyright\\b|版权所有|all rights reserved)|\\b(all rights reserved)\\b|版权所有|icp备"
    );

    private static boolean unlikelyNamesByPattern(String names) {
        boolean unlikely = false;
        for (String word : WORD_SPLIT.split(names)) {
            String w = word.toLowerCase(Locale.ROOT);
            if (w.isEmpty()) continue;
            if (LIKELY.matcher(w).matches()) return false;
            if (UNLIKELY.matcher(w).matches()) unlikely = true;
        }
        return unlikely;
    }

    @Test
    public void testUnlikelyNames() {
        assertTrue(HtmlExtractor.unlikelyNames("site-sidebar "));
        assertFalse(HtmlExtractor.unlikelyNames("sideBar")); // camel case splits it into "side" and "bar"
        assertTrue(HtmlExtractor.unlikelyNames("ad728 x"));
        assertTrue(HtmlExtractor.unlikelyNames("advertisement_box"));
        assertFalse(HtmlExtractor.unlikelyNames("sidebar main-content"));
        assertFalse(HtmlExtractor.unlikelyNames("adx"));
        assertFalse(HtmlExtractor.unlikelyNames("NAVcontent"));
        assertTrue(HtmlExtractor.unlikelyNames("navContent") == false);
        assertTrue(HtmlExtractor.unlikelyNames("postNav") == false);
        assertTrue(HtmlExtractor.unlikelyNames("topNav"));
    }

    @Test
    public void testUnlikelyNamesAgreeWithReadabilityPatterns() {
        String[] pieces = {
            "ad",
            "ads",
            "Ad",
            "AD",
            "12",
            "advert",
            "isement",
            "sponsor",
            "ed",
            "Sponsored",
            "nav",
            "Nav",
            "NAV",
            "bar",
            "Bar",
            "side",
            "content",
            "Content",
            "main",
            "post",
            "body",
            "footer",
            "header",
            "x",
            "é",
            "É",
            "ü",
            "K",
            "İ",
            "_",
            "-",
            " ",
            "  ",
            "\t",
            "\n",
            "\u000B",
            "\u00A0",
            "\u3000",
            "comment",
            "s",
            "menu",
            "toc",
            "meta",
            "9",
            "_x" };
        for (int i = 0; i < 20000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = randomIntBetween(0, 8);
            for (int j = 0; j < n; j++)
                sb.append(randomFrom(pieces));
            String names = sb.toString();
            assertEquals("[" + names + "]", unlikelyNamesByPattern(names), HtmlExtractor.unlikelyNames(names));
        }
    }

    @Test
    public void testNormalizedLengthAgreesWithJsoup() {
        String[] pieces = {
            "a",
            "bc",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "\f",
            "\u00A0",
            "\u200B",
            "\u00AD",
            "\u3000",
            "\u2028",
            "中文",
            "😀",
            "\uD83D",
            "\uDE00",
            "\u000B",
            "x y" };
        for (int i = 0; i < 20000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = randomIntBetween(0, 12);
            for (int j = 0; j < n; j++)
                sb.append(randomFrom(pieces));
            String text = sb.toString();
            assertEquals("[" + text + "]", new TextNode(text).text().length(), HtmlExtractor.normalizedLength(text));
        }
    }

    @Test
    public void testCopyrightLinesAgreeWithThePattern() {
        String[] pieces = {
            "©",
            "(c)",
            "(C)",
            "Copyright",
            "COPYRIGHT",
            "copyrighted",
            "all rights reserved",
            "All Rights Reserved",
            "版权所有",
            "ICP备",
            "icp备",
            "京ICP备12345号",
            "2026",
            " ",
            " - ",
            "|",
            "Example Inc.",
            "news",
            "a",
            "\u212A",
            "İ",
            "中文",
            ".",
            "—" };
        for (int i = 0; i < 20000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = randomIntBetween(1, 6);
            for (int j = 0; j < n; j++)
                sb.append(randomFrom(pieces));
            String text = sb.toString();
            TextBlock block = new TextBlock(text, TextBlock.countWords(text), 0);
            boolean expected = block.words <= 20 && COPYRIGHT.matcher(text).find();
            assertEquals("[" + text + "]", expected, TextBlock.isCopyrightLine(block));
        }
        assertTrue(TextBlock.isCopyrightLine(new TextBlock("© 2026 Example Inc.", 3, 0)));
        assertTrue(TextBlock.isCopyrightLine(new TextBlock("京ICP备12345号", 6, 0)));
        assertFalse(TextBlock.isCopyrightLine(new TextBlock("The copyright of this essay", 5, 0)));
    }
}
