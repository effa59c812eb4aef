#!/usr/bin/env bash
# Quality report of the SimHash engine on a labelled corpus (see docs/engine.md).
# The tools are test-scope classes (org.nearduplicate.tools.quality): built by test-compile, run from target/test-classes.
# usage: scripts/quality.sh [corpus-dir] [--pairs FILE] [--docs FILE] [--k-max N] [--settings key=value,...]... [--alternatives]
#                          [--min-similarity T]   (the signature's threshold from simhash-v4; default the recommended one)
#        scripts/quality.sh --methods [corpus-dir] [--only name,...] [--curves]   (compare all methods, docs/methods.md)
# The corpus dir defaults to ../shared/eval/public relative to the project root (the public evaluation corpus: 12,087
# documents, 48,186 labelled pairs; not in this repository); without it, and without a corpus dir or --docs/--pairs,
# the report runs on demo/sample (39 demo pages, 403 labelled pairs, built by demo/make_sample.py): it shows what the
# report looks like, too small to choose k from. A corpus dir holds docs.jsonl[.gz] and pairs.tsv[.gz] (docs/engine.md).
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
# the corpus: check what was given (or find the default) before Java starts, and say in one line what is missing
given_dir="" given_files=0 prev=""
for arg in "$@"; do
  case "$prev" in
    --docs|--pairs)
      given_files=1
      if [ ! -f "$arg" ]; then
        echo "error: $prev $arg: no such file (docs: one JSON object per line with id, lang, format, content; pairs: a header, then id_a<TAB>id_b<TAB>1|0[<TAB>kind])" >&2
        exit 2
      fi ;;
    --only|--k-max|--settings|--min-similarity) ;;
    *) case "$arg" in -*) ;; *) given_dir=$arg ;; esac ;;
  esac
  prev=$arg
done
corpus_files() { { [ -f "$1/docs.jsonl.gz" ] || [ -f "$1/docs.jsonl" ]; } && { [ -f "$1/pairs.tsv.gz" ] || [ -f "$1/pairs.tsv" ]; }; }
if [ -n "$given_dir" ]; then
  if ! corpus_files "$given_dir"; then
    echo "error: corpus $given_dir: no docs.jsonl[.gz] and pairs.tsv[.gz] there; give a corpus dir with both, or run without one for the bundled sample (demo/sample)" >&2
    exit 2
  fi
elif [ "$given_files" = 0 ]; then
  default_dir="$PROJECT_ROOT/../shared/eval/public"
  if corpus_files "$default_dir"; then
    set -- "$default_dir" "$@"
  else
    echo "note: no corpus given and none at ../shared/eval/public: running on the bundled sample demo/sample (39 demo pages, 403 labelled pairs; too small to choose k from); give your own as scripts/quality.sh DIR (docs.jsonl[.gz] + pairs.tsv[.gz])" >&2
    set -- "$PROJECT_ROOT/demo/sample" "$@"
  fi
fi
exec "$JAVA_HOME/bin/java" -Xmx3g -cp "$TEST_CLASSPATH" $MAIN "$@"
