package org.nearduplicate.lucene;

/**
 * Where the fingerprint columns ({@link FingerprintColumns}) account their heap: the adapter implements it over its
 * circuit breaker, so that this floor names no platform type.
 */
public interface MemoryAccounting {
    /** Accounting that accepts everything (tests, tools). */
    MemoryAccounting NONE = new MemoryAccounting() {
        @Override
        public void reserve(long bytes, String label) {}

        @Override
        public void release(long bytes) {}
    };

    /**
     * Reserves {@code bytes} before they are allocated.
     *
     * @throws RuntimeException when they may not be (e.g. a tripped breaker): nothing is reserved then
     */
    void reserve(long bytes, String label);

    /** Returns bytes reserved earlier. */
    void release(long bytes);
}
