#!/usr/bin/env bash
# One-line benchmark: builds the plugin, starts a real OpenSearch node with it on port 9400 (4 GB heap; OPENSEARCH_VERSION
# selects a supported version, default the newest),
# runs org.nearduplicate.bench.search.Bench (src/bench/java: synthetic fingerprints + eval-corpus ingest, all methods side by
# side) and stops the node. Bench runs from target/test-classes against the plugin's classes (target/classes and its
# jars: the key layouts and the query's cost model are the plugin's code), so they are built in every case.
#
#   bench/run.sh                          # 1M docs (~15 min on 2 cores) -> bench/results/RESULTS.md
#   bench/run.sh --docs 10000000          # 10M docs                     -> bench/results/RESULTS-10M.md
#   BENCH_URL=http://127.0.0.1:9400 bench/run.sh --reuse   # target a running node, reuse a loaded index
#
# Environment: NODE_PORT (9400), NODE_HEAP (4g), BENCH_URL (skip the plugin zip and node start: target a running node;
# the classes are still compiled), BENCH_KEEP=1 (leave the node up).
# Options after the script name go to Bench (--help lists them): --docs N --probes N --queries N --script-queries N --scan-queries N
# --layouts "5:3,8:6,10:8" --reps fp,long,hand4,hand10,fp_5_3,minhash,imatch --seed N --reuse --skip-ingest --eval DIR
# --out DIR --results FILE (results file name; default RESULTS.md, RESULTS-10M.md from 10M docs).
# --shards N (primaries of every loaded index, default 1), --segments N (force-merge target per shard, default 1; 0: not
# merged), --no-base (no base index: no bytes-per-document figures), with --ks: --scan-queries 0 (no forced-scan index),
# --css-modes none,all (the k rows once per search.concurrent_segment_search.mode, set transiently and reset after) and
# --css-slices N (search.concurrent.max_slice_count meanwhile). The --ks results also list the node's GC, heap, the
# near_duplicate breaker and the slowest queries per k group (_nodes/_local/stats). E.g. 30M documents in 10 shards:
#   NODE_HEAP=6g ... bench/run.sh --docs 30000000 --shards 10 --reps fp --no-base --scan-queries 0 --layouts "" --skip-ingest --ks 3,8,16
# --ks 0,3,4,...: per k, near_duplicate on the default-mapped field vs a forced allow_scan scan vs painless (see Bench):
#   bench/run.sh --docs 1000000 --reps fp,long --layouts "" --skip-ingest --script-queries 10 --ks 0,3,4,6,8,10,12,14,16 --results RESULTS-anyk-node.md
# The candidate-key path (issue 40) -> bench/results/RESULTS-keys-node-1M.md, -10M.md: --reps fpk loads the KeysModel's
# documents (simhash-v7 objects with keys; --fpk-version 6: v6 ones, the exact baseline), one force-merged shard, and
# times per probe the default near_duplicate query vs exact: true vs the long[] floor, interleaved, with the recall of the
# default against exact (--fpk-probe value|value-nokeys|like; --queries probes). Load once, then query the kept node:
#   NODE_PORT=9450 NODE_HEAP=2g BENCH_KEEP=1 bench/run.sh --docs 1000000 --reps fpk --no-base --skip-ingest --layouts "" --load-only
#   BENCH_URL=http://127.0.0.1:9450 bench/run.sh --docs 10000000 --reps fpk --no-base --skip-ingest --layouts "" --load-only
#   BENCH_URL=http://127.0.0.1:9450 bench/run.sh --docs 1000000 --reps fpk --no-base --skip-ingest --layouts "" --reuse --queries 500
#   BENCH_URL=http://127.0.0.1:9450 bench/run.sh --docs 10000000 --reps fpk --no-base --skip-ingest --layouts "" --reuse --queries 500
#   python3 bench/check_scale.py --url http://127.0.0.1:9450 --target bench10000000_fpk --keys-model --floor --exact-option exact \
#     --out bench/results/RESULTS-keys-check-10M.md      # the check against the 10M target; then scripts/node.sh stop
# Per method (SimHash vs MinHash vs I-Match) only, 1M docs -> bench/results/RESULTS-methods.md:
#   bench/run.sh --reps fp,minhash,imatch --layouts "" --skip-ingest --results RESULTS-methods.md
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"
cd "$PROJECT_ROOT"
export NODE_PORT=${NODE_PORT:-9400}
export NODE_HEAP=${NODE_HEAP:-4g}
url=${BENCH_URL:-}
if [ -z "$url" ]; then
  package_plugin
  start_node "${BENCH_KEEP:-0}"
  url=http://127.0.0.1:$NODE_PORT
fi
$MVN -q -Dskip.node=true -Dopensearch.version="$(opensearch_version)" test-compile >&2
write_classpath -Dopensearch.version="$(opensearch_version)"
java -Xmx2g -cp "target/test-classes:target/classes:$(cat target/classpath.txt)" org.nearduplicate.bench.search.Bench --url "$url" "$@"
