#!/usr/bin/env bash
# Groups benchmark: builds the plugin, starts a real OpenSearch node with it on port 9500 (2 GB heap: the target node
# of the groups issue is 2 cores / 2 GB heap), runs org.nearduplicate.bench.groups.GroupsBench (N seeded fingerprints with planted
# near-duplicate clusters, POST /<index>/_near_duplicates per k with heap and breaker polling, in-process
# HammingGroups and brute-force baselines on the same fingerprints with an exactness check, the _write task) and stops
# the node.
#
#   bench/groups.sh                                   # 1M docs, k = 3,8  -> bench/results/RESULTS-groups.md
#   bench/groups.sh --docs 100000 --results RESULTS-groups-100k.md
#   bench/groups.sh --docs 10000000 --results RESULTS-groups-10M.md
#   BENCH_URL=http://127.0.0.1:9500 bench/groups.sh --reuse   # target a running node, reuse a loaded index
#   bench/groups.sh --signed --docs 1000000 --rewrite --results RESULTS-groups-signed-1M.md
#                                                     # simhash-v4 documents (fingerprint + signature), _near_duplicates and
#                                                     # _write at the DEFAULT settings (k 16, LSH path), verified pairs vs the
#                                                     # in-process HammingGroups on the same units; --rewrite: _write twice
#   bench/groups.sh --lsh                             # no node: the LSH candidate stage in process (GroupsLshBench)
#                                                     # at 200k (with the exact path for recall), 1M and 10M units at k = 16
#                                                     # -> bench/results/RESULTS-groups-lsh.md; options after --lsh go to
#                                                     # GroupsLshBench: --sizes N,N --exact N,N --cluster-share F --seed S
#                                                     # --results NAME --threads T --brute N,N (the exact reference by a blocked brute-force scan:
#                                                     # bench/groups.sh --lsh --sizes 200000,1000000 --exact 200000
#                                                     #   --brute 200000,1000000 --results RESULTS-groups-lsh-1M-recall.md)
#
# Environment: NODE_PORT (9500; NODE_TRANSPORT_PORT, default NODE_PORT + 100), NODE_HEAP (2g), BENCH_URL (skip build and node start), BENCH_KEEP=1 (leave the node
# up), CLIENT_HEAP (client JVM -Xmx, default 3g: it holds the N fingerprints and HammingGroups' arrays),
# NODE_DIR (default target/node of this checkout). The node's settings are node.sh's: near_duplicate.breaker.limit
# keeps its default (40% of the heap); near_duplicate.groups.threads its default (every allocated processor).
# Options after the script name go to GroupsBench (src/bench/java; --help lists them): --docs N --shards S --ks 3,8 --reps R --brute-sample M
# --seed N --cluster-share F --index NAME --reuse --skip-write --signed --rewrite --write-baseline --bulk-docs N --bulk-threads N --poll-ms N
# --results NAME (default RESULTS-groups.md) --out DIR. Exit status 2: the node's groups differ from the in-process
# HammingGroups (not exact) or the write-back's groups differ from the groups count.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
export NODE_PORT=${NODE_PORT:-9500}
export NODE_HEAP=${NODE_HEAP:-2g}
url=${BENCH_URL:-}
if [ "${1:-}" = "--lsh" ]; then
  shift
  test_classpath # the classes only: no node
  export BENCH_COMMAND="bench/groups.sh --lsh $*"
  args=("$@")
  [ ${#args[@]} -eq 0 ] && args=(--sizes 200000,1000000,10000000 --exact 200000 --results RESULTS-groups-lsh.md)
  exec java -Xmx"${CLIENT_HEAP:-3g}" --add-modules jdk.incubator.vector -cp "$TEST_CLASSPATH" org.nearduplicate.bench.groups.GroupsLshBench "${args[@]}"
fi
# the in-process baseline calls HammingGroups from target/classes: always build
package_plugin
test_classpath
if [ -z "$url" ]; then
  start_node "${BENCH_KEEP:-0}"
  url=http://127.0.0.1:$NODE_PORT
fi
export BENCH_COMMAND="${BENCH_COMMAND:-$( [ -n "${BENCH_URL:-}" ] && echo "BENCH_URL=$BENCH_URL " )NODE_HEAP=$NODE_HEAP bench/groups.sh $*}"
java -Xmx"${CLIENT_HEAP:-3g}" --add-modules jdk.incubator.vector -cp "$TEST_CLASSPATH" org.nearduplicate.bench.groups.GroupsBench --url "$url" "$@"
