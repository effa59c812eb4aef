package org.nearduplicate.elasticsearch.rest;

import java.util.function.Function;

import org.elasticsearch.rest.RestChannel;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.action.RestToXContentListener;
import org.elasticsearch.xcontent.ToXContentObject;
import org.elasticsearch.xcontent.XContentBuilder;
import org.nearduplicate.elasticsearch.action.groups.ChanceMatches;

/**
 * The groups APIs' REST listener: the response as JSON, and its chance-match warning, if any, as an HTTP
 * {@code Warning} header. The header is added on the thread that builds the response, which is the one that sends it,
 * so the channel copies it from that thread's context.
 */
final class ChanceWarningListener<R extends ToXContentObject> extends RestToXContentListener<R> {
    private final Function<R, ChanceMatches> chance;

    ChanceWarningListener(RestChannel channel, Function<R, ChanceMatches> chance) {
        super(channel);
        this.chance = chance;
    }

    @Override
    public RestResponse buildResponse(R response, XContentBuilder builder) throws Exception {
        ChanceMatches c = chance.apply(response);
        if (c != null) c.addHeaderWarning();
        return super.buildResponse(response, builder);
    }
}
