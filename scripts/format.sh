#!/usr/bin/env bash
# Formats the Java sources in place: OpenSearch's Eclipse formatter settings (config/formatterConfig.xml, 140 columns),
# OpenSearch's import order, unused imports removed. Covers every source root (src/main/java, src/test/java, src/bench/java, ...).
# scripts/test.sh checks the same (mvn formatter:validate impsort:check) and fails when a file is not formatted.
# usage: scripts/format.sh [maven options, e.g. -o]
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
$MVN -q formatter:format impsort:sort "$@" || exit 1
$MVN -q formatter:validate impsort:check "$@" || { echo "error: the sources do not pass the style check after formatting" >&2; exit 1; }
echo "formatted: every source root, src/bench/java included (git diff shows the changes)"
