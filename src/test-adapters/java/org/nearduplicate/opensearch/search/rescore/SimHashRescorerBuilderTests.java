package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashRescoring;

import static org.hamcrest.Matchers.containsString;

public class SimHashRescorerBuilderTests extends PlatformTestCase {

    static SimHashRescorerBuilder randomBuilder() {
        SimHashProbe probe = switch (randomIntBetween(0, 3)) {
            case 0 -> SimHashProbe.fingerprint(randomLong());
            case 1 -> SimHashProbe.fingerprint(randomLong(), randomAlphaOfLength(6));
            case 2 -> SimHashProbe.like(randomAlphaOfLength(4), randomAlphaOfLength(3), randomBoolean() ? null : "r");
            default -> randomBoolean()
                ? SimHashProbe.text(randomAlphaOfLength(20))
                : SimHashProbe.html("<p>" + randomAlphaOfLength(5) + "</p>");
        };
        SimHashRescorerBuilder builder = new SimHashRescorerBuilder(randomAlphaOfLength(5), probe);
        if (randomBoolean()) builder.maxDistance(randomIntBetween(0, 64));
        builder.scoreMode(randomFrom(RescoreScoreMode.values()));
        builder.queryWeight(randomFloat()).rescoreWeight(randomFloat());
        if (randomBoolean()) builder.windowSize(randomIntBetween(1, 500));
        return builder;
    }

    private SimHashRescorerBuilder parse(String json) throws IOException {
        try (XContentParser parser = jsonParser(json)) {
            parser.nextToken(); // START_OBJECT of the rescorer body
            return SimHashRescorerBuilder.fromXContent(parser);
        }
    }

    public void testXContentAndTransportRoundTrip() throws IOException {
        for (int i = 0; i < 50; i++) {
            SimHashRescorerBuilder original = randomBuilder();
            // XContent: the body inside {"near_duplicate": {...}}
            String json = json(original);
            try (XContentParser parser = jsonParser(json)) {
                parser.nextToken();
                parser.nextToken();
                if ("window_size".equals(parser.currentName())) {
                    parser.nextToken();
                    parser.nextToken();
                }
                assertEquals(SimHashRescorerBuilder.NAME, parser.currentName());
                parser.nextToken();
                SimHashRescorerBuilder parsed = SimHashRescorerBuilder.fromXContent(parser);
                if (original.windowSize() != null) parsed.windowSize(original.windowSize());
                assertEquals(original, parsed);
                assertEquals(original.hashCode(), parsed.hashCode());
            }
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                original.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    SimHashRescorerBuilder read = new SimHashRescorerBuilder(in);
                    assertEquals(original, read);
                }
            }
        }
    }

    public void testParseErrors() {
        ParsingException mode = expectThrows(
            ParsingException.class,
            () -> parse("{\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"score_mode\": \"max\"}")
        );
        assertThat(mode.getMessage(), containsString("[score_mode] must be one of [filter, closeness], got [max]"));
        ParsingException field = expectThrows(ParsingException.class, () -> parse("{\"fingerprint\": \"00000000000000ff\"}"));
        assertThat(field.getMessage(), containsString("rescorer requires [field]"));
        ParsingException probe = expectThrows(ParsingException.class, () -> parse("{\"field\": \"fp\"}"));
        assertThat(
            probe.getMessage(),
            containsString("exactly one of [fingerprint], [fingerprints], [like], [text] or [html] is required")
        );
        ParsingException unknown = expectThrows(
            ParsingException.class,
            () -> parse("{\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"window\": 3}")
        );
        assertThat(unknown.getMessage(), containsString("rescorer does not support [window]"));
        // issue 23: an explicit null names max_distance's values; non-ASCII digits are no hex digits
        ParsingException nullDistance = expectThrows(
            ParsingException.class,
            () -> parse("{\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"max_distance\": null}")
        );
        assertThat(
            nullDistance.getMessage(),
            containsString("[near_duplicate] [max_distance] must be an integer between 0 and 64, got [null]")
        );
        ParsingException fullwidth = expectThrows(
            ParsingException.class,
            () -> parse("{\"field\": \"fp\", \"fingerprint\": \"\uff18\uff14eac0c067c7944a\"}")
        );
        assertThat(fullwidth.getMessage(), containsString("[\uff18] is not a hex digit"));
    }

    public void testDefaults() throws IOException {
        SimHashRescorerBuilder parsed = parse("{\"field\": \"fp\", \"fingerprint\": 255}");
        assertNull(parsed.maxDistance());
        assertEquals(RescoreScoreMode.CLOSENESS, parsed.scoreMode());
        assertEquals(1f, parsed.queryWeight(), 0f);
        assertEquals(1f, parsed.rescoreWeight(), 0f);
        assertEquals(Long.valueOf(255), parsed.probe().fingerprint());
    }

    /** A method without a builder class of its own: the generic builder reads and renders the same bytes and JSON. */
    public void testGenericBuilderIsWireAndJsonCompatible() throws IOException {
        for (int i = 0; i < 20; i++) {
            SimHashRescorerBuilder original = randomBuilder();
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                original.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    ProbeRescorerBuilder.Of<SimHashProbe, Integer> read = new ProbeRescorerBuilder.Of<>(SimHashRescoring.INSTANCE, in);
                    assertEquals(original.maxDistance(), read.threshold());
                    assertEquals(json(original), json(read));
                    try (BytesStreamOutput again = new BytesStreamOutput()) {
                        read.writeTo(again);
                        assertEquals(out.bytes(), again.bytes());
                    }
                }
            }
        }
    }
}
