package org.nearduplicate.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The shared text form of every method's algorithm id: {@code version[:key=value,...]}, as written next to
 * fingerprints, signatures and keys and pinned into mappings. Each method reads the options it knows with its own
 * {@code fromMap}; this class only splits the id and checks what all of them check.
 */
public final class AlgorithmIds {
    private AlgorithmIds() {}

    /**
     * The options of {@code algorithmId}, in order, as strings.
     *
     * @param notAllowed keys that are options of a method but never part of its id (limits that do not change output)
     * @throws IllegalArgumentException for another version, a malformed or repeated pair, or a key in {@code notAllowed}
     */
    public static Map<String, Object> parse(String algorithmId, String version, Set<String> notAllowed) {
        if (algorithmId == null) throw new IllegalArgumentException("algorithm id must not be null");
        int colon = algorithmId.indexOf(':');
        String actualVersion = colon < 0 ? algorithmId : algorithmId.substring(0, colon);
        if (version.equals(actualVersion) == false) {
            throw new IllegalArgumentException(
                "unknown algorithm version [" + actualVersion + "] in [" + algorithmId + "]; this build supports [" + version + "]"
            );
        }
        Map<String, Object> options = new LinkedHashMap<>();
        String params = colon < 0 ? "" : algorithmId.substring(colon + 1);
        if (params.isEmpty()) {
            return options; // a bare version: the method's defaults
        }
        for (String pair : params.split(",", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("malformed parameter [" + pair + "] in algorithm id [" + algorithmId + "]");
            String key = pair.substring(0, eq);
            if (notAllowed.contains(key) || options.containsKey(key)) {
                throw new IllegalArgumentException("unexpected parameter [" + key + "] in algorithm id [" + algorithmId + "]");
            }
            options.put(key, pair.substring(eq + 1));
        }
        return options;
    }

    /** After a method's {@code fromMap} has removed the options it knows, anything left is unknown. */
    public static void requireConsumed(Map<String, Object> options, String algorithmId) {
        if (options.isEmpty() == false) {
            throw new IllegalArgumentException("unknown parameters " + options.keySet() + " in algorithm id [" + algorithmId + "]");
        }
    }
}
