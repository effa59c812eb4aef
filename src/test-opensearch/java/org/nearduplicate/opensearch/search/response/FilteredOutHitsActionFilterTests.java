package org.nearduplicate.opensearch.search.response;

import org.apache.lucene.search.TotalHits;

import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.SearchResponseSections;
import org.opensearch.action.search.ShardSearchFailure;
import org.opensearch.common.document.DocumentField;
import org.opensearch.search.SearchHit;
import org.opensearch.search.SearchHits;
import org.opensearch.test.OpenSearchTestCase;

import java.util.List;
import java.util.Map;

import org.nearduplicate.opensearch.search.rescore.ProbeRescorer;

/** What the action filter removes from a response (which requests it applies to: {@code FilteredOutHitsTests}). */
public class FilteredOutHitsActionFilterTests extends OpenSearchTestCase {

    private static SearchHit hit(int doc, float score, boolean filteredOut) {
        Map<String, DocumentField> fields = filteredOut
            ? Map.of(ProbeRescorer.FILTERED_OUT_FIELD, new DocumentField(ProbeRescorer.FILTERED_OUT_FIELD, List.of(true)))
            : Map.of();
        SearchHit hit = new SearchHit(doc, Integer.toString(doc), fields, Map.of());
        hit.score(score);
        return hit;
    }

    private static SearchResponse response(SearchHit... hits) {
        float max = Float.NaN;
        for (SearchHit h : hits)
            max = Float.isNaN(max) ? h.getScore() : Math.max(max, h.getScore());
        SearchHits searchHits = new SearchHits(hits, new TotalHits(7, TotalHits.Relation.EQUAL_TO), max);
        return new SearchResponse(
            new SearchResponseSections(searchHits, null, null, false, null, null, 1),
            null,
            3,
            3,
            0,
            5,
            ShardSearchFailure.EMPTY_ARRAY,
            SearchResponse.Clusters.EMPTY
        );
    }

    public void testDropsOnlyMarkedHitsAndRecomputesMaxScore() {
        SearchResponse filtered = FilteredOutHitsActionFilter.dropFilteredOut(
            response(hit(1, 2f, false), hit(2, 1f, false), hit(3, 0f, true))
        );
        assertEquals(2, filtered.getHits().getHits().length);
        assertEquals("1", filtered.getHits().getHits()[0].getId());
        assertEquals("2", filtered.getHits().getHits()[1].getId());
        assertEquals(2f, filtered.getHits().getMaxScore(), 0f);
        assertEquals(7, filtered.getHits().getTotalHits().value());
        assertEquals(3, filtered.getTotalShards());

        SearchResponse none = FilteredOutHitsActionFilter.dropFilteredOut(response(hit(3, 0f, true), hit(4, 0f, true)));
        assertEquals(0, none.getHits().getHits().length);
        assertTrue(Float.isNaN(none.getHits().getMaxScore()));

        SearchResponse untouched = response(hit(1, 2f, false));
        assertSame(untouched, FilteredOutHitsActionFilter.dropFilteredOut(untouched));
    }
}
