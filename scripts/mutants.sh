#!/usr/bin/env bash
# Mutation testing of the code that computes scores and statistics: cargo-mutants changes
# one operator, constant or return value at a time and runs the mutated crate's own tests;
# a mutant no test fails ("missed") is a formula the tests do not hold. Prints one row per
# file (mutants, caught, missed, unviable, timeouts, caught share of the viable ones) in
# the form benches/RESULTS.md keeps, then every missed mutant.
#
# Usage: scripts/mutants.sh [--in-diff DIFF] [FILE...]
#   FILE...         files to mutate (default: the scoring and metric files below)
#   --in-diff DIFF  only mutants on lines a diff touches, e.g.
#                   git diff origin/main... > /tmp/branch.diff && scripts/mutants.sh --in-diff /tmp/branch.diff
# MUTANTS_TEST_ARGS="--lib" passes arguments to each mutant's `cargo test` (the engine's
# library tests alone take a third of its whole suite's time).
# Needs cargo-mutants (cargo install --locked cargo-mutants). A whole run takes hours on two
# cores; the diff form takes minutes. Output: target/mutants/<file>/mutants.out.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || { echo "cargo-mutants not found: cargo install --locked cargo-mutants" >&2; exit 2; }
DIFF=""
if [ "${1:-}" = "--in-diff" ]; then DIFF="$2"; shift 2; fi
FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  FILES=(engine/src/retrieval/bm25f.rs engine/src/retrieval/best_files.rs
         engine/src/rank/score.rs engine/src/rank/field_weight.rs
         harness/eval/src/metrics/rank.rs harness/eval/src/metrics/recall.rs
         harness/eval/src/metrics/arithmetic.rs harness/eval/src/stats.rs)
fi
OUT=target/mutants
mkdir -p "$OUT"
for f in "${FILES[@]}"; do
  dir="$OUT/$(echo "$f" | tr '/' '_')"
  args=(mutants --file "$f" --output "$dir" --no-shuffle --timeout 300)
  [ -n "$DIFF" ] && args+=(--in-diff "$DIFF")
  # shellcheck disable=SC2206
  [ -n "${MUTANTS_TEST_ARGS:-}" ] && args+=(-- ${MUTANTS_TEST_ARGS})
  # each mutant is tested with its own crate's tests (cargo-mutants' default)
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
PY
