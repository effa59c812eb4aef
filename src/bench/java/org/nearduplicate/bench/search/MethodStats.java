package org.nearduplicate.bench.search;

/** One method's figures in one group of Bench's queries: latencies (ms, client side), throughput, recall, server took. */
record MethodStats(String name, int k, int conc, int n, double p50, double p95, double p99, double mean, double qps, double recall,
    long falseHits, double tookP50) {
}
