package org.nearduplicate.core;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** Assertions shared by the engine tests (plain helpers: no OpenSearch types). */
public final class EngineAsserts {
    private EngineAsserts() {}

    /** Fails unless {@code r} throws an {@link IllegalArgumentException} (or subclass) whose message contains {@code messagePart}. */
    public static void assertThrows(String messagePart, Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            assertTrue("message [" + e.getMessage() + "] should contain [" + messagePart + "]", e.getMessage().contains(messagePart));
            return;
        }
        fail("expected IllegalArgumentException containing [" + messagePart + "]");
    }
}
