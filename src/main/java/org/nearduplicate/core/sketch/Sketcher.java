package org.nearduplicate.core.sketch;

import java.util.Map;

import org.nearduplicate.core.SimHashSettings;

/**
 * What the node's gateway needs of a method to sketch with it: the feature pipeline of its settings (for the node's
 * limits and the memory estimate), its hasher for a settings and the sketch of a content. The gateway keeps one hasher
 * per settings of each method and reserves memory the same way for all; a method describes itself with one constant
 * next to its hasher, e.g. {@link SimHasher#SKETCHER}.
 *
 * @param <S> the method's settings
 * @param <H> the method's hasher
 * @param <V> the sketch, e.g. a fingerprint
 */
public interface Sketcher<S, H, V> {
    /** The feature pipeline of {@code settings}, as {@link SimHashSettings}. */
    SimHashSettings pipeline(S settings);

    H hasher(S settings);

    V sketch(H hasher, String content);

    /**
     * A method whose settings are read from a processor's options and from an algorithm id, and whose probes are
     * sketched on the coordinating node.
     */
    interface Probing<S, H, V> extends Sketcher<S, H, V> {
        /** Reads and removes the method's options. */
        S fromMap(Map<String, Object> options);

        /** The settings an algorithm id stands for. */
        S fromAlgorithmId(String algorithmId);

        /** {@code settings} with the feature pipeline {@code pipeline} (the same method, other limits or content type). */
        S withPipeline(S settings, SimHashSettings pipeline);
    }
}
