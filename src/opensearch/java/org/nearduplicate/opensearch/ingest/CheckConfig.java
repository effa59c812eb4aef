package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.unit.TimeValue;
import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.threadpool.Scheduler;

import java.util.Map;
import java.util.function.BiFunction;

import org.nearduplicate.orchestration.check.CheckOptions;
import org.nearduplicate.orchestration.check.Scheduling;
import org.nearduplicate.orchestration.check.TimeSpan;

import static org.nearduplicate.orchestration.check.NearDuplicateCheck.TYPE;

/**
 * A {@code near_duplicate_check} processor's configuration as the ingest service hands it over, its options read with
 * {@link ConfigurationUtils} (whose errors name the processor and the option); and the ingest service's scheduler as
 * the check's timers.
 */
final class CheckConfig implements CheckOptions.Reader {
    private final String tag;
    private final Map<String, Object> config;

    CheckConfig(String tag, Map<String, Object> config) {
        this.tag = tag;
        this.config = config;
    }

    /** The ingest service's scheduler as the check's timers. */
    static Scheduling timers(BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler) {
        return new Scheduling() {
            @Override
            public Timer schedule(long delayMillis, Runnable task) {
                return scheduler.apply(delayMillis, task)::cancel;
            }

            @Override
            public String text(long millis) {
                return TimeValue.timeValueMillis(millis).toString();
            }
        };
    }

    @Override
    public String string(String name, String defaultValue) {
        return ConfigurationUtils.readStringProperty(TYPE, tag, config, name, defaultValue);
    }

    @Override
    public String optionalString(String name) {
        return ConfigurationUtils.readOptionalStringProperty(TYPE, tag, config, name);
    }

    @Override
    public boolean bool(String name, boolean defaultValue) {
        return ConfigurationUtils.readBooleanProperty(TYPE, tag, config, name, defaultValue);
    }

    @Override
    public int integer(String name, int defaultValue) {
        return ConfigurationUtils.readIntProperty(TYPE, tag, config, name, defaultValue);
    }

    @Override
    public Object remove(String name) {
        return config.remove(name);
    }

    @Override
    public TimeSpan time(String name, String defaultValue) {
        String value = ConfigurationUtils.readStringProperty(TYPE, tag, config, name, defaultValue);
        try {
            TimeValue t = TimeValue.parseTimeValue(value, name);
            if (t.millis() <= 0) {
                throw new IllegalArgumentException("must be positive");
            }
            return new TimeSpan(value, t.millis(), t.toString());
        } catch (IllegalArgumentException e) {
            throw ConfigurationUtils.newConfigurationException(TYPE, tag, name, "invalid time value [" + value + "]: " + e.getMessage());
        }
    }

    @Override
    public RuntimeException invalid(String name, String problem) {
        return ConfigurationUtils.newConfigurationException(TYPE, tag, name, problem);
    }

    @Override
    public RuntimeException invalid(IllegalArgumentException e) {
        return SourceText.configurationError(TYPE, tag, e);
    }
}
