package org.nearduplicate.core.features;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.shingle.ShingleFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.util.ArrayUtil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.FeatureSettings;

/**
 * Turns normalized text into features with their term frequencies: words (Lucene {@link StandardTokenizer},
 * lower case, Chinese re-segmented by HanLP, optional stopwords and word shingles) or character n-grams over the
 * letters and digits (whitespace and punctuation ignored). Thread-safe: Lucene analyzers keep their token streams
 * per thread.
 */
final class FeatureExtractor {
    private final FeatureSettings settings;
    private final Analyzer analyzer;

    FeatureExtractor(FeatureSettings settings) {
        this.settings = settings;
        this.analyzer = switch (settings.features()) {
            // word bigrams are joined here rather than by ShingleFilter, which copies every token's attributes
            // twice; countBigrams reproduces its output exactly (FeatureExtractorTests compares the two)
            case WORDS -> settings.shingleSize() == 2
                ? wordAnalyzer(settings.stopwords(), 1, segmentation(settings))
                : wordAnalyzer(settings);
            case SPOTSIGS -> wordAnalyzer(false, 1, segmentation(settings)); // every word, stopwords included: they are the antecedents
            case CHAR_NGRAMS -> null;
        };
    }

    /** The analyzer behind the word features; also used by the benchmark as the baseline. */
    static Analyzer wordAnalyzer(FeatureSettings settings) {
        return wordAnalyzer(settings.stopwords(), settings.shingleSize(), segmentation(settings));
    }

    private static ChineseWordFilter.Segmentation segmentation(FeatureSettings settings) {
        return settings.dictionarySegmentation() ? ChineseWordFilter.Segmentation.DICTIONARY : ChineseWordFilter.Segmentation.VITERBI;
    }

    static Analyzer wordAnalyzer(boolean stop, int shingles, ChineseWordFilter.Segmentation segmentation) {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                StandardTokenizer tokenizer = new StandardTokenizer();
                TokenStream ts = new LowerCaseFilter(tokenizer);
                ts = new ChineseWordFilter(ts, segmentation);
                if (stop) ts = new StopFilter(ts, Stopwords.SET);
                if (shingles > 1) {
                    ShingleFilter sf = new ShingleFilter(ts, shingles, shingles);
                    sf.setOutputUnigrams(false);
                    sf.setOutputUnigramsIfNoShingles(true);
                    sf.setFillerToken(""); // removed stopwords leave no trace in the shingles
                    ts = sf;
                }
                return new TokenStreamComponents(tokenizer, ts);
            }
        };
    }

    /**
     * Counts the features of {@code text}.
     *
     * @throws EngineInputException when there are more distinct features than {@code max_features}
     */
    Map<String, Integer> countFeatures(String text) {
        Map<String, Integer> counts = new HashMap<>();
        if (settings.features() == FeatureSettings.Features.SPOTSIGS) {
            SpotSignatures.extract(tokens(text), Stopwords.SET, settings.shingleSize(), f -> add(counts, f));
        } else if (settings.features() == FeatureSettings.Features.WORDS && settings.shingleSize() == 2) {
            countBigrams(text, counts);
        } else if (analyzer != null) {
            try (TokenStream ts = analyzer.tokenStream("content", text)) {
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                ts.reset();
                while (ts.incrementToken()) {
                    add(counts, term.toString());
                }
                ts.end();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // cannot happen: the reader is a string
            }
        } else {
            charNgrams(text, settings.ngramSize(), counts);
        }
        return counts;
    }

    /**
     * Counts the word bigrams of {@code text} exactly as {@code ShingleFilter(2, 2)} with {@code outputUnigrams=false},
     * {@code outputUnigramsIfNoShingles=true}, filler {@code ""} and separator {@code " "} emits them. A position gap
     * (removed stopwords, at the start, between words or at the end) counts as one empty filler word, so "a the b"
     * gives "a " and " b"; a stream of a single word gives that word; a stream of fillers only gives nothing.
     */
    private void countBigrams(String text, Map<String, Integer> counts) {
        char[] previous = new char[16]; // the last word of the sequence, filler included (length 0)
        int previousLength = 0;
        int items = 0; // words and fillers seen so far; a filler is always followed by its word
        String first = null; // the first item while it is alone: the unigram fallback
        try (TokenStream ts = analyzer.tokenStream("content", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            PositionIncrementAttribute posInc = ts.addAttribute(PositionIncrementAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                if (posInc.getPositionIncrement() > 1) {
                    // a filler "" before this word; a window of fillers only is never emitted
                    if (items > 0) add(counts, bigram(previous, previousLength, NO_CHARS, 0));
                    previousLength = 0;
                    items++;
                }
                if (items > 0) add(counts, bigram(previous, previousLength, term.buffer(), term.length()));
                else first = term.toString();
                if (previous.length < term.length()) previous = new char[ArrayUtil.oversize(term.length(), Character.BYTES)];
                System.arraycopy(term.buffer(), 0, previous, 0, term.length());
                previousLength = term.length();
                items++;
            }
            ts.end();
            if (posInc.getPositionIncrement() > 0 && items > 0) {
                add(counts, bigram(previous, previousLength, NO_CHARS, 0)); // the trailing filler
                items++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen: the reader is a string
        }
        if (items == 1 && first != null) add(counts, first);
    }

    private static final char[] NO_CHARS = new char[0];

    private static String bigram(char[] left, int leftLength, char[] right, int rightLength) {
        char[] chars = new char[leftLength + 1 + rightLength];
        System.arraycopy(left, 0, chars, 0, leftLength);
        chars[leftLength] = ' ';
        System.arraycopy(right, 0, chars, leftLength + 1, rightLength);
        return new String(chars);
    }

    /** The analyzer's tokens of {@code text} in order. */
    List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream("content", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                tokens.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen: the reader is a string
        }
        return tokens;
    }

    private void add(Map<String, Integer> counts, String feature) {
        if (counts.merge(feature, 1, Integer::sum) == 1 && counts.size() > settings.maxFeatures()) {
            throw new EngineInputException(
                "content has more than [" + FeatureSettings.MAX_FEATURES + "] = " + settings.maxFeatures() + " distinct features"
            );
        }
    }

    private void charNgrams(String text, int n, Map<String, Integer> counts) {
        // lower-cased letters and digits as code points; everything else separates nothing, so spacing is ignored
        int[] cps = text.codePoints().filter(Character::isLetterOrDigit).map(Character::toLowerCase).toArray();
        if (cps.length > 0 && cps.length < n) {
            add(counts, new String(cps, 0, cps.length));
            return;
        }
        for (int i = 0; i + n <= cps.length; i++) {
            add(counts, new String(cps, i, n));
        }
    }
}
