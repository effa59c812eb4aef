# The one preamble of the project's shell scripts (scripts/*.sh, bench/*.sh): selects the JDK and Maven options, sets
# PROJECT_ROOT and MVN, and defines the build steps the scripts share. OpenSearch 3.6 needs Java 21+; the machine's
# default java is 17, so the Temurin 25 JDK beside it is used. A script starts with its own `set` options, then
#   source "$(dirname "${BASH_SOURCE[0]}")/env.sh"               # from scripts/
#   source "$(dirname "${BASH_SOURCE[0]}")/../scripts/env.sh"    # from bench/
#   cd "$PROJECT_ROOT"
# Sourcing changes no directory (scripts/upgrade_check.py builds older releases elsewhere with it).
if [ -z "${NEAR_DUPLICATE_JAVA_HOME:-}" ]; then
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk /usr/lib/jvm/temurin-21-jdk-amd64; do
    if [ -x "$candidate/bin/java" ]; then NEAR_DUPLICATE_JAVA_HOME=$candidate; break; fi
  done
fi
if [ -z "${NEAR_DUPLICATE_JAVA_HOME:-}" ]; then
  echo "error: no Java 21+ JDK found (looked for temurin-25-jdk-amd64 in /usr/lib/jvm); set NEAR_DUPLICATE_JAVA_HOME" >&2
  exit 1
fi
export JAVA_HOME=$NEAR_DUPLICATE_JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"
PROJECT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PROJECT_ROOT
# Maven's console library writes colour resets (ESC[0m) even in batch mode: strip them from both streams, keep the status.
mvn_plain() {
  "$@" 2> >(sed -u 's/\x1b\[[0-9;]*m//g' >&2) | sed -u 's/\x1b\[[0-9;]*m//g'
  return "${PIPESTATUS[0]}"
}
MVN="mvn_plain mvn -B -ntp -Dstyle.color=never"
# The OpenSearch releases this plugin builds for (README "Supported OpenSearch versions"); the pom's default
# opensearch.version is the newest. scripts/test-all-versions.sh runs the suites for each.
SUPPORTED_OPENSEARCH_VERSIONS="3.6.0 3.7.0 3.8.0"
opensearch_version_default() {
  sed -n 's:^ *<opensearch.version>\(.*\)</opensearch.version>.*:\1:p' "$PROJECT_ROOT/pom.xml" | head -1
}
# The OpenSearch version to build or run for: OPENSEARCH_VERSION, else the pom's default.
opensearch_version() {
  echo "${OPENSEARCH_VERSION:-$(opensearch_version_default)}"
}
# The platform scripts build for and run: PLATFORM=elasticsearch (Elasticsearch 8.19) or opensearch (the default).
# Given, it also selects the node scripts/node.sh starts (NODE_PLATFORM); otherwise node.sh reads the plugin zip.
if [ -n "${PLATFORM:-}" ]; then export NODE_PLATFORM=${NODE_PLATFORM:-$PLATFORM}; fi
PLATFORM=${PLATFORM:-opensearch}
case "$PLATFORM" in
  opensearch|elasticsearch) ;;
  *) echo "error: PLATFORM must be opensearch or elasticsearch, not '$PLATFORM'" >&2; exit 2 ;;
esac
# Builds the plugin zip for that platform and version into target/, tests skipped (scripts/test.sh runs them).
package_plugin() {
  if [ "$PLATFORM" = elasticsearch ]; then
    $MVN -q -DskipTests -Dskip.node=true -Pelasticsearch package
  else
    $MVN -q -DskipTests -Dskip.node=true -Dopensearch.version="$(opensearch_version)" package
  fi
}
# Writes target/classpath.txt: every jar of the build's test scope (OpenSearch, Lucene, JMH, ...); Maven options pass through.
write_classpath() {
  $MVN -q -Dskip.node=true "$@" dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$PROJECT_ROOT/target/classpath.txt" >&2
}
# Compiles the main and test classes, writes target/classpath.txt and sets TEST_CLASSPATH (test classes, classes and
# jars, relative to PROJECT_ROOT): the quality tools and the JMH benchmarks run from target/.
test_classpath() {
  $MVN -q -Dskip.node=true test-compile >&2
  write_classpath
  TEST_CLASSPATH="target/test-classes:target/classes:$(cat "$PROJECT_ROOT/target/classpath.txt")"
}
# Starts a node with the plugin zip in target/ (scripts/node.sh start; NODE_PORT, NODE_HEAP, ... apply) and stops it
# when the script exits, unless $1 is true or 1 (the node is left running).
start_node() {
  "$PROJECT_ROOT/scripts/node.sh" start
  case "${1:-}" in
    true|1) ;;
    *) trap '"$PROJECT_ROOT/scripts/node.sh" stop' EXIT ;;
  esac
}
