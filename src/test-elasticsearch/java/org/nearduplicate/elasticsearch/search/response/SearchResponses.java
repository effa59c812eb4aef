package org.nearduplicate.elasticsearch.search.response;

import org.apache.lucene.search.TotalHits;

import java.util.List;

import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.ShardSearchFailure;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.SearchHits;
import org.nearduplicate.elasticsearch.search.rescore.ProbeRescorer;

/**
 * Search hits and responses built for the action filter's tests, in the Elasticsearch build: hits and responses are
 * ref-counted, so a test releases each response it made.
 */
final class SearchResponses {
    private SearchResponses() {}

    /** A hit of document {@code doc}, marked filtered out by a filter rescorer or not. */
    static SearchHit hit(int doc, float score, boolean filteredOut) {
        SearchHit hit = new SearchHit(doc, Integer.toString(doc));
        if (filteredOut) hit.setDocumentField(
            ProbeRescorer.FILTERED_OUT_FIELD,
            new DocumentField(ProbeRescorer.FILTERED_OUT_FIELD, List.of(true))
        );
        hit.score(score);
        return hit;
    }

    /** A response of {@code hits}, of 7 total hits and 3 successful shards, whose max score is the hits' max. */
    static SearchResponse response(SearchHit... hits) {
        float max = Float.NaN;
        for (SearchHit h : hits) {
            max = Float.isNaN(max) ? h.getScore() : Math.max(h.getScore(), max);
        }
        SearchHits searchHits = new SearchHits(hits, new TotalHits(7, TotalHits.Relation.EQUAL_TO), max);
        SearchResponse response = new SearchResponse(
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
        return response;
    }

    /** The response's total hit count. */
    static long totalHits(SearchResponse response) {
        return response.getHits().getTotalHits().value;
    }

    /** Done with {@code response}: its reference is released. */
    static void release(SearchResponse response) {
        response.decRef();
    }
}
