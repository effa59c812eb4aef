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
# the verdict line at the end: Maven's tests counted from the surefire/failsafe XML reports each build wrote (only
# reports newer than the build's start: the Elasticsearch build writes into the same target/, its unit tests into
# target/es-<version>/), plus one per check script
passed=0 failed=0
failures=()  # named again at the end, where a reader of the log's tail looks
names=$(mktemp)
count_reports() {  # $1: a marker file; adds the test cases of the reports written after it
  local counts
  counts=$(python3 - "$1" 2>"$names" <<'EOF'
import glob, os, sys, xml.etree.ElementTree as ET
since = os.path.getmtime(sys.argv[1])
ok = bad = 0
for f in glob.glob("target/surefire-reports/TEST-*.xml") + glob.glob("target/failsafe-reports/TEST-*.xml") + glob.glob("target/es-*/surefire-reports/TEST-*.xml"):
    if os.path.getmtime(f) < since:
        continue
    try:
        suite = ET.parse(f).getroot()
    except ET.ParseError:
        bad += 1
        print("unreadable report " + f, file=sys.stderr)
        continue
    n = lambda name: int(suite.get(name, 0) or 0)
    bad += n("failures") + n("errors")
    ok += n("tests") - n("failures") - n("errors") - n("skipped")
    for case in suite.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            print(case.get("classname", "?") + "." + case.get("name", "?"), file=sys.stderr)
print(ok, bad)
EOF
)
  [ -s "$names" ] && mapfile -t -O "${#failures[@]}" failures < "$names"
  passed=$((passed + ${counts% *})) failed=$((failed + ${counts#* }))
}
script_result() {  # $1: the exit status of a check script, $2: its name
  if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$2"); fi
}
marker=$(mktemp); touch "$marker"
# code style first (seconds): OpenSearch's formatter settings and import order, no unused imports (scripts/format.sh)
style=0
$MVN -q formatter:validate impsort:check "$@" || { style=1; echo "code style: run scripts/format.sh" >&2; }
script_result $style "code style (scripts/format.sh)"
$MVN verify -Dopensearch.version="$OPENSEARCH_VERSION" "$@"
status=$?
before=$failed
count_reports "$marker"
# a build that failed without a failed test (compilation, the node, a plugin) counts as one failure
[ $status = 0 ] || [ $failed -gt $before ] || { failed=$((failed + 1)); failures+=("the Maven build (not a test: see its log)"); }
# the plugin zip holds only what a node needs (no quality tools, benchmarks, JMH or test classes)
[ $status = 0 ] && { scripts/check-zip.sh target/near-duplicate-*-os"$OPENSEARCH_VERSION".zip; r=$?; script_result $r scripts/check-zip.sh; [ $r = 0 ] || status=1; }
# a real-node restart keeps every fingerprint and every answer (needs the plugin zip the build just made)
if [ $status = 0 ] && [[ " $* " != *" -Dskip.node=true "* ]]; then
  python3 scripts/restart_check.py; r=$?; script_result $r scripts/restart_check.py; [ $r = 0 ] || status=1
  # every REST example of README.md, verbatim and in order, on a fresh demo node, each showing what it is there for
  python3 scripts/readme_check.py; r=$?; script_result $r scripts/readme_check.py; [ $r = 0 ] || status=1
  # a 512 MB node with 4M documents, all in groups: the groups APIs answer 200 or 429, never take the node down
  python3 scripts/heap_check.py; r=$?; script_result $r scripts/heap_check.py; [ $r = 0 ] || status=1
  # three nodes of one cluster: check on ingest through every node while one is killed, _write killed and re-run,
  # the same answers through every node as the documented rules computed by brute force
  python3 scripts/multinode_check.py; r=$?; script_result $r scripts/multinode_check.py; [ $r = 0 ] || status=1
fi
# the Elasticsearch 8.19 build: its unit tests, then a real Elasticsearch node (YAML suite, clients, the same answers as
# OpenSearch, authorization with security on)
if [[ " $* " != *" -Dskip.node=true "* ]] && [ "${SKIP_ELASTICSEARCH:-0}" != 1 ]; then
  touch "$marker"
  scripts/test-elasticsearch.sh; r=$?; script_result $r scripts/test-elasticsearch.sh; [ $r = 0 ] || status=1
  count_reports "$marker"
fi
rm -f "$marker" "$names"
# skipped tests say why at the end, where a reader looks
skipped=$(grep -ho '<skipped message="[^"]*"' target/surefire-reports/*.xml target/failsafe-reports/*.xml 2>/dev/null \
  | sed 's/<skipped message="/  skipped: /; s/"$//' | sort | uniq -c)
[ -n "$skipped" ] && printf 'Skipped tests:\n%s\n' "$skipped"
# a style failure fails the run, after the tests (their results are still worth reading)
[ $style = 0 ] || { echo "code style: run scripts/format.sh" >&2; status=1; }
# tests of the Maven builds (surefire/failsafe reports) + check scripts (style, zip, restart, README, heap, multinode, Elasticsearch)
for name in "${failures[@]}"; do echo "FAILED: $name"; done
echo "$passed passed, $failed failed"
exit $status
