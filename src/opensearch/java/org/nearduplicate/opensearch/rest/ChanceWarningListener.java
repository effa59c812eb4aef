package org.nearduplicate.opensearch.rest;

import org.opensearch.common.logging.HeaderWarning;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.rest.RestChannel;
import org.opensearch.rest.RestResponse;
import org.opensearch.rest.action.RestToXContentListener;

import org.nearduplicate.opensearch.action.groups.GroupsResponse;
import org.nearduplicate.orchestration.groups.ChanceMatches;

/**
 * The groups APIs' REST listener: the response as JSON, and its chance-match warning, if any, as an HTTP
 * {@code Warning} header. The header is added on the thread that builds the response, which is the one that sends it,
 * so the channel copies it from that thread's context.
 */
final class ChanceWarningListener<R extends GroupsResponse> extends RestToXContentListener<R> {

    ChanceWarningListener(RestChannel channel) {
        super(channel);
    }

    @Override
    public RestResponse buildResponse(R response, XContentBuilder builder) throws Exception {
        ChanceMatches c = response.chanceMatches();
        if (c != null && c.headerWarning() != null) HeaderWarning.addWarning(c.headerWarning());
        return super.buildResponse(response, builder);
    }
}
