package org.nearduplicate.bench.groups;

import org.nearduplicate.PlatformTestCase;

/** GroupsBench's command line and data, without a node. */
public class GroupsConfigTests extends PlatformTestCase {

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
