package org.nearduplicate.tools.quality;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.sketch.Signature;

/**
 * {@link CandidateKeyStudy} on random data at scale: {@code n} documents of random full min-wise values, of which the
 * first {@code 2 × pairs} are planted pairs (2p, 2p + 1): document 2p + 1 takes each of 2p's full values with a
 * probability q uniform in [0.1, 0.9] per pair (the Jaccard similarity of the pair), its own elsewhere, and 2p's
 * fingerprint with p mod 25 bits flipped. Values are computed from the document number, never stored, so that each
 * key position is hashed and sorted on its own: memory is two longs per document.
 *
 * <p>usage: {@code java ... CandidateKeyRandom <n> [pairs]} (default pairs n / 10), or
 * {@code java ... CandidateKeyRandom bytes <n>}: the on-disk bytes per document of the keys alone in a docs-only
 * Lucene field (one force-merged segment, file sizes of the terms and postings).
 */
public final class CandidateKeyRandom {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    final int n, pairs;
    final long seed;

    CandidateKeyRandom(int n, int pairs, long seed) {
        if (2L * pairs > n) throw new IllegalArgumentException("2 x pairs must be <= n");
        this.n = n;
        this.pairs = pairs;
        this.seed = seed;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }

    double similarity(int pair) {
        return 0.1 + 0.8 * unit(mix(seed + 3 + pair * GOLDEN));
    }

    /** Full value of slot s of document d. */
    long value(int d, int s) {
        if (d < 2 * pairs && (d & 1) == 1 && unit(mix(seed + 2 + ((long) d * 32 + s) * GOLDEN)) < similarity(d >> 1)) d--;
        return mix(seed + 1 + ((long) d * 32 + s) * GOLDEN) >>> 1;
    }

    long[] minima(int d) {
        long[] m = new long[Signature.SLOTS];
        for (int s = 0; s < m.length; s++)
            m[s] = value(d, s);
        return m;
    }

    long fingerprint(int d) {
        if (d >= 2 * pairs || (d & 1) == 0) return mix(seed + 4 + d * GOLDEN);
        long fp = fingerprint(d - 1);
        Random r = new Random(seed ^ d);
        long flipped = 0;
        while (Long.bitCount(flipped) < (d >> 1) % 25)
            flipped |= 1L << r.nextInt(64);
        return fp ^ flipped;
    }

    boolean planted(int a, int b) {
        return (a >> 1) == (b >> 1) && a < 2 * pairs && b < 2 * pairs && a != b;
    }

    /** One layout at both widths: recall of the verified planted pairs, planted and chance candidates. */
    record Row(CandidateKeys keys, long verified, long found, long verifiedBelow, long foundBelow, long plantedCandidates, long chancePairs,
        long foundTwo, long foundThree) {
    }

    /** Measures {@code layout} (its 64-bit form; the 32-bit keys are the upper halves) for widths 64 and 32. */
    Row[] evaluate(CandidateKeys layout64, CandidateKeys layout32) {
        long verified = 0, found = 0, below = 0, foundBelow = 0, plantedCandidates = 0, foundTwo = 0, foundThree = 0;
        for (int p = 0; p < pairs; p++) {
            long[] a = minima(2 * p), b = minima(2 * p + 1);
            boolean shares = layout64.shareKey(a, b);
            boolean match = Long.bitCount(fingerprint(2 * p) ^ fingerprint(2 * p + 1)) <= CandidateKeyStudy.MAX_DISTANCE
                && Signature.agreeingSlots(Signature.finish(a), 0, Signature.finish(b), 0) >= CandidateKeyStudy.MIN_AGREEING;
            if (match) {
                verified++;
                if (shares) found++;
                int shared = layout64.sharedKeys(a, b, 3);
                if (shared >= 2) foundTwo++;
                if (shared >= 3) foundThree++;
                if (CandidateKeyStudy.fullAgreeing(a, b) < CandidateKeyStudy.MIN_AGREEING) {
                    below++;
                    if (shares) foundBelow++;
                }
            } else if (shares) plantedCandidates++;
        }
        Set<Long> chance64 = new HashSet<>(), chance32 = new HashSet<>();
        long[] h64 = new long[n], h32 = new long[n];
        long[] scratch = new long[Signature.SLOTS];
        for (int k = 0; k < layout64.keyCount(); k++) {
            int[] slots = layout64.slotsOf(k);
            for (int d = 0; d < n; d++) {
                for (int s : slots)
                    scratch[s] = value(d, s);
                h64[d] = layout64.hash(scratch, k);
                h32[d] = h64[d] >>> 32;
            }
            collect(h64, chance64);
            collect(h32, chance32);
        }
        return new Row[] {
            new Row(layout64, verified, found, below, foundBelow, plantedCandidates, chance64.size(), foundTwo, foundThree),
            new Row(layout32, verified, found, below, foundBelow, plantedCandidates, chance32.size(), foundTwo, foundThree) };
    }

    private void collect(long[] hashes, Set<Long> chance) {
        CandidateKeyStudy.collisions(hashes, (members, size) -> {
            for (int x = 0; x < size; x++)
                for (int y = x + 1; y < size; y++) {
                    int a = Math.min(members[x], members[y]), b = Math.max(members[x], members[y]);
                    if (planted(a, b) == false) chance.add((long) a * n + b);
                }
        });
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("bytes")) {
            bytes(Integer.parseInt(args[1]), System.out);
            return;
        }
        int n = Integer.parseInt(args[0]);
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : n / 10;
        CandidateKeyRandom data = new CandidateKeyRandom(n, pairs, 42);
        PrintStream out = System.out;
        out.printf(
            Locale.ROOT,
            "# %,d random documents, %,d planted pairs (Jaccard uniform in [0.1, 0.9], 0..24 bits flipped)%n%n",
            n,
            pairs
        );
        out.println(
            "| scheme | keys | key bytes/doc | recall of verified planted pairs | of them < 13 full values: found | "
                + "planted pairs not verified sharing a key, per probe | chance candidates per probe: measured / keys x N / 2^w | "
                + "at 1e9 docs | recall verifying only documents sharing >= 2 / >= 3 keys | time s |"
        );
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (int[] sizes : new int[][] { null, { 2 }, { 4, 4, 4, 4, 4, 4, 4, 4 } }) {
            long t0 = System.nanoTime();
            CandidateKeys[] byWidth = new CandidateKeys[2];
            for (int w = 0; w < 2; w++) {
                int width = w == 0 ? 64 : 32;
                byWidth[w] = sizes == null ? CandidateKeys.forMinAgreeing(13, width)
                    : sizes.length == 1 ? CandidateKeys.bands(sizes[0], width)
                    : new CandidateKeys(sizes, 3, width);
            }
            Row[] rows = data.evaluate(byWidth[0], byWidth[1]);
            double seconds = (System.nanoTime() - t0) / 1e9;
            for (Row r : rows) {
                out.printf(
                    Locale.ROOT,
                    "| %s | %d | %d | %.5f (%,d / %,d) | %d / %d | %.2e | %.2e / %.2e | %.3g | %.5f / %.5f | %.0f |%n",
                    r.keys.id(),
                    r.keys.keyCount(),
                    r.keys.bytesPerDocument(),
                    (double) r.found / r.verified,
                    r.found,
                    r.verified,
                    r.foundBelow,
                    r.verifiedBelow,
                    2.0 * r.plantedCandidates / n,
                    2.0 * r.chancePairs / n,
                    r.keys.chanceCandidates(n - 1),
                    r.keys.chanceCandidates(1_000_000_000L),
                    (double) r.foundTwo / r.verified,
                    (double) r.foundThree / r.verified,
                    seconds
                );
            }
        }
    }

    /** On-disk bytes per document of the keys alone (terms dictionary and postings of a docs-only field). */
    static void bytes(int n, PrintStream out) throws Exception {
        CandidateKeyRandom data = new CandidateKeyRandom(n, 0, 7);
        out.printf(
            Locale.ROOT,
            "| scheme | docs | raw key bytes/doc | on disk: terms + postings (tim/tip/tmd/doc) bytes/doc |%n|---|---|---|---|%n"
        );
        for (CandidateKeys keys : List.of(
            CandidateKeys.forMinAgreeing(13, 32),
            CandidateKeys.forMinAgreeing(13, 64),
            CandidateKeys.bands(2, 32),
            CandidateKeys.bands(2, 64),
            new CandidateKeys(new int[] { 4, 4, 4, 4, 4, 4, 4, 4 }, 3, 32)
        )) {
            Path dir = Files.createTempDirectory("candidate-keys");
            TieredMergePolicy merges = new TieredMergePolicy();
            merges.setNoCFSRatio(0);
            IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(256).setUseCompoundFile(false).setMergePolicy(merges);
            try (FSDirectory d = FSDirectory.open(dir); IndexWriter w = new IndexWriter(d, config)) {
                int kb = keys.keyBytes();
                for (int i = 0; i < n; i++) {
                    byte[] all = keys.keys(data.minima(i));
                    Document doc = new Document();
                    for (int k = 0; k < keys.keyCount(); k++)
                        doc.add(new StringField("keys", new BytesRef(all, k * kb, kb), Field.Store.NO));
                    w.addDocument(doc);
                }
                w.forceMerge(1);
                w.commit();
                long terms = 0;
                for (String file : d.listAll())
                    for (String ext : new String[] { ".tim", ".tip", ".tmd", ".doc" })
                        if (file.endsWith(ext)) terms += d.fileLength(file);
                out.printf(Locale.ROOT, "| %s | %,d | %d | %.1f |%n", keys.id(), n, keys.bytesPerDocument(), (double) terms / n);
            } finally {
                try (var files = Files.list(dir)) {
                    for (Path p : files.toList())
                        Files.delete(p);
                }
                Files.delete(dir);
            }
        }
    }
}
