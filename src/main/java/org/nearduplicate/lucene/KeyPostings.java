package org.nearduplicate.lucene;

import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.DocIdSetBuilder;

import java.io.IOException;

/**
 * The probe's index keys found in one segment's terms dictionary: the union of their postings is the candidate set
 * of {@code near_duplicate} and {@code minhash_similar}. The keys are looked up once (for the cost estimate) and their
 * term states reused when the scorer is built.
 */
final class KeyPostings {
    /**
     * Per key (index into the probe's keys), the value a posting's check bits are compared with and how many bits they
     * may differ: a posting stays a candidate when {@code bitCount((frequency - 1) ^ values[key]) <= budgets[key]}
     * (the check bits are stored as term frequency - 1). A negative budget drops the key's postings.
     */
    record FrequencyCheck(long[] values, int[] budgets) {
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
        int[] kept = check == null ? null : new int[64];
        for (int i = 0; i < count; i++) {
            int key = found[i];
            termsEnum.seekExact(keys[key], states[i]);
            if (check == null) {
                postings = termsEnum.postings(postings, PostingsEnum.NONE);
                builder.add(postings);
            } else {
                int budget = check.budgets()[key];
                if (budget < 0) continue;
                long value = check.values()[key];
                postings = termsEnum.postings(postings, PostingsEnum.FREQS);
                if (kept.length < termsEnum.docFreq()) kept = new int[ArrayUtil.oversize(termsEnum.docFreq(), Integer.BYTES)];
                int n = 0;
                for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                    if (Long.bitCount((postings.freq() - 1) ^ value) <= budget) {
                        kept[n++] = doc;
                    }
                }
                // the builder is grown by the survivors only: growing it by every posting would switch it to a
                // bitset of the whole segment at large k although only a few percent of the postings stay
                if (n > 0) {
                    DocIdSetBuilder.BulkAdder adder = builder.grow(n);
                    for (int j = 0; j < n; j++)
                        adder.add(kept[j]);
                }
            }
        }
        DocIdSetIterator iterator = builder.build().iterator();
        return iterator == null ? DocIdSetIterator.empty() : iterator;
    }
}
