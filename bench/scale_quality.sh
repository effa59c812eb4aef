#!/usr/bin/env bash
# Chance matches at scale on a real node: bench/scale_quality.py (its docstring lists the options and what it measures)
# with a node of its own on NODE_PORT (default 9300), building the plugin zip first if target/ has none.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
export NODE_PORT=${NODE_PORT:-9300} SCALE_QUALITY_COMMAND="bench/scale_quality.sh $*"
exec python3 bench/scale_quality.py --node --port "$NODE_PORT" "$@"
