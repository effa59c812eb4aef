package org.nearduplicate.lucene;

import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.DocIdSetBuilder;

import java.io.IOException;

/**
 * The probe's index keys found in one segment's terms dictionary: the union of their postings is the candidate set
 * of {@code near_duplicate} and {@code minhash_similar}. The keys are looked up once (for the cost estimate) and their
 * term states reused when the scorer is built.
 */
final class KeyPostings {
    /** Decides from a posting's term frequency whether it stays a candidate, per key (index into the probe's keys). */
    @FunctionalInterface
    interface FrequencyCheck {
        boolean keep(int key, int frequency);
    }

    private final Terms terms;
    private final TermsEnum termsEnum;
    private final BytesRef[] keys;
    private final int[] found;
    private final TermState[] states;
    private final int count;
    private final long cost;

    private KeyPostings(Terms terms, TermsEnum termsEnum, BytesRef[] keys, int[] found, TermState[] states, int count, long cost) {
        this.terms = terms;
        this.termsEnum = termsEnum;
        this.keys = keys;
        this.found = found;
        this.states = states;
        this.count = count;
        this.cost = cost;
    }

    /** The keys present in {@code terms}, or {@code null} when there are none (no candidate in this segment). */
    static KeyPostings seek(Terms terms, BytesRef[] keys) throws IOException {
        if (terms == null) {
            return null;
        }
        TermsEnum termsEnum = terms.iterator();
        int[] found = new int[keys.length];
        TermState[] states = new TermState[keys.length];
        int count = 0;
        long cost = 0;
        for (int k = 0; k < keys.length; k++) {
            if (termsEnum.seekExact(keys[k])) {
                found[count] = k;
                states[count] = termsEnum.termState();
                cost += termsEnum.docFreq();
                count++;
            }
        }
        return count == 0 ? null : new KeyPostings(terms, termsEnum, keys, found, states, count, cost);
    }

    /** Total postings of the found keys: an upper bound of the candidates. */
    long cost() {
        return cost;
    }

    /**
     * The union of the found keys' postings, in doc id order.
     *
     * @param check {@code null} to keep every posting; otherwise the postings are read with their frequencies and
     *              kept when the check says so
     */
    DocIdSetIterator union(int maxDoc, FrequencyCheck check) throws IOException {
        DocIdSetBuilder builder = new DocIdSetBuilder(maxDoc, terms);
        PostingsEnum postings = null;
        for (int i = 0; i < count; i++) {
            int key = found[i];
            termsEnum.seekExact(keys[key], states[i]);
            if (check == null) {
                postings = termsEnum.postings(postings, PostingsEnum.NONE);
                builder.add(postings);
            } else {
                postings = termsEnum.postings(postings, PostingsEnum.FREQS);
                DocIdSetBuilder.BulkAdder adder = builder.grow(termsEnum.docFreq());
                for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                    if (check.keep(key, postings.freq())) {
                        adder.add(doc);
                    }
                }
            }
        }
        DocIdSetIterator iterator = builder.build().iterator();
        return iterator == null ? DocIdSetIterator.empty() : iterator;
    }
}
