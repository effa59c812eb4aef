package org.nearduplicate.elasticsearch.search.response;

import org.apache.lucene.search.TotalHits;

import java.util.List;

import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.ShardSearchFailure;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.SearchHits;
import org.elasticsearch.test.ESTestCase;
import org.nearduplicate.elasticsearch.search.rescore.ProbeRescorer;

/** What the action filter removes from a response (which requests it applies to: {@code FilteredOutHitsTests}). */
public class FilteredOutHitsActionFilterTests extends ESTestCase {

    private static SearchHit hit(int doc, float score, boolean filteredOut) {
        SearchHit hit = new SearchHit(doc, Integer.toString(doc));
        if (filteredOut) hit.setDocumentField(
            ProbeRescorer.FILTERED_OUT_FIELD,
            new DocumentField(ProbeRescorer.FILTERED_OUT_FIELD, List.of(true))
        );
        hit.score(score);
        return hit;
    }

    private static SearchResponse response(SearchHit... hits) {
        float max = Float.NaN;
        for (SearchHit h : hits)
            max = Float.isNaN(max) ? h.getScore() : Math.max(max, h.getScore());
        SearchHits searchHits = new SearchHits(hits, new TotalHits(7, TotalHits.Relation.EQUAL_TO), max);
        SearchResponse r = new SearchResponse(
            searchHits,
            null,
            null,
            false,
            null,
            null,
            1,
            null,
            3,
            3,
            0,
            5,
            ShardSearchFailure.EMPTY_ARRAY,
            SearchResponse.Clusters.EMPTY
        );
        searchHits.decRef();
        return r;
    }

    public void testDropsOnlyMarkedHitsAndRecomputesMaxScore() {
        SearchResponse original = response(hit(1, 2f, false), hit(2, 1f, false), hit(3, 0f, true));
        SearchResponse filtered = FilteredOutHitsActionFilter.dropFilteredOut(original);
        original.decRef();
        assertEquals(2, filtered.getHits().getHits().length);
        assertEquals("1", filtered.getHits().getHits()[0].getId());
        assertEquals("2", filtered.getHits().getHits()[1].getId());
        assertEquals(2f, filtered.getHits().getMaxScore(), 0f);
        assertEquals(7, filtered.getHits().getTotalHits().value);
        assertEquals(3, filtered.getTotalShards());

        SearchResponse allMarked = response(hit(3, 0f, true), hit(4, 0f, true));
        SearchResponse none = FilteredOutHitsActionFilter.dropFilteredOut(allMarked);
        allMarked.decRef();
        assertEquals(0, none.getHits().getHits().length);
        assertTrue(Float.isNaN(none.getHits().getMaxScore()));

        // ref counting: the filtered response keeps its hits after the original is released
        SearchHit a = hit(1, 2f, false), b = hit(3, 0f, true);
        SearchResponse orig = response(a, b);
        SearchResponse f2 = FilteredOutHitsActionFilter.dropFilteredOut(orig);
        assertNotSame(orig, f2);
        orig.decRef();
        assertFalse(b.hasReferences());
        assertTrue(a.hasReferences());
        assertEquals("1", f2.getHits().getHits()[0].getId());
        f2.decRef();
        assertFalse(a.hasReferences());
        filtered.decRef();
        none.decRef();

        SearchResponse untouched = response(hit(1, 2f, false));
        assertSame(untouched, FilteredOutHitsActionFilter.dropFilteredOut(untouched));
        untouched.decRef();
    }
}
