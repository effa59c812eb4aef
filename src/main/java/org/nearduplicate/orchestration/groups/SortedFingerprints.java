package org.nearduplicate.orchestration.groups;

import java.io.IOException;

/**
 * Sorted fingerprints on the wire as zig-zag deltas: 10M random 64-bit fingerprints of a shard take about 6 bytes each
 * instead of 8, and a shard full of copies (delta 0) one byte each.
 */
public final class SortedFingerprints {
    private SortedFingerprints() {}

    public static void write(WireOut out, long[] sorted, int length) throws IOException {
        out.writeVInt(length);
        long previous = 0;
        for (int i = 0; i < length; i++) {
            out.writeZLong(sorted[i] - previous); // wraps for deltas beyond 2^63; reading adds it back the same way
            previous = sorted[i];
        }
    }

    public static long[] read(WireIn in) throws IOException {
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
