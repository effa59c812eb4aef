package org.nearduplicate.opensearch.action.groups;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;
import java.util.List;

/** Both groups requests cross the transport: every option survives the round trip, and the shared checks apply to both. */
public class GroupsRequestTests extends OpenSearchTestCase {

    public void testGroupsRequestRoundTrip() throws IOException {
        SimHashGroupsRequest request = new SimHashGroupsRequest("pages", "fp").maxDistance(randomBoolean() ? null : 12)
            .size(randomIntBetween(0, 10_000))
            .after(randomBoolean() ? null : "00000000000000ff")
            .maxMembers(randomIntBetween(1, 10_000))
            .minSimilarity(randomBoolean() ? null : 0.5)
            .mode(randomFrom(org.nearduplicate.core.groups.GroupMembers.Mode.values()));
        SimHashGroupsRequest copy = new SimHashGroupsRequest(streamOf(request));
        assertEquals(request.minSimilarity(), copy.minSimilarity());
        assertEquals(request.index(), copy.index());
        assertEquals(request.field(), copy.field());
        assertEquals(request.maxDistance(), copy.maxDistance());
        assertEquals(request.size(), copy.size());
        assertEquals(request.after(), copy.after());
        assertEquals(request.maxMembers(), copy.maxMembers());
        assertEquals(request.mode(), copy.mode());
        assertEquals(request.getDescription(), copy.getDescription());
        assertNull(copy.validate());
    }

    public void testWriteRequestRoundTrip() throws IOException {
        SimHashGroupsWriteRequest request = new SimHashGroupsWriteRequest("pages", randomBoolean() ? null : "fp").maxDistance(
            randomBoolean() ? null : 15
        )
            .groupField("group")
            .distanceField("distance")
            .batchSize(randomIntBetween(1, 10_000))
            .requestsPerSecond(randomBoolean() ? -1 : 250f)
            .minSimilarity(randomBoolean() ? null : 0.25)
            .mode(randomFrom(org.nearduplicate.core.groups.GroupMembers.Mode.values()))
            .refresh(randomBoolean());
        SimHashGroupsWriteRequest copy = new SimHashGroupsWriteRequest(streamOf(request));
        assertEquals(request.minSimilarity(), copy.minSimilarity());
        assertEquals(request.index(), copy.index());
        assertEquals(request.field(), copy.field());
        assertEquals(request.maxDistance(), copy.maxDistance());
        assertEquals("group", copy.groupField());
        assertEquals("distance", copy.distanceField());
        assertEquals(request.batchSize(), copy.batchSize());
        assertEquals(request.requestsPerSecond(), copy.requestsPerSecond(), 0f);
        assertEquals(request.mode(), copy.mode());
        assertEquals(request.refresh(), copy.refresh());
        assertEquals(request.getDescription(), copy.getDescription());
        assertFalse(copy.validateOnly());
        SimHashGroupsWriteRequest check = new SimHashGroupsWriteRequest(streamOf(request.validationOnly()));
        assertTrue(check.validateOnly());
        assertEquals(request.groupField(), check.groupField());
        assertEquals(request.batchSize(), check.batchSize());
        assertEquals(request.mode(), check.mode());
        assertEquals(request.minSimilarity(), check.minSimilarity());
    }

    /** {@code min_similarity}: a number (or a string of one) from 0 to 1, in both bodies; anything else refused. */
    public void testMinSimilarity() throws IOException {
        assertEquals(
            Double.valueOf(0.4),
            SimHashGroupsRequest.fromXContent("pages", parser("{\"field\": \"fp\", \"min_similarity\": 0.4}")).minSimilarity()
        );
        assertEquals(
            Double.valueOf(0.6),
            SimHashGroupsWriteRequest.fromXContent("pages", parser("{\"min_similarity\": \"0.6\"}")).minSimilarity()
        );
        assertNull(SimHashGroupsRequest.fromXContent("pages", parser("{\"field\": \"fp\"}")).minSimilarity());
        for (String bad : List.of("1.5", "-0.1", "\"x\"")) {
            IllegalArgumentException e = expectThrows(
                IllegalArgumentException.class,
                () -> SimHashGroupsRequest.fromXContent("pages", parser("{\"min_similarity\": " + bad + "}"))
            );
            assertThat(e.getMessage(), org.hamcrest.Matchers.containsString("[min_similarity]"));
        }
        assertThat(
            new SimHashGroupsWriteRequest("pages", "fp").minSimilarity(2.0).validate().getMessage(),
            org.hamcrest.Matchers.containsString("[min_similarity] must be between 0 and 1")
        );
    }

    /** {@code mode}: representative by default, components on request, anything else refused. */
    public void testMode() throws IOException {
        assertEquals(org.nearduplicate.core.groups.GroupMembers.Mode.REPRESENTATIVE, new SimHashGroupsRequest("pages", "fp").mode());
        assertEquals(org.nearduplicate.core.groups.GroupMembers.Mode.REPRESENTATIVE, new SimHashGroupsWriteRequest("pages", "fp").mode());
        String body = "{\"field\": \"fp\", \"mode\": \"components\"}";
        try (org.opensearch.core.xcontent.XContentParser parser = parser(body)) {
            assertEquals(
                org.nearduplicate.core.groups.GroupMembers.Mode.COMPONENTS,
                SimHashGroupsRequest.fromXContent("pages", parser).mode()
            );
        }
        try (org.opensearch.core.xcontent.XContentParser parser = parser(body)) {
            assertEquals(
                org.nearduplicate.core.groups.GroupMembers.Mode.COMPONENTS,
                SimHashGroupsWriteRequest.fromXContent("pages", parser).mode()
            );
        }
        try (org.opensearch.core.xcontent.XContentParser parser = parser("{\"field\": \"fp\", \"mode\": \"chains\"}")) {
            IllegalArgumentException e = expectThrows(
                IllegalArgumentException.class,
                () -> SimHashGroupsRequest.fromXContent("pages", parser)
            );
            assertEquals("[mode] must be [representative] or [components], got [chains]", e.getMessage());
        }
    }

    private static org.opensearch.core.xcontent.XContentParser parser(String body) throws IOException {
        return org.opensearch.common.xcontent.json.JsonXContent.jsonXContent.createParser(
            org.opensearch.core.xcontent.NamedXContentRegistry.EMPTY,
            org.opensearch.core.xcontent.DeprecationHandler.THROW_UNSUPPORTED_OPERATION,
            body
        );
    }

    public void testSharedChecks() {
        for (GroupsRequest<?> request : new GroupsRequest<?>[] {
            new SimHashGroupsRequest("", null).maxDistance(65),
            new SimHashGroupsWriteRequest("", null).maxDistance(65) }) {
            String message = request.validate().getMessage();
            assertTrue(message, message.contains("an index is required"));
            assertTrue(message, message.contains("[field] is required"));
            assertTrue(message, message.contains("[max_distance] must be between 0 and 64, got 65"));
        }
        assertTrue(new SimHashGroupsRequest("pages", "fp").size(-1).validate().getMessage().contains("[size]"));
        assertTrue(
            new SimHashGroupsWriteRequest("pages", "fp").groupField("fp").validate().getMessage().contains("must differ from [field]")
        );
    }

    private static StreamInput streamOf(org.opensearch.core.common.io.stream.Writeable request) throws IOException {
        BytesStreamOutput out = new BytesStreamOutput();
        request.writeTo(out);
        return out.bytes().streamInput();
    }

    /** One rule for numbers in every body: {@code "size": "10"} is read like {@code "max_distance": "10"}. */
    public void testNumbersAsStringsLikeEveryOption() throws IOException {
        String body = "{\"field\": \"fp\", \"max_distance\": \"10\", \"size\": \"10\", \"max_members\": \"7\"}";
        try (
            org.opensearch.core.xcontent.XContentParser parser = org.opensearch.common.xcontent.json.JsonXContent.jsonXContent.createParser(
                org.opensearch.core.xcontent.NamedXContentRegistry.EMPTY,
                org.opensearch.core.xcontent.DeprecationHandler.THROW_UNSUPPORTED_OPERATION,
                body
            )
        ) {
            SimHashGroupsRequest request = SimHashGroupsRequest.fromXContent("pages", parser);
            assertEquals(Integer.valueOf(10), request.maxDistance());
            assertEquals(10, request.size());
            assertEquals(7, request.maxMembers());
        }
        String write = "{\"field\": \"fp\", \"batch_size\": \"50\"}";
        try (
            org.opensearch.core.xcontent.XContentParser parser = org.opensearch.common.xcontent.json.JsonXContent.jsonXContent.createParser(
                org.opensearch.core.xcontent.NamedXContentRegistry.EMPTY,
                org.opensearch.core.xcontent.DeprecationHandler.THROW_UNSUPPORTED_OPERATION,
                write
            )
        ) {
            assertEquals(50, SimHashGroupsWriteRequest.fromXContent("pages", parser).batchSize());
        }
    }
}
