package org.nearduplicate.opensearch.action.check;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/** How many shard copies were waited for, and the longest wait of one copy. */
public class WaitForRefreshResponse extends ActionResponse {
    private final int copies;
    private final long maxWaitMillis;

    public WaitForRefreshResponse(int copies, long maxWaitMillis) {
        this.copies = copies;
        this.maxWaitMillis = maxWaitMillis;
    }

    public WaitForRefreshResponse(StreamInput in) throws IOException {
        this.copies = in.readVInt();
        this.maxWaitMillis = in.readVLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeVInt(copies);
        out.writeVLong(maxWaitMillis);
    }

    public int copies() {
        return copies;
    }

    public long maxWaitMillis() {
        return maxWaitMillis;
    }

    @Override
    public String toString() {
        return "WaitForRefreshResponse[copies=" + copies + ", maxWaitMillis=" + maxWaitMillis + "]";
    }
}
