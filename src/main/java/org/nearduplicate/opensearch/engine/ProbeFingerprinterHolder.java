package org.nearduplicate.opensearch.engine;

import java.util.concurrent.atomic.AtomicReference;

/** Holds the node-wide {@link ProbeFingerprinter}; use {@link ProbeFingerprinter#register}. */
final class ProbeFingerprinterHolder {
    private static final AtomicReference<ProbeFingerprinter> INSTANCE = new AtomicReference<>();

    private ProbeFingerprinterHolder() {}

    static void set(ProbeFingerprinter fingerprinter) {
        INSTANCE.set(fingerprinter);
    }

    static ProbeFingerprinter get() {
        return INSTANCE.get();
    }
}
