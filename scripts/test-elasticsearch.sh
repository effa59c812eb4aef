#!/usr/bin/env bash
# The Elasticsearch 8.19 build's tests (scripts/test.sh calls it after the OpenSearch suites; it also runs alone):
#   1. mvn -Pelasticsearch package: the platform-free tests (core, lucene, tools) on Lucene 9.12 under ESTestCase, the
#      Elasticsearch adapter's tests, and target/near-duplicate-<release>-es8.19.0.zip;
#   2. a real Elasticsearch 8.19.0 node with the zip (security off): the YAML REST suite of src/test/resources (run by
#      OpenSearch's YAML runner: Elasticsearch publishes its own runner, yaml-rest-runner, not on Maven Central; both
#      read the same YAML format over HTTP), the official clients' suites (elasticsearch-java, @elastic/elasticsearch),
#      and the same flows on an OpenSearch node beside it, whose REST answers must be identical
#      (scripts/compare_platforms.py);
#   3. the node again with x-pack security on: authorization of every plugin action (scripts/security_check.py).
# Ports: ES_PORT (default 9260) for Elasticsearch, OS_COMPARE_PORT (default 9280) for the OpenSearch node compared.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
ES_PORT=${ES_PORT:-9260}
OS_COMPARE_PORT=${OS_COMPARE_PORT:-9280}
ES_NODE_DIR=$PROJECT_ROOT/target/es-node
OS_NODE_DIR=$PROJECT_ROOT/target/os-compare-node
status=0
step() { echo "[test-es] $*"; }
fail() { echo "[test-es] FAILED: $*" >&2; status=1; }

es_node() { NODE_PLATFORM=elasticsearch NODE_PORT=$ES_PORT NODE_DIR=$ES_NODE_DIR "$PROJECT_ROOT/scripts/node.sh" "$@"; }
os_node() { NODE_PLATFORM=opensearch NODE_PORT=$OS_COMPARE_PORT NODE_DIR=$OS_NODE_DIR "$PROJECT_ROOT/scripts/node.sh" "$@"; }
trap 'es_node stop >/dev/null 2>&1; os_node stop >/dev/null 2>&1' EXIT

step "unit tests on Lucene 9.12 and the Elasticsearch zip (mvn -Pelasticsearch package)"
$MVN -Pelasticsearch -Dskip.node=true package "$@" || { fail "mvn -Pelasticsearch package"; exit 1; }

step "Elasticsearch 8.19.0 node on port $ES_PORT, security off"
es_node start || { fail "the Elasticsearch node did not start"; exit 1; }
step "YAML REST suite against it"
# left out: what needs modules the integ-test distribution lacks (ingest-common's `set` in on_failure handlers, data
# streams); each of them runs on OpenSearch
ES_YAML_LEFT_OUT="near_duplicate/61_bad_input_on_failure/*"
ES_YAML_LEFT_OUT+=",near_duplicate/20_processor/A bad document fails alone\\, and on_failure can handle it"
ES_YAML_LEFT_OUT+=",near_duplicate/65_groups_safety/R05*"
$MVN verify -Dskip.node.lifecycle=true -Dskip.clients=true -Dnode.port="$ES_PORT" -Dtest=NoSuchTest \
  -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=NearDuplicateClientYamlTestSuiteIT \
  "-Dtests.rest.denylist=$ES_YAML_LEFT_OUT" "$@" || fail "YAML REST suite on Elasticsearch"
step "official Elasticsearch clients"
NODE_PLATFORM=elasticsearch NODE_PORT=$ES_PORT scripts/clients.sh || fail "client suites on Elasticsearch"
step "the same answers as OpenSearch (an OpenSearch node on port $OS_COMPARE_PORT beside it)"
if os_node start; then
  python3 scripts/compare_platforms.py --opensearch "http://127.0.0.1:$OS_COMPARE_PORT" \
    --elasticsearch "http://127.0.0.1:$ES_PORT" || fail "OpenSearch and Elasticsearch answer differently"
  os_node stop
else
  fail "the OpenSearch node to compare with did not start"
fi
es_node stop

step "the node with x-pack security on: authorization"
if NODE_SECURITY=1 es_node start; then
  NODE_DIR=$ES_NODE_DIR NODE_PORT=$ES_PORT python3 scripts/security_check.py --url "http://127.0.0.1:$ES_PORT" || fail "authorization"
  es_node stop
else
  fail "the Elasticsearch node with security did not start"
fi
[ $status = 0 ] && step "all Elasticsearch checks passed" || step "some Elasticsearch checks failed"
exit $status
