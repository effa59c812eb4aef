package org.nearduplicate.opensearch.search.response;

import org.opensearch.action.search.SearchRequest;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.search.rescore.QueryRescorerBuilder;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.opensearch.index.query.MinHashProbe;
import org.nearduplicate.opensearch.index.query.SimHashProbe;
import org.nearduplicate.opensearch.search.rescore.MinHashRescorerBuilder;
import org.nearduplicate.opensearch.search.rescore.RescoreScoreMode;
import org.nearduplicate.opensearch.search.rescore.SimHashRescorerBuilder;

/** Which search requests the filtered-out hits are dropped from: those with a rescorer in filter mode. */
public class FilteredOutHitsTests extends PlatformTestCase {

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
