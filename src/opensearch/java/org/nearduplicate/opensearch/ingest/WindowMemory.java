package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.settings.Setting;
import org.opensearch.common.unit.MemorySizeValue;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.common.unit.ByteSizeValue;
import org.opensearch.threadpool.Scheduler;

import java.util.function.BiFunction;
import java.util.function.Supplier;

import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.core.window.SweepScheduler;

/**
 * The recent windows' ({@link RecentFingerprints}) memory on the node: every entry is reserved from the
 * {@code near_duplicate} circuit breaker, the node settings that cap the entries and bytes of all windows together,
 * and the node's scheduler behind their periodic sweep. The window itself knows no breaker and no thread pool, so this
 * is all a second platform would write for it.
 */
public final class WindowMemory implements RecentFingerprints.Memory {

    /** Entries all recent windows of a node may hold together (each one also reserved from the breaker). */
    public static final Setting<Long> MAX_NODE_ENTRIES_SETTING = Setting.longSetting(
        "near_duplicate.check.window_max_entries",
        200_000,
        0,
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );

    /**
     * Estimated heap all recent windows of a node may hold together: 5% of the heap, as the column cache, so that the
     * two leave three quarters of the {@code near_duplicate} breaker (40%) to the groups, the fingerprints and the bulk
     * sets (docs/reliability.md).
     */
    public static final Setting<ByteSizeValue> MAX_NODE_BYTES_SETTING = new Setting<>(
        "near_duplicate.check.window_max_bytes",
        "5%",
        WindowMemory::parseMaxBytes,
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );

    /** A size or a share of the heap, as {@code memorySizeSetting}, but never negative ({@code -1} is a size there). */
    private static ByteSizeValue parseMaxBytes(String value) {
        ByteSizeValue size = MemorySizeValue.parseBytesSizeValueOrHeapRatio(value, "near_duplicate.check.window_max_bytes");
        if (size.getBytes() < 0) {
            throw new IllegalArgumentException(
                "failed to parse value [" + value + "] for setting [near_duplicate.check.window_max_bytes], must be >= [0b]"
            );
        }
        return size;
    }

    private final Supplier<CircuitBreaker> breaker;

    /** The breaker is looked up per reservation: the plugin gets it after the windows are made. */
    public WindowMemory(Supplier<CircuitBreaker> breaker) {
        this.breaker = breaker;
    }

    /**
     * The ingest service's scheduler (its tasks run on the generic pool) as the windows' sweep timer; it throws once the
     * node's pool is shut down, which ends the sweeps.
     */
    public static SweepScheduler sweeps(BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler) {
        return (delayMillis, task) -> scheduler.apply(delayMillis, task)::cancel;
    }

    @Override
    public boolean tryReserve(long bytes, String label) {
        try {
            breaker.get().addEstimateBytesAndMaybeBreak(bytes, label);
        } catch (CircuitBreakingException e) {
            return false;
        }
        return true;
    }

    @Override
    public void release(long bytes) {
        breaker.get().addWithoutBreaking(-bytes);
    }
}
