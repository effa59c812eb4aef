package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/**
 * Sorted fingerprints on the wire as zig-zag deltas: 10M random 64-bit fingerprints of a shard take about 6 bytes each
 * instead of 8, and a shard full of copies (delta 0) one byte each.
 */
final class SortedFingerprints {
    private SortedFingerprints() {}

    static void write(StreamOutput out, long[] sorted, int length) throws IOException {
        out.writeVInt(length);
        long previous = 0;
        for (int i = 0; i < length; i++) {
            out.writeZLong(sorted[i] - previous); // wraps for deltas beyond 2^63; reading adds it back the same way
            previous = sorted[i];
        }
    }

    static long[] read(StreamInput in) throws IOException {
        int length = in.readVInt();
        long[] sorted = new long[length];
        long previous = 0;
        for (int i = 0; i < length; i++) {
            previous += in.readZLong();
            sorted[i] = previous;
        }
        return sorted;
    }
}
