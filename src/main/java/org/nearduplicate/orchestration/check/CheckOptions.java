package org.nearduplicate.orchestration.check;

import java.util.Locale;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.window.RecentFingerprints;

/**
 * The options of a {@code near_duplicate_check} processor, read and validated once when the pipeline is created, so
 * that the parts of the check take what they need from one value instead of a long constructor. How a pipeline's
 * configuration is read is the platform's ({@link Reader}); the defaults and the rules are here.
 *
 * @param maxDistance null: the target field's mapped {@code max_distance} ({@link MaxDistance#orField})
 */
public record CheckOptions(String field, String index, String indexField, Integer maxDistance, OnDuplicate onDuplicate,
    OnUnavailable onUnavailable, String resultField, String groupField, TimeSpan timeout, boolean ignoreMissing, int maxInFlight,
    int maxQueued, int windowSize, TimeSpan windowTtl, int batchSize, boolean waitForRefresh) {

    public enum OnDuplicate {
        TAG,
        DROP
    }

    public enum OnUnavailable {
        FAIL,
        TAG
    }

    /** With {@link LookupSearch#HITS_PER_BATCHED_DOCUMENT}, a batch asks for at most {@link LookupSearch#MAX_BATCH_HITS} hits. */
    public static final int MAX_BATCH_SIZE = 1_000;
    /**
     * Whether a lookup first waits until the writes the target's shard copies had when it started are searchable (as
     * {@code refresh=wait_for} waits for a write), so that a copy of a document acknowledged through another ingest
     * node is found; false: such a copy can be missed for up to one refresh interval.
     */
    public static final String WAIT_FOR_REFRESH = "wait_for_refresh";

    /**
     * A processor configuration as the platform reads it: each call reads and removes one option (what is left is
     * reported as unknown by the pipeline); a bad value throws the platform's configuration error.
     */
    public interface Reader {
        /** A string option; {@code defaultValue} null: required. */
        String string(String name, String defaultValue);

        /** A string option, null when absent. */
        String optionalString(String name);

        boolean bool(String name, boolean defaultValue);

        int integer(String name, int defaultValue);

        /** The raw value of an option (null when absent), removed from the configuration. */
        Object remove(String name);

        /** A positive duration option; {@code defaultValue} as configured, e.g. {@code 5s}. */
        TimeSpan time(String name, String defaultValue);

        /** The configuration error of option {@code name}. */
        RuntimeException invalid(String name, String problem);

        /** The configuration error of an engine rule's {@link IllegalArgumentException} (it may name its option). */
        RuntimeException invalid(IllegalArgumentException e);
    }

    /** Reads and validates the options. */
    public static CheckOptions parse(Reader config) {
        String field = config.string("field", "simhash");
        String index = config.optionalString("index");
        String indexField = config.string("index_field", field);
        Integer maxDistance;
        try {
            maxDistance = MaxDistance.parse(config.remove(MaxDistance.NAME), null);
            if (maxDistance != null) RecentFingerprints.checkMaxDistance(maxDistance);
        } catch (IllegalArgumentException e) {
            throw config.invalid(e);
        }
        OnDuplicate onDuplicate = readEnum(OnDuplicate.class, config, "on_duplicate", OnDuplicate.TAG);
        OnUnavailable onUnavailable = readEnum(OnUnavailable.class, config, "on_unavailable", OnUnavailable.FAIL);
        String resultField = config.string("result_field", "near_duplicate");
        String groupField = config.optionalString("group_field");
        TimeSpan timeout = config.time("timeout", "5s");
        boolean ignoreMissing = config.bool("ignore_missing", false);
        int maxInFlight = config.integer("max_in_flight", 64);
        if (maxInFlight < 1) {
            throw config.invalid("max_in_flight", "must be at least 1, got " + maxInFlight);
        }
        int maxQueued = config.integer("max_queued", 10_000);
        if (maxQueued < 0) {
            throw config.invalid("max_queued", "must be at least 0, got " + maxQueued);
        }
        int windowSize = config.integer("window_size", 10_000);
        if (windowSize < 0 || windowSize > 1_000_000) {
            throw config.invalid("window_size", "must be between 0 and 1000000, got " + windowSize);
        }
        TimeSpan windowTtl = config.time("window_ttl", "5m");
        int batchSize = config.integer("batch_size", 100);
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw config.invalid("batch_size", "must be between 1 and " + MAX_BATCH_SIZE + ", got " + batchSize);
        }
        boolean waitForRefresh = config.bool(WAIT_FOR_REFRESH, true);
        return new CheckOptions(
            field,
            index,
            indexField,
            maxDistance,
            onDuplicate,
            onUnavailable,
            resultField,
            groupField,
            timeout,
            ignoreMissing,
            maxInFlight,
            maxQueued,
            windowSize,
            windowTtl,
            batchSize,
            waitForRefresh
        );
    }

    private static <E extends Enum<E>> E readEnum(Class<E> type, Reader config, String name, E defaultValue) {
        String value = config.string(name, defaultValue.name().toLowerCase(Locale.ROOT));
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            StringBuilder allowed = new StringBuilder();
            for (E c : type.getEnumConstants()) {
                allowed.append(allowed.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
            }
            throw config.invalid(name, "must be one of [" + allowed + "], got [" + value + "]");
        }
    }
}
