package org.nearduplicate.opensearch.index.query.minhash;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Explanation;

import java.io.IOException;
import java.util.Locale;

import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.opensearch.index.query.ProbeRescoring;

/**
 * A shard's comparison of its hits with a resolved signature: the estimated Jaccard similarity, at least
 * {@code min_similarity}, read from the doc values (no LSH lookup, so every threshold is exact).
 */
public final class MinHashCloseness implements ProbeRescoring.Closeness {
    private final String field;
    private final int[] signature;
    private final double minSimilarity;
    private final int minMatches;

    public MinHashCloseness(String field, int[] signature, double minSimilarity) {
        this.field = field;
        this.signature = signature;
        this.minSimilarity = minSimilarity;
        this.minMatches = MinHashQuery.minMatches(minSimilarity, signature.length);
    }

    public String field() {
        return field;
    }

    public double minSimilarity() {
        return minSimilarity;
    }

    @Override
    public String rescorer() {
        return MinHashProbe.NAME;
    }

    @Override
    public String closenessName() {
        return "similarity";
    }

    @Override
    public ProbeRescoring.LeafCloseness leaf(LeafReaderContext leaf) throws IOException {
        BinaryDocValues values = leaf.reader().getBinaryDocValues(field);
        return doc -> {
            if (values == null || values.advanceExact(doc) == false) {
                return Float.NaN;
            }
            int same = MinHashQuery.countMatches(signature, values.binaryValue());
            return same >= minMatches ? (float) same / signature.length : Float.NaN;
        };
    }

    @Override
    public ProbeRescoring.HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException {
        BinaryDocValues values = leaf.reader().getBinaryDocValues(field);
        if (values == null || values.advanceExact(segmentDoc) == false) {
            return new ProbeRescoring.HitCheck(false, null, null, "no signature in field [" + field + "]");
        }
        int same = MinHashQuery.countMatches(signature, values.binaryValue());
        boolean within = same >= minMatches;
        float similarity = (float) same / signature.length;
        return new ProbeRescoring.HitCheck(
            within,
            Explanation.match(similarity, "similarity"),
            "similarity",
            String.format(
                Locale.ROOT,
                "%d of %d values agree, estimated jaccard %.4f %s %s",
                same,
                signature.length,
                similarity,
                within ? ">=" : "<",
                minSimilarity
            )
        );
    }
}
