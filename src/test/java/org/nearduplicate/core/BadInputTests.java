package org.nearduplicate.core;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.features.ChineseWordFilter;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Engine-level rows of the bad-input matrix in docs/reliability.md: every input either gives a defined fingerprint
 * or a {@link EngineInputException} (reported as HTTP 400 / an ingest failure) whose message names the problem.
 */
public class BadInputTests extends PlatformTestCase {
    private static final SimHasher DEFAULT = new SimHasher(SimHashSettings.DEFAULT);

    private static SimHasher with(int maxInputChars, int maxFeatures) {
        SimHashSettings.Builder b = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        b.maxInputChars = maxInputChars;
        b.maxFeatures = maxFeatures;
        return new SimHasher(b.build());
    }

    private static SimHasher extractNone() {
        SimHashSettings.Builder b = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        b.extractMain = false;
        return new SimHasher(b.build());
    }

    private static void assertRejected(SimHasher hasher, String content, String messagePart) {
        EngineInputException e = expectThrows(EngineInputException.class, () -> hasher.fingerprint(content));
        assertTrue("message [" + e.getMessage() + "] should contain [" + messagePart + "]", e.getMessage().contains(messagePart));
    }

    /** Realistic text of {@code chars} characters from a bounded vocabulary, in paragraphs. */
    static String prose(int chars, long seed) {
        Random r = new Random(seed);
        String[] vocabulary = new String[5000];
        for (int i = 0; i < vocabulary.length; i++) {
            StringBuilder w = new StringBuilder();
            int len = 3 + r.nextInt(7);
            for (int j = 0; j < len; j++)
                w.append((char) ('a' + r.nextInt(26)));
            vocabulary[i] = w.toString();
        }
        StringBuilder sb = new StringBuilder(chars + 16);
        int inParagraph = 0;
        while (sb.length() < chars) {
            sb.append(vocabulary[r.nextInt(vocabulary.length)]);
            if (++inParagraph % 60 == 0) sb.append(".\n\n");
            else sb.append(' ');
        }
        sb.setLength(chars);
        return sb.toString();
    }

    static String htmlOf(String prose) {
        StringBuilder sb = new StringBuilder(prose.length() + prose.length() / 10);
        sb.append("<!DOCTYPE html><html><head><title>t</title></head><body><article>");
        for (String p : prose.split("\n\n"))
            sb.append("<p>").append(p).append("</p>\n");
        return sb.append("</article></body></html>").toString();
    }

    public void testNullIsRejected() {
        assertRejected(DEFAULT, null, "must not be null");
    }

    public void testEmptyIsRejected() {
        assertRejected(DEFAULT, "", "empty or whitespace only");
    }

    public void testWhitespaceOnlyIsRejected() {
        assertRejected(DEFAULT, " \t\r\n  \n", "empty or whitespace only");
    }

    public void testUnicodeSpacesOnlyHaveNoFeatures() {
        // NBSP and ideographic space are not Java whitespace: they pass the blank check and yield no features
        assertRejected(DEFAULT, "\u00A0\u3000\u200B\uFEFF", "no features");
    }

    public void testAllStopwordsHaveNoFeatures() {
        assertRejected(DEFAULT, "The and of to a in it is was. 的 了 是 在 和", "no features");
    }

    public void testAllPunctuationHasNoFeatures() {
        assertRejected(DEFAULT, "!!! ... ??? --- ;;; ((( ))) *** ,,, ", "no features");
    }

    public void testHtmlWithOnlyMarkupHasNoFeatures() {
        assertRejected(DEFAULT, "<html><body><div><span></span><br><hr></div></body></html>", "no features to fingerprint (read as html)");
    }

    public void testHtmlWithOnlyScriptsHasNoFeatures() {
        assertRejected(
            DEFAULT,
            "<html><head><style>p{}</style></head><body><script>var a = 'hello world';</script></body></html>",
            "no features"
        );
    }

    public void testEmojiOnlyIsAFeature() {
        // Lucene's StandardTokenizer emits emoji as tokens: emoji-only text has a defined fingerprint of its own
        long emoji = DEFAULT.fingerprint("\uD83D\uDE00 \uD83C\uDF89 \uD83D\uDC4D");
        assertEquals(emoji, DEFAULT.fingerprint("\uD83D\uDE00  \uD83C\uDF89\n\uD83D\uDC4D"));
        SimHasher unigrams = new SimHasher(SimHashSettings.DEFAULT_V1);
        assertEquals(
            unigrams.fingerprint("\uD83D\uDE00 \uD83C\uDF89 \uD83D\uDC4D"),
            unigrams.fingerprint("\uD83D\uDC4D \uD83C\uDF89 \uD83D\uDE00")
        );
        assertNotEquals(emoji, DEFAULT.fingerprint("\uD83D\uDE00"));
    }

    public void testSingleWordFingerprintIsItsFeatureHash() {
        // one feature with a positive weight: bit i is set iff bit i of the feature's hash is
        assertEquals(SimHasher.featureHash("harbor"), DEFAULT.fingerprint("Harbor"));
        assertEquals(SimHasher.featureHash("harbor"), DEFAULT.fingerprint("<p>harbor</p>"));
    }

    public void testTooLongIsRejectedBeforeAnyWork() {
        SimHasher small = with(1000, 100);
        assertRejected(small, "x ".repeat(501), "content has 1002 chars, more than [max_input_chars] = 1000");
        assertEquals(SimHasher.featureHash("x x"), small.fingerprint("x ".repeat(500))); // one bigram
    }

    public void testTenMegabytesOfTextIsRejectedByDefault() {
        String text = prose(10 * 1024 * 1024, randomLong());
        assertRejected(DEFAULT, text, "content has 10485760 chars, more than [max_input_chars] = 2000000");
    }

    public void testTenMegabytesOfHtmlIsRejectedByDefault() {
        String html = htmlOf(prose(10 * 1024 * 1024, randomLong()));
        assertTrue(html.length() > 10 * 1024 * 1024);
        assertRejected(DEFAULT, html, "more than [max_input_chars] = 2000000");
    }

    public void testTenMegabytesOfTextAndHtmlWorkWhenAllowed() {
        // work is linear: 10 MB complete in seconds when the operator raises the limit
        // random words: about as many distinct bigrams as words, so the feature limit is raised too
        SimHasher big = with(12 * 1024 * 1024, 4_000_000);
        String text = prose(10 * 1024 * 1024, randomLong());
        long fromText = big.fingerprint(text);
        assertEquals(fromText, big.fingerprint(text));
        long fromHtml = big.fingerprint(htmlOf(text));
        // the same words in paragraphs: the fingerprints are close (the extraction of text and HTML differs slightly;
        // the distance was 0 for each of 30 random seeds)
        assertTrue(Fingerprints.distance(fromText, fromHtml) <= 6);
    }

    public void testTooManyFeaturesIsRejected() {
        SimHasher few = with(SimHashSettings.DEFAULT_MAX_INPUT_CHARS, 50);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 60; i++)
            sb.append("word").append(Integer.toString(i, 26).replace('0', 'x')).append("q ");
        assertRejected(few, sb.toString(), "more than [max_features] = 50 distinct features");
    }

    public void testDeepNestingDoesNotChangeTheFingerprint() {
        String paragraph = "<p>" + prose(600, randomLong()) + "</p>";
        String flat = "<html><body>" + paragraph + "</body></html>";
        StringBuilder deep = new StringBuilder("<html><body>");
        int depth = 100_000;
        for (int i = 0; i < depth; i++)
            deep.append("<div>");
        deep.append(paragraph);
        for (int i = 0; i < depth; i++)
            deep.append("</div>");
        deep.append("</body></html>");
        // iterative traversals: no StackOverflowError at any depth
        assertEquals(DEFAULT.fingerprint(flat), DEFAULT.fingerprint(deep.toString()));
    }

    public void testUnclosedHtmlEqualsClosedHtml() {
        String text = prose(800, randomLong());
        String closed = "<html><body><article><p>" + text + "</p></article></body></html>";
        String unclosed = "<html><body><article><p>" + text;
        assertEquals(DEFAULT.fingerprint(closed), DEFAULT.fingerprint(unclosed));
        StringBuilder neverClosed = new StringBuilder("<html><body>");
        for (int i = 0; i < 50_000; i++)
            neverClosed.append("<div><span><b>x");
        assertEquals(DEFAULT.fingerprint(neverClosed.toString()), DEFAULT.fingerprint(neverClosed.toString()));
    }

    public void testMostlyScriptsCountsOnlyTheText() {
        String text = prose(800, randomLong());
        String plain = "<html><body><p>" + text + "</p></body></html>";
        StringBuilder scripts = new StringBuilder("<html><head>");
        for (int i = 0; i < 200; i++)
            scripts.append("<script>var v").append(i).append(" = \"").append(prose(2000, randomLong())).append("\";</script>");
        scripts.append("</head><body><p>").append(text).append("</p><script>document.write('<p>hidden words</p>')</script></body></html>");
        assertTrue(scripts.length() > 400_000);
        assertEquals(DEFAULT.fingerprint(plain), DEFAULT.fingerprint(scripts.toString()));
    }

    public void testNavigationOnlyFallsBackToAllText() {
        String nav = "<html><body><nav><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li>"
            + "<li><a href='/sport'>Sport</a></li><li><a href='/weather'>Weather</a></li></ul></nav></body></html>";
        // main-content extraction removes everything: the page's full text is fingerprinted instead of failing
        assertEquals(extractNone().fingerprint(nav), DEFAULT.fingerprint(nav));
    }

    public void testBinaryBytesGiveADefinedResult() {
        byte[] bytes = new byte[64 * 1024];
        random().nextBytes(bytes);
        for (String decoded : new String[] { new String(bytes, StandardCharsets.ISO_8859_1), new String(bytes, StandardCharsets.UTF_8) }) {
            long first;
            try {
                first = DEFAULT.fingerprint(decoded);
            } catch (EngineInputException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("no features"));
                continue;
            }
            assertEquals(first, DEFAULT.fingerprint(decoded));
        }
        assertRejected(DEFAULT, "\u0000\u0001\u0002\u0003\u007F", "no features");
    }

    public void testLoneSurrogatesAreIgnored() {
        String clean = "harbor bridge reopens after two years of repairs";
        String broken = "harbor \uD800bridge reopens\uDC00 after two \uDBFF years of repairs\uD800";
        assertEquals(DEFAULT.fingerprint(clean), DEFAULT.fingerprint(broken));
    }

    public void testLongChineseRunWithoutPunctuationIsSegmentedInBoundedPieces() {
        StringBuilder zh = new StringBuilder();
        while (zh.length() < 200_000)
            zh.append((char) (0x4E00 + random().nextInt(2000)));
        String s = zh.toString();
        long fp = DEFAULT.fingerprint(s);
        assertEquals(fp, DEFAULT.fingerprint(s));
        // a short run is unaffected by the cut
        assertTrue(ChineseWordFilter.MAX_RUN_CHARS >= 1024);
    }
}
