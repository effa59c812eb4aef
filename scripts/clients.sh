#!/usr/bin/env bash
# Runs the README's flows through the official clients against a running node with the plugin (the one
# scripts/node.sh started): clients/java (opensearch-java, Maven: NearDuplicateQuery's unit tests and
# OfficialJavaClientIT) and clients/js (opensearch-js, `npm ci` then node:test). Against an Elasticsearch node
# (NODE_PLATFORM=elasticsearch, or PLATFORM=elasticsearch) it runs their Elasticsearch twins instead, with the same
# expectations: clients/java-es (elasticsearch-java) and clients/js-es (@elastic/elasticsearch); with NODE_SECURITY=1
# they log in as scripts/node.sh's superuser (NODE_ADMIN, NODE_ADMIN_PASSWORD).
#
#   scripts/clients.sh            # against http://127.0.0.1:$NODE_PORT (default 9200); exits with the suites' status
#   scripts/clients.sh --record   # the same, but writes the outcome to target/clients/status and exits 0, so the
#                                 # build's post-integration-test still stops the node (pom.xml)
#   scripts/clients.sh --check    # exits with the recorded outcome (the build's verify phase)
#
# --maven-offline=true runs the Java suite's Maven offline (the build passes its own -o through).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"

NODE_PORT=${NODE_PORT:-9200}
# env.sh sets NODE_PLATFORM from PLATFORM when that is given; PLATFORM defaults to opensearch
CLIENT_PLATFORM=${NODE_PLATFORM:-$PLATFORM}
case "$CLIENT_PLATFORM" in
  opensearch)
    JAVA_DIR=clients/java; JAVA_LABEL=opensearch-java; JS_DIR=clients/js; JS_LABEL=opensearch-js ;;
  elasticsearch)
    JAVA_DIR=clients/java-es; JAVA_LABEL=elasticsearch-java; JS_DIR=clients/js-es; JS_LABEL=elasticsearch-js ;;
  *) echo "error: NODE_PLATFORM must be opensearch or elasticsearch, not '$CLIENT_PLATFORM'" >&2; exit 2 ;;
esac
# a node with x-pack security on (scripts/node.sh with NODE_SECURITY=1): its superuser
JAVA_AUTH=()
JS_AUTH=()
if [ "$CLIENT_PLATFORM" = elasticsearch ] && [ "${NODE_SECURITY:-0}" = 1 ]; then
  JAVA_AUTH=(-Dtests.rest.user="${NODE_ADMIN:-admin}" -Dtests.rest.password="${NODE_ADMIN_PASSWORD:-near-duplicate-admin}")
  JS_AUTH=(NODE_USERNAME="${NODE_ADMIN:-admin}" NODE_PASSWORD="${NODE_ADMIN_PASSWORD:-near-duplicate-admin}")
fi
STATUS_FILE=$PROJECT_ROOT/target/clients/status
mode=
maven_offline=false
for arg in "$@"; do
  case "$arg" in
    --record|--check) mode=$arg ;;
    --maven-offline=*) maven_offline=${arg#--maven-offline=} ;;
    *) echo "usage: $0 [--record|--check] [--maven-offline=true|false]" >&2; exit 2 ;;
  esac
done

log() { echo "[clients] $*" >&2; }

if [ "$mode" = "--check" ]; then
  [ -f "$STATUS_FILE" ] || { log "error: no recorded outcome in $STATUS_FILE"; exit 1; }
  sed 's/^/[clients] /' "$STATUS_FILE" >&2
  if grep -q 'failed' "$STATUS_FILE"; then
    log "error: a client suite failed; its output is above, in the integration-test phase (client-tests)"
    exit 1
  fi
  exit 0
fi
# a stale outcome must not pass a later check
[ "$mode" = "--record" ] && rm -f "$STATUS_FILE"

run_java() {
  local offline=()
  [ "$maven_offline" = "true" ] && offline=(-o)
  log "$JAVA_LABEL suite ($JAVA_DIR) against 127.0.0.1:$NODE_PORT"
  rm -rf "$JAVA_DIR"/target/surefire-reports "$JAVA_DIR"/target/failsafe-reports
  $MVN -q "${offline[@]}" -f "$JAVA_DIR"/pom.xml verify -Dtests.rest.cluster="127.0.0.1:$NODE_PORT" "${JAVA_AUTH[@]}"
  local status=$?
  # -q hides the test counts: show them from the reports
  grep -h 'Tests run' "$JAVA_DIR"/target/surefire-reports/*.txt "$JAVA_DIR"/target/failsafe-reports/*.txt 2>/dev/null | sed 's/^/[clients] java: /' >&2
  return $status
}

run_js() {
  log "$JS_LABEL suite ($JS_DIR) against http://127.0.0.1:$NODE_PORT"
  command -v npm >/dev/null || { log "error: npm is not installed (Node.js 18+ and npm are needed)"; return 1; }
  (cd "$JS_DIR" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error \
    && env "${JS_AUTH[@]}" NODE_URL="http://127.0.0.1:$NODE_PORT" npm test --silent)
}

run_java; java_status=$?
run_js; js_status=$?
outcome="java: $([ $java_status = 0 ] && echo passed || echo failed)
js: $([ $js_status = 0 ] && echo passed || echo failed)"
log "$(echo "$outcome" | tr '\n' ' ')"

if [ "$mode" = "--record" ]; then
  mkdir -p "$(dirname "$STATUS_FILE")"
  echo "$outcome" > "$STATUS_FILE"
  exit 0
fi
[ $java_status = 0 ] && [ $js_status = 0 ]
