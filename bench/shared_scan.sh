#!/usr/bin/env bash
# Concurrent searches of one column sharing their passes (docs/performance.md, "Concurrent searches share a pass"):
# in process, one run, T threads each running single-probe searches that start together (an _msearch's searches on a
# shard), on a column of N random fingerprints: a plain long[] popcount loop per search (the floor), each search
# scanning alone (before shared passes), each search joining the shared pass, and one pass of T probes on one thread.
# SharedScanBenchmark prints the markdown table of bench/results/RESULTS-shared-scan.md.
# usage: bench/shared_scan.sh [docs] [threads list] [k] [rounds]     default: 10000000 1,2,4,8 16 40
# RESULTS=FILE writes the table with its context to bench/results/FILE.
set -e
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
DOCS=${1:-10000000}
THREADS=${2:-1,2,4,8}
K=${3:-16}
ROUNDS=${4:-40}
test_classpath
run() {
  "$JAVA_HOME/bin/java" -Xmx2g -cp "$TEST_CLASSPATH" org.nearduplicate.bench.SharedScanBenchmark "$DOCS" "$THREADS" "$K" "$ROUNDS" 2>&1 |
    grep -v '^WARNING'
}
if [ -z "${RESULTS:-}" ]; then run; exit; fi
{
  echo "# Concurrent searches of one column sharing their passes, in process"
  echo
  echo "\`bench/shared_scan.sh $DOCS $THREADS $K $ROUNDS\` (SharedScanBenchmark): a column of $DOCS random fingerprints, k = $K,"
  echo "T threads each running one single-probe search per round, all released together; $ROUNDS rounds after 10 of"
  echo "warm-up, the paths interleaved round by round; median wall time of a round divided by T. Commit"
  echo "$(git rev-parse --short HEAD), $(date -u +%Y-%m-%d), $(nproc) cores, load average at the start $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  run
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
} | tee "bench/results/$RESULTS"
