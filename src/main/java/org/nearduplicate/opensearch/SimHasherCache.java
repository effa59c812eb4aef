package org.nearduplicate.opensearch;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.SimHasher;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One {@link SimHasher} per distinct algorithm on this node, shared by pipelines, text probes and the
 * {@code _simhash} API: hashers are thread-safe and may hold large tables (IDF, dictionaries).
 */
public final class SimHasherCache {
    /** Bounds the cache: each distinct settings combination is one entry, and users create few of them. */
    static final int MAX_ENTRIES = 256;

    private final ConcurrentMap<String, SimHasher> hashers = new ConcurrentHashMap<>();

    public SimHasher get(SimHashSettings settings) {
        SimHasher hasher = hashers.get(settings.algorithmId());
        if (hasher != null) {
            return hasher;
        }
        if (hashers.size() >= MAX_ENTRIES) {
            hashers.clear();
        }
        return hashers.computeIfAbsent(settings.algorithmId(), id -> new SimHasher(settings));
    }

    /** The hasher for a fingerprint's algorithm name, as stored in a mapping or written by the processor. */
    public SimHasher forAlgorithm(String algorithmId) {
        SimHasher hasher = hashers.get(algorithmId);
        return hasher != null ? hasher : get(SimHashSettings.fromAlgorithmId(algorithmId));
    }
}
