package org.nearduplicate.lucene;

final class BlockLayoutTestUtil {
    private BlockLayoutTestUtil() {}

    /** Binomial(blocks, blocks - k): the number of keys a layout needs. */
    static long keyCount(int blocks, int k) {
        long r = 1;
        int choose = blocks - k;
        for (int i = 1; i <= choose; i++) {
            r = r * (blocks - choose + i) / i;
        }
        return r;
    }
}
