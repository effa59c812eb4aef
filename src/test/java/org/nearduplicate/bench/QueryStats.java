package org.nearduplicate.bench;

import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.BytesRef;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.nearduplicate.core.keys.BlockLayout;

/**
 * What one {@code near_duplicate} query reads, per k, on an index built by {@link QueryBenchmark}: the keys it looks up,
 * the postings of those keys (candidates), the postings that pass the check bits (fingerprint reads) and the hits.
 * Counts, not times: they explain the JMH figures.
 *
 * <p>usage: {@code QueryStats <index dir> <blocks:max_distance:check_bits> <k,k,...> [probes] [gph|mih]}: {@code gph}
 * (default) probes with the layout's variable thresholds, {@code mih} with the equal thresholds floor(k / blocks) of
 * multi-index hashing, for comparison.
 */
public final class QueryStats {
    public static void main(String[] args) throws Exception {
        String[] parts = args[1].split(":");
        BlockLayout layout = new BlockLayout(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        int probes = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        boolean mih = args.length > 4 && args[4].equals("mih");
        try (var dir = new MMapDirectory(Path.of(args[0])); var reader = DirectoryReader.open(dir)) {
            LeafReader leaf = reader.leaves().get(0).reader();
            long[] sample = new long[probes];
            NumericDocValues values = leaf.getNumericDocValues("fp");
            SplittableRandom random = new SplittableRandom(11);
            for (int i = 0; i < probes; i++) {
                values = values.docID() < leaf.maxDoc() ? values : leaf.getNumericDocValues("fp");
                int doc = random.nextInt(leaf.maxDoc());
                NumericDocValues v = leaf.getNumericDocValues("fp");
                v.advanceExact(doc);
                sample[i] = v.longValue();
            }
            System.out.println("thresholds: " + (mih ? "equal (multi-index hashing)" : "variable (the layout's)") + ", layout " + layout);
            System.out.println("| k | keys looked up | candidates (postings) | fingerprint reads (pass the check bits) | hits |");
            System.out.println("|---|---|---|---|---|");
            for (String ks : args[2].split(",")) {
                int k = Integer.parseInt(ks);
                long keys = 0, postingsRead = 0, reads = 0, hits = 0;
                for (int i = 0; i < probes; i++) {
                    long probe = sample[i];
                    for (int f = random.nextInt(k + 1); f > 0; f--)
                        probe ^= 1L << random.nextInt(64);
                    final long p = probe;
                    List<Object[]> probed = new ArrayList<>();
                    int[] thresholds = layout.probeThresholds(k);
                    if (mih && layout.exactDistance() < k) {
                        java.util.Arrays.fill(thresholds, k / layout.blocks());
                    }
                    layout.probeKeys(p, thresholds, (c, key, distance) -> probed.add(new Object[] { c, key, distance }));
                    keys += probed.size();
                    Terms terms = leaf.terms("fp");
                    TermsEnum te = terms.iterator();
                    PostingsEnum pe = null;
                    java.util.BitSet read = new java.util.BitSet(leaf.maxDoc());
                    for (Object[] o : probed) {
                        int c = (Integer) o[0];
                        if (te.seekExact(new BytesRef((byte[]) o[1])) == false) continue;
                        pe = te.postings(pe, PostingsEnum.FREQS);
                        long check = layout.check(p, c);
                        for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
                            postingsRead++;
                            if ((Integer) o[2] + Long.bitCount((pe.freq() - 1) ^ check) <= k) read.set(doc);
                        }
                    }
                    reads += read.cardinality();
                    NumericDocValues v = leaf.getNumericDocValues("fp");
                    for (int doc = read.nextSetBit(0); doc >= 0; doc = read.nextSetBit(doc + 1)) {
                        v.advanceExact(doc);
                        if (Long.bitCount(v.longValue() ^ p) <= k) hits++;
                    }
                }
                System.out.printf(
                    Locale.ROOT,
                    "| %d | %.0f | %.0f | %.1f | %.2f |%n",
                    k,
                    keys / (double) probes,
                    postingsRead / (double) probes,
                    reads / (double) probes,
                    hits / (double) probes
                );
            }
        }
    }
}
