#!/usr/bin/env bash
# Starts or stops a real single-node OpenSearch (or Elasticsearch 8.19) with the freshly built near-duplicate plugin.
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
# missing. The node binds to 127.0.0.1 only, on port NODE_PORT (default 9200; transport NODE_TRANSPORT_PORT, default NODE_PORT + 100). PLUGIN_ZIP installs another plugin zip
# than the newest in target/ (bench/ingest_check.sh compares two builds).
#
# Elasticsearch: NODE_PLATFORM=elasticsearch (or a PLUGIN_ZIP built with -Pelasticsearch, whose descriptor names
# elasticsearch.version) runs org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ELASTICSEARCH_VERSION
# (default 8.19.0) instead, as the user 'elasticsearch'. Its security (x-pack) is off unless NODE_SECURITY=1: then the
# file realm has the superuser NODE_ADMIN (admin) with password NODE_ADMIN_PASSWORD, and `scripts/node.sh useradd
# NAME PASSWORD ROLES` adds users (roles from config/roles.yml, which `scripts/node.sh roles FILE` replaces).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"

NODE_PORT=${NODE_PORT:-9200}
NODE_HEAP=${NODE_HEAP:-1g}
NODE_DIR=${NODE_DIR:-$PROJECT_ROOT/target/node}
NODE_SECURITY=${NODE_SECURITY:-0}
NODE_ADMIN=${NODE_ADMIN:-admin}
NODE_ADMIN_PASSWORD=${NODE_ADMIN_PASSWORD:-near-duplicate-admin}

# The platform: NODE_PLATFORM, else the plugin zip's descriptor (start, upgrade) or the installation (the others).
zip_platform() {
  if { unzip -p "$1" plugin-descriptor.properties 2>/dev/null || true; } | grep -q '^elasticsearch\.version='; then
    echo elasticsearch
  else
    echo opensearch
  fi
}
if [ -z "${NODE_PLATFORM:-}" ]; then
  case "${1:-}" in
    start|upgrade)
      zip=${PLUGIN_ZIP:-$(ls -t "$PROJECT_ROOT"/target/near-duplicate-*.zip 2>/dev/null | head -1 || true)}
      if [ -n "$zip" ] && [ -f "$zip" ]; then NODE_PLATFORM=$(zip_platform "$zip"); fi ;;
    *)
      if ls -d "$NODE_DIR"/elasticsearch-*/ >/dev/null 2>&1; then NODE_PLATFORM=elasticsearch; fi ;;
  esac
  NODE_PLATFORM=${NODE_PLATFORM:-opensearch}
fi
NODE_USER=${NODE_USER:-$NODE_PLATFORM}

# The OpenSearch version the build made a zip for, read from the zip's descriptor.
zip_opensearch_version() {
  { unzip -p "$1" plugin-descriptor.properties 2>/dev/null || true; } | sed -n 's/^opensearch\.version=//p' | tr -d '\r'
}
if [ "$NODE_PLATFORM" = elasticsearch ]; then
  ELASTICSEARCH_VERSION=${ELASTICSEARCH_VERSION:-8.19.0}
  DIST=elasticsearch
  DIST_VERSION=$ELASTICSEARCH_VERSION
  DIST_LABEL="Elasticsearch $ELASTICSEARCH_VERSION"
  ZIP_SUFFIX=es$ELASTICSEARCH_VERSION
  DIST_COORDINATES=org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ELASTICSEARCH_VERSION:zip
  BUILD_HINT="$MVN -DskipTests -Pelasticsearch package"
elif [ -z "${OPENSEARCH_VERSION:-}" ]; then
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
if [ "$NODE_PLATFORM" != elasticsearch ]; then
  DIST=opensearch
  DIST_VERSION=$OPENSEARCH_VERSION
  DIST_LABEL="OpenSearch $OPENSEARCH_VERSION"
  ZIP_SUFFIX=os$OPENSEARCH_VERSION
  DIST_COORDINATES=org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip
  BUILD_HINT="$MVN -DskipTests -Dopensearch.version=$OPENSEARCH_VERSION package"
fi
HOME_DIR=$NODE_DIR/$DIST-$DIST_VERSION
PID_FILE=$NODE_DIR/$DIST.pid
URL=http://127.0.0.1:$NODE_PORT
CURL_AUTH=()
if [ "$NODE_PLATFORM" = elasticsearch ] && [ "$NODE_SECURITY" = 1 ]; then CURL_AUTH=(-u "$NODE_ADMIN:$NODE_ADMIN_PASSWORD"); fi

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
  rm -rf "$NODE_DIR"/"$DIST"-*
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
  [ -n "$plugin_zip" ] || plugin_zip=$(ls -t "$PROJECT_ROOT"/target/near-duplicate-*-"$ZIP_SUFFIX".zip 2>/dev/null | head -1 || true)
  if [ -z "$plugin_zip" ] || [ ! -f "$plugin_zip" ]; then
    log "error: no plugin zip for $DIST_LABEL in target/; build it first: $BUILD_HINT"
    exit 1
  fi
  local dist=$PROJECT_ROOT/target/distribution/$DIST-$DIST_VERSION.zip
  if [ ! -f "$dist" ]; then
    log "fetching the $DIST_LABEL distribution from Maven Central"
    $MVN -q dependency:copy -Dartifact="$DIST_COORDINATES" \
      -DoutputDirectory="$PROJECT_ROOT/target/distribution" -Dmdep.stripVersion=false >&2
  fi
  ensure_user
  log "unpacking $(basename "$dist") into $NODE_DIR"
  mkdir -p "$NODE_DIR"
  unzip -q "$dist" -d "$NODE_DIR"
  log "installing $(basename "$plugin_zip")"
  OPENSEARCH_JAVA_HOME=$JAVA_HOME ES_JAVA_HOME=$JAVA_HOME "$HOME_DIR/bin/$DIST-plugin" install --batch "file://$(realpath "$plugin_zip")" >"$NODE_DIR/plugin-install.log" 2>&1 \
    || { cat "$NODE_DIR/plugin-install.log" >&2; exit 1; }
  mkdir -p "$NODE_DIR/data" "$NODE_DIR/logs"
  if [ "$NODE_PLATFORM" = elasticsearch ]; then
    if [ "$NODE_SECURITY" = 1 ]; then
      echo "xpack.security.enabled: true" >> "$HOME_DIR/config/elasticsearch.yml"
      ES_JAVA_HOME=$JAVA_HOME "$HOME_DIR/bin/elasticsearch-users" useradd "$NODE_ADMIN" -p "$NODE_ADMIN_PASSWORD" -r superuser >&2
    else
      echo "xpack.security.enabled: false" >> "$HOME_DIR/config/elasticsearch.yml"
    fi
  fi
  cat >> "$HOME_DIR/config/$DIST.yml" <<YML
cluster.name: near-duplicate-dev
node.name: near-duplicate-node
network.host: 127.0.0.1
http.port: $NODE_PORT
transport.port: ${NODE_TRANSPORT_PORT:-$((NODE_PORT + 100))}
discovery.type: single-node
path.data: $NODE_DIR/data
path.logs: $NODE_DIR/logs
action.destructive_requires_name: false
YML
  if [ "$(id -u)" = 0 ]; then chown -R "$NODE_USER" "$NODE_DIR"; fi
}

launch() {
  log "starting $DIST_LABEL (heap $NODE_HEAP) as $( [ "$(id -u)" = 0 ] && echo "$NODE_USER" || id -un )"
  as_node_user env OPENSEARCH_JAVA_HOME="$JAVA_HOME" ES_JAVA_HOME="$JAVA_HOME" JAVA_HOME="$JAVA_HOME" \
    OPENSEARCH_JAVA_OPTS="-Xms$NODE_HEAP -Xmx$NODE_HEAP ${NODE_JAVA_OPTS:-}" \
    ES_JAVA_OPTS="-Xms$NODE_HEAP -Xmx$NODE_HEAP ${NODE_JAVA_OPTS:-}" \
    "$HOME_DIR/bin/$DIST" -d -p "$PID_FILE" >/dev/null 2>&1 </dev/null
  local deadline=$((SECONDS + 180))
  # up means HTTP 200 from a health request that waits for yellow: every primary started, also those a restart
  # recovers from disk (a 408 "timed_out" or a 503 before the cluster state is recovered also carry a "status")
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "${CURL_AUTH[@]}" \
    "$URL/_cluster/health?wait_for_status=yellow&timeout=5s" 2>/dev/null)" = 200 ]; do
    if [ $SECONDS -gt $deadline ] || { [ -f "$PID_FILE" ] && ! is_running; }; then
      log "error: the node did not become healthy; last log lines:"
      tail -50 "$NODE_DIR/logs/near-duplicate-dev.log" >&2 2>/dev/null || true
      exit 1
    fi
    sleep 1
  done
  log "up at $URL (pid $(cat "$PID_FILE")); plugins: $(curl -s "${CURL_AUTH[@]}" "$URL/_cat/plugins?h=component" | tr '\n' ' ')"
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
  [ -x "$HOME_DIR/bin/$DIST" ] || { log "error: no installation in $NODE_DIR; use start"; exit 1; }
  stop
  ensure_user
  launch
}

case "${1:-}" in
  start) start ;;
  restart) restart ;;
  upgrade) upgrade ;;
  stop) stop ;;
  useradd)
    [ "$NODE_PLATFORM" = elasticsearch ] || { log "error: useradd is for Elasticsearch with NODE_SECURITY=1"; exit 2; }
    # a second useradd of the same name replaces the user
    as_node_user env ES_JAVA_HOME="$JAVA_HOME" "$HOME_DIR/bin/elasticsearch-users" userdel "$2" >/dev/null 2>&1 || true
    as_node_user env ES_JAVA_HOME="$JAVA_HOME" "$HOME_DIR/bin/elasticsearch-users" useradd "$2" -p "$3" -r "$4" ;;
  roles)
    [ "$NODE_PLATFORM" = elasticsearch ] || { log "error: roles is for Elasticsearch with NODE_SECURITY=1"; exit 2; }
    cp "$2" "$HOME_DIR/config/roles.yml"
    if [ "$(id -u)" = 0 ]; then chown "$NODE_USER" "$HOME_DIR/config/roles.yml"; fi ;;
  status) if is_running; then echo "running (pid $(cat "$PID_FILE")) at $URL"; else echo "stopped"; exit 3; fi ;;
  *) echo "usage: $0 start|stop|restart|upgrade|status|useradd NAME PASSWORD ROLES|roles FILE" >&2; exit 2 ;;
esac
