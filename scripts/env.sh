# Sourced by the project's scripts: selects the JDK and Maven options. OpenSearch 3.6 needs Java 21+;
# the machine's default java is 17, so the Temurin 25 JDK beside it is used.
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
