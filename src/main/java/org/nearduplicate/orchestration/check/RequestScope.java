package org.nearduplicate.orchestration.check;

import java.util.function.Supplier;

/**
 * The bulk request a document comes with, on a platform that hands a bulk request's documents over one by one
 * ({@link StreamedBatches}): where the request's open batch is kept, and what its searches run under.
 */
public interface RequestScope {
    /** The value kept for the current request (by one processor), put there by {@code create} on first use. */
    <T> T attached(Supplier<T> create);

    /** What the current request's searches must run under (its user, its headers), captured now. */
    Context capture();

    /** A captured request context. */
    @FunctionalInterface
    interface Context {
        /** Runs under the captured context until the returned value is closed, which restores the one before. */
        Restore enter();
    }

    /** Restores the context that was current before {@link Context#enter}. */
    @FunctionalInterface
    interface Restore extends AutoCloseable {
        @Override
        void close();
    }
}
