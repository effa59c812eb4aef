package org.nearduplicate.orchestration.check;

import java.util.Set;

import org.nearduplicate.core.MaxDistance;

/**
 * What a {@code near_duplicate_check} needs to know of its target indices from the platform's cluster state: the
 * {@code max_distance} a target maps for the field (capped as {@link MaxDistance#recommended}), the algorithms it is
 * mapped with, whether it is closed, its {@code index.refresh_interval}, and the index a document is written to.
 */
@FunctionalInterface
public interface TargetIndices {

    /** The default {@code index.refresh_interval} (1s on both platforms). */
    long DEFAULT_REFRESH_MILLIS = 1_000;

    /** The {@code max_distance} of {@code field} in {@code index}; the default of a new field where none is mapped. */
    int of(String index, String field);

    /**
     * The algorithms {@code field} is mapped with in the indices {@code index} names (an index, alias, pattern or
     * comma-separated list); empty when none maps it (or unknown).
     */
    default Set<String> algorithms(String index, String field) {
        return Set.of();
    }

    /** True when {@code index} names closed indices only (a closed target cannot be searched). */
    default boolean closed(String index) {
        return false;
    }

    /**
     * The longest {@code index.refresh_interval} of the indices {@code index} names, in milliseconds; -1 when one of them
     * has refresh disabled; the default (1s) when unknown.
     */
    default long refreshMillis(String index) {
        return DEFAULT_REFRESH_MILLIS;
    }

    /**
     * The index a document written to {@code name} (the document's {@code _index}: an index, alias or data stream) goes
     * to: the concrete (write) index when the cluster state knows {@code name}, {@code name} itself when it names no
     * index yet (a write creates it); null when not known (no name, or a date math expression).
     */
    default String documentIndex(String name) {
        return unknownIndex(name) ? null : name;
    }

    /**
     * No index a document can be written to: none, date math (resolved by the write, not here), or a name no index can
     * have ({@code _simulate}'s placeholder {@code _index}), which a term query on {@code _index} would refuse.
     */
    static boolean unknownIndex(String name) {
        return name == null
            || name.isEmpty()
            || name.startsWith("<")
            || name.startsWith("_")
            || name.startsWith("-")
            || name.startsWith("+");
    }
}
