package org.nearduplicate.elasticsearch.action.stats;

import java.io.IOException;

import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.transport.TransportRequest;

/** Asks one node for its stats (nothing to say: every counter is sent). */
public class NearDuplicateStatsNodeRequest extends TransportRequest {
    public NearDuplicateStatsNodeRequest() {}

    public NearDuplicateStatsNodeRequest(StreamInput in) throws IOException {
        super(in);
    }
}
