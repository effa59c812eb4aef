package org.nearduplicate.opensearch.search.response;

import org.opensearch.action.ActionRequest;
import org.opensearch.action.search.SearchAction;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.SearchResponseSections;
import org.opensearch.action.support.ActionFilterChain;
import org.opensearch.action.support.ActionRequestMetadata;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.search.SearchHits;
import org.opensearch.search.profile.SearchProfileShardResults;
import org.opensearch.tasks.Task;

import org.nearduplicate.opensearch.search.rescore.ProbeRescorer;

/**
 * Removes from the responses of searches with a {@code near_duplicate} or {@code minhash_similar} rescorer in
 * {@code filter} mode the hits marked {@value ProbeRescorer#FILTERED_OUT_FIELD}: the placeholders such a rescorer
 * must leave on a shard where no hit passed (see {@link ProbeRescorer}). So every hit returned passes the filter.
 *
 * <p>An action filter on the search action rather than a search pipeline processor: it applies to every such search
 * (also each search of an {@code _msearch}) on the coordinating node, with no pipeline or cluster setting to set up.
 * Hit totals are not changed (a rescorer cannot change them either); the page may be shorter than {@code size}.
 */
public final class FilteredOutHitsActionFilter implements LastActionFilter {

    @Override
    public <Request extends ActionRequest, Response extends ActionResponse> void apply(
        Task task,
        String action,
        Request request,
        ActionRequestMetadata<Request, Response> actionRequestMetadata,
        ActionListener<Response> listener,
        ActionFilterChain<Request, Response> chain
    ) {
        if (SearchAction.NAME.equals(action) && request instanceof SearchRequest search && FilteredOutHits.hasFilterRescorer(search)) {
            chain.proceed(task, action, request, ActionListener.map(listener, response -> {
                @SuppressWarnings("unchecked")
                Response filtered = (Response) dropFilteredOut((SearchResponse) response);
                return filtered;
            }));
        } else {
            chain.proceed(task, action, request, listener);
        }
    }

    /** The response without the marked hits (the same response if there are none); max_score is recomputed. */
    public static SearchResponse dropFilteredOut(SearchResponse response) {
        SearchHits filtered = FilteredOutHits.page(response.getHits(), SearchHits::new);
        if (filtered == null) {
            return response;
        }
        SearchResponseSections sections = response.getInternalResponse();
        var profile = sections.profile();
        SearchResponseSections rebuilt = new SearchResponseSections(
            filtered,
            sections.aggregations(),
            sections.suggest(),
            sections.timedOut(),
            sections.terminatedEarly(),
            profile == null || profile.isEmpty() ? null : new SearchProfileShardResults(profile),
            sections.getNumReducePhases(),
            sections.getSearchExtBuilders(),
            sections.getProcessorResult()
        );
        return new SearchResponse(
            rebuilt,
            response.getScrollId(),
            response.getTotalShards(),
            response.getSuccessfulShards(),
            response.getSkippedShards(),
            response.getTook().millis(),
            response.getPhaseTook(),
            response.getShardFailures(),
            response.getClusters(),
            response.pointInTimeId()
        );
    }
}
