package org.nearduplicate.elasticsearch.search.response;

import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.test.ESTestCase;

import static org.nearduplicate.elasticsearch.search.response.SearchResponses.hit;
import static org.nearduplicate.elasticsearch.search.response.SearchResponses.response;

/** Elasticsearch's hits are ref-counted: the filtered response keeps its hits after the original is released. */
public class FilteredOutHitsReleaseTests extends ESTestCase {
    public void testFilteredResponseOwnsItsHits() {
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
    }
}
