package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.settings.Setting;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.CircuitBreakingException;

import java.util.function.Supplier;

import org.nearduplicate.core.window.RecentFingerprints;

/**
 * The recent windows' ({@link RecentFingerprints}) memory on the node: every entry is reserved from the
 * {@code near_duplicate} circuit breaker, and the node setting that caps the entries of all windows together. The
 * window itself knows no breaker, so this is all a second platform would write for it.
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

    private final Supplier<CircuitBreaker> breaker;

    /** The breaker is looked up per reservation: the plugin gets it after the windows are made. */
    public WindowMemory(Supplier<CircuitBreaker> breaker) {
        this.breaker = breaker;
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
