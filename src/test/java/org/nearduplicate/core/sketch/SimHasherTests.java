package org.nearduplicate.core.sketch;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.junit.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.nearduplicate.core.ContentType;
import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.features.IdfTable;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.nearduplicate.core.EngineAsserts.assertThrows;

public class SimHasherTests extends RandomizedTest {
    private static final SimHasher DEFAULT = new SimHasher(SimHashSettings.DEFAULT);
    /** Version 1 (0.1.0, 0.2.0): what existing indices hold, computed exactly as then. */
    private static final SimHasher V1 = new SimHasher(SimHashSettings.DEFAULT_V1);
    /** Version 2 (0.3.0, 0.4.0). */
    private static final SimHasher V2 = new SimHasher(SimHashSettings.DEFAULT_V2);

    static final String ENGLISH = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs; "
        + "how vexingly quick daft zebras jump. Sphinx of black quartz, judge my vow.";
    static final String CHINESE = "我爱北京天安门。自然语言处理是人工智能的一个重要方向，中文分词是它的基础。";
    static final String MIXED = "使用 Lucene 和 HanLP 对中英文混合文本进行分词，然后计算 SimHash 指纹。";
    static final String PAGE = """
        <!DOCTYPE html><html><head><title>Fox</title><style>body{color:red}</style><script>var x=1;</script></head>
        <body><header><a href="/">Example Site</a> <a href="/login">Login</a></header>
        <nav><ul><li><a href="/a">Home</a></li><li><a href="/b">News</a></li><li><a href="/c">Sports</a></li></ul></nav>
        <main><article><h1>A quick fox</h1>
        <p>The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden porch of his house.</p>
        <p>Pack my box with five dozen liquor jugs, said the farmer, and then he went back inside to make some tea.</p>
        </article></main>
        <aside class="sidebar"><h3>Popular</h3><ul><li><a href="/x">Ten cats</a></li><li><a href="/y">Dogs</a></li></ul></aside>
        <div class="cookie-banner">This site uses cookies to improve your experience. <button>OK</button></div>
        <footer><p>© 2024 Example Site. All rights reserved.</p></footer></body></html>
        """;
    /** A text-browser dump of a templated page: a menu bar, an underlined heading, a section label and a cookie banner. */
    static final String DUMP = """
        Example Site | Home | News | Sports | Contact

        A quick fox
        ===========

        The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden porch of his house.

        Pack my box with five dozen liquor jugs, said the farmer, and then he went back inside to make some tea.

        * * *

        Most read

        This site uses cookies to improve your experience. By continuing you agree to their use.
        """;

    /**
     * Known answers of every version: any change to extraction, normalization, tokenization, weighting or hashing shows
     * up here. Fixed on purpose (golden values): stored fingerprints must stay identical across releases, so a change
     * of output needs a new version (see {@link SimHashSettings#LATEST_VERSION}) and its own line here. The inputs:
     * {@link #ENGLISH}, {@link #CHINESE}, {@link #MIXED}, {@link #PAGE}, {@link #DUMP}.
     */
    @Test
    public void testKnownAnswersForVersion1() {
        // 0.1.0, 0.2.0: words, boilerpipe's rules; the dump of the page reads as the page
        assertKnownAnswers(1, "0606ca89a210b3e3", "0da47a4fe150f2c2", "b5357b3c14829785", "9c91868a0842b32b", "9c91868a0842b32b");
    }

    @Test
    public void testKnownAnswersForVersion2() {
        // 0.3.0, 0.4.0: sentences kept, word bigrams; the dump keeps its underline, rule and cookie banner
        assertKnownAnswers(2, "9c9d494f7db06760", "48f60927ef3e0f57", "2a3aa5430c9cb5d4", "8aed0257ef49473c", "88ed0a57df45c714");
    }

    /** Version 3, the default of 0.5.0: its rules change only the dump here, which now reads as the page. */
    @Test
    public void testKnownAnswersForVersion3() {
        assertKnownAnswers(3, "9c9d494f7db06760", "48f60927ef3e0f57", "2a3aa5430c9cb5d4", "8aed0257ef49473c", "8aed0257ef49473c");
        org.junit.Assert.assertNull(
            "no signature before version 4",
            new SimHasher(SimHashSettings.defaults(3)).sketch(ENGLISH).signature()
        );
    }

    /**
     * Version 5, the default of 0.7.0: version 4's features and signature over version 5's extraction. The five
     * inputs have no template region or plain-text menu row, so they keep version 4's answers; {@link #TEMPLATE_PAGE}
     * has both and is pinned for both versions. Version 6, the default since 0.8.0, segments Chinese by dictionary:
     * these inputs segment the same either way, so they keep version 5's answers ({@link #AMBIGUOUS_CHINESE} does not).
     */
    @Test
    public void testKnownAnswersForDefaultSettings() {
        assertEquals("simhash-v7", SimHashSettings.VERSION);
        assertKnownAnswers(5, "9c9d494f7db06760", "48f60927ef3e0f57", "2a3aa5430c9cb5d4", "8aed0257ef49473c", "8aed0257ef49473c");
        assertKnownAnswers(6, "9c9d494f7db06760", "48f60927ef3e0f57", "2a3aa5430c9cb5d4", "8aed0257ef49473c", "8aed0257ef49473c");
        assertEquals(SimHashSettings.DEFAULT_V6, SimHashSettings.defaults(6));
        assertEquals(SimHashSettings.DEFAULT_V5, SimHashSettings.defaults(5));
        SimHasher v5 = new SimHasher(SimHashSettings.DEFAULT_V5);
        assertEquals(SIGNATURE_ENGLISH, Signature.toHex(v5.sketch(ENGLISH).signature()));
        assertEquals(SIGNATURE_PAGE, Signature.toHex(v5.sketch(PAGE).signature()));
        SimHasher v4 = new SimHasher(SimHashSettings.defaults(4));
        assertEquals(TEMPLATE_PAGE_V4, Fingerprints.toHex(v4.fingerprint(TEMPLATE_PAGE)));
        assertEquals(TEMPLATE_PAGE_V5, Fingerprints.toHex(v5.fingerprint(TEMPLATE_PAGE)));
        assertEquals(TEMPLATE_PAGE_SIGNATURE_V5, Signature.toHex(v5.sketch(TEMPLATE_PAGE).signature()));
        // version 5 keeps the article alone; version 4 kept the footer's blurb and the plain-text menu row too
        assertEquals(TEMPLATE_ARTICLE + "\n", v5.extractText(TEMPLATE_PAGE));
        assertTrue(v4.extractText(TEMPLATE_PAGE).contains("About | Contact"));
        assertTrue(v4.extractText(TEMPLATE_PAGE).contains("We are a small team"));
        // the article alone, as a plain text, reads the same under version 5
        assertEquals(TEMPLATE_PAGE_V5, Fingerprints.toHex(v5.fingerprint(TEMPLATE_ARTICLE)));
    }

    /**
     * Chinese whose words HanLP's two segmenters cut differently (the classic ambiguities): its Viterbi lattice
     * (versions 1-5) reads 尚未 / 确实 在理 / 研究 生命, the longest dictionary match (version 6) 和尚 未 / 的确 实在 理 /
     * 研究生 命. Each version is pinned: a HanLP upgrade that changed either would fail here.
     */
    static final String AMBIGUOUS_CHINESE = "结婚的和尚未结婚的人都来了。他说的确实在理，研究生命的起源是一个难题。";

    @Test
    public void testVersion6SegmentsChineseByDictionary() {
        SimHasher v5 = new SimHasher(SimHashSettings.DEFAULT_V5);
        SimHasher v6 = new SimHasher(SimHashSettings.defaults(6));
        assertEquals("138d925b4412361b", Fingerprints.toHex(v5.fingerprint(AMBIGUOUS_CHINESE)));
        assertEquals(
            "6fc8967e33ba7221b864f81fc5bc2703d1b19c26367c2ee412d73737a2ec9761",
            Signature.toHex(v5.sketch(AMBIGUOUS_CHINESE).signature())
        );
        assertEquals("9b7e814f7693b67b", Fingerprints.toHex(v6.fingerprint(AMBIGUOUS_CHINESE)));
        assertEquals(
            "6f1c962b4bd5b834b8ee901fc5bc27039ee69c2636f11c7efbd73750e4eccdeb",
            Signature.toHex(v6.sketch(AMBIGUOUS_CHINESE).signature())
        );
        assertTrue(v5.features(AMBIGUOUS_CHINESE).containsKey("尚未 结婚"));
        assertTrue(v6.features(AMBIGUOUS_CHINESE).containsKey("未 结婚"));
        assertTrue(v6.features(AMBIGUOUS_CHINESE).containsKey("的确 实在"));
        // text without Han characters is cut by Lucene alone: version 6 gives version 5's sketch
        assertEquals(v5.sketch(ENGLISH).fingerprint(), v6.sketch(ENGLISH).fingerprint());
        assertTrue(java.util.Arrays.equals(v5.sketch(PAGE).signature(), v6.sketch(PAGE).signature()));
    }

    static final String TEMPLATE_ARTICLE =
        "The city council approved the new budget for public libraries on Tuesday evening after a long debate.";
    /**
     * A short article in a heavy template: a footer (named so, no {@code <footer>} tag) with a long link list and an
     * "about" blurb that together outweigh the article, and a menu row written as plain text.
     */
    static final String TEMPLATE_PAGE = "<html><body><center>About | Contact | Privacy | Terms | Site map</center>"
        + "<div class=\"content\"><p>"
        + TEMPLATE_ARTICLE
        + "</p></div><div class=\"x-footer\" id=\"footer\"><div>"
        + "<a href=\"/1\">Weather for the weekend</a> | <a href=\"/2\">Local sports results</a> | <a href=\"/3\">School holidays</a> | "
        + "<a href=\"/4\">Road works on the bridge</a> | <a href=\"/5\">Market prices today</a> | <a href=\"/6\">Letters to the editor</a>"
        + "</div><div class=\"x-about\"><h4>About</h4><p>We are a small team of writers who cover the news of the valley, its towns"
        + " and its people, every day of the year, with help from our readers.</p></div></div></body></html>";
    static final String TEMPLATE_PAGE_V4 = "aff642d1f9aec7fb";
    static final String TEMPLATE_PAGE_V5 = "7ac616d1809e82b8";
    static final String TEMPLATE_PAGE_SIGNATURE_V5 = "e2f0b4938896e144e4784dbccbc2dc3fe3ae462f82834361957274a5dfa29bc1";

    /**
     * Version 4, the default of 0.6.0: version 3's fingerprints, and a verification signature of the same features
     * (pinned here as well: a stored signature must stay comparable across releases).
     */
    @Test
    public void testKnownAnswersForVersion4() {
        assertKnownAnswers(4, "9c9d494f7db06760", "48f60927ef3e0f57", "2a3aa5430c9cb5d4", "8aed0257ef49473c", "8aed0257ef49473c");
        assertEquals(SimHashSettings.DEFAULT_V4, SimHashSettings.defaults(4));
        SimHasher v4 = new SimHasher(SimHashSettings.DEFAULT_V4);
        assertEquals(SIGNATURE_ENGLISH, Signature.toHex(v4.sketch(ENGLISH).signature()));
        assertEquals(SIGNATURE_PAGE, Signature.toHex(v4.sketch(PAGE).signature()));
        assertEquals("the dump reads as the page", SIGNATURE_PAGE, Signature.toHex(v4.sketch(DUMP).signature()));
        assertEquals(1.0, Signature.similarity(v4.sketch(PAGE).signature(), v4.sketch(DUMP).signature()), 0);
        assertTrue(Signature.similarity(v4.sketch(ENGLISH).signature(), v4.sketch(CHINESE).signature()) < 0.2);
    }

    static final String SIGNATURE_ENGLISH = "f60ae2b2e77b838da014310ead409c0a3c73c746474ced11018e47b3eee6720b";
    static final String SIGNATURE_PAGE = "480a291b9628448f7f14924af7f09c0a40444246d6b8ed11677a814eeeb3ee0b";

    /** Pins the five inputs' fingerprints for {@code version}'s defaults, also through its bare id as a mapping pins it. */
    private static void assertKnownAnswers(int version, String english, String chinese, String mixed, String page, String dump) {
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put(ENGLISH, english);
        expected.put(CHINESE, chinese);
        expected.put(MIXED, mixed);
        expected.put(PAGE, page);
        expected.put(DUMP, dump);
        assertKnownAnswers(new SimHasher(SimHashSettings.defaults(version)), expected);
        assertKnownAnswers(new SimHasher(SimHashSettings.fromAlgorithmId("simhash-v" + version)), expected);
    }

    private static void assertKnownAnswers(SimHasher hasher, Map<String, String> expected) {
        StringBuilder actual = new StringBuilder();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            actual.append(Fingerprints.toHex(hasher.fingerprint(e.getKey()))).append(' ');
        }
        assertEquals(String.join(" ", expected.values()) + " ", actual.toString());
    }

    /**
     * Version 7 signs exactly as version 6 (fingerprints and signatures pinned above, bit for bit) and hands out the
     * full min-wise values of the same pass; versions 4 to 6 sketch as before, without them.
     */
    @Test
    public void testVersion7SignsAsVersion6WithMinima() {
        assertKnownAnswers(7, "9c9d494f7db06760", "48f60927ef3e0f57", "2a3aa5430c9cb5d4", "8aed0257ef49473c", "8aed0257ef49473c");
        SimHasher v6 = new SimHasher(SimHashSettings.defaults(6));
        SimHasher v7 = new SimHasher(SimHashSettings.DEFAULT_V7);
        assertEquals("9b7e814f7693b67b", Fingerprints.toHex(v7.fingerprint(AMBIGUOUS_CHINESE)));
        assertEquals(
            "6f1c962b4bd5b834b8ee901fc5bc27039ee69c2636f11c7efbd73750e4eccdeb",
            Signature.toHex(v7.sketch(AMBIGUOUS_CHINESE).signature())
        );
        assertEquals(SIGNATURE_ENGLISH, Signature.toHex(v7.sketch(ENGLISH).signature()));
        assertEquals(SIGNATURE_PAGE, Signature.toHex(v7.sketch(PAGE).signature()));
        for (String text : List.of(ENGLISH, CHINESE, MIXED, PAGE, DUMP, AMBIGUOUS_CHINESE, TEMPLATE_PAGE)) {
            SimHash six = v6.sketch(text);
            SimHash seven = v7.sketch(text);
            assertFalse("v6 sketches as before, without minima", six.hasMinima());
            assertTrue(seven.hasMinima());
            assertEquals(six.fingerprint(), seven.fingerprint());
            assertTrue(java.util.Arrays.equals(six.signature(), seven.signature()));
            assertTrue(
                "the signature is cut from the minima handed out",
                java.util.Arrays.equals(seven.signature(), Signature.finish(seven.minima()))
            );
            assertEquals("sketchWithMinima is v7's sketch for v6 too", seven, v6.sketchWithMinima(text));
            assertEquals(new SimHash(six.fingerprint(), six.signature()), six);
        }
        for (int version = 4; version <= 6; version++) {
            assertFalse(new SimHasher(SimHashSettings.defaults(version)).sketch(ENGLISH).hasMinima());
        }
        IllegalStateException noSignature = org.junit.Assert.assertThrows(
            IllegalStateException.class,
            () -> new SimHasher(SimHashSettings.defaults(3)).sketchWithMinima(ENGLISH)
        );
        assertTrue(noSignature.getMessage().contains("has no signature, so no min-wise values"));
        assertThrows("min-wise values come with a signature", () -> new SimHash(1L, null, new long[Signature.SLOTS]));
    }

    /**
     * Version 3 reads a text dump the way its HTML page reads: the menu bar is linked text, the heading's underline and
     * the {@code * * *} rule separate blocks, the label "Most read" heads nothing that stays, and the cookie banner goes.
     * The main text of the dump is then the article's, as in the HTML page, and so is the fingerprint.
     */
    @Test
    public void testVersion3ReadsTextDumpsAsTheirPages() {
        String dumpText = DEFAULT.extractText(DUMP);
        assertEquals("""
            A quick fox
            The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden porch of his house.
            Pack my box with five dozen liquor jugs, said the farmer, and then he went back inside to make some tea.
            """, dumpText);
        assertEquals(dumpText, DEFAULT.extractText(PAGE));
        assertEquals(DEFAULT.fingerprint(PAGE), DEFAULT.fingerprint(DUMP));
        String v2Text = V2.extractText(DUMP);
        assertTrue("version 2 is unchanged: " + v2Text, v2Text.contains("cookies") && v2Text.contains("A quick fox ==="));
        assertNotEquals(V2.fingerprint(PAGE), V2.fingerprint(DUMP));
    }

    /** Version 3 drops cookie notices and orphan headings in HTML too, when no class name gave them away. */
    @Test
    public void testVersion3DropsCookieNoticesAndOrphanHeadingsInHtml() {
        String html = "<html><body><h1>Harbor bridge reopens</h1>"
            + "<p>The old harbor bridge reopened to traffic on Monday morning after two years of repairs that cost far more than planned.</p>"
            + "<p>We use cookies to give you the best experience. By continuing to browse you accept their use.</p>"
            + "<h3>Related topics</h3><p><a href='/a'>Bridges of the city</a> <a href='/b'>Road works this summer</a></p></body></html>";
        String main = DEFAULT.extractText(html);
        assertEquals(
            "Harbor bridge reopens\nThe old harbor bridge reopened to traffic on Monday morning after two years of repairs "
                + "that cost far more than planned.\n",
            main
        );
        String v2 = V2.extractText(html);
        assertTrue(v2, v2.contains("We use cookies"));
        // a paragraph about baking cookies is not a consent banner: it says nothing of use, acceptance or privacy
        String recipe = "<html><body><p>Bake the cookies for twelve minutes, until the edges turn golden brown.</p></body></html>";
        assertTrue(DEFAULT.extractText(recipe).contains("Bake the cookies"));
    }

    /** Lines of labels between separators are menu bars or breadcrumbs; prose and a shell line with one {@code >} are not. */
    @Test
    public void testVersion3LabelBars() {
        String dump = "Docs » Guide » Setup\n\nRun the installer and restart the service when it asks you to, then log in again.\n\n"
            + "Keep the old configuration: cp app.conf backup.conf > log.txt before you upgrade to the new release.\n";
        String main = DEFAULT.extractText(dump);
        assertFalse(main, main.contains("Docs"));
        assertTrue(main, main.contains("Run the installer"));
        assertTrue(main, main.contains("cp app.conf backup.conf > log.txt"));
        // a table dumped one row per line is text, as on its HTML page; a bar glued to the next line is still a bar
        String table = "Set operators of the formula editor, with the command to type for each of them:\n\n"
            + "in | Is contained in | set\nnotin | Is not contained in | set\nsubset | Subset of | set\n\n"
            + "About us | Contact | Privacy\nExample Site, the home of examples\n";
        String tableMain = DEFAULT.extractText(table);
        assertTrue(tableMain, tableMain.contains("notin | Is not contained in"));
        assertFalse(tableMain, tableMain.contains("About us"));
    }

    /** Version 2 drops a text dump's menus: runs of 4+ list items that are short labels, not sentences. */
    @Test
    public void testVersion2DropsMenusOfTextDumps() {
        String dump = "Example Hub\n\n  - Home\n  - Network configuration\n  - Package management tips\n  - Backup and recovery\n\n"
            + "The old harbor bridge reopened to traffic on Monday morning after two years of repairs.\n\n"
            + "Options:\n\n  - Radius: the blur radius.\n  - Quality: slower but smoother.\n\n"
            + "Engineers replaced the rusted steel deck and rebuilt both approach ramps before the opening.\n\n"
            + "### Most read\n\n  - Debian package internals\n  - Printable data\n  - The kernel\n  - Source code merge tools\n";
        String main = DEFAULT.extractText(dump);
        assertTrue(main, main.contains("harbor bridge reopened"));
        assertTrue("items that read as sentences stay: " + main, main.contains("Radius: the blur radius."));
        for (String menu : new String[] {
            "Network configuration",
            "Package management tips",
            "Printable data",
            "Source code merge tools" }) {
            assertFalse("[" + menu + "] is a menu item: " + main, main.contains(menu));
        }
    }

    /**
     * Version 2's extraction keeps a short sentence that version 1's word-count rules drop (a sentence between a heading
     * and a short line), in the HTML page and in its text dump alike.
     */
    @Test
    public void testVersion2KeepsShortSentences() {
        String html = "<html><body><h1>Form Wizard - Set Name</h1><p>Specifies the name of the form and how to proceed.</p>"
            + "<p>To access this command...</p><h2>Name of the form</h2><p>Specifies the name of the form.</p></body></html>";
        String text = "Form Wizard - Set Name\n\nSpecifies the name of the form and how to proceed.\n\nTo access this command...\n\n"
            + "Name of the form\n\nSpecifies the name of the form.\n";
        for (String page : new String[] { html, text }) {
            assertTrue(page, DEFAULT.extractText(page).contains("Specifies the name of the form and how to proceed."));
            assertTrue(page, DEFAULT.extractText(page).contains("Specifies the name of the form."));
            assertFalse("version 1 is unchanged", V1.extractText(page).contains("Specifies the name of the form and how to proceed."));
        }
        assertEquals(DEFAULT.fingerprint(html), DEFAULT.fingerprint(text));
    }

    /** The worked example used in many SimHash write-ups: 6-bit hashes, "100101" weighted 4 and "101011" weighted 5. */
    @Test
    public void testWorkedExampleOfWeightedBitSums() {
        long[] sums = SimHasher.bitSums(new long[] { 0b100101, 0b101011 }, new long[] { 4, 5 }, 6);
        // written most significant bit first the sums are 9 -9 1 -1 1 9; index i is bit i
        assertEquals(List.of(9L, 1L, -1L, 1L, -9L, 9L), java.util.Arrays.stream(sums).boxed().toList());
        assertEquals(0b101011L, SimHasher.fingerprintFromSums(sums));
    }

    @Test
    public void testTieGivesZeroBit() {
        assertEquals(0b010L, SimHasher.fingerprintFromSums(new long[] { 0, 1, -1 }));
        long[] sums = SimHasher.bitSums(new long[] { 0b01, 0b10 }, new long[] { 3, 3 }, 2);
        assertEquals(0L, SimHasher.fingerprintFromSums(sums)); // both sums are exactly 0
    }

    @Test
    public void testSumsDoNotDependOnFeatureOrder() {
        Random random = getRandom();
        int n = randomIntBetween(1, 1000), bits = randomBoolean() ? 64 : randomIntBetween(1, 64);
        long[] hashes = random.longs(n).toArray();
        long[] weights = random.longs(n, 1, 1 << 20).toArray();
        long[] sums = SimHasher.bitSums(hashes, weights, bits);
        // sum i adds the weight of every hash with bit i set and subtracts the others
        for (int bit = 0; bit < bits; bit++) {
            long expected = 0;
            for (int i = 0; i < n; i++)
                expected += ((hashes[i] >>> bit) & 1) == 1 ? weights[i] : -weights[i];
            assertEquals("bit " + bit, expected, sums[bit]);
        }
        for (int i = hashes.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long h = hashes[i];
            hashes[i] = hashes[j];
            hashes[j] = h;
            long w = weights[i];
            weights[i] = weights[j];
            weights[j] = w;
        }
        assertEquals(java.util.Arrays.toString(sums), java.util.Arrays.toString(SimHasher.bitSums(hashes, weights, bits)));
    }

    @Test
    public void testIdenticalAndCosmeticallyDifferentTextsMatch() {
        assertEquals(DEFAULT.fingerprint(ENGLISH), DEFAULT.fingerprint(ENGLISH));
        assertEquals(DEFAULT.fingerprint(ENGLISH), DEFAULT.fingerprint(ENGLISH.toUpperCase(java.util.Locale.ROOT).replace(" ", "  \n")));
        assertEquals(DEFAULT.fingerprint("don't stop — “believing”"), DEFAULT.fingerprint("don’t stop - \"believing\""));
        // full-width forms and spaces between Chinese and Latin
        assertEquals(DEFAULT.fingerprint("使用Lucene搜索ＡＢＣ"), DEFAULT.fingerprint("使用 Lucene 搜索 ABC"));
        assertEquals(DEFAULT.fingerprint(PAGE), DEFAULT.fingerprint(PAGE.replace("\n", "").replace("fox", "&#102;ox")));
    }

    /**
     * Averages over random texts. With the seed drawn per run, the averages use 100 texts from 10 vocabularies: over
     * 1,000 seeds the edit average was 4.2 (sd 0.2) and the unrelated one 29.8 (sd 0.44), so both bounds are more than
     * 8 sd away (with one vocabulary and 40 texts the unrelated average had sd 0.8, under 5 sd from its bound).
     */
    @Test
    public void testSmallEditsGiveSmallDistancesAndUnrelatedTextsAbout32() {
        Random random = getRandom();
        List<String> vocabulary = new ArrayList<>();
        double editDistance = 0, unrelatedDistance = 0, bigramEditDistance = 0, bigramUnrelatedDistance = 0;
        int trials = 100;
        for (int t = 0; t < trials; t++) {
            if (t % 10 == 0) {
                vocabulary.clear();
                for (int i = 0; i < 3000; i++)
                    vocabulary.add(randomWord(random));
            }
            List<String> words = new ArrayList<>();
            for (int i = 0; i < 400; i++)
                words.add(vocabulary.get((int) Math.min(vocabulary.size() - 1, Math.abs(random.nextGaussian()) * 600)));
            List<String> edited = new ArrayList<>(words);
            for (int e = 0; e < words.size() * 3 / 100; e++)
                edited.set(random.nextInt(edited.size()), randomWord(random));
            List<String> other = new ArrayList<>();
            for (int i = 0; i < 400; i++)
                other.add(vocabulary.get(random.nextInt(vocabulary.size())));
            long fp = V1.fingerprint(String.join(" ", words));
            editDistance += Fingerprints.distance(fp, V1.fingerprint(String.join(" ", edited)));
            unrelatedDistance += Fingerprints.distance(fp, V1.fingerprint(String.join(" ", other)));
            long bigrams = DEFAULT.fingerprint(String.join(" ", words));
            bigramEditDistance += Fingerprints.distance(bigrams, DEFAULT.fingerprint(String.join(" ", edited)));
            bigramUnrelatedDistance += Fingerprints.distance(bigrams, DEFAULT.fingerprint(String.join(" ", other)));
        }
        editDistance /= trials;
        unrelatedDistance /= trials;
        assertTrue("3% edits should move few bits, got " + editDistance, editDistance < 6);
        // an edited word changes two bigrams: cos about 0.94, about 7 bits expected
        bigramEditDistance /= trials;
        bigramUnrelatedDistance /= trials;
        assertTrue("3% edits should move few bigram bits, got " + bigramEditDistance, bigramEditDistance < 10);
        assertTrue(
            "unrelated: about half the bits, got " + bigramUnrelatedDistance,
            bigramUnrelatedDistance > 26 && bigramUnrelatedDistance < 38
        );
        assertTrue(
            "unrelated texts should differ in about half the bits, got " + unrelatedDistance,
            unrelatedDistance > 26 && unrelatedDistance < 38
        );
    }

    private static String randomWord(Random random) {
        StringBuilder sb = new StringBuilder();
        int len = 3 + random.nextInt(7);
        for (int i = 0; i < len; i++)
            sb.append((char) ('a' + random.nextInt(26)));
        return sb.toString();
    }

    @Test
    public void testAnalysisOfAPageKeepsTheMainContent() {
        Analysis a = V1.analyze(PAGE, 5);
        assertEquals(ContentType.HTML, a.contentType());
        assertTrue(a.mainText(), a.mainText().contains("The quick brown fox jumps over the lazy dog"));
        assertTrue(a.mainText(), a.mainText().contains("Pack my box"));
        for (String noise : new String[] { "Home", "Login", "Ten cats", "cookies", "All rights reserved", "var x", "color:red" }) {
            assertFalse("[" + noise + "] is boilerplate: " + a.mainText(), a.mainText().contains(noise));
        }
        assertEquals(5, a.topFeatures().size());
        assertEquals("farmer", a.topFeatures().get(0).feature()); // the only word seen twice
        assertEquals(2, a.topFeatures().get(0).termFrequency());
        assertEquals(2.0, a.topFeatures().get(0).weight(), 1e-12); // raw tf by default
        assertTrue(a.topFeatures().get(1).weight() <= a.topFeatures().get(0).weight());
        assertEquals(a.fingerprint(), V1.fingerprint(PAGE));
        assertTrue(a.featureCount() > 20);
        Analysis v2 = DEFAULT.analyze(PAGE, 5);
        assertEquals(a.mainText(), v2.mainText());
        // word bigrams; a removed stopword leaves an empty first word (" farmer" follows "the")
        assertTrue(v2.topFeatures().toString(), v2.topFeatures().stream().allMatch(f -> f.feature().contains(" ")));
        assertEquals(" farmer", v2.topFeatures().get(0).feature());
        // without extraction the navigation counts
        SimHasher all = new SimHasher(SimHashSettings.fromMap(new HashMap<>(Map.of("extract", "none"))));
        assertTrue(all.analyze(PAGE, 0).mainText().contains("Ten cats"));
        assertNotEquals(all.fingerprint(PAGE), DEFAULT.fingerprint(PAGE));
    }

    @Test
    public void testTextDumpNavigationIsDropped() {
        String dump = """
            Example Site

              • [1]Home
              • [2]News
              • [3]Sports

            A quick fox

            The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden porch of his
            house, and nobody else is around to see it happen on this quiet morning in the valley.

            [4]About us | [5]Contact | [6]Privacy

            © 2024 Example Site

            References

              1. /
              2. /news
            """;
        Analysis a = DEFAULT.analyze(dump, 0);
        assertEquals(ContentType.TEXT, a.contentType());
        assertTrue(a.mainText(), a.mainText().contains("The quick brown fox jumps"));
        for (String noise : new String[] { "Home", "Sports", "Privacy", "©", "/news" }) {
            assertFalse("[" + noise + "] is boilerplate: " + a.mainText(), a.mainText().contains(noise));
        }
    }

    @Test
    public void testChineseIsSegmentedIntoWords() {
        List<String> features = V1.analyze(CHINESE, 100).topFeatures().stream().map(Analysis.WeightedFeature::feature).toList();
        assertTrue(features.toString(), features.contains("北京"));
        assertTrue(features.toString(), features.contains("中文"));
        assertFalse("stopword", features.contains("的"));
        List<String> bigrams = DEFAULT.analyze(CHINESE, 100).topFeatures().stream().map(Analysis.WeightedFeature::feature).toList();
        assertTrue(bigrams.toString(), bigrams.contains("北京 天安门"));
        List<String> mixed = V1.analyze(MIXED, 100).topFeatures().stream().map(Analysis.WeightedFeature::feature).toList();
        assertTrue(mixed.toString(), mixed.contains("lucene"));
        assertTrue(mixed.toString(), mixed.contains("simhash"));
        assertTrue(mixed.toString(), mixed.contains("指纹"));
    }

    @Test
    public void testAlternativeFeaturesAndWeightings() {
        for (String spec : new String[] {
            "features=char_ngrams",
            "shingle_size=2",
            "weighting=log_tf",
            "weighting=binary",
            "weighting=tf_idf",
            "stopwords=false" }) {
            Map<String, Object> options = new HashMap<>(Map.of(spec.split("=")[0], spec.split("=")[1]));
            SimHasher hasher = new SimHasher(SimHashSettings.fromMap(options));
            assertEquals(spec, hasher.fingerprint(ENGLISH), hasher.fingerprint(ENGLISH + " "));
            assertTrue(spec, Fingerprints.distance(hasher.fingerprint(ENGLISH), hasher.fingerprint(CHINESE)) > 10);
        }
        SimHasher ngrams = new SimHasher(SimHashSettings.fromMap(new HashMap<>(Map.of("features", "char_ngrams", "ngram_size", 2))));
        List<String> grams = ngrams.analyze("Ab c!", 10).topFeatures().stream().map(Analysis.WeightedFeature::feature).toList();
        assertEquals(List.of("ab", "bc"), grams);
    }

    @Test
    public void testBadInput() {
        assertThrows("content must not be null", () -> DEFAULT.fingerprint(null));
        assertThrows("content must not be empty or whitespace only", () -> DEFAULT.fingerprint(""));
        assertThrows("content must not be empty or whitespace only", () -> DEFAULT.fingerprint(" \n\t "));
        assertThrows("content has no features", () -> DEFAULT.fingerprint("!!! --- ... ???"));
        assertThrows("content has no features", () -> DEFAULT.fingerprint("<html><body><script>x()</script></body></html>"));
        SimHasher small = new SimHasher(SimHashSettings.fromMap(new HashMap<>(Map.of("max_input_chars", 10, "max_features", 3))));
        assertThrows("content has 11 chars, more than [max_input_chars] = 10", () -> small.fingerprint("abcdefghijk"));
        SimHasher fewFeatures = new SimHasher(SimHashSettings.fromMap(new HashMap<>(Map.of("max_features", 3))));
        assertThrows("more than [max_features] = 3", () -> fewFeatures.fingerprint("one two six ten red"));
        try {
            DEFAULT.fingerprint("");
        } catch (EngineInputException expected) {
            return; // the dedicated type, so the plugin can map it to a client error
        }
        throw new AssertionError("expected EngineInputException");
    }

    /** Adversarial input must not crash or recurse; the work stays linear (no timing is asserted). */
    @Test
    public void testAdversarialInput() {
        String deep = "<div>".repeat(100_000) + "deep text inside many divs" + "</div>".repeat(100_000);
        assertTrue(DEFAULT.analyze(deep, 0).mainText().contains("deep text"));
        String unclosed = "<p><a href=x><b><i>".repeat(20_000) + " words";
        DEFAULT.fingerprint(unclosed);
        Random random = getRandom();
        byte[] junk = new byte[200_000];
        random.nextBytes(junk);
        DEFAULT.fingerprint(new String(junk, java.nio.charset.StandardCharsets.ISO_8859_1));
        char[] surrogates = new char[50_000];
        for (int i = 0; i < surrogates.length; i++)
            surrogates[i] = i % 3 == 0 ? 'x' : (char) (0xD800 + random.nextInt(0x800));
        DEFAULT.fingerprint(new String(surrogates));
        DEFAULT.fingerprint("abc ".repeat(250_000));
        String longToken = "a".repeat(1_000_000); // far longer than the tokenizer's maximum token length
        assertEquals(DEFAULT.fingerprint(longToken), DEFAULT.fingerprint(longToken));
        assertTrue(DEFAULT.analyze("中文".repeat(100_000), 1).topFeatures().get(0).termFrequency() > 1); // one Han run of 200k chars
    }

    @Test
    public void testConcurrentUseGivesTheSameFingerprints() throws Exception {
        String[] inputs = { ENGLISH, CHINESE, MIXED, PAGE };
        long[] expected = new long[inputs.length];
        for (int i = 0; i < inputs.length; i++)
            expected[i] = DEFAULT.fingerprint(inputs[i]);
        List<Thread> threads = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(4, task -> {
            Thread thread = new Thread(task);
            threads.add(thread);
            return thread;
        });
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(pool.submit(() -> {
                    for (int r = 0; r < 50; r++) {
                        for (int i = 0; i < inputs.length; i++) {
                            if (DEFAULT.fingerprint(inputs[i]) != expected[i]) return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results)
                assertTrue(f.get());
        } finally {
            pool.shutdown();
            // the randomized runner fails a test that leaves threads behind: the pool terminates before its threads
            // have exited, so wait for the threads themselves
            pool.awaitTermination(1, TimeUnit.MINUTES);
            for (Thread thread : threads)
                thread.join(TimeUnit.MINUTES.toMillis(1));
        }
    }

    @Test
    public void testContentTypeDetection() {
        assertEquals(ContentType.HTML, ContentType.detect("  <!DOCTYPE html><p>x"));
        assertEquals(ContentType.HTML, ContentType.detect("\uFEFF<html>"));
        assertEquals(ContentType.HTML, ContentType.detect("Some text then <div>a block</div>"));
        assertEquals(ContentType.TEXT, ContentType.detect("if a < b then c > d"));
        assertEquals(ContentType.TEXT, ContentType.detect(CHINESE));
        SimHasher asText = new SimHasher(SimHashSettings.fromMap(new HashMap<>(Map.of("content_type", "text"))));
        assertEquals(ContentType.TEXT, asText.analyze(PAGE, 0).contentType());
    }

    @Test
    public void testBuiltinIdfTableLoadsFromTheClassPath() {
        IdfTable table = IdfTable.builtin(IdfTable.BUILTIN);
        assertTrue(table.documents() > 1000);
        assertTrue("common words weigh less than rare ones", table.idf("file") < table.idf("zyzzyva"));
        assertEquals(StrictMath.log(table.documents() + 1.0) + 1.0, table.idf("never-seen-feature"), 1e-12);
        assertThrows("[idf] unknown table [nope]", () -> IdfTable.builtin("nope"));
    }

    /** differing features come from the whole feature sets: a feature both inputs have is never named, whatever its rank. */
    @Test
    public void differingFeaturesOnWholeFeatureSets() {
        SimHasher hasher = DEFAULT;
        String shared = "alpha alpha alpha alpha beta beta beta gamma gamma ";
        Analysis a = hasher.analyzeWithFeatures(shared + "delta", 1);
        Analysis b = hasher.analyzeWithFeatures("delta " + "epsilon epsilon epsilon epsilon epsilon " + shared, 1);
        Analysis.Difference d = Analysis.differingFeatures(a, b, 100);
        java.util.Set<String> onlyA = new java.util.HashSet<>(a.features().keySet());
        onlyA.removeAll(b.features().keySet());
        java.util.Set<String> onlyB = new java.util.HashSet<>(b.features().keySet());
        onlyB.removeAll(a.features().keySet());
        assertEquals(onlyA, new java.util.HashSet<>(d.onlyInFirst().stream().map(Analysis.WeightedFeature::feature).toList()));
        assertEquals(onlyB, new java.util.HashSet<>(d.onlyInSecond().stream().map(Analysis.WeightedFeature::feature).toList()));
        for (Analysis.WeightedFeature f : d.onlyInSecond()) {
            assertFalse(f.feature(), a.features().containsKey(f.feature()));
        }
        // heaviest first, and limited
        for (int i = 1; i < d.onlyInSecond().size(); i++) {
            assertTrue(d.onlyInSecond().get(i - 1).weight() >= d.onlyInSecond().get(i).weight());
        }
        assertTrue(Analysis.differingFeatures(a, b, 1).onlyInSecond().size() <= 1);
        // the top-1 lists differ, yet their features are shared: not named
        assertFalse(onlyB.isEmpty());
        assertEquals(hasher.fingerprint(shared + "delta"), a.fingerprint());
        assertThrows("without their feature sets", () -> Analysis.differingFeatures(hasher.analyze("x y", 1), b, 1));
    }
}
