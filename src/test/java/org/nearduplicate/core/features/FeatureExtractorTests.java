package org.nearduplicate.core.features;

import com.carrotsearch.randomizedtesting.RandomizedTest;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import org.junit.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

import org.nearduplicate.core.FeatureSettings;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.extract.TextNormalizer;
import org.nearduplicate.tools.quality.Corpus;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

/**
 * The word bigrams of {@link FeatureExtractor} are joined by hand for speed; they must be exactly what Lucene's
 * {@code ShingleFilter} gives with the same options, or every simhash-v2 fingerprint would change.
 */
public class FeatureExtractorTests extends RandomizedTest {
    private static final FeatureSettings BIGRAMS = SimHashSettings.DEFAULT.featureSettings();

    /** The reference: the analyzer chain ending in ShingleFilter, as simhash-v2 was first released. */
    private static Map<String, Integer> shingleFilterCounts(String text) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        try (Analyzer analyzer = FeatureExtractor.wordAnalyzer(BIGRAMS); TokenStream ts = analyzer.tokenStream("content", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken())
                counts.merge(term.toString(), 1, Integer::sum);
            ts.end();
        }
        return counts;
    }

    private static void assertSameAsShingleFilter(FeatureExtractor extractor, String text) throws IOException {
        assertEquals("text [" + text + "]", shingleFilterCounts(text), extractor.countFeatures(text));
    }

    @Test
    public void testDefaultsAreBigramsWithStopwords() {
        assertEquals(2, BIGRAMS.shingleSize());
        assertEquals(true, BIGRAMS.stopwords());
        assertEquals(FeatureSettings.Features.WORDS, BIGRAMS.features());
    }

    @Test
    public void testGapsAndShortStreams() throws IOException {
        FeatureExtractor extractor = new FeatureExtractor(BIGRAMS);
        // a removed stopword is one empty filler word: before, between and after words
        assertEquals(Map.of("quick ", 1, " fox", 1), extractor.countFeatures("quick the fox"));
        assertEquals(Map.of(" quick", 1, "quick fox", 1, "fox ", 1), extractor.countFeatures("The quick fox of"));
        // several stopwords in a row are still one filler
        assertEquals(Map.of("quick ", 1, " fox", 1), extractor.countFeatures("quick and the of fox"));
        // one word alone is its own feature, unless a gap makes it a pair
        assertEquals(Map.of("fox", 1), extractor.countFeatures("Fox"));
        assertEquals(Map.of("fox ", 1), extractor.countFeatures("fox the"));
        assertEquals(Map.of(), extractor.countFeatures("the of and"));
        assertEquals(Map.of(), extractor.countFeatures("  ... "));
        for (String text : new String[] {
            "quick the fox",
            "The quick fox of",
            "quick and the of fox",
            "Fox",
            "fox the",
            "the fox",
            "the of and",
            "",
            " , ",
            "fox fox fox fox",
            "中文分词测试的结果",
            "我们的 search engine 在 北京",
            "a",
            "the",
            "x y",
            "中",
            "的",
            "中 the",
            "2026 年 11 月",
            "word".repeat(300) + " after a very long token",
            "don't stop-words e-mail U.S.A. 3.14 x_y", }) {
            assertSameAsShingleFilter(extractor, text);
        }
    }

    @Test
    public void testRandomTokenStreams() throws IOException {
        FeatureExtractor extractor = new FeatureExtractor(BIGRAMS);
        String[] vocabulary = {
            "the",
            "a",
            "of",
            "and",
            "is",
            "fox",
            "Quick",
            "brown",
            "42",
            "x",
            "的",
            "我们",
            "在",
            "北京",
            "中文",
            "搜索",
            "引擎",
            ",",
            ".",
            "!",
            " ",
            "\n",
            "—",
            "“",
            "e-mail",
            "co-op",
            "ü",
            "ŉ",
            "😀",
            "ｆｕｌｌ" };
        for (int i = 0; i < 500; i++) {
            StringBuilder sb = new StringBuilder();
            int n = randomIntBetween(0, 40);
            for (int j = 0; j < n; j++) {
                sb.append(randomFrom(vocabulary));
                if (randomBoolean()) sb.append(' ');
            }
            assertSameAsShingleFilter(extractor, TextNormalizer.normalize(sb.toString()));
        }
    }

    /** Every document of the small labelled corpus (skipped with a message where the corpus is absent). */
    @Test
    public void testCorpusDocumentsGiveTheSameBigrams() throws IOException {
        InputStream docs = getClass().getResourceAsStream("/eval-mini/docs.jsonl.gz");
        InputStream pairs = getClass().getResourceAsStream("/eval-mini/pairs.tsv.gz");
        java.nio.file.Path mini = java.nio.file.Path.of(System.getProperty("eval.dir", "../shared/eval"), "mini");
        if (docs == null || pairs == null) System.err.println("SKIPPED: no evaluation corpus at " + mini.toAbsolutePath());
        assumeTrue("no evaluation corpus at " + mini.toAbsolutePath(), docs != null && pairs != null);
        FeaturePipeline pipeline = new FeaturePipeline(BIGRAMS);
        FeatureExtractor extractor = new FeatureExtractor(BIGRAMS);
        int compared = 0;
        for (Corpus.Doc doc : Corpus.loadGzipped(docs, pairs).docs().values()) {
            String text = TextNormalizer.normalize(pipeline.extractText(doc.content()));
            assertSameAsShingleFilter(extractor, text);
            compared++;
        }
        assertEquals(true, compared > 100);
    }
}
