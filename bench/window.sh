#!/usr/bin/env bash
# The near_duplicate_check window's lookup (WindowBench in src/bench/java): block keys against the linear scan on a full
# window of the default size, k = 3 to 8, 10, 12, 16, in one run.   bench/window.sh [--capacity N] [--docs N] [--rounds N]
# Writes bench/results/RESULTS-window.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
test_classpath
{
  echo "# near_duplicate_check's recent-fingerprints window: block keys against the linear scan (issue 26 item 3)"
  echo
  echo "Command: \`bench/window.sh $*\` (commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg); one thread)."
  echo
  java -Xmx2g -cp "$TEST_CLASSPATH" org.nearduplicate.bench.WindowBench "$@"
} > bench/results/RESULTS-window.md
cat bench/results/RESULTS-window.md
