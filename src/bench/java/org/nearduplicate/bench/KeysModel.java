package org.nearduplicate.bench;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;

import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.sketch.Signature;

/**
 * The data model of the candidate-key benches (issue 40), shared by the in-process {@link KeysPathBench} and the
 * real-node bench ({@code bench/run.sh --reps fpk}, {@code bench/check_scale.py --keys-model}): documents made from
 * random FULL min-wise values as ingest would make them. The signature is {@code Signature.finish(minima)}, the keys
 * {@code simhash-v7}'s ({@link CandidateKeys#V7}: 28 keys of pair groups), the fingerprint a random long.
 *
 * <p>Unrelated documents share single full values as same-language text does: each document has one of {@link #TOPICS}
 * topics, and each slot takes, with probability {@code commonShare}, one of the topic's {@link #COMMON} common values
 * for that slot, else a random one; two documents of a topic agree in a slot with probability
 * {@code commonShare^2 / COMMON} (0.046 at the default), chosen so that about 3.1e-3 of the unrelated pairs share a key
 * and 1.3e-4 share two, the public corpus's rates (bench/results/RESULTS-candidate-keys.md). The first 20 % of the
 * documents are planted pairs: the second takes each full value of the first with probability q uniform in [0.1, 0.9]
 * (a fresh value of its topic otherwise) and its fingerprint with 0..24 bits flipped ({@link #near}). Document i is a
 * pure function of (i, docs, commonShare): probes and the in-JVM floor are made again without reading the index.
 */
public final class KeysModel {
    public static final int TOPICS = 19;
    public static final int COMMON = 16;
    /** The default share of a document's slots taken from its topic's common values. */
    public static final double COMMON_SHARE = 0.858;
    public static final long SEED = 42;
    /** The keys' layout: {@code simhash-v7}'s. */
    public static final CandidateKeys LAYOUT = CandidateKeys.V7;
    /** The topics' common values, per topic and slot. */
    private static final long[][][] COMMON_VALUES = new long[TOPICS][Signature.SLOTS][COMMON];

    static {
        SplittableRandom r = new SplittableRandom(SEED);
        for (long[][] topic : COMMON_VALUES)
            for (long[] slot : topic)
                for (int i = 0; i < slot.length; i++)
                    slot[i] = r.nextLong() >>> 1;
    }

    /** Documents of the index the model describes (the planted pairs are its first 20 %). */
    public final long docs;
    public final double commonShare;

    public KeysModel(long docs, double commonShare) {
        this.docs = docs;
        this.commonShare = commonShare;
    }

    public KeysModel(long docs) {
        this(docs, COMMON_SHARE);
    }

    /** A document: its topic, fingerprint and 32 full min-wise values. */
    public record Doc(int topic, long fingerprint, long[] minima) {
        /** The 32-byte verification signature the processor stores. */
        public byte[] signature() {
            return Signature.finish(minima);
        }

        /** The 28 index keys (5 bytes each: key number and hash), as the field indexes them. */
        public byte[] keys() {
            return LAYOUT.keys(minima);
        }

        /** The processor's stored form of the keys ({@code keys} member of a {@code simhash-v7} value). */
        public String storedKeys() {
            return StoredKeys.encode(LAYOUT, minima);
        }

        public String fingerprintHex() {
            return String.format("%016x", fingerprint);
        }

        public String signatureHex() {
            return HexFormat.of().formatHex(signature());
        }
    }

    long value(SplittableRandom r, int topic, int slot) {
        return r.nextDouble() < commonShare ? COMMON_VALUES[topic][slot][r.nextInt(COMMON)] : r.nextLong() >>> 1;
    }

    /** An unrelated document drawn from {@code r}. */
    public Doc fresh(SplittableRandom r) {
        int topic = r.nextInt(TOPICS);
        long[] minima = new long[Signature.SLOTS];
        for (int s = 0; s < minima.length; s++)
            minima[s] = value(r, topic, s);
        return new Doc(topic, r.nextLong(), minima);
    }

    /**
     * A near copy of {@code base} drawn from {@code r}: each full value kept with probability q uniform in [0.1, 0.9]
     * (else a fresh value of the topic), the fingerprint with 0..24 bits flipped.
     */
    public Doc near(Doc base, SplittableRandom r) {
        double q = 0.1 + 0.8 * r.nextDouble();
        long[] minima = base.minima.clone();
        for (int s = 0; s < minima.length; s++)
            if (r.nextDouble() >= q) minima[s] = value(r, base.topic, s);
        long fp = base.fingerprint;
        Set<Integer> flipped = new HashSet<>();
        for (int flips = r.nextInt(25); flipped.size() < flips;) {
            int bit = r.nextInt(64);
            if (flipped.add(bit)) fp ^= 1L << bit;
        }
        return new Doc(base.topic, fp, minima);
    }

    /**
     * An edited copy of {@code base} that still matches it (bench/check_scale.py's planted duplicates): {@code slots}
     * distinct slots take a fresh value of the topic, {@code flips} distinct fingerprint bits are flipped.
     */
    public Doc edit(Doc base, SplittableRandom r, int slots, int flips) {
        long[] minima = base.minima.clone();
        Set<Integer> replaced = new HashSet<>();
        while (replaced.size() < slots) {
            int s = r.nextInt(minima.length);
            if (replaced.add(s)) minima[s] = value(r, base.topic, s);
        }
        long fp = base.fingerprint;
        Set<Integer> flipped = new HashSet<>();
        while (flipped.size() < flips) {
            int bit = r.nextInt(64);
            if (flipped.add(bit)) fp ^= 1L << bit;
        }
        return new Doc(base.topic, fp, minima);
    }

    /** Planted pairs: documents 2p and 2p + 1 for p below this. */
    public long pairs() {
        return docs / 10;
    }

    /** Document i of the index. */
    public Doc doc(long i) {
        long planted = pairs(); // pairs: 20 % of the documents
        if (i >= 2 * planted) return fresh(new SplittableRandom(SEED * 1_000_003 + i));
        long pair = i / 2;
        Doc base = fresh(new SplittableRandom(SEED * 1_000_003 + 2L * pair));
        if (i % 2 == 0) return base;
        return near(base, new SplittableRandom(SEED * 1_000_003 + 2L * pair + 1));
    }

    /** Probe j of {@code count}: the first documents of planted pairs, spread evenly over them; its document number. */
    public long probeId(int j, int count) {
        return 2 * (j * pairs() / count);
    }
}
