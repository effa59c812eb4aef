package org.nearduplicate.core.keys;

import java.util.Map;

import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * The full min-wise values behind a document's {@link Signature}: for each of its {@link Signature#SLOTS} slots the
 * 63-bit minimum over the document's feature hashes, before {@link Signature#finish} keeps 8 bits of it. They exist
 * only while a document is signed, so keys made from them ({@link CandidateKeys}) are computed at ingest and stored.
 *
 * <p>{@code Signature.finish(of(hasher, content))} is {@code hasher.sketch(content).signature()}: the same features and
 * the same {@link Signature#add}, nothing of the signature or the fingerprint changes. This class runs the feature
 * pipeline again, for studies and as the independent answer tests compare with; ingest takes the minima from the
 * signing itself ({@link SimHasher#sketchWithMinima}, which {@code simhash-v7}'s sketch is).
 */
public final class FullMinima {
    private FullMinima() {}

    /** The minima of {@code content}'s features, exactly as {@code hasher} signs them; errors as its sketch's. */
    public static long[] of(SimHasher hasher, String content) {
        Map<String, Integer> features = hasher.features(content);
        long[] minima = Signature.newMinima();
        for (String f : features.keySet())
            Signature.add(minima, SimHasher.featureHash(f));
        return minima;
    }

    /** The minima of a set of 64-bit feature hashes. */
    public static long[] ofHashes(long... featureHashes) {
        long[] minima = Signature.newMinima();
        for (long h : featureHashes)
            Signature.add(minima, h);
        return minima;
    }
}
