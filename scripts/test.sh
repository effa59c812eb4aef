#!/usr/bin/env bash
# Runs the whole test suite: unit and internal-cluster tests (Surefire), then REST tests (Failsafe) against a real
# OpenSearch 3.6.0 node that the build starts with the freshly built plugin (scripts/node.sh) and stops afterwards.
# Tests that read the labelled corpus in ../shared/eval skip with a message when it is absent.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$PROJECT_ROOT"
exec $MVN verify "$@"
