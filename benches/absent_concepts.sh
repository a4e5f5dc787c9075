#!/usr/bin/env bash
# Honest answers on real trees: questions about concepts a tree does not hold, phrased as
# real tasks, asked with `findbench ask`; each should be `insufficient_evidence`. A
# question is asked of a tree only when its distinctive word is in none of the tree's
# files (`rg -i -w -l`), so what is counted is absent; the others are listed as skipped.
#
# Prints, per tree and pooled: questions asked, skipped, and how many `ask` answered
# `success` (the goal: at most 5 %), with the file it selected.
#
# Usage: benches/absent_concepts.sh [--findbench BIN] TREE_OR_GIT_DIR...
#   a git directory (a clone's .git or a bare mirror) is read at its HEAD through
#   `git read-tree` and `checkout-index` (every file, `export-ignore` ones too); any other
#   directory is read as it is.
# Environment: WORK=dir to keep the trees (default: a temporary dir); BUILD=label, the row
# of the second table (as benches/RESULTS.md writes it: a tree's `success` of asked, one
# column a tree; default: the worktree's commit). RESULTS=check compares that table with
# benches/RESULTS.md's section "Honest answers on real trees" (the cells that differ; exit 1
# when any does), RESULTS=write puts it there (benches/results_section.py).
set -euo pipefail
cd "$(dirname "$0")/.."
FB=""
while [ $# -gt 0 ]; do
  case "$1" in
    --findbench) FB="$2"; shift 2 ;;
    --) shift; break ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--findbench BIN] TREE_OR_GIT_DIR..." >&2; exit 2; }
if ! command -v rg >/dev/null; then
  apt-get install -y ripgrep >/dev/null || { apt-get update >/dev/null && apt-get install -y ripgrep >/dev/null; }
fi
if [ -z "$FB" ]; then
  cargo build --release -q -p findbench
  FB="$PWD/target/release/findbench"
fi
WORK="${WORK:-$(mktemp -d -t findbench-absent.XXXXXX)}"
export FINDBENCH_CACHE="$WORK/cache" FINDBENCH_NO_BACKGROUND_INDEX=1

# question | its distinctive word (absent from the tree for the question to be asked)
QUESTIONS='where is the database connection pool created|database
where is the retry backoff for http requests configured|backoff
how does the oauth token refresh work|oauth
where is the image thumbnail resized|thumbnail
where are email notifications sent|email
how is the shopping cart total computed|cart
where is the user password hashed|password
how are video frames decoded|video
where is the payment invoice generated|invoice
how does the kubernetes pod autoscaling work|kubernetes
where is the gpu shader compiled|shader
where is the audio volume normalised|audio
how is the map tile cache evicted|tile
where is the captcha verified|captcha
where are the leaderboard scores ranked|leaderboard'

total_asked=0; total_success=0; total_skipped=0
build_header='| build'; build_row="| ${BUILD:-$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo 'this build')}"
printf '| tree | asked | skipped (word present) | success | success rate | selected on success |\n|---|---|---|---|---|---|\n' > "$WORK/table.md"
for src in "$@"; do
  name=$(basename "$(dirname "$src")")
  [ "$(basename "$src")" = "repo" ] || [ "$(basename "$src")" = ".git" ] || name=$(basename "$src")
  if git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    tree="$WORK/trees/$name"
    rm -rf "$tree" && mkdir -p "$tree" && tree="$(cd "$tree" && pwd)"
    GIT_INDEX_FILE="$tree.index" git --git-dir="$src" read-tree HEAD
    GIT_INDEX_FILE="$tree.index" git --git-dir="$src" --work-tree="$tree" checkout-index --all --force
    rm -f "$tree.index"
  elif [ -f "$src/HEAD" ] && [ -d "$src/objects" ]; then
    # a git directory whose HEAD cannot be read: its objects are no tree to ask
    echo "$src: a git directory whose HEAD git cannot read" >&2
    exit 1
  else
    tree="$src"
  fi
  asked=0; success=0; skipped=0; selected=""
  while IFS='|' read -r question word; do
    if rg -q -i -w -l -- "$word" "$tree" 2>/dev/null; then
      skipped=$((skipped + 1))
      continue
    fi
    asked=$((asked + 1))
    answer=$("$FB" ask "$question" --root "$tree" 2>/dev/null || true)
    outcome=$(printf '%s' "$answer" | python3 -c 'import json,sys
try:
    d = json.load(sys.stdin)
    print(d.get("outcome", "error"), d.get("selected") or "-")
except Exception:
    print("error -")')
    if [ "${outcome%% *}" = "success" ]; then
      success=$((success + 1))
      selected="$selected \`${outcome#* }\` (${question})"
    fi
  done <<< "$QUESTIONS"
  rate=$(python3 -c "print(f'{100 * $success / $asked:.0f} %' if $asked else '-')")
  printf '| %s | %d | %d | %d | %s |%s |\n' "$name" "$asked" "$skipped" "$success" "$rate" "$selected" >> "$WORK/table.md"
  build_header="$build_header | $name"; build_row="$build_row | $success of $asked"
  total_asked=$((total_asked + asked)); total_success=$((total_success + success)); total_skipped=$((total_skipped + skipped))
done
rate=$(python3 -c "print(f'{100 * $total_success / $total_asked:.0f} %' if $total_asked else '-')")
printf '| **pooled** | %d | %d | %d | **%s** | |\n' "$total_asked" "$total_skipped" "$total_success" "$rate" >> "$WORK/table.md"
pooled=$(python3 -c "print(f'$total_success of $total_asked ({100 * $total_success / $total_asked:.0f} %)' if $total_asked else '-')")
{
  echo
  echo "$build_header | pooled \`success\` |"
  echo "|---|$(printf -- '---|%.0s' "$@")---|"
  echo "$build_row | $pooled |"
} >> "$WORK/table.md"
cat "$WORK/table.md"
echo
echo "work directory: $WORK"
if [ -n "${RESULTS:-}" ]; then
  sed -n '/^| build |/,$p' "$WORK/table.md" \
    | python3 "$(dirname "$0")/results_section.py" "$RESULTS" "Honest answers on real trees"
fi
