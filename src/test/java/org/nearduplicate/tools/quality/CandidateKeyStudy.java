package org.nearduplicate.tools.quality;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.FullMinima;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Issue 40's study of candidate keys hashed from the full min-wise values ({@link CandidateKeys}): on a labelled
 * corpus, every document is a probe; exact evaluation (every pair: fingerprint distance <= 16 and at least 13 of 32
 * agreeing 8-bit slots) gives the verified pairs, and each key scheme is scored on them: recall, the candidates a probe
 * gets (verified, same base document, unrelated documents whose full values agree on a key, hash collisions only), and
 * the cost of computing the keys against the cost of the signature itself. {@link CandidateKeyRandom} does the same on
 * random data with planted neighbours at scale.
 *
 * <p>usage: {@code java ... CandidateKeyStudy <corpus-dir>}
 */
public final class CandidateKeyStudy {
    static final int MAX_DISTANCE = 16;
    static final int MIN_AGREEING = 13;

    record Doc(long fingerprint, byte[] signature, long[] minima, long[] featureHashes, String base, boolean valid) {
    }

    /**
     * The schemes compared, at 32 and 64 bits: pair groups for 12, 13 and 14 agreeing slots; bands of 2 and 4 slots;
     * triples in groups (8 of 4 slots; 4 of 5 and 3 of 4; 2 of 6 and 4 of 5, guaranteed from 13); single slots.
     */
    static List<CandidateKeys> schemes() {
        List<CandidateKeys> all = new ArrayList<>();
        for (int width : new int[] { 32, 64 }) {
            all.add(CandidateKeys.forMinAgreeing(13, width));
            all.add(CandidateKeys.forMinAgreeing(12, width));
            all.add(CandidateKeys.forMinAgreeing(14, width));
            all.add(CandidateKeys.bands(2, width));
            all.add(CandidateKeys.bands(4, width));
            all.add(new CandidateKeys(new int[] { 4, 4, 4, 4, 4, 4, 4, 4 }, 3, width));
            all.add(new CandidateKeys(new int[] { 5, 5, 5, 5, 4, 4, 4 }, 3, width));
            all.add(new CandidateKeys(new int[] { 6, 6, 5, 5, 5, 5 }, 3, width));
        }
        all.add(CandidateKeys.bands(1, 64));
        return all;
    }

    static Doc sketch(SimHasher hasher, Corpus.Doc d, String base) {
        try {
            SimHash s = hasher.sketch(d.content());
            Map<String, Integer> features = hasher.features(d.content());
            long[] hashes = new long[features.size()];
            int i = 0;
            for (String f : features.keySet())
                hashes[i++] = SimHasher.featureHash(f);
            return new Doc(s.fingerprint(), s.signature(), FullMinima.ofHashes(hashes), hashes, base, true);
        } catch (RuntimeException e) {
            return new Doc(0, null, null, null, base, false);
        }
    }

    /** The verified pairs of exact evaluation, as {@code i * n + j} (i < j), with their agreeing full values. */
    record Verified(long[] pairs, int[] fullAgreeing) {
        Set<Long> asSet() {
            Set<Long> s = new HashSet<>(pairs.length * 2);
            for (long p : pairs)
                s.add(p);
            return s;
        }
    }

    static Verified verify(Doc[] docs) {
        int n = docs.length;
        List<long[]> found = IntStream.range(0, n).parallel().mapToObj(i -> {
            List<Long> row = new ArrayList<>();
            if (docs[i].valid) for (int j = i + 1; j < n; j++) {
                Doc a = docs[i], b = docs[j];
                if (b.valid == false || Long.bitCount(a.fingerprint ^ b.fingerprint) > MAX_DISTANCE) continue;
                if (Signature.agreesOnAtLeast(a.signature, b.signature, 0, MIN_AGREEING)) row.add((long) i * n + j);
            }
            return row.stream().mapToLong(Long::longValue).toArray();
        }).toList();
        long[] pairs = found.stream().flatMapToLong(Arrays::stream).toArray();
        int[] full = new int[pairs.length];
        for (int p = 0; p < pairs.length; p++)
            full[p] = fullAgreeing(docs[(int) (pairs[p] / n)].minima, docs[(int) (pairs[p] % n)].minima);
        return new Verified(pairs, full);
    }

    static int fullAgreeing(long[] a, long[] b) {
        int same = 0;
        for (int s = 0; s < a.length; s++)
            if (a[s] == b[s]) same++;
        return same;
    }

    /**
     * Calls {@code group} with the documents of every run of two or more equal values of {@code hashes} (one key
     * position), the group's members in {@code members[0 .. size)}.
     */
    static void collisions(long[] hashes, java.util.function.BiConsumer<int[], Integer> group) {
        long[] sorted = hashes.clone();
        Arrays.sort(sorted);
        Map<Long, List<Integer>> shared = new HashMap<>();
        for (int i = 1; i < sorted.length; i++)
            if (sorted[i] == sorted[i - 1]) shared.put(sorted[i], new ArrayList<>());
        if (shared.isEmpty()) return;
        for (int d = 0; d < hashes.length; d++) {
            List<Integer> l = shared.get(hashes[d]);
            if (l != null) l.add(d);
        }
        for (List<Integer> l : shared.values()) {
            int[] members = l.stream().mapToInt(Integer::intValue).toArray();
            group.accept(members, members.length);
        }
    }

    /** One scheme on the corpus. */
    record Row(CandidateKeys keys, long verified, long found, long verifiedBelow, long foundBelow, long candidates, long sameBase,
        long unrelatedShared, long hashOnly, double unrelatedRate, double spreadRate) {
        double recall() {
            return (double) found / verified;
        }
    }

    static Row evaluate(Doc[] docs, CandidateKeys keys, Verified verified, Set<Long> verifiedSet) {
        return evaluate(docs, keys, verified, verifiedSet, Integer.MAX_VALUE, 1);
    }

    /**
     * As a probe would see it when it skips keys whose posting lists hold more than {@code maxPosting} documents and
     * verifies only the documents that share at least {@code minShared} of its keys.
     */
    static Row evaluate(Doc[] docs, CandidateKeys keys, Verified verified, Set<Long> verifiedSet, int maxPosting, int minShared) {
        int n = docs.length;
        long[][] hashes = new long[n][];
        for (int d = 0; d < n; d++)
            hashes[d] = docs[d].valid ? keys.hashes(docs[d].minima) : null;
        Map<Long, Integer> shares = new HashMap<>();
        long[] column = new long[n];
        for (int k = 0; k < keys.keyCount(); k++) {
            for (int d = 0; d < n; d++)
                // a failed document has no keys: a value of its own (below any hash)
                column[d] = hashes[d] == null ? Long.MIN_VALUE + d : hashes[d][k];
            collisions(column, (members, size) -> {
                if (size > maxPosting) return;
                for (int x = 0; x < size; x++)
                    for (int y = x + 1; y < size; y++)
                        shares.merge((long) Math.min(members[x], members[y]) * n + Math.max(members[x], members[y]), 1, Integer::sum);
            });
        }
        Set<Long> candidates = new HashSet<>();
        shares.forEach((pair, count) -> { if (count >= minShared) candidates.add(pair); });
        long found = 0, below = 0, foundBelow = 0;
        for (int p = 0; p < verified.pairs().length; p++) {
            boolean hit = candidates.contains(verified.pairs()[p]);
            if (hit) found++;
            if (verified.fullAgreeing()[p] < MIN_AGREEING) {
                below++;
                if (hit) foundBelow++;
            }
        }
        long sameBase = 0, shared = 0, hashOnly = 0;
        int[] perDoc = new int[n];
        List<long[]> unrelated = new ArrayList<>();
        for (long c : candidates) {
            if (verifiedSet.contains(c)) continue;
            Doc a = docs[(int) (c / n)], b = docs[(int) (c % n)];
            if (keys.shareKey(a.minima, b.minima) == false) hashOnly++;
            else if (a.base.equals(b.base)) sameBase++;
            else {
                shared++;
                perDoc[(int) (c / n)]++;
                perDoc[(int) (c % n)]++;
                unrelated.add(new long[] { c / n, c % n });
            }
        }
        // spread: the same rate without the 1 % of documents in the most such pairs
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, (x, y) -> perDoc[x] != perDoc[y] ? Integer.compare(perDoc[y], perDoc[x]) : Integer.compare(x, y));
        boolean[] removed = new boolean[n];
        for (int r = 0; r < n / 100; r++)
            removed[order[r]] = true;
        long spreadShared = unrelated.stream().filter(p -> removed[(int) p[0]] == false && removed[(int) p[1]] == false).count();
        return new Row(
            keys,
            verified.pairs().length,
            found,
            below,
            foundBelow,
            candidates.size(),
            sameBase,
            shared,
            hashOnly,
            (double) shared / unrelatedPairs(docs, null),
            (double) spreadShared / unrelatedPairs(docs, removed)
        );
    }

    /** Pairs of documents of different base documents, without the {@code removed} ones (null: none). */
    static long unrelatedPairs(Doc[] docs, boolean[] removed) {
        Map<String, Long> perBase = new HashMap<>();
        long kept = 0;
        for (int d = 0; d < docs.length; d++) {
            if (removed != null && removed[d]) continue;
            perBase.merge(docs[d].base, 1L, Long::sum);
            kept++;
        }
        long pairs = kept * (kept - 1) / 2;
        for (long g : perBase.values())
            pairs -= g * (g - 1) / 2;
        return pairs;
    }

    /** Nanoseconds per document of {@code work} over {@code count} documents, best of {@code rounds}. */
    static double timePerDoc(int count, int rounds, IntConsumer work) {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < count; i++)
                work.accept(i);
            best = Math.min(best, (double) (System.nanoTime() - t0) / count);
        }
        return best;
    }

    static volatile long sink;

    public static void main(String[] args) throws Exception {
        Corpus corpus = Corpus.load(Path.of(args[0]));
        SimHashSettings settings = SimHashSettings.DEFAULT;
        SimHasher hasher = new SimHasher(settings);
        Map<String, String> groups = corpus.groups();
        List<String> ids = new ArrayList<>(corpus.docs().keySet());
        long t0 = System.nanoTime();
        Doc[] docs = IntStream.range(0, ids.size())
            .parallel()
            .mapToObj(i -> sketch(hasher, corpus.docs().get(ids.get(i)), groups.get(ids.get(i))))
            .toArray(Doc[]::new);
        PrintStream out = System.out;
        int valid = (int) Arrays.stream(docs).filter(Doc::valid).count();
        out.printf(
            Locale.ROOT,
            "# %,d documents (%,d signed) in %.1f s, settings %s%n",
            docs.length,
            valid,
            (System.nanoTime() - t0) / 1e9,
            settings.algorithmId()
        );
        for (Doc d : docs)
            if (d.valid && Arrays.equals(Signature.finish(d.minima), d.signature) == false) throw new AssertionError("minima");
        Verified verified = verify(docs);
        Set<Long> verifiedSet = verified.asSet();
        int[] byFull = new int[Signature.SLOTS + 1];
        for (int f : verified.fullAgreeing())
            byFull[f]++;
        out.printf(
            Locale.ROOT,
            "# %,d verified pairs (distance <= %d, >= %d of 32 8-bit slots); by agreeing full values: %s%n%n",
            verified.pairs().length,
            MAX_DISTANCE,
            MIN_AGREEING,
            histogram(byFull)
        );
        if (args.length > 1 && args[1].equals("--caps")) {
            caps(out, docs, verified, verifiedSet);
            return;
        }
        out.println(
            "| scheme | keys | key bytes/doc | guaranteed from | recall | verified pairs with < 13 full values: found | "
                + "candidate pairs | of them not verified: same base / unrelated, values agree / hash only | unrelated rate | spread | "
                + "per probe at 1e9 docs: shared values (at the rate / the spread) / hash only (keys x N / 2^w) |"
        );
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (CandidateKeys keys : schemes()) {
            Row r = evaluate(docs, keys, verified, verifiedSet);
            out.printf(
                Locale.ROOT,
                "| %s | %d | %d | %d | %.5f | %d / %d | %,d | %,d / %,d / %,d | %.1e | %.1e | %,.0f / %,.0f / %.2g |%n",
                keys.id(),
                keys.keyCount(),
                keys.bytesPerDocument(),
                keys.guaranteedAgreeing(),
                r.recall(),
                r.foundBelow,
                r.verifiedBelow,
                r.candidates,
                r.sameBase,
                r.unrelatedShared,
                r.hashOnly,
                r.unrelatedRate,
                r.spreadRate,
                r.unrelatedRate * 1e9,
                r.spreadRate * 1e9,
                keys.chanceCandidates(1_000_000_000L)
            );
        }
        timing(out, hasher, corpus, ids, docs);
    }

    /** Probes that skip the keys of long posting lists (keys many documents share): recall against candidates. */
    static void caps(PrintStream out, Doc[] docs, Verified verified, Set<Long> verifiedSet) {
        out.println(
            "| scheme | skip keys shared by more than | verify documents sharing at least | recall | unrelated candidate pairs | "
                + "unrelated rate | spread |"
        );
        out.println("|---|---|---|---|---|---|---|");
        for (CandidateKeys keys : List.of(
            CandidateKeys.forMinAgreeing(13, 64),
            CandidateKeys.bands(2, 64),
            new CandidateKeys(new int[] { 4, 4, 4, 4, 4, 4, 4, 4 }, 3, 64)
        )) {
            for (int[] c : new int[][] {
                { Integer.MAX_VALUE, 1 },
                { 100, 1 },
                { 20, 1 },
                { Integer.MAX_VALUE, 2 },
                { Integer.MAX_VALUE, 3 },
                { Integer.MAX_VALUE, 4 } }) {
                Row r = evaluate(docs, keys, verified, verifiedSet, c[0], c[1]);
                out.printf(
                    Locale.ROOT,
                    "| %s | %s | %d keys | %.5f | %,d | %.1e | %.1e |%n",
                    keys.id(),
                    c[0] == Integer.MAX_VALUE ? "-" : c[0] + " docs",
                    c[1],
                    r.recall(),
                    r.unrelatedShared,
                    r.unrelatedRate,
                    r.spreadRate
                );
            }
        }
    }

    /** Per-document costs on one thread: the whole sketch, the signature from the feature hashes, the keys. */
    static void timing(PrintStream out, SimHasher hasher, Corpus corpus, List<String> ids, Doc[] docs) {
        int[] signed = IntStream.range(0, docs.length).filter(i -> docs[i].valid).toArray();
        int few = Math.min(2000, signed.length);
        double sketch = timePerDoc(few, 2, i -> sink += hasher.sketch(corpus.docs().get(ids.get(signed[i])).content()).fingerprint());
        double signature = timePerDoc(
            signed.length,
            5,
            i -> sink += Signature.finish(FullMinima.ofHashes(docs[signed[i]].featureHashes))[0]
        );
        double features = Arrays.stream(signed).mapToDouble(i -> docs[i].featureHashes.length).average().orElse(0);
        out.printf(
            Locale.ROOT,
            "%n# cost per document, one thread, best of rounds (%,d documents, %.0f features on average)%n%n",
            signed.length,
            features
        );
        out.println("| computation | ns/doc | vs signature | vs whole sketch |");
        out.println("|---|---|---|---|");
        out.printf(
            Locale.ROOT,
            "| whole sketch (extraction, analysis, fingerprint, signature; %,d docs) | %,.0f | %.1f | 1 |%n",
            few,
            sketch,
            sketch / signature
        );
        out.printf(
            Locale.ROOT,
            "| signature from the feature hashes (32 min-wise slots, finish) | %,.0f | 1 | %.4f |%n",
            signature,
            signature / sketch
        );
        for (CandidateKeys keys : schemes()) {
            double t = timePerDoc(signed.length, 5, i -> sink += keys.keys(docs[signed[i]].minima)[1]);
            out.printf(Locale.ROOT, "| keys %s | %,.0f | %.3f | %.4f |%n", keys.id(), t, t / signature, t / sketch);
        }
    }

    static String histogram(int[] byFull) {
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < byFull.length; f++)
            if (byFull[f] > 0) sb.append(sb.isEmpty() ? "" : ", ").append(f).append(": ").append(byFull[f]);
        return sb.toString();
    }
}
