package org.nearduplicate.opensearch.sketching;

import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.NoopCircuitBreaker;
import org.opensearch.core.common.unit.ByteSizeValue;

import java.util.List;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.orchestration.sketching.Sketching;

/**
 * {@link Sketching} on a node: its input limits come from the node settings, and every computation reserves its
 * estimated memory from the {@code near_duplicate} circuit breaker. Owned by the plugin instance.
 */
public final class SketchingService extends Sketching {
    /** Ceiling and default of every input's {@code max_input_chars} on this node (ingest, text probes, {@code _simhash}). */
    public static final Setting<Integer> MAX_INPUT_CHARS_SETTING = Setting.intSetting(
        MAX_INPUT_CHARS_KEY,
        SimHashSettings.DEFAULT_MAX_INPUT_CHARS,
        1,
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );
    /** Ceiling and default of every input's {@code max_features} on this node. */
    public static final Setting<Integer> MAX_FEATURES_SETTING = Setting.intSetting(
        MAX_FEATURES_KEY,
        SimHashSettings.DEFAULT_MAX_FEATURES,
        1,
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );
    public static final String BREAKER_NAME = "near_duplicate";
    /** Limit of the {@code near_duplicate} breaker (a child of the parent breaker, which also counts real heap use). */
    public static final Setting<ByteSizeValue> BREAKER_LIMIT_SETTING = Setting.memorySizeSetting(
        "near_duplicate.breaker.limit",
        "40%",
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );

    /**
     * {@code engine}, or the 400-style error of a text/html probe on a field that has none (a field type built outside
     * a node, e.g. in a test): fingerprints are never guessed.
     */
    public static SketchingService forProbe(SketchingService sketching, String field, ProbeContent type, String instead) {
        if (sketching == null) {
            throw new IllegalArgumentException(
                "["
                    + type.name().toLowerCase(java.util.Locale.ROOT)
                    + "] probes are not available: field ["
                    + field
                    + "] has no fingerprinting engine on this node; send "
                    + instead
                    + " instead"
            );
        }
        return sketching;
    }

    public static List<Setting<?>> settings() {
        return List.of(MAX_INPUT_CHARS_SETTING, MAX_FEATURES_SETTING, BREAKER_LIMIT_SETTING);
    }

    private volatile CircuitBreaker breaker = new NoopCircuitBreaker(BREAKER_NAME);

    /** Default limits and no breaker (tests). */
    public SketchingService() {
        this(Settings.EMPTY);
    }

    public SketchingService(Settings nodeSettings) {
        super(MAX_INPUT_CHARS_SETTING.get(nodeSettings), MAX_FEATURES_SETTING.get(nodeSettings));
        stats().addGauges(b -> {
            CircuitBreaker current = breaker;
            b.set(NearDuplicateStats.Stat.BREAKER_USED, current.getUsed())
                .set(NearDuplicateStats.Stat.BREAKER_LIMIT, current.getLimit())
                .set(NearDuplicateStats.Stat.BREAKER_TRIPPED, current.getTrippedCount());
        });
    }

    /** Installed by the plugin once the node has created the {@code near_duplicate} breaker. */
    public void setBreaker(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    /**
     * Applies a new {@code near_duplicate.breaker.limit} to the installed breaker (overhead 1.0, as created). The
     * breaker service's own {@code breaker.near_duplicate.limit} updates the same breaker: the latest change wins.
     */
    public void setBreakerLimit(ByteSizeValue limit) {
        breaker.setLimitAndOverhead(limit.getBytes(), 1.0);
    }

    /** The {@code near_duplicate} breaker (a no-op one until the node installs it). */
    public CircuitBreaker breaker() {
        return breaker;
    }

    @Override
    protected void reserve(long bytes, String label) {
        breaker.addEstimateBytesAndMaybeBreak(bytes, label);
    }

    @Override
    protected void release(long bytes) {
        breaker.addWithoutBreaking(-bytes);
    }
}
