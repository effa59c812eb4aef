package org.nearduplicate.opensearch.search.response;

import org.opensearch.action.support.ActionFilter;

/** An action filter that runs last in the chain, so that the response it sees is the one the caller gets. */
public interface LastActionFilter extends ActionFilter {
    @Override
    default int order() {
        return Integer.MAX_VALUE;
    }
}
