#!/usr/bin/env bash
# Runs the whole test suite (scripts/test.sh: unit and internal-cluster tests, REST tests on a real node, the restart
# check, the zip check) once for every supported OpenSearch version, from a clean build each time, and prints one
# line per version. Slow (6-9 minutes per version on 2 cores); scripts/test.sh alone tests the default version.
#   scripts/test-all-versions.sh               # every version in SUPPORTED_OPENSEARCH_VERSIONS (scripts/env.sh)
#   scripts/test-all-versions.sh 3.6.0 3.7.0   # only these
# Logs: target/test-all-versions/<version>.log (kept across the clean builds). Ends with the default version built.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
versions=("$@")
[ ${#versions[@]} -gt 0 ] || read -r -a versions <<< "$SUPPORTED_OPENSEARCH_VERSIONS"
default=$(opensearch_version_default)
# the default version last, so that target/ holds its build afterwards
ordered=()
for v in "${versions[@]}"; do [ "$v" = "$default" ] || ordered+=("$v"); done
for v in "${versions[@]}"; do [ "$v" = "$default" ] && ordered+=("$v"); done

logs=$(mktemp -d)
results=()
status=0
for v in "${ordered[@]}"; do
  echo "==> OpenSearch $v: clean build, unit and real-node suites (log: target/test-all-versions/$v.log)"
  $MVN -q clean >/dev/null
  start=$SECONDS
  if OPENSEARCH_VERSION=$v scripts/test.sh >"$logs/$v.log" 2>&1; then
    results+=("$v  passed  ($(grep -h 'Tests run:' "$logs/$v.log" | grep -v ' -- in ' | tail -2 | tr '\n' ' ')$((SECONDS - start)) s)")
  else
    results+=("$v  FAILED  (see target/test-all-versions/$v.log)")
    status=1
  fi
  echo "    ${results[-1]}"
done
mkdir -p target/test-all-versions && cp "$logs"/*.log target/test-all-versions/ && rm -rf "$logs"
printf '\nOpenSearch versions tested:\n'
printf '  %s\n' "${results[@]}"
exit $status
