package org.nearduplicate.opensearch;

import org.opensearch.OpenSearchParseException;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;
import java.math.BigInteger;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;

/**
 * Randomized inputs for HTML extraction and fingerprinting, the fingerprint parser and the {@code near_duplicate}
 * query parser: every input either gives a result or one of the documented client errors, never anything else
 * (no NullPointerException, ClassCastException, StackOverflowError, ...), and results are deterministic.
 *
 * <p>CI runs a few hundred iterations per target; run longer with
 * {@code $MVN -Dskip.node=true test -Dtest=FuzzTests -Dtests.fuzz.iterations=100000} (add {@code -Dtests.seed=...}
 * to replay a failure: the seed is printed with every failure).
 */
public class FuzzTests extends OpenSearchTestCase {
    private static final int ITERATIONS = Integer.getInteger("tests.fuzz.iterations", 300);
    private static final String[] TAGS = {
        "html",
        "body",
        "head",
        "div",
        "p",
        "span",
        "a",
        "nav",
        "article",
        "main",
        "header",
        "footer",
        "aside",
        "script",
        "style",
        "table",
        "tr",
        "td",
        "th",
        "ul",
        "li",
        "pre",
        "br",
        "img",
        "h1",
        "form",
        "noscript",
        "iframe",
        "svg",
        "template",
        "section",
        "b",
        "i",
        "title",
        "meta",
        "select",
        "option",
        "textarea",
        "frameset",
        "xmp",
        "plaintext" };
    private static final String[] CLASSES = { "content", "nav", "sidebar", "article", "ad", "comment", "main", "footer", "x" };

    private final SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
    private final SimHasher noExtract = new SimHasher(textless());

    private static SimHashSettings textless() {
        SimHashSettings.Builder b = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        b.extractMain = false;
        b.maxFeatures = 1000;
        return b.build();
    }

    private String randomText() {
        return switch (randomIntBetween(0, 4)) {
            case 0 -> randomUnicodeOfLengthBetween(0, 60);
            case 1 -> randomRealisticUnicodeOfLengthBetween(0, 80);
            case 2 -> String.join(" ", generateRandomStringArray(20, 12, false, true));
            case 3 -> "&amp;&lt;&#x" + randomAlphaOfLength(randomIntBetween(1, 8)) + ";&#" + randomIntBetween(0, Integer.MAX_VALUE) + ";";
            default -> randomFrom("<", ">", "</", "<!--", "-->", "<![CDATA[", "]]>", "\"", "'", "=", "\u0000", "\uD800", "\uDC00");
        };
    }

    /** A random, often malformed, HTML tree: unclosed and misnested tags, attributes, comments, entities, raw bytes. */
    private void randomHtml(StringBuilder sb, int depth) {
        int children = randomIntBetween(0, depth > 6 ? 1 : 5);
        for (int i = 0; i < children && sb.length() < 20_000; i++) {
            switch (randomIntBetween(0, 5)) {
                case 0, 1 -> sb.append(randomText());
                case 2 -> sb.append("<!--").append(randomText()).append(randomBoolean() ? "-->" : "");
                default -> {
                    String tag = randomFrom(TAGS);
                    sb.append('<').append(tag);
                    if (randomBoolean()) sb.append(" class=\"").append(randomFrom(CLASSES)).append('"');
                    if (rarely()) sb.append(" style=\"display:none\"");
                    if (rarely()) sb.append(" role=\"navigation\"");
                    if (tag.equals("a") && randomBoolean()) sb.append(" href=\"/").append(randomAlphaOfLength(3)).append('"');
                    if (rarely()) sb.append(' ').append(randomText());
                    sb.append('>');
                    randomHtml(sb, depth + 1);
                    if (randomIntBetween(0, 4) > 0) sb.append("</").append(randomBoolean() ? tag : randomFrom(TAGS)).append('>');
                }
            }
        }
    }

    public void testHtmlExtractionAndFingerprinting() {
        for (int i = 0; i < ITERATIONS; i++) {
            StringBuilder sb = new StringBuilder();
            if (randomBoolean()) sb.append("<!DOCTYPE html>");
            randomHtml(sb, 0);
            if (rarely()) {
                for (int d = 0, n = randomIntBetween(100, 5000); d < n; d++)
                    sb.append(randomFrom("<div>", "<table>", "<p>", "<b>", "<a href=x>"));
            }
            String html = sb.toString();
            for (SimHasher h : new SimHasher[] { hasher, noExtract }) {
                Long first = fingerprintOrNull(h, html);
                assertEquals("not deterministic for [" + html + "]", first, fingerprintOrNull(h, html));
                if (first != null) {
                    String text = h.extractText(html);
                    assertNotNull(text);
                }
            }
        }
    }

    private static Long fingerprintOrNull(SimHasher h, String content) {
        try {
            return h.fingerprint(content);
        } catch (EngineInputException e) {
            String m = e.getMessage();
            assertTrue(m, m.contains("no features") || m.contains("empty or whitespace") || m.contains("max_features"));
            return null;
        }
    }

    public void testFingerprintParser() {
        for (int i = 0; i < ITERATIONS; i++) {
            long fp = randomLong();
            assertEquals(fp, Fingerprints.parse(Fingerprints.toHex(fp)));
            assertEquals(fp, Fingerprints.parse("0x" + Long.toHexString(fp)));
            String decimal = Fingerprints.toUnsignedDecimal(fp);
            if (decimal.length() == 16) {
                // documented: a string of exactly 16 characters is always hex (send decimal fingerprints as numbers)
                assertEquals(Fingerprints.parseHex(decimal), Fingerprints.parse(decimal));
            } else {
                assertEquals(fp, Fingerprints.parse(decimal));
            }
            assertEquals(fp, FingerprintValues.parse(fp));
            String junk = switch (randomIntBetween(0, 5)) {
                case 0 -> randomUnicodeOfLengthBetween(0, 40);
                case 1 -> randomAlphaOfLength(randomIntBetween(0, 30));
                case 2 -> (randomBoolean() ? "0x" : "") + randomFrom("-", "+", "", " ") + randomNumericStringOfLength(
                    randomIntBetween(0, 25)
                );
                case 3 -> new BigInteger(randomIntBetween(1, 90), random()).toString(randomFrom(10, 16));
                case 4 -> Fingerprints.toHex(fp).substring(0, randomIntBetween(0, 16)) + randomFrom("g", "", "0", " ", "\u0000", "ff");
                default -> randomRealisticUnicodeOfLengthBetween(0, 20);
            };
            Long parsed;
            try {
                parsed = Fingerprints.parse(junk);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("fingerprint"));
                parsed = null;
            }
            if (parsed != null) {
                // whatever parses, parses to the same value through the mapper's entry point, and prints back stably
                assertEquals(parsed, (Long) FingerprintValues.parse(junk));
                assertEquals(parsed, (Long) Fingerprints.parse(Fingerprints.toHex(parsed)));
            }
        }
    }

    private static String randomNumericStringOfLength(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++)
            sb.append((char) ('0' + randomIntBetween(0, 9)));
        return sb.toString();
    }

    private void randomValue(XContentBuilder b, int depth) throws IOException {
        switch (randomIntBetween(0, depth > 2 ? 7 : 9)) {
            case 0 -> b.value(randomUnicodeOfLengthBetween(0, 20));
            case 1 -> b.value(Fingerprints.toHex(randomLong()));
            case 2 -> b.value(randomIntBetween(-5, 80));
            case 3 -> b.value(randomLong());
            case 4 -> b.value(randomDouble() * 100);
            case 5 -> b.value(randomBoolean());
            case 6 -> b.nullValue();
            case 7 -> b.value(new BigInteger(80, random()));
            case 8 -> {
                b.startArray();
                for (int i = randomIntBetween(0, 3); i > 0; i--)
                    randomValue(b, depth + 1);
                b.endArray();
            }
            default -> {
                b.startObject();
                for (int i = randomIntBetween(0, 3); i > 0; i--) {
                    b.field(randomFrom("_index", "_id", "routing", "x", randomAlphaOfLength(3)));
                    randomValue(b, depth + 1);
                }
                b.endObject();
            }
        }
    }

    public void testQueryParser() throws IOException {
        String[] keys = {
            "field",
            "fingerprint",
            "algorithm",
            "like",
            "text",
            "html",
            "max_distance",
            "allow_scan",
            "ignore_unmapped",
            "boost",
            "_name",
            "unknown" };
        int parsedOk = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            XContentBuilder b = XContentFactory.jsonBuilder().startObject();
            b.field("field", randomFrom("fp", "", "a.b"));
            if (randomBoolean()) b.field("fingerprint", Fingerprints.toHex(randomLong()));
            for (int k = randomIntBetween(0, 4); k > 0; k--) {
                b.field(randomFrom(keys));
                randomValue(b, 0);
            }
            b.endObject();
            String json = b.toString();
            if (rarely()) {
                // byte-level damage
                char[] chars = json.toCharArray();
                chars[randomIntBetween(0, chars.length - 1)] = randomFrom('{', '}', '"', ':', ',', '[', 'x', '\u0000');
                json = new String(chars);
            }
            SimHashQueryBuilder parsed = parse(json, false);
            if (parsed != null) {
                parsedOk++;
                // whatever parses prints and parses back to an equal query
                String printed = parsed.toString();
                assertEquals(printed, parsed, parse(printed, true));
            }
        }
        assertTrue("some random queries should be valid", ITERATIONS < 50 || parsedOk > 0);
    }

    private SimHashQueryBuilder parse(String json, boolean wrapped) {
        try (XContentParser parser = createParser(JsonXContent.jsonXContent, json)) {
            parser.nextToken();
            if (wrapped) {
                assertEquals(XContentParser.Token.FIELD_NAME, parser.nextToken());
                assertEquals(SimHashQueryBuilder.NAME, parser.currentName());
                parser.nextToken();
            }
            return SimHashQueryBuilder.fromXContent(parser);
        } catch (ParsingException | OpenSearchParseException | IllegalArgumentException e) {
            return null;
        } catch (IOException e) {
            // malformed JSON or a number out of range: Jackson's parse and coercion exceptions are IOExceptions (its
            // package is shaded under org.opensearch.tools from OpenSearch 3.8 on)
            assertTrue(e.getClass().getName(), e.getClass().getName().contains("Json") || e.getClass().getName().contains("jackson"));
            return null;
        }
    }
}
