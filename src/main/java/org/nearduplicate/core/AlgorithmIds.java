package org.nearduplicate.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.nearduplicate.core.options.InvalidOptionException;
import org.nearduplicate.core.options.OptionValues;

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

    /** The option under which {@link #parseVersioned} returns the version number. */
    public static final String VERSION_OPTION = "version";

    /**
     * As {@link #parse}, for a method with numbered versions {@code name-v1 .. name-v<latest>}: the options plus
     * {@link #VERSION_OPTION} = the version number.
     */
    public static Map<String, Object> parseVersioned(String algorithmId, String name, int latest, Set<String> notAllowed) {
        if (algorithmId == null) throw new IllegalArgumentException("algorithm id must not be null");
        int colon = algorithmId.indexOf(':');
        String actualVersion = colon < 0 ? algorithmId : algorithmId.substring(0, colon);
        int version = -1;
        String prefix = name + "-v";
        if (actualVersion.startsWith(prefix) && actualVersion.length() > prefix.length() && actualVersion.length() <= prefix.length() + 3) {
            try {
                version = Integer.parseInt(actualVersion.substring(prefix.length()));
            } catch (NumberFormatException e) {
                version = -1;
            }
        }
        if (version < 1 || version > latest) {
            StringBuilder supported = new StringBuilder();
            for (int v = 1; v <= latest; v++)
                supported.append(v == 1 ? "" : ", ").append(prefix).append(v);
            throw new IllegalArgumentException(
                "unknown algorithm version [" + actualVersion + "] in [" + algorithmId + "]; this build supports [" + supported + "]"
            );
        }
        Map<String, Object> options = parse(algorithmId, actualVersion, notAllowed);
        if (options.containsKey(VERSION_OPTION)) {
            throw new IllegalArgumentException("unexpected parameter [" + VERSION_OPTION + "] in algorithm id [" + algorithmId + "]");
        }
        options.put(VERSION_OPTION, version);
        return options;
    }

    /**
     * The version option of a processor or id: an integer (or integer string) from 1 to {@code latest}.
     *
     * @throws IllegalArgumentException naming the option
     */
    public static int version(Object value, String name, int latest) {
        Object number = value;
        if (value instanceof String s) {
            String t = s.trim();
            if (t.startsWith(name + "-v")) t = t.substring(name.length() + 2);
            else if (t.startsWith("v")) t = t.substring(1);
            number = t;
        }
        Long whole = OptionValues.wholeNumber(number);
        int v = whole == null || whole != whole.intValue() ? -1 : whole.intValue();
        if (v < 1 || v > latest) {
            throw new InvalidOptionException(
                VERSION_OPTION,
                "must be an integer from 1 to " + latest + " (" + name + "-v1 .. " + name + "-v" + latest + "), got [" + value + "]"
            );
        }
        return v;
    }

    /**
     * Reads the settings of {@code algorithmId}, an id of method {@code name}: {@link #parseVersioned}, then
     * {@code read} (the method's {@code fromMap}), then {@link #requireConsumed}.
     */
    static <T> T parse(String algorithmId, String name, Set<String> notAllowed, Function<Map<String, Object>, T> read) {
        return parse(algorithmId, name, FeatureSettings.LATEST_VERSION, notAllowed, read);
    }

    /** As above, for a method whose versions go beyond the feature pipeline's (SimHash's v7: keys). */
    static <T> T parse(String algorithmId, String name, int latest, Set<String> notAllowed, Function<Map<String, Object>, T> read) {
        Map<String, Object> options = parseVersioned(algorithmId, name, latest, notAllowed);
        T settings = read.apply(options);
        requireConsumed(options, algorithmId);
        return settings;
    }

    /**
     * Whether values made by two algorithm ids compare: the same id, or ids whose values are made the same way
     * ({@code simhash-v6} and {@code simhash-v7} of one option set: {@link SimHashSettings#sameSketch}).
     */
    public static boolean comparable(String algorithmId, String otherAlgorithmId) {
        return algorithmId.equals(otherAlgorithmId) || SimHashSettings.sameSketch(algorithmId, otherAlgorithmId);
    }

    /** After a method's {@code fromMap} has removed the options it knows, anything left is unknown. */
    public static void requireConsumed(Map<String, Object> options, String algorithmId) {
        if (options.isEmpty() == false) {
            throw new IllegalArgumentException("unknown parameters " + options.keySet() + " in algorithm id [" + algorithmId + "]");
        }
    }
}
