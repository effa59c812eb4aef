package org.nearduplicate.core.features;

import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

import java.util.ArrayDeque;
import java.util.Objects;

import com.hankcs.hanlp.HanLP;
import com.hankcs.hanlp.seg.Other.DoubleArrayTrieSegment;
import com.hankcs.hanlp.seg.Segment;
import com.hankcs.hanlp.seg.common.Term;

/**
 * Re-segments Chinese into words with HanLP. {@link StandardTokenizer} emits every Han character as its own
 * {@code <IDEOGRAPHIC>} token; this filter joins runs of adjacent ones (no gap in the offsets, so punctuation and
 * spaces still separate runs) and replaces each run with HanLP's words. Other tokens pass unchanged, so mixed
 * Chinese and English text works.
 */
public final class ChineseWordFilter extends TokenFilter {
    static final String TYPE = "<WORD_ZH>";
    private static final String IDEOGRAPHIC = StandardTokenizer.TOKEN_TYPES[StandardTokenizer.IDEOGRAPHIC];
    /**
     * Longest run handed to HanLP at once. HanLP's lattice grows with the run, so an adversarial page of millions of
     * Han characters without punctuation would otherwise be segmented in one piece; longer runs are cut here. Real
     * text has punctuation far more often, so this changes no realistic fingerprint.
     */
    public static final int MAX_RUN_CHARS = 4096;

    /**
     * HanLP's segmenters keep no per-call state in practice, but that is not documented: one per thread is cheap
     * (the dictionaries are shared statics) and certainly safe.
     */
    static {
        initialiseHanLp();
    }

    /**
     * HanLP reads {@code hanlp.properties} (this jar's: dictionaries from the class path) through the thread's
     * context class loader while its configuration class initialises; a plugin's classes live in their own loader, so
     * it is pointed there once. Without the file HanLP probes the working directory for its data, which Elasticsearch's
     * entitlements refuse fatally and OpenSearch's agent may refuse too.
     */
    private static void initialiseHanLp() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(ChineseWordFilter.class.getClassLoader());
        try {
            Objects.requireNonNull(HanLP.Config.IOAdapter, "HanLP must read its dictionaries from its jar");
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** How a run of Han characters is cut into words; fixed by the algorithm version. */
    public enum Segmentation {
        /** HanLP's default segmenter: the best path through a word lattice scored by its bigram table (v1-v5). */
        VITERBI,
        /**
         * Longest match in HanLP's core dictionary (its double-array trie), one character where no word matches (from
         * v6): the same text always gives the same words, which is all near-duplicate detection needs of a segmenter,
         * without building a lattice per run (HanLP's Viterbi segmenter was a fifth of the processor's time).
         */
        DICTIONARY
    }

    private static final ThreadLocal<Segment> VITERBI = ThreadLocal.withInitial(() -> configure(HanLP.newSegment()));
    private static final ThreadLocal<Segment> DICTIONARY = ThreadLocal.withInitial(() -> configure(new DoubleArrayTrieSegment()));

    /** Words only: no tags, no recognizers, no custom dictionary (a node's files must not change fingerprints). */
    private static Segment configure(Segment segment) {
        return segment.enablePartOfSpeechTagging(false)
            .enableNameRecognize(false)
            .enableTranslatedNameRecognize(false)
            .enableJapaneseNameRecognize(false)
            .enablePlaceRecognize(false)
            .enableOrganizationRecognize(false)
            .enableNumberQuantifierRecognize(false)
            .enableCustomDictionary(false)
            .enableOffset(false);
    }

    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
    private final TypeAttribute type = addAttribute(TypeAttribute.class);
    private final PositionIncrementAttribute posInc = addAttribute(PositionIncrementAttribute.class);
    private final ArrayDeque<String> pendingWords = new ArrayDeque<>();
    private final StringBuilder run = new StringBuilder();
    private State lookahead;
    private boolean exhausted;
    private int pendingOffset;

    private final ThreadLocal<Segment> segmenter;

    /** Segments with {@link Segmentation#VITERBI}, the segmentation of versions 1 to 5. */
    public ChineseWordFilter(TokenStream input) {
        this(input, Segmentation.VITERBI);
    }

    public ChineseWordFilter(TokenStream input, Segmentation segmentation) {
        super(input);
        this.segmenter = segmentation == Segmentation.DICTIONARY ? DICTIONARY : VITERBI;
    }

    @Override
    public boolean incrementToken() throws java.io.IOException {
        if (pendingWords.isEmpty() == false) {
            emitPending();
            return true;
        }
        if (lookahead != null) {
            restoreState(lookahead);
            lookahead = null;
        } else if (exhausted || input.incrementToken() == false) {
            exhausted = true;
            return false;
        }
        if (IDEOGRAPHIC.equals(type.type()) == false) return true;

        run.setLength(0);
        run.append(term);
        int start = offset.startOffset();
        int end = offset.endOffset();
        while (true) {
            if (input.incrementToken() == false) {
                exhausted = true;
                break;
            }
            if (IDEOGRAPHIC.equals(type.type()) && offset.startOffset() == end && run.length() < MAX_RUN_CHARS) {
                run.append(term);
                end = offset.endOffset();
            } else {
                lookahead = captureState();
                break;
            }
        }
        for (Term t : segmenter.get().seg(run.toString())) {
            if (t.word.isBlank() == false) pendingWords.add(t.word);
        }
        pendingOffset = start;
        if (pendingWords.isEmpty()) return incrementToken();
        emitPending();
        return true;
    }

    private void emitPending() {
        String word = pendingWords.poll();
        clearAttributes();
        term.setEmpty().append(word);
        type.setType(TYPE);
        posInc.setPositionIncrement(1);
        offset.setOffset(pendingOffset, pendingOffset + word.length());
        pendingOffset += word.length();
    }

    @Override
    public void reset() throws java.io.IOException {
        super.reset();
        pendingWords.clear();
        lookahead = null;
        exhausted = false;
    }
}
