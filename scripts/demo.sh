#!/usr/bin/env bash
# Builds the plugin, starts a real OpenSearch node with it (scripts/node.sh; OPENSEARCH_VERSION selects a supported
# version, default the newest; PLATFORM=elasticsearch builds and runs the Elasticsearch 8.19 plugin on an
# Elasticsearch 8.19.0 node instead), fingerprints the bundled demo
# pages through a simhash ingest pipeline and prints the near-duplicate groups and one near_duplicate query.
#   scripts/demo.sh          # stops the node at the end
#   scripts/demo.sh --keep   # leaves it running at http://127.0.0.1:9200 (stop: scripts/node.sh stop)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
keep=false
[ "${1:-}" = "--keep" ] && keep=true

echo "==> building the plugin (tests skipped; scripts/test.sh runs them)"
package_plugin
echo "==> starting $( [ "$PLATFORM" = elasticsearch ] && echo Elasticsearch || echo OpenSearch ) with the plugin"
start_node $keep
python3 demo/demo.py --url "http://127.0.0.1:${NODE_PORT:-9200}"
if $keep; then
  echo "==> node left running at http://127.0.0.1:${NODE_PORT:-9200}; stop it with scripts/node.sh stop"
fi
