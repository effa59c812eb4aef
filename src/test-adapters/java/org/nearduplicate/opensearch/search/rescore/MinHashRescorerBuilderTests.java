package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.opensearch.index.query.minhash.MinHashProbe;

import static org.hamcrest.Matchers.containsString;

/** Parsing, XContent and wire round trips and parse errors of the {@code minhash_similar} rescorer. */
public class MinHashRescorerBuilderTests extends PlatformTestCase {

    static MinHashRescorerBuilder randomBuilder() {
        int[] signature = new int[randomIntBetween(1, 8) * 16];
        for (int i = 0; i < signature.length; i++)
            signature[i] = randomInt();
        MinHashProbe probe = switch (randomIntBetween(0, 3)) {
            case 0 -> MinHashProbe.signature(MinHashSignatures.toBase64(signature), null);
            case 1 -> MinHashProbe.signature(MinHashSignatures.toBase64(signature), randomAlphaOfLength(6));
            case 2 -> MinHashProbe.like(randomAlphaOfLength(4), randomAlphaOfLength(3), randomBoolean() ? null : "r");
            default -> randomBoolean()
                ? MinHashProbe.text(randomAlphaOfLength(20))
                : MinHashProbe.html("<p>" + randomAlphaOfLength(5) + "</p>");
        };
        MinHashRescorerBuilder builder = new MinHashRescorerBuilder(randomAlphaOfLength(5), probe);
        if (randomBoolean()) builder.minSimilarity(randomDoubleBetween(0, 1, true));
        builder.scoreMode(randomFrom(RescoreScoreMode.values()));
        builder.queryWeight(randomFloat()).rescoreWeight(randomFloat());
        if (randomBoolean()) builder.windowSize(randomIntBetween(1, 500));
        return builder;
    }

    private MinHashRescorerBuilder parse(String json) throws IOException {
        try (XContentParser parser = jsonParser(json)) {
            parser.nextToken(); // START_OBJECT of the rescorer body
            return MinHashRescorerBuilder.fromXContent(parser);
        }
    }

    public void testXContentAndTransportRoundTrip() throws IOException {
        for (int i = 0; i < 50; i++) {
            MinHashRescorerBuilder original = randomBuilder();
            String json = json(original);
            try (XContentParser parser = jsonParser(json)) {
                parser.nextToken();
                parser.nextToken();
                if ("window_size".equals(parser.currentName())) {
                    parser.nextToken();
                    parser.nextToken();
                }
                assertEquals(MinHashRescorerBuilder.NAME, parser.currentName());
                parser.nextToken();
                MinHashRescorerBuilder parsed = MinHashRescorerBuilder.fromXContent(parser);
                if (original.windowSize() != null) parsed.windowSize(original.windowSize());
                assertEquals(original, parsed);
                assertEquals(original.hashCode(), parsed.hashCode());
            }
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                original.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    assertEquals(original, new MinHashRescorerBuilder(in));
                }
            }
        }
    }

    public void testParseErrors() {
        ParsingException mode = expectThrows(
            ParsingException.class,
            () -> parse("{\"field\": \"mh\", \"text\": \"a b\", \"score_mode\": \"max\"}")
        );
        assertThat(mode.getMessage(), containsString("[minhash_similar] [score_mode] must be one of [filter, closeness], got [max]"));
        ParsingException field = expectThrows(ParsingException.class, () -> parse("{\"text\": \"a b\"}"));
        assertThat(field.getMessage(), containsString("rescorer requires [field]"));
        ParsingException probe = expectThrows(ParsingException.class, () -> parse("{\"field\": \"mh\"}"));
        assertThat(probe.getMessage(), containsString("exactly one of [signature], [like], [text] or [html] is required, got none"));
        ParsingException two = expectThrows(
            ParsingException.class,
            () -> parse("{\"field\": \"mh\", \"text\": \"a\", \"like\": {\"_index\": \"i\", \"_id\": \"1\"}}")
        );
        assertThat(two.getMessage(), containsString("is required, got 2"));
        ParsingException similarity = expectThrows(
            ParsingException.class,
            () -> parse("{\"field\": \"mh\", \"text\": \"a\", \"min_similarity\": -1}")
        );
        assertThat(similarity.getMessage(), containsString("[minhash_similar] [min_similarity] must be between 0 and 1, got -1.0"));
        assertFalse(similarity.getMessage().contains("[minhash_similar] [minhash_similar]"));
        ParsingException base64 = expectThrows(ParsingException.class, () -> parse("{\"field\": \"mh\", \"signature\": \"%%%\"}"));
        assertThat(base64.getMessage(), containsString("not base64"));
        ParsingException unknown = expectThrows(ParsingException.class, () -> parse("{\"field\": \"mh\", \"text\": \"a\", \"window\": 3}"));
        assertThat(unknown.getMessage(), containsString("rescorer does not support [window]"));
        ParsingException like = expectThrows(ParsingException.class, () -> parse("{\"field\": \"mh\", \"like\": {\"_index\": \"i\"}}"));
        assertThat(like.getMessage(), containsString("[like] requires [_id]"));
    }

    /** The weights and the mode go through the parser both probe rescorers share: same values, same 400s. */
    public void testWeightsAndModeParseLikeTheNearDuplicateRescorer() throws IOException {
        for (String bad : new String[] { "\"abc\"", "true" }) {
            ParsingException e = expectThrows(
                ParsingException.class,
                () -> parse("{\"field\": \"mh\", \"text\": \"a b\", \"query_weight\": " + bad + "}")
            );
            assertThat(e.getMessage(), containsString("[minhash_similar] [query_weight] must be a number, got ["));
            ParsingException n = expectThrows(
                ParsingException.class,
                () -> parseNearDuplicate("{\"field\": \"fp\", \"fingerprint\": \"00000000000000ff\", \"rescore_weight\": " + bad + "}")
            );
            assertThat(n.getMessage(), containsString("[near_duplicate] [rescore_weight] must be a number, got ["));
        }
        MinHashRescorerBuilder parsed = parse(
            "{\"field\": \"mh\", \"text\": \"a b\", \"query_weight\": \"0.5\", \"rescore_weight\": 2, \"score_mode\": \"filter\"}"
        );
        assertEquals(0.5f, parsed.queryWeight(), 0f);
        assertEquals(2f, parsed.rescoreWeight(), 0f);
        assertEquals(RescoreScoreMode.FILTER, parsed.scoreMode());
    }

    private SimHashRescorerBuilder parseNearDuplicate(String json) throws IOException {
        try (XContentParser parser = jsonParser(json)) {
            parser.nextToken();
            return SimHashRescorerBuilder.fromXContent(parser);
        }
    }

    public void testDefaults() throws IOException {
        MinHashRescorerBuilder parsed = parse("{\"field\": \"mh\", \"like\": {\"_index\": \"pages\", \"_id\": \"7\"}}");
        assertEquals(0.4, parsed.minSimilarity(), 0);
        assertEquals(RescoreScoreMode.CLOSENESS, parsed.scoreMode());
        assertEquals(1f, parsed.queryWeight(), 0f);
        assertEquals(1f, parsed.rescoreWeight(), 0f);
        assertEquals("7", parsed.probe().like().id());
    }
}
