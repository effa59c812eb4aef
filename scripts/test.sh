#!/usr/bin/env bash
# Runs the whole test suite: unit and internal-cluster tests (Surefire), then REST tests (Failsafe) against a real
# OpenSearch node that the build starts with the freshly built plugin (scripts/node.sh) and stops afterwards, then the
# Elasticsearch 8.19 build's tests (scripts/test-elasticsearch.sh; SKIP_ELASTICSEARCH=1 leaves them out).
# Tests that read the labelled corpus in ../shared/eval skip with a message when it is absent.
# OPENSEARCH_VERSION=3.6.0 scripts/test.sh tests another supported version (default: the newest, the pom's);
# scripts/test-all-versions.sh tests every supported version.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
export OPENSEARCH_VERSION=$(opensearch_version)
echo "[test] OpenSearch $OPENSEARCH_VERSION"
# code style first (seconds): OpenSearch's formatter settings and import order, no unused imports (scripts/format.sh)
style=0
$MVN -q formatter:validate impsort:check "$@" || { style=1; echo "code style: run scripts/format.sh" >&2; }
$MVN verify -Dopensearch.version="$OPENSEARCH_VERSION" "$@"
status=$?
# the plugin zip holds only what a node needs (no quality tools, benchmarks, JMH or test classes)
[ $status = 0 ] && { scripts/check-zip.sh target/near-duplicate-*-os"$OPENSEARCH_VERSION".zip || status=1; }
# a real-node restart keeps every fingerprint and every answer (needs the plugin zip the build just made)
if [ $status = 0 ] && [[ " $* " != *" -Dskip.node=true "* ]]; then
  python3 scripts/restart_check.py || status=1
  # every REST example of README.md, verbatim and in order, on a fresh demo node
  python3 scripts/readme_check.py || status=1
  # a 512 MB node with 4M documents, all in groups: the groups APIs answer 200 or 429, never take the node down
  python3 scripts/heap_check.py || status=1
fi
# the Elasticsearch 8.19 build: its unit tests, then a real Elasticsearch node (YAML suite, clients, the same answers as
# OpenSearch, authorization with security on)
if [[ " $* " != *" -Dskip.node=true "* ]] && [ "${SKIP_ELASTICSEARCH:-0}" != 1 ]; then
  scripts/test-elasticsearch.sh || status=1
fi
# skipped tests say why at the end, where a reader looks
skipped=$(grep -ho '<skipped message="[^"]*"' target/surefire-reports/*.xml target/failsafe-reports/*.xml 2>/dev/null \
  | sed 's/<skipped message="/  skipped: /; s/"$//' | sort | uniq -c)
[ -n "$skipped" ] && printf 'Skipped tests:\n%s\n' "$skipped"
# a style failure fails the run, after the tests (their results are still worth reading)
[ $style = 0 ] || { echo "code style: run scripts/format.sh" >&2; status=1; }
exit $status
