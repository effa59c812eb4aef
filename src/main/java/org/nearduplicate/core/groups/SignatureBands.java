package org.nearduplicate.core.groups;

import java.util.SplittableRandom;

import org.nearduplicate.core.sketch.Signature;

/**
 * The bands of the LSH candidate stage of {@link HammingGroups} over verification signatures ({@link Signature}, 32
 * slots of 8 bits): {@link #PARTITIONS} fixed random partitions of the 32 slots into {@value #BANDS_PER_PARTITION}
 * bands of {@value #SLOTS_PER_BAND} slots, {@link #BANDS} bands in all; a band's key is the 32 bits of its 4 slots. Two
 * signatures are candidates when they share the key of at least one band. The partitions are constants of the
 * algorithm (a seeded shuffle), so a run's candidates, and therefore its result, depend only on its input.
 *
 * <p>b-bit MinHash slots are independent min-wise hashes, so which slots of a pair agree is, for the bands,
 * effectively a random subset of its agreeing count: {@link #missProbability} is the chance that a pair agreeing on
 * {@code a} slots shares no band, estimated once by a seeded simulation over these very partitions.
 */
public final class SignatureBands {
    public static final int SLOTS_PER_BAND = 4;
    public static final int BANDS_PER_PARTITION = Signature.SLOTS / SLOTS_PER_BAND;
    public static final int PARTITIONS = 32;
    public static final int BANDS = PARTITIONS * BANDS_PER_PARTITION;
    private static final long SEED = 0x5EED_0F_BA_4D5L;
    /** Samples of the {@link #missProbability} simulation per agreeing count. */
    private static final int SAMPLES = 200_000;

    /** Slot i of band b is {@code SLOTS_OF[b * 4 + i]}. */
    private static final int[] SLOTS_OF = new int[BANDS * SLOTS_PER_BAND];
    /** Band b's slots as a 32-bit mask. */
    private static final int[] MASKS = new int[BANDS];
    private static final double[] MISS = new double[Signature.SLOTS + 1];

    static {
        java.util.Arrays.fill(MISS, Double.NaN);
        SplittableRandom random = new SplittableRandom(SEED);
        int[] slots = new int[Signature.SLOTS];
        for (int p = 0; p < PARTITIONS; p++) {
            for (int i = 0; i < slots.length; i++)
                slots[i] = i;
            if (p > 0) { // the first partition is the slots in order
                for (int i = slots.length - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    int t = slots[i];
                    slots[i] = slots[j];
                    slots[j] = t;
                }
            }
            for (int b = 0; b < BANDS_PER_PARTITION; b++) {
                int band = p * BANDS_PER_PARTITION + b;
                for (int i = 0; i < SLOTS_PER_BAND; i++) {
                    int slot = slots[b * SLOTS_PER_BAND + i];
                    SLOTS_OF[band * SLOTS_PER_BAND + i] = slot;
                    MASKS[band] |= 1 << slot;
                }
            }
        }
    }

    private SignatureBands() {}

    /** The key of band {@code band} of the signature at {@code offset} of {@code signatures}. */
    static int key(byte[] signatures, int offset, int band) {
        int at = band * SLOTS_PER_BAND;
        return (signatures[offset + SLOTS_OF[at]] & 0xFF) << 24 | (signatures[offset + SLOTS_OF[at + 1]] & 0xFF) << 16 | (signatures[offset
            + SLOTS_OF[at + 2]] & 0xFF) << 8 | (signatures[offset + SLOTS_OF[at + 3]] & 0xFF);
    }

    /** The slots on which two signatures agree, as a 32-bit mask. */
    static int agreement(byte[] signatures, int aOffset, int bOffset) {
        int mask = 0;
        for (int i = 0; i < Signature.SLOTS; i++)
            if (signatures[aOffset + i] == signatures[bOffset + i]) mask |= 1 << i;
        return mask;
    }

    /** The first band whose slots all agree in {@code agreement}; {@link #BANDS} when none does. */
    static int firstSharedBand(int agreement) {
        for (int b = 0; b < BANDS; b++)
            if ((agreement & MASKS[b]) == MASKS[b]) return b;
        return BANDS;
    }

    /**
     * The probability that a pair agreeing on {@code agreeing} slots (positions uniformly random) shares no band, from
     * a seeded simulation of {@value #SAMPLES} random subsets (computed once per count, some 10 ms).
     */
    public static double missProbability(int agreeing) {
        if (agreeing < SLOTS_PER_BAND) return 1;
        if (agreeing > Signature.SLOTS) return 0;
        synchronized (MISS) {
            if (Double.isNaN(MISS[agreeing])) MISS[agreeing] = simulate(agreeing);
            return MISS[agreeing];
        }
    }

    /** The lowest probability that a pair at {@code minAgreeing} or more agreeing slots is a candidate. */
    public static double recallAt(int minAgreeing) {
        return 1 - missProbability(minAgreeing);
    }

    private static double simulate(int a) {
        SplittableRandom random = new SplittableRandom(SEED ^ (0x51AL * (a + 1)));
        int[] slots = new int[Signature.SLOTS];
        int missed = 0;
        for (int s = 0; s < SAMPLES; s++) {
            for (int i = 0; i < slots.length; i++)
                slots[i] = i;
            int mask = 0;
            for (int i = 0; i < a; i++) { // a partial shuffle: the first a slots are a uniform a-subset
                int j = i + random.nextInt(slots.length - i);
                int t = slots[i];
                slots[i] = slots[j];
                slots[j] = t;
                mask |= 1 << slots[i];
            }
            if (firstSharedBand(mask) == BANDS) missed++;
        }
        return (double) missed / SAMPLES;
    }
}
