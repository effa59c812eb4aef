#!/usr/bin/env bash
# JMH benchmark of the fingerprinting engine: MB/s per core, en/zh, html/text, versus the analyzer alone.
# usage: bench/engine.sh [jmh options]   (default: a short run, -wi 1 -i 3 -f 1 -w 2s -r 3s)
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/env.sh"
cd "$ROOT"
$MVN -q -Dskip.node=true test-compile >&2
$MVN -q -Dskip.node=true dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/classpath.txt >&2
[ $# -gt 0 ] || set -- -wi 1 -i 3 -f 1 -w 2s -r 3s
exec "$JAVA_HOME/bin/java" -Xmx2g -Deval.dir="$ROOT/../shared/eval" \
  -cp "target/test-classes:target/classes:$(cat target/classpath.txt)" \
  org.nearduplicate.bench.EngineBenchmark "$@"
