package org.nearduplicate.bench;

import java.math.BigInteger;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.PlatformTestCase;

/** The node benchmarks' shared harness and command lines, without a node. */
public class BenchHarnessTests extends PlatformTestCase {

    public void testJsonReadsWhatTheNodeAnswers() {
        Map<?, ?> m = Json.map(
            "{\"a\":1,\"b\":-2.5e3,\"c\":\"x\\\"\\n\\u00e9\",\"d\":[true,false,null],\"e\":{},\"f\":[],\"g\":123456789012345678901234}"
        );
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g"), new ArrayList<>(m.keySet()));
        assertEquals(1L, m.get("a"));
        assertEquals(-2500.0, m.get("b"));
        assertEquals("x\"\né", m.get("c"));
        assertEquals(java.util.Arrays.asList(true, false, null), m.get("d"));
        assertEquals(Map.of(), m.get("e"));
        assertEquals(List.of(), m.get("f"));
        assertEquals(new BigInteger("123456789012345678901234"), m.get("g"));
        assertEquals(1, Json.num(m, "a"));
        assertEquals(0, Json.num(m, "missing"));
        assertEquals(0, Json.num(null, "a"));
    }

    public void testJsonPathAndRoundTrip() {
        Map<?, ?> m = Json.map("{\"_all\":{\"primaries\":{\"segments\":{\"count\":3}}}}");
        assertEquals(3, Json.num(Json.at(m, "_all", "primaries", "segments"), "count"));
        assertNull(Json.at(m, "_all", "nope", "segments"));
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("s", "q\"\\\t");
        o.put("n", 7L);
        o.put("d", 1.5);
        o.put("l", List.of(1L, "two", Map.of("k", false)));
        o.put("z", null);
        String json = Json.write(o);
        assertEquals("{\"s\":\"q\\\"\\\\\\t\",\"n\":7,\"d\":1.5,\"l\":[1,\"two\",{\"k\":false}],\"z\":null}", json);
        assertEquals(o, Json.parse(json));
    }

    public void testReportFormats() {
        assertEquals("n/a", Report.f(Double.NaN));
        assertEquals("123", Report.f(123.4));
        assertEquals("12.3", Report.f(12.34));
        assertEquals("1.23", Report.f(1.234));
        assertEquals("0.123", Report.f(0.1234));
        assertEquals("2.00 MB", Report.mb(2 * 1048576L));
        assertEquals("n/a", Report.mb(-1));
        assertEquals("150 s", Report.secs(150_000));
        assertEquals("99.0 ms", Report.secs(99));
        long[] sorted = { 1_000_000, 2_000_000, 3_000_000, 4_000_000 };
        assertEquals(2.0, Report.pct(sorted, 50), 0);
        assertEquals(4.0, Report.pct(sorted, 99), 0);
        assertEquals(1.0, Report.pct(sorted, 0), 0);
        assertEquals("000000000000002a", Report.hex(42));
    }

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

    public void testGroupsConfigSignedDefaults() {
        GroupsConfig c = GroupsConfig.parse(new String[] { "--signed", "--docs", "1000" });
        assertArrayEquals(new int[] { GroupsBench.SIGNED_K }, c.ks());
        assertEquals(0.10, c.clusterShare(), 0);
        assertEquals("groupssigned1000_1s", c.index());
        c = GroupsConfig.parse(new String[] { "--signed", "--cluster-share", "0.2", "--shards", "3" });
        assertEquals(0.2, c.clusterShare(), 0);
        assertEquals("groupssigned1000000_3s", c.index());
        c = GroupsConfig.parse(new String[0]);
        assertArrayEquals(new int[] { 3, 8 }, c.ks());
        assertEquals(0.01, c.clusterShare(), 0);
        assertEquals("RESULTS-groups.md", c.resultsName());
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

    public void testClusterDataMembersAreNearTheirCenter() {
        ClusterData data = new ClusterData(100_000, 42, 0.01);
        assertTrue(data.clusters > 0);
        for (long cl = 0; cl < Math.min(20, data.clusters); cl++) {
            long first = cl * data.stride;
            for (int m = 0; m < data.size(cl); m++)
                assertTrue(Long.bitCount(data.fp(first + m) ^ data.center(cl)) <= 8);
        }
    }
}
