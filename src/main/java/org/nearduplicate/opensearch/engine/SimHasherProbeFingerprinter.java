package org.nearduplicate.opensearch.engine;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.SimHashSettings;

/**
 * Fingerprints {@code text}/{@code html} probes with the engine, using the algorithm of the field's mapping, so a
 * probe is made exactly like the indexed fingerprints. When the field's algorithm detects the content type
 * ({@code content_type=auto}), the probe's declared type is used instead of detection: ingest would have detected
 * the same type for a well-formed page, and the user said what the probe is.
 */
public final class SimHasherProbeFingerprinter implements ProbeFingerprinter {
    private final SimHasherCache hashers;

    public SimHasherProbeFingerprinter(SimHasherCache hashers) {
        this.hashers = hashers;
    }

    @Override
    public long fingerprint(String algorithm, String content, ProbeFingerprinter.ContentType contentType) {
        // the node's limits apply to probes exactly as to ingest (max_input_chars, max_features, the breaker)
        SimHashSettings settings = hashers.forAlgorithmId(algorithm);
        if (settings.contentType() == org.nearduplicate.core.ContentType.AUTO) {
            SimHashSettings.Builder declared = new SimHashSettings.Builder(settings);
            declared.contentType = contentType == ProbeFingerprinter.ContentType.HTML
                ? org.nearduplicate.core.ContentType.HTML
                : org.nearduplicate.core.ContentType.TEXT;
            settings = declared.build();
        }
        return hashers.fingerprint(settings, content);
    }
}
