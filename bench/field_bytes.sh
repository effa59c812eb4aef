#!/usr/bin/env bash
# Bytes per document of the default simhash field on disk, with and without the simhash-v4 signature (FieldBytes.java).
# usage: bench/field_bytes.sh [docs]        default 1000000
set -e
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
test_classpath
exec "$JAVA_HOME/bin/java" -Xmx2g -cp "$TEST_CLASSPATH" org.nearduplicate.bench.FieldBytes "$@"
