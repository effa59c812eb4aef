#!/usr/bin/env bash
# Precision/recall against k on YOUR labelled pairs, to choose max_distance (docs/workflows.md, "Choosing k").
# usage: scripts/quality-report.sh --docs docs.jsonl[.gz] --pairs pairs.tsv[.gz] [--k-max N] [--settings key=value,...] [--svg out.svg]
# The tools are test-scope classes (org.nearduplicate.tools.quality): built by test-compile, run from target/test-classes.
set -e
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# resolve relative paths against the caller's directory before moving to the project
ARGS=""
PATH_NEXT=0
for a in "$@"; do
  if [ "$PATH_NEXT" = 1 ] && [ "${a#/}" = "$a" ]; then
    a="$(cd "$(dirname "$a")" && pwd)/$(basename "$a")"
  fi
  case "$a" in --docs|--pairs|--svg) PATH_NEXT=1 ;; *) PATH_NEXT=0 ;; esac
  ARGS="$ARGS $a"
done
cd "$PROJECT_ROOT"
test_classpath
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" -Xmx3g -cp "$TEST_CLASSPATH" org.nearduplicate.tools.quality.QualityPlot $ARGS
