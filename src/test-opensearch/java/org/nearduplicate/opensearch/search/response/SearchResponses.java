package org.nearduplicate.opensearch.search.response;

import org.apache.lucene.search.TotalHits;

import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.SearchResponseSections;
import org.opensearch.action.search.ShardSearchFailure;
import org.opensearch.common.document.DocumentField;
import org.opensearch.search.SearchHit;
import org.opensearch.search.SearchHits;

import java.util.List;
import java.util.Map;

import org.nearduplicate.opensearch.search.rescore.ProbeRescorer;

/**
 * Search hits and responses built for the action filter's tests; its twin in {@code src/test-elasticsearch} builds
 * them the Elasticsearch way (ref-counted).
 */
final class SearchResponses {
    private SearchResponses() {}

    /** A hit of document {@code doc}, marked filtered out by a filter rescorer or not. */
    static SearchHit hit(int doc, float score, boolean filteredOut) {
        Map<String, DocumentField> fields = filteredOut
            ? Map.of(ProbeRescorer.FILTERED_OUT_FIELD, new DocumentField(ProbeRescorer.FILTERED_OUT_FIELD, List.of(true)))
            : Map.of();
        SearchHit hit = new SearchHit(doc, Integer.toString(doc), fields, Map.of());
        hit.score(score);
        return hit;
    }

    /** A response of {@code hits}, of 7 total hits and 3 successful shards, whose max score is the hits' max. */
    static SearchResponse response(SearchHit... hits) {
        SearchHits searchHits = new SearchHits(hits, new TotalHits(7, TotalHits.Relation.EQUAL_TO), maxScore(hits));
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

    static float maxScore(SearchHit... hits) {
        float max = Float.NaN;
        for (SearchHit h : hits)
            max = Float.isNaN(max) ? h.getScore() : Math.max(max, h.getScore());
        return max;
    }

    /** The response's total hit count. */
    static long totalHits(SearchResponse response) {
        return response.getHits().getTotalHits().value();
    }

    /** Done with {@code response} (OpenSearch: nothing to release). */
    static void release(SearchResponse response) {}
}
