package org.nearduplicate.lucene;

import org.apache.lucene.index.NumericDocValues;

/** Doc values over arrays, for tests and benchmarks (a plain class: loading it starts no test framework). */
public final class ArrayDocValues {
    private ArrayDocValues() {}

    /** {@code values[doc]} for the documents whose {@code has[doc]}. */
    public static NumericDocValues of(long[] values, boolean[] has) {
        int maxDoc = values.length;
        int count = 0;
        for (boolean h : has)
            if (h) count++;
        long cost = count;
        return new NumericDocValues() {
            int doc = -1;

            @Override
            public long longValue() {
                return values[doc];
            }

            @Override
            public boolean advanceExact(int target) {
                doc = target;
                return has[target];
            }

            @Override
            public int docID() {
                return doc;
            }

            @Override
            public int nextDoc() {
                return advance(doc + 1);
            }

            @Override
            public int advance(int target) {
                for (int d = target; d < maxDoc; d++) {
                    if (has[d]) return doc = d;
                }
                return doc = NO_MORE_DOCS;
            }

            @Override
            public long cost() {
                return cost;
            }
        };
    }
}
