#!/usr/bin/env bash
# Starts or stops a real single-node OpenSearch with the freshly built near-duplicate plugin.
#
#   scripts/node.sh start    # unpack the distribution, install target/near-duplicate-*-os<version>.zip, start, wait for health
#   scripts/node.sh stop     # stop the node started by 'start' (by its pid file)
#   scripts/node.sh restart  # stop and start the same installation, keeping its data
#   scripts/node.sh upgrade  # stop, install the distribution and plugin zip afresh, start on the same data (upgrades)
#   scripts/node.sh status
#
# OPENSEARCH_VERSION selects the OpenSearch release; by default it follows the build: start and upgrade take the
# opensearch.version of the plugin zip they install (PLUGIN_ZIP, or the newest target/near-duplicate-*.zip), stop,
# restart and status the installation in NODE_DIR; without either, the pom's default. The plugin zip for a version is
# built with mvn -Dopensearch.version=<version> package. The distribution
# (org.opensearch.distribution.integ-test-zip:opensearch:<version>:zip, no bundled JDK) comes from Maven Central.
# Node files, data and logs live in target/node (NODE_DIR to override). OpenSearch
# refuses to run as root: as root, the node runs as the unprivileged user 'opensearch' (NODE_USER), created if
# missing. The node binds to 127.0.0.1 only, on port NODE_PORT (default 9200). PLUGIN_ZIP installs another plugin zip
# than the newest in target/ (bench/ingest_check.sh compares two builds).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"

NODE_PORT=${NODE_PORT:-9200}
NODE_USER=${NODE_USER:-opensearch}
NODE_HEAP=${NODE_HEAP:-1g}
NODE_DIR=${NODE_DIR:-$PROJECT_ROOT/target/node}

# The OpenSearch version the build made a zip for, read from the zip's descriptor.
zip_opensearch_version() {
  { unzip -p "$1" plugin-descriptor.properties 2>/dev/null || true; } | sed -n 's/^opensearch\.version=//p' | tr -d '\r'
}
if [ -z "${OPENSEARCH_VERSION:-}" ]; then
  case "${1:-}" in
    start|upgrade)
      zip=${PLUGIN_ZIP:-$(ls -t "$PROJECT_ROOT"/target/near-duplicate-*.zip 2>/dev/null | head -1 || true)}
      if [ -n "$zip" ] && [ -f "$zip" ]; then OPENSEARCH_VERSION=$(zip_opensearch_version "$zip"); fi ;;
    *)
      installed=$(ls -d "$NODE_DIR"/opensearch-*/ 2>/dev/null | head -1 || true)
      if [ -n "$installed" ]; then OPENSEARCH_VERSION=$(basename "$installed" | sed 's/^opensearch-//'); fi ;;
  esac
  OPENSEARCH_VERSION=${OPENSEARCH_VERSION:-$(opensearch_version_default)}
fi
HOME_DIR=$NODE_DIR/opensearch-$OPENSEARCH_VERSION
PID_FILE=$NODE_DIR/opensearch.pid
URL=http://127.0.0.1:$NODE_PORT

log() { echo "[node] $*" >&2; }

as_node_user() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$NODE_USER" -- "$@"
  else
    "$@"
  fi
}

ensure_user() {
  [ "$(id -u)" = 0 ] || return 0
  if ! id -u "$NODE_USER" >/dev/null 2>&1; then
    log "creating unprivileged user '$NODE_USER' (OpenSearch refuses to run as root)"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$NODE_USER"
  fi
  # the user must be able to reach the node directory through every parent
  if ! runuser -u "$NODE_USER" -- test -x "$(dirname "$NODE_DIR")" 2>/dev/null; then
    log "error: user '$NODE_USER' cannot reach $(dirname "$NODE_DIR"); set NODE_DIR to a directory it can reach (e.g. /var/tmp/near-duplicate-node)"
    exit 1
  fi
}

is_running() {
  [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null
}

start() {
  if is_running; then
    log "a node started from $NODE_DIR is still running; restarting it with the current build"
    stop
  fi
  rm -rf "$NODE_DIR"
  install
  launch
}

# A plugin upgrade as a user does it: the node stopped, a new installation (OpenSearch and plugin) on the same data.
upgrade() {
  [ -d "$NODE_DIR/data" ] || { log "error: no data in $NODE_DIR to upgrade; use start"; exit 1; }
  stop
  rm -rf "$NODE_DIR"/opensearch-*
  install
  launch
}

# Unpacks the distribution into $NODE_DIR, installs the plugin zip, configures the node; $NODE_DIR/data is kept.
install() {
  if curl -s -o /dev/null "$URL"; then
    log "error: something else already listens on $URL; stop it or set NODE_PORT"
    exit 1
  fi
  local plugin_zip=${PLUGIN_ZIP:-}
  [ -n "$plugin_zip" ] || plugin_zip=$(ls -t "$PROJECT_ROOT"/target/near-duplicate-*-os"$OPENSEARCH_VERSION".zip 2>/dev/null | head -1 || true)
  if [ -z "$plugin_zip" ] || [ ! -f "$plugin_zip" ]; then
    log "error: no plugin zip for OpenSearch $OPENSEARCH_VERSION in target/; build it first: $MVN -DskipTests -Dopensearch.version=$OPENSEARCH_VERSION package"
    exit 1
  fi
  local dist=$PROJECT_ROOT/target/distribution/opensearch-$OPENSEARCH_VERSION.zip
  if [ ! -f "$dist" ]; then
    log "fetching the OpenSearch $OPENSEARCH_VERSION distribution from Maven Central"
    $MVN -q dependency:copy -Dartifact=org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip \
      -DoutputDirectory="$PROJECT_ROOT/target/distribution" -Dmdep.stripVersion=false >&2
  fi
  ensure_user
  log "unpacking $(basename "$dist") into $NODE_DIR"
  mkdir -p "$NODE_DIR"
  unzip -q "$dist" -d "$NODE_DIR"
  log "installing $(basename "$plugin_zip")"
  OPENSEARCH_JAVA_HOME=$JAVA_HOME "$HOME_DIR/bin/opensearch-plugin" install --batch "file://$(realpath "$plugin_zip")" >"$NODE_DIR/plugin-install.log" 2>&1 \
    || { cat "$NODE_DIR/plugin-install.log" >&2; exit 1; }
  mkdir -p "$NODE_DIR/data" "$NODE_DIR/logs"
  cat >> "$HOME_DIR/config/opensearch.yml" <<YML
cluster.name: near-duplicate-dev
node.name: near-duplicate-node
network.host: 127.0.0.1
http.port: $NODE_PORT
transport.port: $((NODE_PORT + 100))
discovery.type: single-node
path.data: $NODE_DIR/data
path.logs: $NODE_DIR/logs
action.destructive_requires_name: false
YML
  if [ "$(id -u)" = 0 ]; then chown -R "$NODE_USER" "$NODE_DIR"; fi
}

launch() {
  log "starting OpenSearch $OPENSEARCH_VERSION (heap $NODE_HEAP) as $( [ "$(id -u)" = 0 ] && echo "$NODE_USER" || id -un )"
  as_node_user env OPENSEARCH_JAVA_HOME="$JAVA_HOME" JAVA_HOME="$JAVA_HOME" \
    OPENSEARCH_JAVA_OPTS="-Xms$NODE_HEAP -Xmx$NODE_HEAP ${NODE_JAVA_OPTS:-}" \
    "$HOME_DIR/bin/opensearch" -d -p "$PID_FILE" >/dev/null 2>&1 </dev/null
  local deadline=$((SECONDS + 180))
  until curl -s "$URL/_cluster/health?wait_for_status=yellow&timeout=5s" 2>/dev/null | grep -q '"status"'; do
    if [ $SECONDS -gt $deadline ] || { [ -f "$PID_FILE" ] && ! is_running; }; then
      log "error: the node did not become healthy; last log lines:"
      tail -50 "$NODE_DIR/logs/near-duplicate-dev.log" >&2 2>/dev/null || true
      exit 1
    fi
    sleep 1
  done
  log "up at $URL (pid $(cat "$PID_FILE")); plugins: $(curl -s "$URL/_cat/plugins?h=component" | tr '\n' ' ')"
}

stop() {
  if ! is_running; then
    log "not running"
    rm -f "$PID_FILE"
    return 0
  fi
  local pid
  pid=$(cat "$PID_FILE")
  log "stopping pid $pid"
  kill "$pid"
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || { log "stopped"; rm -f "$PID_FILE"; return 0; }
    sleep 1
  done
  log "still running after 60 s; killing"
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"
}

restart() {
  [ -x "$HOME_DIR/bin/opensearch" ] || { log "error: no installation in $NODE_DIR; use start"; exit 1; }
  stop
  ensure_user
  launch
}

case "${1:-}" in
  start) start ;;
  restart) restart ;;
  upgrade) upgrade ;;
  stop) stop ;;
  status) if is_running; then echo "running (pid $(cat "$PID_FILE")) at $URL"; else echo "stopped"; exit 3; fi ;;
  *) echo "usage: $0 start|stop|restart|upgrade|status" >&2; exit 2 ;;
esac
