package org.nearduplicate.opensearch.engine;

import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.MinHasher;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** One {@link MinHasher} per algorithm on this node, shared by pipelines and text probes of {@code minhash_similar}. */
public final class MinHasherCache {
    static final int MAX_ENTRIES = 256;
    private static final ConcurrentMap<String, MinHasher> HASHERS = new ConcurrentHashMap<>();

    private MinHasherCache() {}

    public static MinHasher get(MinHashSettings settings) {
        MinHasher h = HASHERS.get(settings.algorithmId());
        if (h != null) return h;
        if (HASHERS.size() >= MAX_ENTRIES) HASHERS.clear();
        return HASHERS.computeIfAbsent(settings.algorithmId(), id -> new MinHasher(settings));
    }

    static MinHasher forAlgorithm(String algorithmId) {
        MinHasher h = HASHERS.get(algorithmId);
        return h != null ? h : get(MinHashSettings.fromAlgorithmId(algorithmId));
    }
}
