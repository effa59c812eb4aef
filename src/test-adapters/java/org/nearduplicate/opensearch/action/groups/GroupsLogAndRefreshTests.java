package org.nearduplicate.opensearch.action.groups;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.index.shard.ShardId;

import java.io.IOException;
import java.util.List;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.HammingGroups;
import org.nearduplicate.orchestration.groups.GroupsPage;
import org.nearduplicate.orchestration.groups.RunSummary;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * {@code _write}'s {@code refresh} (the parameter, the request's wire format, the answer's refresh outcome in JSON and
 * on the wire) and what a log line shows of the groups requests and responses (not {@code Name@hash}). Runs on both
 * platforms.
 */
public class GroupsLogAndRefreshTests extends PlatformTestCase {

    public void testRefreshTakesTheValuesOfUpdateByQuery() {
        assertFalse(SimHashGroupsWriteRequest.parseRefresh(null));
        assertFalse(SimHashGroupsWriteRequest.parseRefresh("false"));
        assertTrue(SimHashGroupsWriteRequest.parseRefresh("true"));
        assertTrue(SimHashGroupsWriteRequest.parseRefresh("")); // a bare ?refresh
        IllegalArgumentException waitFor = expectThrows(
            IllegalArgumentException.class,
            () -> SimHashGroupsWriteRequest.parseRefresh("wait_for")
        );
        assertThat(waitFor.getMessage(), containsString("[refresh] must be [true] or [false] (or empty, meaning true), got [wait_for]"));
        assertThat(waitFor.getMessage(), containsString("[wait_for] is not supported"));
        IllegalArgumentException other = expectThrows(IllegalArgumentException.class, () -> SimHashGroupsWriteRequest.parseRefresh("yes"));
        assertThat(other.getMessage(), containsString("got [yes]"));
        assertThat(other.getMessage(), not(containsString("wait_for")));
    }

    public void testWriteRequestCarriesRefresh() throws IOException {
        boolean refresh = randomBoolean();
        SimHashGroupsWriteRequest request = new SimHashGroupsWriteRequest("pages", "fp").maxDistance(3).refresh(refresh);
        SimHashGroupsWriteRequest copy = roundTrip(request, SimHashGroupsWriteRequest::new);
        assertEquals(refresh, copy.refresh());
        assertEquals(Integer.valueOf(3), copy.maxDistance());
        assertEquals(refresh, request.validationOnly().refresh());
        assertEquals(request.getDescription(), copy.getDescription());
        assertEquals(refresh, copy.getDescription().endsWith(" refresh"));
        assertFalse(new SimHashGroupsWriteRequest("pages", "fp").refresh()); // the default, as _update_by_query's
    }

    public void testAnswerReportsTheRefresh() throws IOException {
        SimHashGroupsWriteResponse written = response(List.of());
        // not asked: the answer is the one of 0.8.0, without refresh fields
        assertThat(json(written), not(containsString("refresh")));
        SimHashGroupsWriteResponse refreshed = written.withRefresh(SimHashGroupsWriteResponse.Refresh.done());
        assertThat(json(refreshed), containsString("\"refreshed\":true"));
        assertThat(json(refreshed), not(containsString("refresh_failures")));
        SimHashGroupsWriteResponse failed = written.withRefresh(
            SimHashGroupsWriteResponse.Refresh.failed(List.of("[pages][1] shard is closed"))
        );
        assertThat(json(failed), containsString("\"refreshed\":false,\"refresh_failures\":[\"[pages][1] shard is closed\"]"));
        assertEquals(4L, failed.written()); // the writes stand: a failed refresh only says they may not be visible yet
        for (SimHashGroupsWriteResponse response : List.of(written, refreshed, failed)) {
            SimHashGroupsWriteResponse copy = roundTrip(response, SimHashGroupsWriteResponse::new);
            assertEquals(json(response), json(copy));
            assertEquals(response.refresh(), copy.refresh());
        }
    }

    public void testWriteAnswerInTheLogShowsItsCounts() {
        SimHashGroupsWriteResponse response = response(List.of()).withRefresh(SimHashGroupsWriteResponse.Refresh.done());
        assertEquals(
            "SimHashGroupsWriteResponse[index=pages, field=fp, max_distance=3, took=12ms, docs_scanned=5, groups=2, docs_in_groups=4, "
                + "written=4, noops=0, cleared=0, singletons=1, batches=1, throttled_millis=0, failed=0, refreshed=true]",
            response.toString()
        );
        List<String> failures = List.of("[a] one", "[b] two", "[c] three", "[d] four", "[e] five");
        String many = response(failures).toString();
        assertThat(many, containsString("failed=5, failures=[[a] one, [b] two, [c] three] and 2 more]"));
        assertThat(many, not(containsString("four")));
    }

    public void testGroupsAnswerInTheLogShowsItsCountsNotItsPage() {
        GroupsPage.Group group = new GroupsPage.Group(
            "a",
            2,
            1,
            List.of(new GroupMembers.Member("a", null, 1L, 0), new GroupMembers.Member("b", null, 3L, 1))
        );
        SimHashGroupsResponse response = new SimHashGroupsResponse(
            new RunSummary("pages", "fp", 3, 0.4, "simhash-v6", 7, 5),
            3,
            1,
            1,
            2,
            new HammingGroups.Plan(4, 1, 4, 16, 10.0),
            List.of(group),
            "a"
        );
        assertEquals(
            "SimHashGroupsResponse[index=pages, field=fp, max_distance=3, min_similarity=0.4, took=7ms, docs_scanned=5, "
                + "candidate_pairs=3, verified_pairs=1, groups=1, docs_in_groups=2, page=1 groups, next_after=a]",
            response.toString()
        );
    }

    public void testRequestsInTheLogShowWhatTheyAsk() {
        SimHashGroupsWriteRequest write = new SimHashGroupsWriteRequest("pages", "fp").maxDistance(3).refresh(true);
        assertEquals(
            "near_duplicate groups write index[pages] field[fp] max_distance[3] mode[representative] group_field[duplicate_group] "
                + "distance_field[duplicate_distance] refresh",
            write.toString()
        );
        assertEquals(new SimHashGroupsRequest("pages", "fp").getDescription(), new SimHashGroupsRequest("pages", "fp").toString());
        ShardId shard = new ShardId("pages", "_na_", 1);
        assertEquals(
            "near_duplicate shard fingerprints [pages][1] field[fp] pass[fingerprints]",
            new SimHashShardFingerprintsRequest(shard, "fp", null, null).toString()
        );
        assertEquals(
            "near_duplicate shard fingerprints [pages][1] field[fp] pass[members of 2 fingerprints with [duplicate_group]]",
            new SimHashShardFingerprintsRequest(shard, "fp", new long[] { 1, 2 }, null, "duplicate_group", "duplicate_distance").toString()
        );
        assertEquals(
            "near_duplicate shard fingerprints [pages][1] field[fp] pass[singletons of 2 units, _seq_no[0..-1] limit[100]]",
            new SimHashShardFingerprintsRequest(
                shard,
                "fp",
                new long[] { 1, 2 },
                null,
                "duplicate_group",
                "duplicate_distance",
                0,
                -1,
                100,
                null
            ).toString()
        );
    }

    private static SimHashGroupsWriteResponse response(List<String> failures) {
        return new SimHashGroupsWriteResponse(
            new RunSummary("pages", "fp", 3, Double.NaN, "simhash-v6", 12, 5),
            2,
            4,
            4,
            0,
            0,
            1,
            1,
            0,
            failures.size(),
            failures
        );
    }

    private interface Reader<T> {
        T read(StreamInput in) throws IOException;
    }

    private static <T extends Writeable> T roundTrip(T value, Reader<T> reader) throws IOException {
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            value.writeTo(out);
            try (StreamInput in = out.bytes().streamInput()) {
                T copy = reader.read(in);
                assertEquals("every byte read", 0, in.available());
                return copy;
            }
        }
    }
}
