#!/usr/bin/env bash
# Check on ingest, before/after in one run: for each plugin zip given, starts a real node with it and runs
# scripts/workflows_bench.py on it (the same synthetic corpus indexed without a pipeline, through a one-processor
# pipeline, and through near_duplicate_check), printing docs/s and the share of the no-pipeline rate. Compare the
# shares (ratios) within one run, not absolute docs/s: the machine is shared.
#
#   bench/ingest_check.sh [--docs 50000] before.zip after.zip:100,1000 ...
#
# A zip may be followed by ':' and the batch_size values to run (comma-separated; default: the option left out).
# ROUNDS (default 3: interleaved repetitions, medians reported), NODE_PORT (default 9400), NODE_HEAP (default 1g); outputs in target/ingest-check-bench/<zip name>.txt.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
export NODE_PORT=${NODE_PORT:-9400}
export NODE_HEAP=${NODE_HEAP:-1g}
docs=50000
if [ "${1:-}" = "--docs" ]; then docs=$2; shift 2; fi
out=${BENCH_OUT:-target/ingest-check-bench}
mkdir -p "$out"
trap 'scripts/node.sh stop >/dev/null 2>&1 || true' EXIT
for spec in "$@"; do
  zip=${spec%%:*}
  sizes=default
  [ "$spec" = "$zip" ] || sizes=${spec#*:}
  name=$(basename "$zip" .zip)
  PLUGIN_ZIP=$(readlink -f "$zip") scripts/node.sh start
  python3 scripts/workflows_bench.py --port "$NODE_PORT" --docs "$docs" --skip-groups --noop --batch-sizes "$sizes" --rounds "${ROUNDS:-3}" | tee "$out/$name.txt"
  scripts/node.sh stop
done
for spec in "$@"; do
  name=$(basename "${spec%%:*}" .zip)
  echo "== $name"
  grep '^|' "$out/$name.txt"
done
