#!/usr/bin/env bash
# The column scan at the physical floor (docs/performance.md, "Column scan"): in process, one run, per N (one
# force-merged segment of N random fingerprints, the default layout 4 blocks / max_distance 16 / 28 check bits, the
# index of bench/query.sh reused under target/query-bench/) and per k: a plain long[] popcount loop (the floor), the
# near_duplicate query with the column cache (top 20 through IndexSearcher) and the bare ColumnScan, the same with 100
# probes per pass (per probe), the keys path and the doc-values scan; ratios to the floor. ScanBenchmark prints the
# markdown table of bench/results/RESULTS-scan.md.
# usage: bench/scan.sh [docs list] [k list] [queries]     default: 1000000,10000000 3,8,12,15,16 40
set -e
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
DOCS=${1:-1000000,10000000}
KS=${2:-3,8,12,15,16}
QUERIES=${3:-40}
test_classpath
"$JAVA_HOME/bin/java" -Xmx3g -cp "$TEST_CLASSPATH" org.nearduplicate.bench.ScanBenchmark "$DOCS" "$KS" "$QUERIES"
