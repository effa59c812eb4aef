package org.nearduplicate.opensearch.search.response;

import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TotalHits;

import org.opensearch.action.search.SearchRequest;
import org.opensearch.search.SearchHit;
import org.opensearch.search.SearchHits;
import org.opensearch.search.rescore.RescorerBuilder;

import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.opensearch.search.rescore.ProbeRescorer;
import org.nearduplicate.opensearch.search.rescore.ProbeRescorerBuilder;
import org.nearduplicate.opensearch.search.rescore.RescoreScoreMode;

/**
 * The hits of a page that a probe rescorer in {@code filter} mode let through: every hit but the placeholders marked
 * {@value ProbeRescorer#FILTERED_OUT_FIELD}, with their max score recomputed. Each platform's
 * {@link FilteredOutHitsActionFilter} builds the response from them.
 */
public record FilteredOutHits(SearchHit[] kept, float maxScore) {

    /** True if the request has a probe rescorer ({@code near_duplicate}, {@code minhash_similar}) in {@code filter} mode. */
    public static boolean hasFilterRescorer(SearchRequest request) {
        if (request.source() == null || request.source().rescores() == null) {
            return false;
        }
        for (RescorerBuilder<?> rescorer : request.source().rescores()) {
            if (rescorer instanceof ProbeRescorerBuilder<?, ?, ?> b && b.scoreMode() == RescoreScoreMode.FILTER) {
                return true;
            }
        }
        return false;
    }

    /** How the platform makes a page of hits (Elasticsearch makes pooled and unpooled ones). */
    @FunctionalInterface
    public interface PageConstructor {
        SearchHits page(
            SearchHit[] hits,
            TotalHits totalHits,
            float maxScore,
            SortField[] sortFields,
            String collapseField,
            Object[] collapseValues
        );
    }

    /**
     * The page of {@code hits} without the marked hits, made by {@code constructor} with the same total, sort and
     * collapse and the recomputed max score; null when every hit passed (or there are none).
     */
    public static SearchHits page(SearchHits hits, PageConstructor constructor) {
        FilteredOutHits passed = of(hits);
        if (passed == null) {
            return null;
        }
        return constructor.page(
            passed.kept(),
            hits.getTotalHits(),
            passed.maxScore(),
            hits.getSortFields(),
            hits.getCollapseField(),
            hits.getCollapseValues()
        );
    }

    /** The hits that passed, or null when every hit passed (or there are none). */
    public static FilteredOutHits of(SearchHits hits) {
        if (hits == null) {
            return null;
        }
        List<SearchHit> kept = new ArrayList<>(hits.getHits().length);
        float maxScore = Float.NaN;
        for (SearchHit hit : hits.getHits()) {
            if (hit.getFields().containsKey(ProbeRescorer.FILTERED_OUT_FIELD) == false) {
                kept.add(hit);
                if (Float.isNaN(hit.getScore()) == false && (Float.isNaN(maxScore) || hit.getScore() > maxScore)) {
                    maxScore = hit.getScore();
                }
            }
        }
        if (kept.size() == hits.getHits().length) {
            return null;
        }
        return new FilteredOutHits(kept.toArray(new SearchHit[0]), Float.isNaN(hits.getMaxScore()) ? Float.NaN : maxScore);
    }
}
