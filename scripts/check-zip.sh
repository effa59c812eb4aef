#!/usr/bin/env bash
# The plugin zip holds only what a node needs: fails if it (or the plugin jar inside it) contains test-scope code:
# the quality tools (org/nearduplicate/tools), the JMH benchmarks (org/nearduplicate/bench, JMH), test classes, or the
# build's code style settings (config/formatterConfig.xml).
# usage: scripts/check-zip.sh [plugin.zip]   (default: the newest target/near-duplicate-*.zip, built by `mvn package`)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
zip=${1:-$(ls -t "$PROJECT_ROOT"/target/near-duplicate-*.zip | head -1)}
jar=$(mktemp) && trap 'rm -f "$jar"' EXIT
unzip -p "$zip" 'near-duplicate-*.jar' > "$jar"
bad=$( { unzip -Z1 "$zip"; unzip -Z1 "$jar"; } | grep -E '^org/nearduplicate/(tools|bench)/|jmh|(Tests|IT)(\$.*)?\.class$|formatterConfig\.xml$' || true)
[ -z "$bad" ] || { printf 'error: %s holds test-scope files:\n%s\n' "$zip" "$bad" >&2; exit 1; }
echo "plugin zip ok: $(unzip -Z1 "$zip" | wc -l) entries, plugin jar $(unzip -Z1 "$jar" | wc -l) entries, no tools/bench/JMH/test classes, no style settings"
