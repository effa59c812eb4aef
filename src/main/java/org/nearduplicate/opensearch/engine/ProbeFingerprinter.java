package org.nearduplicate.opensearch.engine;

import org.nearduplicate.core.ContentType;

/**
 * Turns a {@code text} or {@code html} probe of a {@code near_duplicate} query or rescorer into a fingerprint, with
 * the algorithm of the targeted field's mapping. Registered once by the plugin through {@link #register}; until
 * then text probes are rejected (a probe fingerprint is never guessed).
 */
@FunctionalInterface
public interface ProbeFingerprinter {

    /** What the probe content is. */
    enum ContentType {
        TEXT,
        HTML
    }

    /**
     * @param algorithm   the {@code algorithm} of the field's mapping, e.g. {@code simhash-v1:...}
     * @param content     the probe text or HTML, never null
     * @param contentType whether {@code content} is plain text or HTML
     * @return the fingerprint of {@code content}, made exactly as the indexed fingerprints were
     * @throws IllegalArgumentException if the algorithm is unknown or the content cannot be fingerprinted
     */
    long fingerprint(String algorithm, String content, ContentType contentType);

    /** Installs the fingerprinter used by text/html probes (called by the plugin; replaces any previous one). */
    static void register(ProbeFingerprinter fingerprinter) {
        ProbeFingerprinterHolder.set(fingerprinter);
    }

    /** The registered fingerprinter, or null if none is. */
    static ProbeFingerprinter registered() {
        return ProbeFingerprinterHolder.get();
    }
}
