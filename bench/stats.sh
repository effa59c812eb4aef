#!/usr/bin/env bash
# The cost of the always-on stats counters (README section 7, issue 28), one JMH run of StatsBenchmark: one fingerprint
# of a typical page and one near_duplicate query (k = 16, keys and column path, an in-memory index of 1M fingerprints,
# the index of bench/scan.sh reused under target/query-bench/) with and without the stats calls they trigger, as ratios
# counted / plain; and the ns of a bare counter increment by 1 and 2 threads. Writes bench/results/RESULTS-stats-cost.md.
# usage: bench/stats.sh [jmh options]   (default: -wi 2 -i 5 -f 1 -w 1s -r 2s, about 3 minutes)
set -e
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
test_classpath
[ $# -gt 0 ] || set -- -wi 2 -i 5 -f 1 -w 1s -r 2s
OUT=bench/results/RESULTS-stats-cost.md
LOG=target/stats-bench.log
mkdir -p target
"$JAVA_HOME/bin/java" -Xmx3g -Deval.dir="$PROJECT_ROOT/../shared/eval" -cp "$TEST_CLASSPATH" \
  org.nearduplicate.bench.StatsBenchmark "$@" | tee "$LOG"
{
  echo "# Cost of the always-on stats counters (issue 28)"
  echo
  echo "**Command:** \`bench/stats.sh $*\` (JMH, \`StatsBenchmark\`, average time per operation; one fork per benchmark)."
  echo
  echo "**Date:** $(date -u +%Y-%m-%dT%H:%MZ); commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' + uncommitted changes'); $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)."
  echo "**Machine:** $(nproc) cores, **shared** with other sessions (load average at the end, /proc/loadavg: $(cut -d' ' -f1-3 /proc/loadavg));"
  echo "differences of a few percent between two forks are noise on this machine, so a ratio is only meaningful with its error range."
  echo
  echo "\"Counted\" is the plain benchmark plus exactly the stats calls the plugin makes for that work: \`stats.fingerprint(SIMHASH)\`"
  echo "per fingerprint (SketchingService); per query \`stats.query()\` and the \`SegmentPathStats\` listener on the"
  echo "\`SimHashQuery\` (one count and two \`System.nanoTime()\` calls per segment; the index has one segment of 1,000,000"
  echo "random fingerprints, layout 4 blocks / max_distance 16 / 28 check bits, in a \`ByteBuffersDirectory\`; probes are"
  echo "near-copies of indexed fingerprints, top 20 at k = 16). The typical page is the en-html page of median length among"
  echo "the first 200 of the public corpus."
  echo
  echo "The first table is JMH's (each benchmark in its own fork, so load changes between forks move the ratio); the"
  echo "third repeats the comparisons in one JVM, interleaved (each round runs plain and counted on the same input,"
  echo "alternating which goes first), the ratio of the medians: the figure README quotes."
  echo
  sed -n '/^| work |/,$p' "$LOG"
} > "$OUT"
echo "wrote $OUT"
