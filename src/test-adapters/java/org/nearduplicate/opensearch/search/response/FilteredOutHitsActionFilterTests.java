package org.nearduplicate.opensearch.search.response;

import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.search.rescore.QueryRescorerBuilder;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.opensearch.index.query.minhash.MinHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.search.rescore.MinHashRescorerBuilder;
import org.nearduplicate.opensearch.search.rescore.RescoreScoreMode;
import org.nearduplicate.opensearch.search.rescore.SimHashRescorerBuilder;

import static org.nearduplicate.opensearch.search.response.SearchResponses.hit;
import static org.nearduplicate.opensearch.search.response.SearchResponses.release;
import static org.nearduplicate.opensearch.search.response.SearchResponses.response;

/**
 * Which requests the action filter applies to, and what it removes from their responses. Responses are built by each
 * platform's {@code SearchResponses}; a response is released as soon as the test is done with it.
 */
public class FilteredOutHitsActionFilterTests extends PlatformTestCase {

    public void testDropsOnlyMarkedHitsAndRecomputesMaxScore() {
        SearchResponse original = response(hit(1, 2f, false), hit(2, 1f, false), hit(3, 0f, true));
        SearchResponse filtered = FilteredOutHitsActionFilter.dropFilteredOut(original);
        release(original);
        assertEquals(2, filtered.getHits().getHits().length);
        assertEquals("1", filtered.getHits().getHits()[0].getId());
        assertEquals("2", filtered.getHits().getHits()[1].getId());
        assertEquals(2f, filtered.getHits().getMaxScore(), 0f);
        assertEquals(7, SearchResponses.totalHits(filtered));
        assertEquals(3, filtered.getTotalShards());

        SearchResponse allMarked = response(hit(3, 0f, true), hit(4, 0f, true));
        SearchResponse none = FilteredOutHitsActionFilter.dropFilteredOut(allMarked);
        release(allMarked);
        assertEquals(0, none.getHits().getHits().length);
        assertTrue(Float.isNaN(none.getHits().getMaxScore()));
        release(filtered);
        release(none);

        SearchResponse untouched = response(hit(1, 2f, false));
        assertSame(untouched, FilteredOutHitsActionFilter.dropFilteredOut(untouched));
        release(untouched);
    }

    public void testAppliesToFilterRescorersOnly() {
        assertFalse(FilteredOutHits.hasFilterRescorer(new SearchRequest()));
        SearchSourceBuilder closeness = new SearchSourceBuilder().addRescorer(
            new SimHashRescorerBuilder("fp", SimHashProbe.fingerprint(1L))
        );
        assertFalse(FilteredOutHits.hasFilterRescorer(new SearchRequest().source(closeness)));
        SearchSourceBuilder other = new SearchSourceBuilder().addRescorer(new QueryRescorerBuilder(QueryBuilders.matchAllQuery()));
        assertFalse(FilteredOutHits.hasFilterRescorer(new SearchRequest().source(other)));
        SearchSourceBuilder simhash = new SearchSourceBuilder().addRescorer(
            new SimHashRescorerBuilder("fp", SimHashProbe.fingerprint(1L)).scoreMode(RescoreScoreMode.FILTER)
        );
        assertTrue(FilteredOutHits.hasFilterRescorer(new SearchRequest().source(simhash)));
        SearchSourceBuilder minhash = new SearchSourceBuilder().addRescorer(new QueryRescorerBuilder(QueryBuilders.matchAllQuery()))
            .addRescorer(new MinHashRescorerBuilder("mh", MinHashProbe.text("a b c")).scoreMode(RescoreScoreMode.FILTER));
        assertTrue(FilteredOutHits.hasFilterRescorer(new SearchRequest().source(minhash)));
    }
}
