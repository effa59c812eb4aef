package org.nearduplicate.orchestration.groups;

/** The node's {@code near_duplicate} circuit breaker, as the groups runs use it. */
public interface Breaker {
    /** Adds {@code bytes}, or throws the platform's circuit-breaking exception (a 429) naming {@code label}. */
    void addEstimateBytesAndMaybeBreak(long bytes, String label);

    /** Adds {@code bytes} (negative: gives them back) without checking the limit. */
    void addWithoutBreaking(long bytes);
}
