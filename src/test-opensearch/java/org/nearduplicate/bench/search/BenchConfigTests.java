package org.nearduplicate.bench.search;

import java.nio.file.Paths;
import java.util.Set;

import org.nearduplicate.PlatformTestCase;

/** Bench's command line and synthetic data, without a node. */
public class BenchConfigTests extends PlatformTestCase {

    public void testBenchConfigDefaults() {
        BenchConfig c = BenchConfig.parse(new String[0]);
        assertEquals("http://127.0.0.1:9400", c.url());
        assertEquals(1_000_000, c.docs());
        assertEquals("bench1000000_", c.index());
        assertEquals("RESULTS.md", c.resultsName());
        assertNull(c.onlyReps());
        assertNull(c.ks());
        assertEquals(Paths.get("bench/results"), c.outDir());
        assertEquals("RESULTS-10M.md", BenchConfig.parse(new String[] { "--docs", "10000000" }).resultsName());
    }

    public void testBenchConfigKsLoadsTheForcedScanIndex() {
        BenchConfig c = BenchConfig.parse(new String[] { "--ks", "0, 3,16", "--docs", "5000", "--results", "R.md" });
        assertArrayEquals(new int[] { 0, 3, 16 }, c.ks());
        assertEquals(Set.of("base", "fp", "long", "fpscan"), c.onlyReps());
        assertEquals("R.md", c.resultsName());
        c = BenchConfig.parse(new String[] { "--ks", "3", "--scan-queries", "0", "--reps", "fp" });
        assertEquals(Set.of("base", "fp"), c.onlyReps());
        expectThrows(IllegalArgumentException.class, () -> BenchConfig.parse(new String[] { "--bogus" }));
        expectThrows(IllegalArgumentException.class, () -> BenchConfig.parse(new String[] { "--docs" }));
    }

    public void testSyntheticDataPlantsNeighboursAtTheirDistance() {
        SyntheticData data = new SyntheticData(100_000, 50, 42);
        for (int p = 0; p < 50; p++) {
            for (int d = 0; d < SyntheticData.PLANT; d++) {
                long id = ((long) p * SyntheticData.PLANT + d) * data.stride;
                assertEquals((long) p * SyntheticData.PLANT + d, data.planted(id));
                assertEquals(d, Long.bitCount(data.fp(id) ^ data.probeFp[p]));
            }
            assertEquals(4, data.expected(p, 3).size());
            assertEquals(SyntheticData.IM_COPIES, data.imExpected(p).size());
        }
        assertEquals(-1, data.planted(1));
        // the same seed, the same data
        assertEquals(data.fp(12345), new SyntheticData(100_000, 50, 42).fp(12345));
        assertArrayEquals(data.mhSig(data.stride), new SyntheticData(100_000, 50, 42).mhSig(data.stride));
    }
}
