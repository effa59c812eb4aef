package org.nearduplicate.lucene;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.lucene.compat.PlatformWeight;

/**
 * Matches documents whose stored MinHash signature agrees with the probe in at least {@code minSimilarity × m}
 * positions (estimated Jaccard ≥ min_similarity). Key mode: candidates are the documents sharing an LSH band key with
 * the probe, each verified from its binary doc value — exact when {@link Lsh#exactFor} holds, otherwise recall follows
 * the S-curve. Scan mode: every signature is verified (exact for any threshold, linear). Score: boost × similarity.
 */
public final class MinHashQuery extends Query {
    private final String field;
    private final int[] signature;
    private final double minSimilarity;
    private final int minMatches;
    private final Lsh lsh;
    private final boolean scan;
    private final BytesRef[] keys;

    public MinHashQuery(String field, int[] signature, double minSimilarity, Lsh lsh, boolean scan) {
        this.field = Objects.requireNonNull(field);
        this.signature = signature.clone();
        this.lsh = Objects.requireNonNull(lsh);
        if (Double.isNaN(minSimilarity) || minSimilarity < 0 || minSimilarity > 1) {
            throw new InvalidOptionException("min_similarity", "must be between 0 and 1, got " + minSimilarity);
        }
        lsh.checkFits(signature.length);
        this.minSimilarity = minSimilarity;
        this.minMatches = minMatches(minSimilarity, signature.length);
        this.scan = scan;
        byte[][] raw = scan ? new byte[0][] : lsh.keys(signature);
        this.keys = new BytesRef[raw.length];
        for (int i = 0; i < raw.length; i++)
            keys[i] = new BytesRef(raw[i]);
    }

    public String getField() {
        return field;
    }

    public double getMinSimilarity() {
        return minSimilarity;
    }

    public boolean isScan() {
        return scan;
    }

    /** Whether the key lookup finds every document reaching min_similarity (see {@link Lsh#exactFor}). */
    public boolean isExact() {
        return scan || lsh.exactFor(minSimilarity, signature.length);
    }

    int countMatches(BytesRef stored) {
        return countMatches(signature, stored);
    }

    /** Minimum number of agreeing values for {@code minSimilarity} with signatures of {@code length} values. */
    public static int minMatches(double minSimilarity, int length) {
        return length - Lsh.maxMismatches(minSimilarity, length);
    }

    /** How many values of a stored signature (a binary doc value) agree with {@code signature}; -1 if the lengths differ. */
    public static int countMatches(int[] signature, BytesRef stored) {
        if (stored.length != 4 * signature.length) return -1; // cannot happen for one mapping
        int same = 0;
        byte[] b = stored.bytes;
        for (int i = 0, p = stored.offset; i < signature.length; i++, p += 4) {
            int v = ((b[p] & 0xFF) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
            if (v == signature[i]) same++;
        }
        return same;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new PlatformWeight(this) {
            private Weight weight() {
                return this;
            }

            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
                if (context.reader().getBinaryDocValues(field) == null) return null;
                if (scan) {
                    BinaryDocValues values = context.reader().getBinaryDocValues(field);
                    return LazyScorerSupplier.of(values.cost(), () -> new SimilarityScorer(weight(), values, values, boost));
                }
                KeyPostings found = KeyPostings.seek(context.reader().terms(field), keys);
                if (found == null) return null;
                return LazyScorerSupplier.of(found.cost(), () -> {
                    DocIdSetIterator candidates = found.union(context.reader().maxDoc(), null);
                    return new SimilarityScorer(weight(), candidates, context.reader().getBinaryDocValues(field), boost);
                });
            }

            @Override
            public Explanation explain(LeafReaderContext context, int doc) throws IOException {
                Scorer scorer = scorer(context);
                if (scorer != null && scorer.iterator().advance(doc) == doc) {
                    BinaryDocValues values = context.reader().getBinaryDocValues(field);
                    values.advanceExact(doc);
                    int same = countMatches(values.binaryValue());
                    double similarity = (double) same / signature.length;
                    return Explanation.match(
                        boost * (float) similarity,
                        String.format(
                            Locale.ROOT,
                            "minhash_similar: %d of %d values agree, estimated jaccard %.4f >= %s (%s), score = boost * similarity",
                            same,
                            signature.length,
                            similarity,
                            minSimilarity,
                            scan ? "signature scan" : "lsh " + lsh.id()
                        )
                    );
                }
                BinaryDocValues values = context.reader().getBinaryDocValues(field);
                if (values == null || values.advanceExact(doc) == false) {
                    return Explanation.noMatch("document has no signature in field [" + field + "]");
                }
                int same = countMatches(values.binaryValue());
                return Explanation.noMatch(
                    String.format(
                        Locale.ROOT,
                        "%d of %d values agree (need %d for %s)%s",
                        same,
                        signature.length,
                        minMatches,
                        minSimilarity,
                        same >= minMatches ? ", but no LSH band key is shared with the probe" : ""
                    )
                );
            }

            @Override
            public boolean isCacheable(LeafReaderContext ctx) {
                return DocValues.isCacheable(ctx, field);
            }
        };
    }

    private final class SimilarityScorer extends VerifyingScorer {
        private final BinaryDocValues values;
        private int same;

        SimilarityScorer(Weight weight, DocIdSetIterator approximation, BinaryDocValues values, float boost) {
            super(weight, approximation, approximation == values, boost, signature.length);
            this.values = values;
        }

        @Override
        protected boolean verify(int doc, boolean positioned) throws IOException {
            if (positioned == false && values.advanceExact(doc) == false) return false;
            same = MinHashQuery.this.countMatches(values.binaryValue());
            return same >= minMatches;
        }

        @Override
        protected float closeness() {
            return (float) same / signature.length;
        }
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(field)) visitor.visitLeaf(this);
    }

    @Override
    public String toString(String defaultField) {
        return "minhash_similar("
            + (field.equals(defaultField) ? "" : field + ":")
            + "m="
            + signature.length
            + " >="
            + minSimilarity
            + (scan ? " scan" : " lsh " + lsh.id())
            + ")";
    }

    @Override
    public boolean equals(Object other) {
        if (sameClassAs(other) == false) return false;
        MinHashQuery o = (MinHashQuery) other;
        return field.equals(o.field)
            && Arrays.equals(signature, o.signature)
            && minSimilarity == o.minSimilarity
            && scan == o.scan
            && lsh.equals(o.lsh);
    }

    @Override
    public int hashCode() {
        return 31 * classHash() + Objects.hash(field, Arrays.hashCode(signature), minSimilarity, scan, lsh);
    }
}
