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
# Each mutant runs the unit tests of the module its file belongs to (`--lib retrieval::`,
# `--lib rank::`, `--lib metrics::`, `--lib stats::`, the tune crate's `--lib`);
# MUTANTS_TEST_ARGS replaces that (MUTANTS_TEST_ARGS="" runs the crate's whole test suite).
# The files of one crate and module run in one cargo-mutants invocation.
# Needs cargo-mutants (cargo install --locked cargo-mutants). Output:
# target/mutants/<first file>[+N]/mutants.out.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || { echo "cargo-mutants not found: cargo install --locked cargo-mutants" >&2; exit 2; }
DEFAULT_FILES=(engine/src/retrieval/bm25f.rs engine/src/retrieval/best_files.rs
               engine/src/retrieval/built_copy.rs engine/src/retrieval/tested_subject.rs
               engine/src/retrieval/subject_scope.rs
               engine/src/retrieval/posting.rs engine/src/retrieval/fields.rs
               engine/src/retrieval/kind.rs engine/src/retrieval/code_tokens.rs
               engine/src/retrieval/length_sample.rs engine/src/retrieval/history.rs
               engine/src/retrieval/tokens.rs engine/src/retrieval/references.rs
               engine/src/retrieval/file_counts.rs engine/src/retrieval/kept.rs
               engine/src/retrieval/kept_runs.rs
               engine/src/retrieval/word_parts.rs engine/src/retrieval/mod.rs
               engine/src/rank/score.rs engine/src/rank/field_weight.rs engine/src/rank/natural.rs
               engine/src/rank/term_query.rs
               harness/eval/src/metrics/rank.rs harness/eval/src/metrics/several.rs
               harness/eval/src/metrics/recall.rs harness/eval/src/metrics/arithmetic.rs
               harness/eval/src/metrics/bytes.rs harness/eval/src/metrics/latency.rs
               harness/eval/src/metrics/outcome.rs harness/eval/src/metrics/mod.rs
               harness/eval/src/stats.rs
               harness/tune/src/objective.rs harness/tune/src/space.rs harness/tune/src/split.rs
               harness/tune/src/traces.rs harness/tune/src/report.rs harness/tune/src/tuning.rs
               harness/tune/src/evaluate.rs harness/tune/src/search.rs)
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
# the unit tests of the module a file belongs to (a name filter of the crate's lib tests)
scope_of() {
  case "$1" in
    engine/src/retrieval/*) echo "--lib retrieval::" ;;
    engine/src/rank/*) echo "--lib rank::" ;;
    harness/eval/src/metrics/*) echo "--lib metrics::" ;;
    harness/eval/src/stats.rs) echo "--lib stats::" ;;
    harness/tune/src/*) echo "--lib" ;;
    *) echo "" ;;
  esac
}
# the crate directory a file belongs to (the nearest Cargo.toml above it)
crate_of() {
  local d
  d="$(dirname "$1")"
  while [ "$d" != "." ] && [ ! -f "$d/Cargo.toml" ]; do d="$(dirname "$d")"; done
  echo "$d"
}
# Files of one crate with the same tests run in one cargo-mutants invocation: each
# invocation copies the tree and builds it once unmutated, the main cost of a small file.
# The copies and their builds stay under target/ (TMPDIR, CARGO_TARGET_DIR), and the build
# directory is kept between invocations so that the dependencies build once.
export TMPDIR="$PWD/$OUT/tmp"
export CARGO_TARGET_DIR="${MUTANTS_TARGET_DIR:-$PWD/$OUT/build}"
# A mutant that loops while a vector grows (the candidates' bit loop of rank/term_query.rs
# with `block &= block - 1` as `|=`) stops at 4 GiB of address space, not at the memory
# the machine shares: the test binaries run under prlimit, cargo's runner for the host.
# Under a lower cap already (the script itself run under prlimit), that one: a process may
# lower its limit but not raise it.
if command -v prlimit >/dev/null; then
  runner="CARGO_TARGET_$(rustc -vV | sed -n 's/^host: //p' | tr 'a-z-' 'A-Z_')_RUNNER"
  cap=4294967296
  held="$(ulimit -v)"
  [ "$held" != unlimited ] && [ $((held * 1024)) -lt "$cap" ] && cap=$((held * 1024))
  [ -z "${!runner:-}" ] && export "$runner=prlimit --as=$cap"
fi
mkdir -p "$TMPDIR"
declare -A GROUP_FILES=()
GROUPS_IN_ORDER=()
RUN_DIRS=()
for f in "${FILES[@]}"; do
  [ -f "$f" ] || continue
  if [ -n "${MUTANTS_TEST_ARGS+set}" ]; then test_args="$MUTANTS_TEST_ARGS"; else test_args="$(scope_of "$f")"; fi
  key="$(crate_of "$f")|$test_args"
  if [ -z "${GROUP_FILES[$key]+set}" ]; then GROUPS_IN_ORDER+=("$key"); GROUP_FILES[$key]=""; fi
  GROUP_FILES[$key]+="$f "
done
for key in "${GROUPS_IN_ORDER[@]}"; do
  test_args="${key#*|}"
  # shellcheck disable=SC2206
  group=(${GROUP_FILES[$key]})
  dir="$OUT/$(echo "${group[0]}" | tr '/' '_')"
  [ ${#group[@]} -gt 1 ] && dir="$dir+$((${#group[@]} - 1))"
  rm -rf "$dir"
  RUN_DIRS+=("$dir")
  # a test run over the minimum is a mutant that loops (the module's tests take seconds)
  args=(mutants --output "$dir" --no-shuffle --minimum-test-timeout 120 --jobs 1)
  for f in "${group[@]}"; do args+=(--file "$f"); done
  [ -n "$DIFF" ] && args+=(--in-diff "$DIFF")
  if [ "${test_args%% *}" = "--lib" ]; then
    # --lib on every cargo call, the build's too: a mutant builds the unit tests only,
    # not each integration test binary of the crate
    args+=(--cargo-arg=--lib)
    test_args="${test_args#--lib}"
    test_args="${test_args# }"
  fi
  # shellcheck disable=SC2206
  [ -n "$test_args" ] && args+=(-- $test_args)
  nice -n 15 cargo "${args[@]}" >"$dir.log" 2>&1 || true
done
python3 - "$OUT" "$(IFS=:; echo "${RUN_DIRS[*]}")" "${FILES[@]}" <<'PY'
import json, os, sys
out, dirs, files = sys.argv[1], sys.argv[2].split(":"), sys.argv[3:]
by_file = {f: [] for f in files}
for d in dirs:
    path = os.path.join(d, "mutants.out", "outcomes.json")
    if not os.path.exists(path):
        continue
    for o in json.load(open(path))["outcomes"]:
        if o["scenario"] == "Baseline":
            continue
        m = o["scenario"]["Mutant"]
        if m["file"] in by_file:
            by_file[m["file"]].append((o["summary"], m))
print("| file | mutants | caught | missed | unviable | timeout | caught of viable |")
print("|---|---|---|---|---|---|---|")
missed = []
for f in files:
    if not by_file[f]:
        print(f"| `{f}` | – | – | – | – | – | no outcomes (see the logs in {out}) |")
        continue
    n = {"CaughtMutant": 0, "MissedMutant": 0, "Unviable": 0, "Timeout": 0}
    for summary, m in by_file[f]:
        n[summary] = n.get(summary, 0) + 1
        if summary == "MissedMutant":
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
