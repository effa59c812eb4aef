#!/usr/bin/env bash
# The candidate-key path of the verified match (issue 40; KeysPathBench in src/bench/java), in process, one run per N:
# one force-merged segment of N documents of random full min-wise values (topics sharing common values at the public
# corpus's rates, 20 % planted pairs), probes = planted documents; per probe the keys path (>= 1 and >= 2 shared keys)
# against the exact column query and a plain long[] popcount loop, candidates per probe, recall, bytes of the keys field.
# The indices are kept under target/keys-path-bench/ (about 0.25 GB per million documents).
# usage: bench/keys_path.sh [--docs N[,N]] [--queries N] [--dir PATH]      Writes bench/results/RESULTS-keys-path.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
test_classpath
OUT=${KEYS_PATH_OUT:-bench/results/RESULTS-keys-path.md}
{
  echo "# The candidate-key path of the verified match against the exact column scan (issue 40)"
  echo
  echo "Command: \`bench/keys_path.sh $*\` (commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); one thread)."
  echo
  "$JAVA_HOME/bin/java" -Xmx3g -cp "$TEST_CLASSPATH" org.nearduplicate.bench.KeysPathBench "$@"
} > "$OUT"
cat "$OUT"
