package org.nearduplicate.opensearch;

import org.opensearch.OpenSearchParseException;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.ingest.Processor;
import org.opensearch.test.OpenSearchTestCase;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.opensearch.action.stats.NearDuplicateStatsNodeResponse;
import org.nearduplicate.opensearch.action.stats.NearDuplicateStatsResponse;
import org.nearduplicate.opensearch.ingest.WindowMemory;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.hamcrest.Matchers.containsString;

/** What the plugin wires, and that each plugin instance owns its engine (no state shared through statics). */
public class NearDuplicatePluginTests extends OpenSearchTestCase {

    private static Processor.Parameters parameters() {
        return new Processor.Parameters(null, null, null, null, () -> 0L, (delay, command) -> null, null, null, r -> {}, null);
    }

    public void testRegistersEveryExtension() {
        NearDuplicatePlugin plugin = new NearDuplicatePlugin(Settings.EMPTY);
        assertEquals(Set.of("simhash", "near_duplicate_check", "minhash", "imatch"), plugin.getProcessors(parameters()).keySet());
        assertEquals(Set.of("simhash", "minhash"), plugin.getMappers().keySet());
        assertEquals(
            Set.of("near_duplicate", "minhash_similar"),
            plugin.getQueries().stream().map(spec -> spec.getName().getPreferredName()).collect(Collectors.toSet())
        );
        assertEquals(
            List.of("near_duplicate", "minhash_similar"),
            plugin.getRescorers().stream().map(spec -> spec.getName().getPreferredName()).toList()
        );
        assertEquals(2, plugin.getFetchSubPhases(null).size());
        assertEquals(1, plugin.getActionFilters().size());
        Set<String> settings = plugin.getSettings().stream().map(Setting::getKey).collect(Collectors.toSet());
        assertEquals(
            Set.of(
                "near_duplicate.max_input_chars",
                "near_duplicate.max_features",
                "near_duplicate.breaker.limit",
                "near_duplicate.check.window_max_entries",
                "near_duplicate.check.window_max_bytes",
                "near_duplicate.scan_cache.size",
                "near_duplicate.scan_cache.share_passes",
                "near_duplicate.groups.threads"
            ),
            settings
        );
    }

    /** Every node setting of the plugin is dynamic, and a change reaches the engine, the breaker and the scan cache. */
    public void testDynamicSettingsAreHonoured() {
        NearDuplicatePlugin plugin = new NearDuplicatePlugin(Settings.EMPTY);
        for (Setting<?> setting : plugin.getSettings()) {
            assertTrue(setting.getKey() + " is dynamic", setting.isDynamic());
        }
        java.util.Set<Setting<?>> registered = new java.util.HashSet<>(
            org.opensearch.common.settings.ClusterSettings.BUILT_IN_CLUSTER_SETTINGS
        );
        registered.addAll(plugin.getSettings());
        var clusterSettings = new org.opensearch.common.settings.ClusterSettings(Settings.EMPTY, registered);
        var breaker = new org.opensearch.common.breaker.ChildMemoryCircuitBreaker(
            new org.opensearch.indices.breaker.BreakerSettings(
                "near_duplicate",
                1 << 20,
                1.0,
                org.opensearch.core.common.breaker.CircuitBreaker.Type.MEMORY,
                org.opensearch.core.common.breaker.CircuitBreaker.Durability.TRANSIENT
            ),
            logger,
            null,
            "near_duplicate"
        );
        plugin.setCircuitBreaker(breaker);
        plugin.honourDynamicSettings(clusterSettings);
        int versionBefore = plugin.sketching().limitsVersion();
        clusterSettings.applySettings(
            Settings.builder()
                .put("near_duplicate.max_input_chars", 123)
                .put("near_duplicate.max_features", 45)
                .put("near_duplicate.breaker.limit", "2kb")
                .put("near_duplicate.check.window_max_entries", 7)
                .put("near_duplicate.check.window_max_bytes", "5kb")
                .put("near_duplicate.scan_cache.size", "3kb")
                .put("near_duplicate.scan_cache.share_passes", false)
                .put("near_duplicate.groups.threads", 3)
                .build()
        );
        assertFalse(org.nearduplicate.lucene.BenchAccess.sharePasses(plugin.scanColumns()));
        var threads = org.nearduplicate.opensearch.action.groups.GroupsComputation.THREADS_SETTING;
        assertEquals(3, org.nearduplicate.opensearch.action.groups.GroupsComputation.threads(Settings.EMPTY, clusterSettings.get(threads)));
        assertEquals(123, plugin.sketching().maxInputChars());
        assertEquals(45, plugin.sketching().maxFeatures());
        assertNotEquals(versionBefore, plugin.sketching().limitsVersion());
        assertEquals(2048, breaker.getLimit());
        assertEquals(3072, plugin.scanColumns().maxBytes());
        assertEquals(7, plugin.recentWindows().maxEntries());
        assertEquals(5120, plugin.recentWindows().maxBytes());
        // an option left out takes the new node value; an explicit one above it is refused naming the setting
        assertEquals(123, plugin.sketching().simHashSettings(new HashMap<>()).maxInputChars());
        Map<String, Object> tooMuch = new HashMap<>(Map.of("max_input_chars", 124));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> plugin.sketching().simHashSettings(tooMuch));
        assertThat(e.getMessage(), containsString("near_duplicate.max_input_chars"));
        // back to the defaults: 0 threads is every allocated processor
        clusterSettings.applySettings(Settings.EMPTY);
        assertTrue(org.nearduplicate.lucene.BenchAccess.sharePasses(plugin.scanColumns()));
        assertEquals(0, clusterSettings.get(threads).intValue());
        assertEquals(
            org.opensearch.common.util.concurrent.OpenSearchExecutors.allocatedProcessors(Settings.EMPTY),
            org.nearduplicate.opensearch.action.groups.GroupsComputation.threads(Settings.EMPTY, clusterSettings.get(threads))
        );
        assertEquals(SketchingService.MAX_INPUT_CHARS_SETTING.getDefault(Settings.EMPTY).intValue(), plugin.sketching().maxInputChars());
        assertEquals(
            org.nearduplicate.opensearch.index.mapper.ScanColumnMemory.SIZE_SETTING.get(Settings.EMPTY).getBytes(),
            plugin.scanColumns().maxBytes()
        );
        assertEquals(200_000, plugin.recentWindows().maxEntries());
        assertEquals(WindowMemory.MAX_NODE_BYTES_SETTING.get(Settings.EMPTY).getBytes(), plugin.recentWindows().maxBytes());
    }

    /**
     * The recent windows are bounded in bytes by default: 5% of the heap, a share that leaves most of the 40% breaker to
     * the groups, the fingerprints and the bulk sets; and the node settings reach the windows.
     */
    public void testTheWindowsAreBoundedInBytesByDefault() {
        long heap = org.opensearch.monitor.jvm.JvmInfo.jvmInfo().getMem().getHeapMax().getBytes();
        long defaultBytes = WindowMemory.MAX_NODE_BYTES_SETTING.get(Settings.EMPTY).getBytes();
        assertEquals(heap / 20, defaultBytes, heap / 1000.0);
        assertTrue(defaultBytes < SketchingService.BREAKER_LIMIT_SETTING.get(Settings.EMPTY).getBytes() / 4);
        NearDuplicatePlugin plugin = new NearDuplicatePlugin(
            Settings.builder().put("near_duplicate.check.window_max_bytes", "1mb").put("near_duplicate.check.window_max_entries", 9).build()
        );
        assertEquals(1 << 20, plugin.recentWindows().maxBytes());
        assertEquals(9, plugin.recentWindows().maxEntries());
        Settings share = Settings.builder().put("near_duplicate.check.window_max_bytes", "10%").build();
        assertEquals(heap / 10, WindowMemory.MAX_NODE_BYTES_SETTING.get(share).getBytes(), heap / 1000.0);
        Settings negative = Settings.builder().put("near_duplicate.check.window_max_bytes", "-1").build();
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> WindowMemory.MAX_NODE_BYTES_SETTING.get(negative));
        assertThat(e.getMessage(), containsString("must be >= [0b]"));
    }

    /** GET _near_duplicate/stats shows each node's recent windows: count, entries, bytes and the node's bounds. */
    public void testTheStatsShowTheRecentWindows() throws Exception {
        NearDuplicatePlugin plugin = new NearDuplicatePlugin(
            Settings.builder().put("near_duplicate.check.window_max_bytes", "2mb").build()
        );
        var window = plugin.recentWindows().window("pages", "fp", 16, 1_000, 60_000);
        window.checkAndAdd(0x8f3a0c11d2e4b607L, "a");
        window.checkAndAdd(0x70c5f3ee2d1b49f8L, "b");
        NearDuplicateStats.Snapshot snapshot = plugin.sketching().stats().snapshot();
        assertEquals(1, snapshot.get(NearDuplicateStats.Stat.CHECK_WINDOWS));
        assertEquals(2, snapshot.get(NearDuplicateStats.Stat.CHECK_WINDOW_ENTRIES));
        assertEquals(2 * RecentFingerprints.entryBytes(16, "a"), snapshot.get(NearDuplicateStats.Stat.CHECK_WINDOW_BYTES));
        assertEquals(200_000, snapshot.get(NearDuplicateStats.Stat.CHECK_WINDOW_MAX_ENTRIES));
        assertEquals(2 << 20, snapshot.get(NearDuplicateStats.Stat.CHECK_WINDOW_MAX_BYTES));

        // across the wire (name/value pairs) and in the JSON answer, per node and in the total
        var node = new org.opensearch.cluster.node.DiscoveryNode("n1", buildNewFakeTransportAddress(), org.opensearch.Version.CURRENT);
        var sent = new NearDuplicateStatsNodeResponse(node, snapshot);
        var out = new org.opensearch.common.io.stream.BytesStreamOutput();
        sent.writeTo(out);
        var received = new NearDuplicateStatsNodeResponse(out.bytes().streamInput());
        assertEquals(snapshot, received.stats());
        var response = new NearDuplicateStatsResponse(new org.opensearch.cluster.ClusterName("c"), List.of(received), List.of());
        var json = org.opensearch.common.xcontent.XContentHelper.convertToMap(
            org.opensearch.core.xcontent.MediaTypeRegistry.JSON.xContent(),
            org.opensearch.core.common.Strings.toString(org.opensearch.core.xcontent.MediaTypeRegistry.JSON, response),
            true
        );
        Number entries = org.opensearch.core.xcontent.ObjectPath.eval("nodes.n1.check.windows.entries", json);
        Number maxBytes = org.opensearch.core.xcontent.ObjectPath.eval("total.check.windows.max_size_in_bytes", json);
        assertEquals(2, entries.longValue());
        assertEquals(2 << 20, maxBytes.longValue());
        plugin.close();
        assertEquals("closing the plugin empties the windows", 0, plugin.recentWindows().entryCount());
    }

    public void testBreakerTakesItsLimitFromTheNodeSettings() {
        long limit = randomLongBetween(1024, 1 << 30);
        NearDuplicatePlugin plugin = new NearDuplicatePlugin(Settings.EMPTY);
        var breaker = plugin.getCircuitBreaker(Settings.builder().put("near_duplicate.breaker.limit", limit + "b").build());
        assertEquals(SketchingService.BREAKER_NAME, breaker.getName());
        assertEquals(limit, breaker.getLimit());
    }

    public void testEachInstanceOwnsItsEngine() throws Exception {
        int smallLimit = randomIntBetween(10, 1000);
        NearDuplicatePlugin limited = new NearDuplicatePlugin(Settings.builder().put("near_duplicate.max_input_chars", smallLimit).build());
        NearDuplicatePlugin defaults = new NearDuplicatePlugin(Settings.EMPTY);
        assertNotSame(limited.sketching(), defaults.sketching());
        assertEquals(smallLimit, limited.sketching().maxInputChars());
        // a node limit of one plugin instance never leaks into another (the engine is not static state)
        assertEquals(SketchingService.MAX_INPUT_CHARS_SETTING.getDefault(Settings.EMPTY).intValue(), defaults.sketching().maxInputChars());
        for (String type : List.of("simhash", "minhash", "imatch")) {
            Map<String, Object> config = new HashMap<>(Map.of("field", "content", "max_input_chars", smallLimit + 1));
            Exception e = expectThrows(
                OpenSearchParseException.class,
                () -> limited.getProcessors(parameters()).get(type).create(Map.of(), "t", null, config)
            );
            assertThat(type, e.getMessage(), containsString("node limit [near_duplicate.max_input_chars] = " + smallLimit));
            Map<String, Object> accepted = new HashMap<>(Map.of("field", "content", "max_input_chars", smallLimit + 1));
            assertNotNull(defaults.getProcessors(parameters()).get(type).create(Map.of(), "t", null, accepted));
        }
    }
}
