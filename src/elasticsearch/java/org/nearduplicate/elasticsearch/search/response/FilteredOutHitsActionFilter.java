package org.nearduplicate.elasticsearch.search.response;

import java.util.Map;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ActionFilterChain;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.SearchHits;
import org.elasticsearch.search.profile.SearchProfileResults;
import org.elasticsearch.search.profile.SearchProfileShardResult;
import org.elasticsearch.tasks.Task;
import org.nearduplicate.elasticsearch.search.rescore.ProbeRescorer;

/**
 * Removes from the responses of searches with a {@code near_duplicate} or {@code minhash_similar} rescorer in
 * {@code filter} mode the hits marked {@value ProbeRescorer#FILTERED_OUT_FIELD}: the placeholders such a rescorer
 * must leave on a shard where no hit passed (see {@link ProbeRescorer}). So every hit returned passes the filter.
 *
 * <p>An action filter on the search action rather than a search pipeline processor: it applies to every such search
 * (also each search of an {@code _msearch}) on the coordinating node, with no pipeline or cluster setting to set up.
 * Hit totals are not changed (a rescorer cannot change them either); the page may be shorter than {@code size}.
 *
 * <p>Elasticsearch's search responses and hits are ref-counted: the filtered response holds its own reference to each
 * hit it keeps, and is released once the caller's listener has answered (the original is released by the search).
 */
public final class FilteredOutHitsActionFilter implements LastActionFilter {

    /**
     * The response without the marked hits (the same response if there are none); max_score is recomputed. A new
     * response holds its own references (to the hits it keeps) and must be released by the caller ({@code decRef}),
     * independently of {@code response}.
     */
    public static SearchResponse dropFilteredOut(SearchResponse response) {
        SearchHits hits = response.getHits();
        SearchHits filtered = FilteredOutHits.page(hits, hits.isPooled() ? SearchHits::new : SearchHits::unpooled);
        if (filtered == null) {
            return response;
        }
        if (hits.isPooled()) {
            for (SearchHit hit : filtered.getHits()) {
                hit.incRef(); // the new hits' own reference; the original's is released with the original response
            }
        }
        Map<String, SearchProfileShardResult> profile = response.getProfileResults();
        try {
            return new SearchResponse(
                filtered,
                response.getAggregations(),
                response.getSuggest(),
                response.isTimedOut(),
                response.isTerminatedEarly(),
                profile == null || profile.isEmpty() ? null : new SearchProfileResults(profile),
                response.getNumReducePhases(),
                response.getScrollId(),
                response.getTotalShards(),
                response.getSuccessfulShards(),
                response.getSkippedShards(),
                response.getTook().millis(),
                response.getShardFailures(),
                response.getClusters(),
                response.pointInTimeId()
            );
        } finally {
            filtered.decRef(); // the response took its own reference
        }
    }

    @Override
    public <Request extends ActionRequest, Response extends ActionResponse> void apply(
        Task task,
        String action,
        Request request,
        ActionListener<Response> listener,
        ActionFilterChain<Request, Response> chain
    ) {
        if (TransportSearchAction.NAME.equals(action)
            && request instanceof SearchRequest search
            && FilteredOutHits.hasFilterRescorer(search)) {
            chain.proceed(task, action, request, listener.delegateFailureAndWrap((delegate, response) -> {
                SearchResponse original = (SearchResponse) response;
                SearchResponse filtered = dropFilteredOut(original);
                if (filtered == original) {
                    delegate.onResponse(response);
                } else {
                    @SuppressWarnings("unchecked")
                    Response cast = (Response) filtered;
                    ActionListener.respondAndRelease(delegate, cast);
                }
            }));
        } else {
            chain.proceed(task, action, request, listener);
        }
    }
}
