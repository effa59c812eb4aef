package org.nearduplicate.opensearch;

import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.stats.NearDuplicateStats.Stat;
import org.nearduplicate.opensearch.action.stats.NearDuplicateStatsAction;
import org.nearduplicate.opensearch.action.stats.NearDuplicateStatsRequest;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * The check's recent windows on a real node: the node's scheduler sweeps them, so the entries of an idle window leave
 * and their bytes leave the {@code near_duplicate} breaker after {@code window_ttl}, with no further document; the
 * stats show it, and the node settings bound them.
 */
@ClusterScope(scope = Scope.TEST, numDataNodes = 1, supportsDedicatedMasters = false)
public class CheckWindowsClusterTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(NearDuplicatePlugin.class);
    }

    /** The sum of every node's stats (a bound is the sum of the nodes' bounds). */
    private NearDuplicateStats.Snapshot stats() throws Exception {
        return client().execute(NearDuplicateStatsAction.INSTANCE, new NearDuplicateStatsRequest()).get().total();
    }

    private int nodes() {
        return internalCluster().size();
    }

    public void testAnIdleWindowGivesItsBreakerBytesBackAfterItsTtl() throws Exception {
        assertAcked(
            prepareCreate("swept").setSettings(
                Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0).put("index.refresh_interval", "1s")
            ).setMapping("fp", "type=simhash")
        );
        ensureGreen("swept");
        String json = "{\"processors\": [{\"near_duplicate_check\": {\"field\": \"fp\", \"window_ttl\": \"5s\"}}]}";
        assertAcked(client().admin().cluster().preparePutPipeline("short-window", new BytesArray(json), XContentType.JSON).get());
        long breakerBefore = stats().get(Stat.BREAKER_USED);

        BulkRequestBuilder bulk = client().prepareBulk();
        for (int i = 0; i < 200; i++) {
            bulk.add(
                client().prepareIndex("swept").setId("d" + i).setSource("fp", Fingerprints.toHex(randomLong())).setPipeline("short-window")
            );
        }
        BulkResponse response = bulk.get();
        assertFalse(response.buildFailureMessage(), response.hasFailures());
        NearDuplicateStats.Snapshot held = stats();
        assertEquals("the window holds the documents for its window_ttl", 200, held.get(Stat.CHECK_WINDOW_ENTRIES));
        assertEquals(1, held.get(Stat.CHECK_WINDOWS));
        assertTrue(held.get(Stat.CHECK_WINDOW_BYTES) > 200 * 1_000L);
        assertTrue("the breaker holds them", held.get(Stat.BREAKER_USED) >= breakerBefore + held.get(Stat.CHECK_WINDOW_BYTES));
        assertEquals(200_000L * nodes(), held.get(Stat.CHECK_WINDOW_MAX_ENTRIES));
        assertTrue(held.get(Stat.CHECK_WINDOW_MAX_BYTES) > 0);

        // no document comes again: the node's sweep empties and forgets the window
        assertBusy(() -> {
            NearDuplicateStats.Snapshot after = stats();
            assertEquals(0, after.get(Stat.CHECK_WINDOW_ENTRIES));
            assertEquals(0, after.get(Stat.CHECK_WINDOW_BYTES));
            assertEquals(0, after.get(Stat.CHECK_WINDOWS));
        }, 60, TimeUnit.SECONDS);
        // (the searches of the check may have cached columns meanwhile: those stay)
        assertTrue(
            "every byte of the window is back in the breaker",
            stats().get(Stat.BREAKER_USED) <= held.get(Stat.BREAKER_USED) - held.get(Stat.CHECK_WINDOW_BYTES)
        );
    }

    public void testTheByteBoundIsANodeSettingTheStatsShow() throws Exception {
        assertAcked(
            client().admin()
                .cluster()
                .prepareUpdateSettings()
                .setPersistentSettings(
                    Settings.builder()
                        .put("near_duplicate.check.window_max_bytes", "64kb")
                        .put("near_duplicate.check.window_max_entries", 1_000)
                )
        );
        try {
            NearDuplicateStats.Snapshot s = stats();
            assertEquals(65_536L * nodes(), s.get(Stat.CHECK_WINDOW_MAX_BYTES));
            assertEquals(1_000L * nodes(), s.get(Stat.CHECK_WINDOW_MAX_ENTRIES));
        } finally {
            assertAcked(
                client().admin()
                    .cluster()
                    .prepareUpdateSettings()
                    .setPersistentSettings(
                        Settings.builder()
                            .putNull("near_duplicate.check.window_max_bytes")
                            .putNull("near_duplicate.check.window_max_entries")
                    )
            );
        }
    }
}
