#!/usr/bin/env bash
# The symbol reader against Universal Ctags (engine/tests/ctags_differential.rs): every
# definition ctags finds in corpora/fixtures/*, this repository's sources and a package of
# Python's standard library (when the machine has one), the reader finds too. The test
# skips with a note where ctags is missing; here it is required, so CI installs it first
# when it can and fails when ctags is still missing.
# Usage: scripts/ctags_differential.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ctags --version 2>/dev/null | grep -q Universal; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -q >/dev/null && apt-get install -y -q universal-ctags >/dev/null) || true
  fi
fi
FINDBENCH_REQUIRE_CTAGS=1 cargo test -q -p findbench-engine --test ctags_differential -- --nocapture
