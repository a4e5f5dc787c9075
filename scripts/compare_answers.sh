#!/usr/bin/env bash
# Compares the answers of two findbench builds (find code, grep and ask, JSON without timings)
# on real trees: what a change that should not change results is checked with. Each build
# keeps its own index (a temporary FINDBENCH_CACHE each); the new build is also run with
# --no-cache unless NOCACHE=0 (slow on a large root). Prints every query that differs, then
# the count; exits 1 when any does.
#
#   scripts/compare_answers.sh OLD_BINARY NEW_BINARY ROOT...
#   e.g. git worktree add /tmp/old HEAD~1 && (cd /tmp/old && cargo build --release -p findbench)
#        scripts/compare_answers.sh /tmp/old/target/release/findbench target/release/findbench \
#          ~/.cargo/registry/src /usr/include /usr/lib/python3*/asyncio
set -euo pipefail
OLD="$1"; NEW="$2"; shift 2
OLD_CACHE="$(mktemp -d)"; NEW_CACHE="$(mktemp -d)"
trap 'rm -rf "$OLD_CACHE" "$NEW_CACHE"' EXIT
strip() {
  python3 -c "
import json, sys
def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items() if k not in ('_meta', 'duration_ms')}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x
try:
    print(json.dumps(clean(json.load(sys.stdin)), sort_keys=True))
except ValueError:
    print('not JSON')"
}
QUERIES=(
  "find code|replay" "find code|CommandRouter" "find code|parse_header" "find code|Deserializer"
  "find code|cursor" "find code|binary_heap" "find code|read_to_end" "find code|HashMap|--impl"
  "grep|binary" "grep|fn main" "grep|header parsed"
  "ask|where is replay implemented" "ask|find cursor binary"
  "ask|where is the deserializer for yaml anchors" "ask|how is the gzip header parsed"
  "ask|what parses json" "ask|where is the thread pool created" "ask|how are symlinks followed"
  "ask|where is Path canonicalize implemented" "ask|where is utf8 validated"
)
n=0; differ=0
for root in "$@"; do
  for q in "${QUERIES[@]}"; do
    IFS='|' read -r -a parts <<<"$q"
    # "find code" is two words of the command line
    read -r -a head <<<"${parts[0]}"
    cmd=("${head[@]}" "${parts[@]:1}" --root "$root" --format json)
    a=$(FINDBENCH_CACHE="$OLD_CACHE" "$OLD" "${cmd[@]}" 2>/dev/null | strip || true)
    b=$(FINDBENCH_CACHE="$NEW_CACHE" "$NEW" "${cmd[@]}" 2>/dev/null | strip || true)
    c="$b"
    if [ "${NOCACHE:-1}" = 1 ]; then
      c=$(FINDBENCH_CACHE="$NEW_CACHE" "$NEW" "${cmd[@]}" --no-cache 2>/dev/null | strip || true)
    fi
    n=$((n + 1))
    if [ "$a" != "$b" ] || [ "$b" != "$c" ]; then
      differ=$((differ + 1))
      echo "DIFFERS on $root: ${cmd[*]}"
    fi
  done
done
echo "$n queries compared, $differ differ"
[ "$differ" = 0 ]
