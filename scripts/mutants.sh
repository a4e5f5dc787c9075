#!/usr/bin/env bash
# Mutation testing of the code that computes scores and statistics: cargo-mutants changes
# one operator, constant or return value at a time and runs the mutated crate's tests; a
# mutant no test fails ("missed") is a formula the tests do not hold. Prints one row per
# file (mutants, caught, missed, unviable, timeouts, caught share of the viable ones) in
# the form benches/RESULTS.md keeps, then every missed mutant (docs/mutation.md).
#
# Usage: scripts/mutants.sh [--in-diff DIFF] [FILE...]
#        scripts/mutants.sh --changed-since REV [--max N]
#   FILE...              files to mutate (default: the scoring and metric files below)
#   --in-diff DIFF       only mutants on lines a diff touches, e.g.
#                        git diff main... > /tmp/branch.diff && scripts/mutants.sh --in-diff /tmp/branch.diff
#   --changed-since REV  the default files' change since REV (`git diff REV`), the form CI
#                        runs: nothing to do when they did not change, skipped (exit 0) when
#                        the change has more than N mutants (default 12), exit 1 when a
#                        mutant is missed
# Each mutant runs the tests of the module its file belongs to (`--lib retrieval::`,
# `--lib rank::`, `--lib metrics::`, `--lib stats::`); MUTANTS_TEST_ARGS replaces that
# (MUTANTS_TEST_ARGS="" runs the crate's whole test suite).
# Needs cargo-mutants (cargo install --locked cargo-mutants). Output:
# target/mutants/<file>/mutants.out.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || { echo "cargo-mutants not found: cargo install --locked cargo-mutants" >&2; exit 2; }
DEFAULT_FILES=(engine/src/retrieval/bm25f.rs engine/src/retrieval/best_files.rs
               engine/src/rank/score.rs engine/src/rank/field_weight.rs engine/src/rank/natural.rs
               harness/eval/src/metrics/rank.rs harness/eval/src/metrics/several.rs
               harness/eval/src/metrics/recall.rs harness/eval/src/metrics/arithmetic.rs
               harness/eval/src/stats.rs)
DIFF=""
SINCE=""
MAX=12
case "${1:-}" in
  --in-diff) DIFF="$2"; shift 2 ;;
  --changed-since)
    SINCE="$2"; shift 2
    if [ "${1:-}" = "--max" ]; then MAX="$2"; shift 2; fi ;;
esac
FILES=("$@")
[ ${#FILES[@]} -eq 0 ] && FILES=("${DEFAULT_FILES[@]}")
OUT=target/mutants
mkdir -p "$OUT"
if [ -n "$SINCE" ]; then
  if ! git rev-parse --verify -q "$SINCE^{commit}" >/dev/null; then
    echo "mutants: no revision $SINCE here: nothing to compare with"; exit 0
  fi
  DIFF="$OUT/changed-since.diff"
  git diff "$SINCE" -- "${FILES[@]}" >"$DIFF"
  if [ ! -s "$DIFF" ]; then
    echo "mutants: the scoring and metric code did not change since $SINCE"; exit 0
  fi
  mapfile -t FILES < <(git diff --name-only "$SINCE" -- "${FILES[@]}")
  n=0
  for f in "${FILES[@]}"; do
    [ -f "$f" ] || continue
    n=$((n + $(cargo mutants --list --file "$f" --in-diff "$DIFF" 2>/dev/null | wc -l)))
  done
  if [ "$n" -gt "$MAX" ]; then
    echo "mutants: $n mutants on the lines changed since $SINCE (more than $MAX): skipped;" \
      "run scripts/mutants.sh --in-diff $DIFF"
    exit 0
  fi
fi
# the tests of the module a file belongs to
scope_of() {
  case "$1" in
    engine/src/retrieval/*) echo "--lib retrieval::" ;;
    engine/src/rank/*) echo "--lib rank::" ;;
    harness/eval/src/metrics/*) echo "--lib metrics::" ;;
    harness/eval/src/stats.rs) echo "--lib stats::" ;;
    *) echo "" ;;
  esac
}
for f in "${FILES[@]}"; do
  [ -f "$f" ] || continue
  dir="$OUT/$(echo "$f" | tr '/' '_')"
  rm -rf "$dir"
  args=(mutants --file "$f" --output "$dir" --no-shuffle --timeout 300 --jobs 1)
  [ -n "$DIFF" ] && args+=(--in-diff "$DIFF")
  if [ -n "${MUTANTS_TEST_ARGS+set}" ]; then test_args="$MUTANTS_TEST_ARGS"; else test_args="$(scope_of "$f")"; fi
  # shellcheck disable=SC2206
  [ -n "$test_args" ] && args+=(-- $test_args)
  cargo "${args[@]}" >"$dir.log" 2>&1 || true
done
python3 - "$OUT" "${FILES[@]}" <<'PY'
import json, os, sys
out, files = sys.argv[1], sys.argv[2:]
print("| file | mutants | caught | missed | unviable | timeout | caught of viable |")
print("|---|---|---|---|---|---|---|")
missed = []
for f in files:
    path = os.path.join(out, f.replace("/", "_"), "mutants.out", "outcomes.json")
    if not os.path.exists(path):
        print(f"| `{f}` | – | – | – | – | – | no outcomes (see {out}/{f.replace('/', '_')}.log) |")
        continue
    outcomes = json.load(open(path))["outcomes"]
    n = {"CaughtMutant": 0, "MissedMutant": 0, "Unviable": 0, "Timeout": 0}
    for o in outcomes:
        if o["scenario"] == "Baseline":
            continue
        n[o["summary"]] = n.get(o["summary"], 0) + 1
        if o["summary"] == "MissedMutant":
            m = o["scenario"]["Mutant"]
            missed.append(m["name"])
    total = sum(n.values())
    viable = n["CaughtMutant"] + n["MissedMutant"] + n["Timeout"]
    share = f"{100 * (n['CaughtMutant'] + n['Timeout']) / viable:.0f} %" if viable else "–"
    print(f"| `{f}` | {total} | {n['CaughtMutant']} | {n['MissedMutant']} | {n['Unviable']} | {n['Timeout']} | {share} |")
if missed:
    print("\nmissed:")
    for m in missed:
        print("  " + m)
    sys.exit(1)
PY
