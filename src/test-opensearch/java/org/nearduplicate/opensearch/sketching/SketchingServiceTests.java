package org.nearduplicate.opensearch.sketching;

import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.indices.breaker.CircuitBreakerService;
import org.opensearch.indices.breaker.BreakerSettings;
import org.opensearch.indices.breaker.HierarchyCircuitBreakerService;
import org.opensearch.test.OpenSearchTestCase;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.ImatchSettings;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.ImatchHasher;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.core.sketch.SimHasher;

import static org.hamcrest.Matchers.containsString;

/** The gateway applies the node's limits and the breaker to every method, and computes what the engine computes. */
public class SketchingServiceTests extends OpenSearchTestCase {
    private static final String PAGE = "<html><body><main><p>The old harbor bridge reopened to traffic after two years of repairs, "
        + "the city said on Monday.</p><p>Engineers replaced the deck and repainted the towers.</p></main></body></html>";

    private static SketchingService sketching(int maxChars, int maxFeatures) {
        return new SketchingService(
            Settings.builder().put("near_duplicate.max_input_chars", maxChars).put("near_duplicate.max_features", maxFeatures).build()
        );
    }

    public void testEveryMethodComputesWhatTheEngineComputes() {
        SketchingService sketching = new SketchingService();
        assertEquals(
            new SimHasher(SimHashSettings.DEFAULT).sketch(PAGE),
            sketching.simHash(sketching.simHashSettings(new HashMap<>()), PAGE)
        );
        assertArrayEquals(
            new MinHasher(MinHashSettings.DEFAULT).signature(PAGE),
            sketching.minHash(sketching.minHashSettings(new HashMap<>()), PAGE)
        );
        ImatchHasher.Keys expected = new ImatchHasher(ImatchSettings.DEFAULT).keys(PAGE);
        ImatchHasher.Keys actual = sketching.iMatch(sketching.iMatchSettings(new HashMap<>()), PAGE);
        assertEquals(expected.imatch(), actual.imatch());
        assertEquals(expected.text(), actual.text());
    }

    public void testNodeLimitsApplyToEveryMethod() {
        int maxChars = randomIntBetween(50, PAGE.length() - 1);
        SketchingService sketching = sketching(maxChars, randomIntBetween(1, 1000));
        // absent limits take the node's; too long input is rejected by every method
        SimHashSettings simhash = sketching.simHashSettings(new HashMap<>());
        MinHashSettings minhash = sketching.minHashSettings(new HashMap<>());
        ImatchSettings imatch = sketching.iMatchSettings(new HashMap<>());
        assertEquals(maxChars, simhash.maxInputChars());
        assertEquals(maxChars, minhash.features().maxInputChars());
        assertEquals(maxChars, imatch.maxInputChars());
        assertEquals(sketching.maxFeatures(), minhash.features().maxFeatures());
        assertEquals(sketching.maxFeatures(), imatch.maxFeatures());
        for (Runnable run : List.<Runnable>of(
            () -> sketching.simHash(simhash, PAGE),
            () -> sketching.minHash(minhash, PAGE),
            () -> sketching.iMatch(imatch, PAGE),
            () -> sketching.simHashProbe(SimHashSettings.DEFAULT.algorithmId(), PAGE, SketchingService.ProbeContent.HTML),
            () -> sketching.minHashProbe(MinHashSettings.DEFAULT.algorithmId(), PAGE, SketchingService.ProbeContent.HTML)
        )) {
            EngineInputException e = expectThrows(EngineInputException.class, run::run);
            assertThat(e.getMessage(), containsString("more than [max_input_chars] = " + maxChars));
        }
        // an explicit limit above the node's is refused for every method, naming the node setting
        for (var parse : List.<java.util.function.Consumer<Map<String, Object>>>of(
            sketching::simHashSettings,
            sketching::minHashSettings,
            sketching::iMatchSettings
        )) {
            Map<String, Object> options = new HashMap<>(Map.of("max_input_chars", maxChars + 1));
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse.accept(options));
            assertThat(e.getMessage(), containsString("[near_duplicate.max_input_chars] = " + maxChars));
        }
    }

    public void testMaxFeaturesApplyToMinHashAndIMatch() {
        SketchingService sketching = sketching(1_000_000, 3);
        for (Runnable run : List.<Runnable>of(
            () -> sketching.minHash(sketching.minHashSettings(new HashMap<>()), PAGE),
            () -> sketching.iMatch(sketching.iMatchSettings(new HashMap<>()), PAGE),
            () -> sketching.simHash(sketching.simHashSettings(new HashMap<>()), PAGE)
        )) {
            EngineInputException e = expectThrows(EngineInputException.class, run::run);
            assertThat(e.getMessage(), containsString("[max_features] = 3"));
        }
    }

    public void testBreakerGuardsEveryMethodAndIsReleased() {
        CircuitBreakerService service = new HierarchyCircuitBreakerService(
            Settings.EMPTY,
            List.of(
                new BreakerSettings(
                    SketchingService.BREAKER_NAME,
                    4096L,
                    1.0,
                    CircuitBreaker.Type.MEMORY,
                    CircuitBreaker.Durability.TRANSIENT
                )
            ),
            new ClusterSettings(Settings.EMPTY, ClusterSettings.BUILT_IN_CLUSTER_SETTINGS)
        );
        CircuitBreaker breaker = service.getBreaker(SketchingService.BREAKER_NAME);
        SketchingService sketching = new SketchingService();
        sketching.setBreaker(breaker);
        for (Runnable run : List.<Runnable>of(
            () -> sketching.simHash(sketching.simHashSettings(new HashMap<>()), PAGE),
            () -> sketching.minHash(sketching.minHashSettings(new HashMap<>()), PAGE),
            () -> sketching.iMatch(sketching.iMatchSettings(new HashMap<>()), PAGE),
            () -> sketching.minHashProbe(MinHashSettings.DEFAULT.algorithmId(), PAGE, SketchingService.ProbeContent.HTML)
        )) {
            expectThrows(CircuitBreakingException.class, run::run);
            assertEquals(0, breaker.getUsed());
        }
        // a short text fits the 4 kb breaker, and what it reserved is given back
        int[] signature = sketching.minHash(sketching.minHashSettings(new HashMap<>()), "harbor bridge reopened");
        assertEquals(MinHashSettings.DEFAULT.hashes(), signature.length);
        assertEquals(0, breaker.getUsed());
    }

    public void testProbesUseTheDeclaredContentType() {
        SketchingService sketching = new SketchingService();
        SimHashSettings.Builder asText = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        asText.contentType = org.nearduplicate.core.ContentType.TEXT;
        assertEquals(
            new SimHasher(asText.build()).sketch(PAGE),
            sketching.simHashProbe(SimHashSettings.DEFAULT.algorithmId(), PAGE, SketchingService.ProbeContent.TEXT)
        );
        int[] html = sketching.minHashProbe(MinHashSettings.DEFAULT.algorithmId(), PAGE, SketchingService.ProbeContent.HTML);
        int[] text = sketching.minHashProbe(MinHashSettings.DEFAULT.algorithmId(), PAGE, SketchingService.ProbeContent.TEXT);
        assertArrayEquals(new MinHasher(MinHashSettings.DEFAULT).signature(PAGE), html);
        assertFalse(Arrays.equals(html, text));
    }
}
