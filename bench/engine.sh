#!/usr/bin/env bash
# JMH benchmark of the fingerprinting engine: MB/s per core, en/zh, html/text, versus the analyzer alone.
# usage: bench/engine.sh [jmh options]   (default: a short run, -wi 1 -i 3 -f 1 -w 2s -r 3s)
set -e
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
test_classpath
[ $# -gt 0 ] || set -- -wi 1 -i 3 -f 1 -w 2s -r 3s
exec "$JAVA_HOME/bin/java" -Xmx2g -Deval.dir="$PROJECT_ROOT/../shared/eval" \
  -cp "$TEST_CLASSPATH" \
  org.nearduplicate.bench.EngineBenchmark "$@"
