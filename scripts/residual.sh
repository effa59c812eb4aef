#!/usr/bin/env bash
# Issue 25 item 5: the unrelated pairs the default (simhash-v4) still matches, and what candidate extraction rules
# would do to them (recall, F1 per language, residual pairs): org.nearduplicate.tools.quality.ResidualStudy (test
# scope, built by test-compile). docs/engine.md ("The residual") quotes bench/results/RESULTS-residual-rules.md.
# usage: scripts/residual.sh [corpus-dir] [--out FILE] [--dump DIR] [--residual]
#   --dump DIR: the sketches and the pairs within k = 16 of the default and of two rules, for bench/scale_offline.py
#   --residual: list the unrelated pairs the default matches, with the start of both main texts
# The corpus dir defaults to ../shared/eval/public relative to the project root. About 6 minutes on 2 shared cores.
set -e
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
test_classpath
case "${1:-}" in
  ""|-*) set -- "$PROJECT_ROOT/../shared/eval/public" "$@" ;;
esac
exec "$JAVA_HOME/bin/java" -Xmx3g -Dresidual.command="scripts/residual.sh ${*:2}" -cp "$TEST_CLASSPATH" \
  org.nearduplicate.tools.quality.ResidualStudy "$@"
