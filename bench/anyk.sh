#!/usr/bin/env bash
# Any k from one index (docs/performance.md, "Any k"): per k, the shard cost of one near_duplicate query on the
# default multi-probe layout (4 blocks, max_distance 16, 28 check bits) against, in the same run, the doc-values scan at
# the same k and the 0.1.0 default layout (4 blocks, max_distance 3, 16 check bits) at k <= 3. In-process JMH
# (sample mode: p50/p99), one force-merged segment of N random fingerprints, memory-mapped; then the counts behind
# the times (keys looked up, candidate postings, fingerprint reads, hits) from QueryStats.
# With COMPARE_CHECK_BITS=1 it also measures 16 and 24 check bits on the same layout; with SORTED_RUNS=1 the alternative of Manku's permuted tables as sorted runs in Lucene points
# (SortedRunsBenchmark) at k = 3, 8, 12, 16.
# usage: bench/anyk.sh [docs] [k list]        default: 1000000 "0,3,4,6,8,10,12,14,16"
set -e
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
DOCS=${1:-1000000}
KS=${2:-0,3,4,6,8,10,12,14,16}
test_classpath
CP=$TEST_CLASSPATH
JMH="$JAVA_HOME/bin/java -Xmx2g -cp $CP org.nearduplicate.bench.QueryBenchmark QueryBenchmark -bm sample -tu us -wi 2 -i 4 -f 1 -w 2s -r 3s -jvmArgs -Xmx2g -p docs=$DOCS"
echo "== multi-probe layout 4:16, check_bits 28, k = $KS"
$JMH -p layout=4:16 -p checkBits=28 -p scan=false -p k="$KS"
echo "== doc-values scan at the same k (cost does not depend on k; three k shown)"
$JMH -p layout=4:16 -p checkBits=28 -p scan=true -p k=3,12,16
if [ "${COMPARE_CHECK_BITS:-0}" = 1 ]; then
  echo "== check bits 16 and 24 on the same multi-probe layout (28 is the default)"
  $JMH -p layout=4:16 -p checkBits=16,24 -p scan=false -p k=8,12,16
fi
echo "== the 0.1.0 default layout 4:3, check_bits 16, k = 0,3"
$JMH -p layout=4:3 -p checkBits=16 -p scan=false -p k=0,3
if [ "${SORTED_RUNS:-0}" = 1 ]; then
  echo "== alternative: sorted runs (4 rotations as 1-dim points, one BKD walk per query)"
  $JAVA_HOME/bin/java -Xmx2g -cp "$CP" org.nearduplicate.bench.QueryBenchmark SortedRunsBenchmark -bm sample -tu us -wi 2 -i 4 -f 1 -w 2s -r 3s \
    -jvmArgs -Xmx2g -p docs="$DOCS" -p k=3,8,12,16
fi
echo "== counts per query (200 probes, copies of indexed fingerprints with 0..k bits flipped)"
"$JAVA_HOME/bin/java" -Xmx2g -cp "$CP" org.nearduplicate.bench.QueryStats "target/query-bench/$DOCS-4-16-check28" 4:16:28 "$KS" 200
echo "== the same with equal thresholds (multi-index hashing) instead of the layout's variable ones"
"$JAVA_HOME/bin/java" -Xmx2g -cp "$CP" org.nearduplicate.bench.QueryStats "target/query-bench/$DOCS-4-16-check28" 4:16:28 "$KS" 200 mih
"$JAVA_HOME/bin/java" -Xmx2g -cp "$CP" org.nearduplicate.bench.QueryStats "target/query-bench/$DOCS-4-3-check16" 4:3:16 0,3 200
