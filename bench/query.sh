#!/usr/bin/env bash
# JMH benchmark of one near_duplicate query on a shard, without HTTP: microseconds per query on a memory-mapped,
# one-segment Lucene index of random fingerprints, with and without check bits (see docs/performance.md).
# usage: bench/query.sh [jmh options]   default: -p docs=1000000 -p checkBits=0,16 -wi 2 -i 5 -f 1 -w 2s -r 3s
# e.g.   bench/query.sh -p docs=10000000 -p checkBits=0,16        (builds two 10M-doc indices under target/query-bench)
set -e
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
test_classpath
exec "$JAVA_HOME/bin/java" -Xmx2g -cp "$TEST_CLASSPATH" \
  org.nearduplicate.bench.QueryBenchmark QueryBenchmark -wi 2 -i 5 -f 1 -w 2s -r 3s -jvmArgs -Xmx2g "$@"
