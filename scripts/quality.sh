#!/usr/bin/env bash
# Quality report of the SimHash engine on a labelled corpus (see docs/engine.md).
# The tools are test-scope classes (org.nearduplicate.tools.quality): built by test-compile, run from target/test-classes.
# usage: scripts/quality.sh [corpus-dir] [--pairs FILE] [--docs FILE] [--k-max N] [--settings key=value,...]... [--alternatives]
#        scripts/quality.sh --methods [corpus-dir] [--only name,...] [--curves]   (compare all methods, docs/methods.md)
# The corpus dir defaults to ../shared/eval/public relative to the project root.
# Next to precision/recall per k it prints chance matches at scale (issue 25): the rate of same-language unrelated pairs
# within k (exact, over all pairs), the rate without the 1 % of documents with most false matches ("spread"), the share
# of documents with a false match and the false hits per query at 1M/10M/100M documents, overall and per language.
set -e
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
test_classpath
MAIN=org.nearduplicate.tools.quality.QualityReport
if [ "${1:-}" = "--methods" ]; then
  MAIN=org.nearduplicate.tools.quality.MethodComparison
  shift
fi
case "${1:-}" in
  ""|-*) set -- "$PROJECT_ROOT/../shared/eval/public" "$@" ;;
esac
exec "$JAVA_HOME/bin/java" -Xmx3g -cp "$TEST_CLASSPATH" $MAIN "$@"
