#!/usr/bin/env bash
# Check on ingest, before/after in one run: for each plugin zip given, starts a real node with it, runs
# scripts/workflows_bench.py (the same synthetic corpus indexed without a pipeline and through near_duplicate_check)
# and keeps its output; prints the ratio "with check / without" per build. Ratios, not absolute docs/s, are compared:
# the machine is shared.
#
#   bench/ingest_check.sh [--docs 50000] before.zip after.zip ...   (NODE_PORT, default 9400; NODE_HEAP, default 1g)
# Each zip is named by its file name in the output (copy them to before.zip / after.zip).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
export NODE_PORT=${NODE_PORT:-9400}
export NODE_HEAP=${NODE_HEAP:-1g}
docs=50000
if [ "${1:-}" = "--docs" ]; then docs=$2; shift 2; fi
out=${BENCH_OUT:-target/ingest-check-bench}
mkdir -p "$out"
trap 'scripts/node.sh stop >/dev/null 2>&1 || true' EXIT
for zip in "$@"; do
  name=$(basename "$zip" .zip)
  PLUGIN_ZIP=$(readlink -f "$zip") scripts/node.sh start
  python3 scripts/workflows_bench.py --port "$NODE_PORT" --docs "$docs" --skip-groups | tee "$out/$name.txt"
  scripts/node.sh stop
done
echo "== with near_duplicate_check / without, per build"
for f in "$out"/*.txt; do
  awk -v f="$(basename "$f" .txt)" '/with near_duplicate_check/ {
    match($0, /plain [0-9]+/); p = substr($0, RSTART + 6, RLENGTH - 6);
    match($0, /check [0-9]+/); c = substr($0, RSTART + 6, RLENGTH - 6);
    printf "%s: plain %d docs/s, with check %d docs/s, ratio %.0f %%\n", f, p, c, 100 * c / p }' "$f"
done
