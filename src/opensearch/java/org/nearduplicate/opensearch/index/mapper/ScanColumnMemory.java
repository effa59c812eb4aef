package org.nearduplicate.opensearch.index.mapper;

import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.unit.ByteSizeValue;

import java.util.function.Supplier;

import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.MemoryAccounting;

/**
 * The {@code simhash} fields' column cache ({@link FingerprintColumns}): one per node, bounded by
 * {@code near_duplicate.scan_cache.size}, every column's bytes reserved from the {@code near_duplicate} circuit breaker.
 * A column the breaker refuses is not loaded and the query answers that segment by its keys or the doc-values scan
 * (exact, slower): a search never fails for want of a column.
 */
public final class ScanColumnMemory implements MemoryAccounting {

    /**
     * Heap all cached columns of a node may hold together (8 bytes per document of a segment with a {@code simhash}
     * field); 0 turns the column path off.
     */
    public static final Setting<ByteSizeValue> SIZE_SETTING = Setting.memorySizeSetting(
        "near_duplicate.scan_cache.size",
        "5%",
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );

    /**
     * Whether concurrent searches of one column share their passes ({@link FingerprintColumns#setSharePasses}); off, each
     * search scans alone (the same answers).
     */
    public static final Setting<Boolean> SHARE_PASSES_SETTING = Setting.boolSetting(
        "near_duplicate.scan_cache.share_passes",
        true,
        Setting.Property.Dynamic,
        Setting.Property.NodeScope
    );

    private final Supplier<CircuitBreaker> breaker;

    /** The breaker is looked up per reservation: the plugin gets it after the cache is made. */
    public ScanColumnMemory(Supplier<CircuitBreaker> breaker) {
        this.breaker = breaker;
    }

    /**
     * The node's column cache, bounded by {@link #SIZE_SETTING}; made even when it is 0 (off), so that the dynamic setting
     * can turn it on ({@link FingerprintColumns#setMaxBytes}).
     */
    public static FingerprintColumns columns(Settings settings, Supplier<CircuitBreaker> breaker) {
        FingerprintColumns columns = new FingerprintColumns(SIZE_SETTING.get(settings).getBytes(), new ScanColumnMemory(breaker));
        columns.setSharePasses(SHARE_PASSES_SETTING.get(settings));
        return columns;
    }

    /** @throws org.opensearch.core.common.breaker.CircuitBreakingException when the breaker refuses */
    @Override
    public void reserve(long bytes, String label) {
        breaker.get().addEstimateBytesAndMaybeBreak(bytes, label);
    }

    @Override
    public void release(long bytes) {
        breaker.get().addWithoutBreaking(-bytes);
    }
}
