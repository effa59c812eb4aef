package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.unit.TimeValue;
import org.opensearch.ingest.ConfigurationUtils;

import java.util.Locale;
import java.util.Map;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.window.RecentFingerprints;

import static org.nearduplicate.opensearch.ingest.SimHashCheckProcessor.TYPE;

/**
 * The options of a {@code near_duplicate_check} processor, read and validated once when the pipeline is created, so
 * that the parts of the check take what they need from one value instead of a long constructor.
 *
 * @param maxDistance null: the target field's mapped {@code max_distance} ({@link MaxDistance#orField})
 */
record CheckOptions(String field, String index, String indexField, Integer maxDistance, OnDuplicate onDuplicate,
    OnUnavailable onUnavailable, String resultField, String groupField, TimeValue timeout, boolean ignoreMissing, int maxInFlight,
    int maxQueued, int windowSize, TimeValue windowTtl, int batchSize) {

    public enum OnDuplicate {
        TAG,
        DROP
    }

    public enum OnUnavailable {
        FAIL,
        TAG
    }

    /** With {@link LookupSearch#HITS_PER_BATCHED_DOCUMENT}, a batch asks for at most {@link LookupSearch#MAX_BATCH_HITS} hits. */
    static final int MAX_BATCH_SIZE = 1_000;

    /** Reads (and removes) the options from {@code config}; what is left is reported as unknown by the pipeline. */
    static CheckOptions parse(String tag, Map<String, Object> config) {
        String field = ConfigurationUtils.readStringProperty(TYPE, tag, config, "field", "simhash");
        String index = ConfigurationUtils.readOptionalStringProperty(TYPE, tag, config, "index");
        String indexField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "index_field", field);
        Integer maxDistance;
        try {
            maxDistance = MaxDistance.parse(config.remove(MaxDistance.NAME), null);
            if (maxDistance != null) RecentFingerprints.checkMaxDistance(maxDistance);
        } catch (IllegalArgumentException e) {
            throw SourceText.configurationError(TYPE, tag, e);
        }
        OnDuplicate onDuplicate = readEnum(OnDuplicate.class, tag, config, "on_duplicate", OnDuplicate.TAG);
        OnUnavailable onUnavailable = readEnum(OnUnavailable.class, tag, config, "on_unavailable", OnUnavailable.FAIL);
        String resultField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "result_field", "near_duplicate");
        String groupField = ConfigurationUtils.readOptionalStringProperty(TYPE, tag, config, "group_field");
        TimeValue timeout = readTime(tag, config, "timeout", TimeValue.timeValueSeconds(5));
        boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
        int maxInFlight = ConfigurationUtils.readIntProperty(TYPE, tag, config, "max_in_flight", 64);
        if (maxInFlight < 1) {
            throw ConfigurationUtils.newConfigurationException(TYPE, tag, "max_in_flight", "must be at least 1, got " + maxInFlight);
        }
        int maxQueued = ConfigurationUtils.readIntProperty(TYPE, tag, config, "max_queued", 10_000);
        if (maxQueued < 0) {
            throw ConfigurationUtils.newConfigurationException(TYPE, tag, "max_queued", "must be at least 0, got " + maxQueued);
        }
        int windowSize = ConfigurationUtils.readIntProperty(TYPE, tag, config, "window_size", 10_000);
        if (windowSize < 0 || windowSize > 1_000_000) {
            throw ConfigurationUtils.newConfigurationException(
                TYPE,
                tag,
                "window_size",
                "must be between 0 and 1000000, got " + windowSize
            );
        }
        TimeValue windowTtl = readTime(tag, config, "window_ttl", TimeValue.timeValueMinutes(5));
        int batchSize = ConfigurationUtils.readIntProperty(TYPE, tag, config, "batch_size", 100);
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw ConfigurationUtils.newConfigurationException(
                TYPE,
                tag,
                "batch_size",
                "must be between 1 and " + MAX_BATCH_SIZE + ", got " + batchSize
            );
        }
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
            batchSize
        );
    }

    private static <E extends Enum<E>> E readEnum(Class<E> type, String tag, Map<String, Object> config, String name, E defaultValue) {
        String value = ConfigurationUtils.readStringProperty(TYPE, tag, config, name, defaultValue.name().toLowerCase(Locale.ROOT));
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            StringBuilder allowed = new StringBuilder();
            for (E c : type.getEnumConstants()) {
                allowed.append(allowed.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
            }
            throw ConfigurationUtils.newConfigurationException(TYPE, tag, name, "must be one of [" + allowed + "], got [" + value + "]");
        }
    }

    private static TimeValue readTime(String tag, Map<String, Object> config, String name, TimeValue defaultValue) {
        String value = ConfigurationUtils.readStringProperty(TYPE, tag, config, name, defaultValue.getStringRep());
        try {
            TimeValue t = TimeValue.parseTimeValue(value, name);
            if (t.millis() <= 0) {
                throw new IllegalArgumentException("must be positive");
            }
            return t;
        } catch (IllegalArgumentException e) {
            throw ConfigurationUtils.newConfigurationException(TYPE, tag, name, "invalid time value [" + value + "]: " + e.getMessage());
        }
    }
}
