#!/usr/bin/env bash
# Checks on a real tree that the answers over a kept index with changes laid over it
# (docs/index-changes.md) are those of the same tree read from scratch (`--no-cache`).
#
# Usage: scripts/compare_changed_tree.sh FINDBENCH SRC
#   FINDBENCH  the findbench binary to check
#   SRC        a source tree; it is copied with hard links where it can be (SRC is
#              never written: a changed file is a new file renamed over the copy's)
#
# Builds the copy's index, waits out the racy window, then changes it as an agent does:
# three Rust files rewritten (a new file renamed over each, a function added), two files
# added (one in a new directory), two removed. Then asks the same questions with the kept
# index and with --no-cache and prints every question whose answer differs, and whether
# the index was written again (it must not be: the changes are laid over it). Exit 0 when
# none differs, 1 otherwise, 2 on bad usage.
set -euo pipefail
[ $# -eq 2 ] || { sed -n 2,15p "$0" >&2; exit 2; }
FB="$(realpath "$1")"
SRC="$(realpath "$2")"
WORK="$(mktemp -d -t findbench-changed.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
export FINDBENCH_CACHE="$WORK/cache" FINDBENCH_NO_BACKGROUND_INDEX=1
# hard links where the temporary directory shares SRC's file system, else a copy
cp -al "$SRC" "$WORK/tree" 2>/dev/null || { rm -rf "$WORK/tree"; cp -a "$SRC" "$WORK/tree"; }
"$FB" index "$WORK/tree" -q >/dev/null
sleep 3
mapfile -t rust < <(find "$WORK/tree" -name '*.rs' -type f | sort)
[ ${#rust[@]} -ge 6 ] || { echo "compare_changed_tree: SRC needs 6 Rust files" >&2; exit 2; }
for f in "${rust[0]}" "${rust[1]}" "${rust[2]}"; do
  cp "$f" "$f.saving"
  printf '\n/// Added to check the kept index.\npub fn findbench_added_function() {}\n' >>"$f.saving"
  mv "$f.saving" "$f"
done
mkdir -p "$WORK/tree/findbench_new_dir/src"
printf '//! The zebra savanna handler.\npub struct ZebraSavanna;\npub fn zebra_savanna() {}\n' \
  >"$WORK/tree/findbench_new_dir/src/lib.rs"
printf '# Notes\nThe zebra savanna notes.\n' >"$(dirname "${rust[3]}")/findbench_notes.md"
rm "${rust[4]}" "${rust[5]}"
stem() { basename "$1" .rs; }
questions=(
  "ask|where is findbench_added_function defined"
  "ask|where is the zebra savanna handler"
  "ask|where is $(stem "${rust[0]}") implemented"
  "ask|where is $(stem "${rust[4]}") implemented"
  "ask|how are errors reported when parsing fails"
  "ask|which function reads the configuration file"
  "find code|findbench_added_function"
  "find code|ZebraSavanna"
  "find code|$(stem "${rust[1]}")"
  "find code|$(stem "${rust[5]}")"
  "grep|findbench_added"
  "grep|zebra savanna"
  "find path|findbench_notes"
  "find path|$(stem "${rust[4]}")"
)
strip='import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ("duration_ms", "_meta")}
    return [strip(x) for x in v] if isinstance(v, list) else v
print(json.dumps(strip(json.load(sys.stdin)), sort_keys=True))'
index_state() { stat -c '%n %s %Y %i' "$FINDBENCH_CACHE"/trees/*.idx; }
before=$(index_state)
differ=0
for q in "${questions[@]}"; do
  read -r -a cmd <<<"${q%%|*}"
  term="${q#*|}"
  # an answer with no match exits 1: the document is what is compared
  kept=$( ("$FB" "${cmd[@]}" "$term" --root "$WORK/tree" -f json || true) | python3 -c "$strip")
  fresh=$( ("$FB" "${cmd[@]}" "$term" --root "$WORK/tree" -f json --no-cache || true) |
    python3 -c "$strip")
  if [ "$kept" != "$fresh" ]; then
    echo "differs: ${cmd[*]} \"$term\""
    differ=$((differ + 1))
  fi
done
# the kept index must have been read with the changes laid over it, not refreshed
if [ "$(index_state)" != "$before" ]; then
  echo "the index was written again: the changes were not laid over it"
  differ=$((differ + 1))
fi
echo "compare_changed_tree: ${#questions[@]} questions, $differ differ"
[ "$differ" -eq 0 ]
