package org.nearduplicate.opensearch.action.stats;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.transport.TransportRequest;

import java.io.IOException;

/** Asks one node for its stats (nothing to say: every counter is sent). */
public class NearDuplicateStatsNodeRequest extends TransportRequest {
    public NearDuplicateStatsNodeRequest() {}

    public NearDuplicateStatsNodeRequest(StreamInput in) throws IOException {
        super(in);
    }
}
