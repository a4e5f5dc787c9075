#!/usr/bin/env bash
# Index time of tree-sitter tags against findbench's own index build and `rg -c -i`, per
# tree, whole process against whole process (hyperfine, medians; the OS page cache warm for
# every command, findbench's kept index absent before each of its runs: a cold build).
# Each cell: median wall time, its ratio to rg's, and the mean CPU time (user + system) that
# hyperfine measured: on a shared machine the CPU time moves less than the wall time.
#
# Usage: benches/tree_sitter_probe/time_index.sh OUT.md ROOT...
# Environment: RUNS (default 5) and WARMUP (default 1) for rg, findbench and walk_only;
#   TS_RUNS (default RUNS, no warm-up) for the probe's modes, MODES (default `parse defs
#   tags`) which of them run; WORD, the word rg counts (default `parse`).
# Needs hyperfine, rg, python3; builds findbench, the dump_symbols example and the probe.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=$1; shift
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
TS_RUNS=${TS_RUNS:-$RUNS}
MODES=${MODES:-parse defs tags}
WORD=${WORD:-parse}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
cargo build -q --release -p findbench --bin findbench
cargo build -q --release -p findbench-benches --example dump_symbols
cargo build -q --release --manifest-path benches/tree_sitter_probe/Cargo.toml
FB=$PWD/target/release/findbench
DUMP=$PWD/target/release/examples/dump_symbols
BIN=$PWD/benches/tree_sitter_probe/target/release
CACHE=$(mktemp -d -t ts-probe-cache.XXXXXX)
JSON=$(mktemp -d -t ts-probe-json.XXXXXX)
trap 'rm -rf "$CACHE" "$JSON"' EXIT

{
  echo "machine: $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg) at start; $(date -u +%FT%TZ)"
  echo
  echo "| tree | files walked | source files | rg -c -i $WORD | findbench index (cold) | findbench ask (cold) | walk+read only | tree-sitter parse | tree-sitter defs | tree-sitter tags (shipped) | findbench scanners alone (1 thread) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$OUT"

i=0
for root in "$@"; do
  i=$((i + 1))
  hyperfine -N -i --style none --warmup "$WARMUP" --runs "$RUNS" --export-json "$JSON/$i.fast.json" \
    -n rg --prepare true "rg -c -i $WORD $root" \
    -n index --prepare "rm -rf $CACHE/trees" "env FINDBENCH_CACHE=$CACHE $FB index $root --format json" \
    -n ask --prepare "rm -rf $CACHE/trees" "env FINDBENCH_CACHE=$CACHE $FB ask 'where is $WORD defined' --root $root --format json" \
    -n walk --prepare true "$BIN/walk_only $root" >/dev/null
  modes=()
  for mode in $MODES; do modes+=(-n "$mode" "$BIN/tree-sitter-probe $root --mode $mode"); done
  hyperfine -N --style none --runs "$TS_RUNS" --export-json "$JSON/$i.ts.json" "${modes[@]}" >/dev/null
  scans=()
  for _ in 1 2 3; do
    scans+=("$("$DUMP" "$root" --time 2>&1 >/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["scan_ms"])')")
  done
  counts=$("$BIN/walk_only" "$root" 2>&1 >/dev/null)
  python3 - "$JSON/$i" "$root" "$counts" "${scans[@]}" >> "$OUT" <<'PY'
import json, statistics, sys
runs = {r["command"]: r for part in ("fast", "ts")
        for r in json.load(open(f"{sys.argv[1]}.{part}.json"))["results"]}
counts = json.loads(sys.argv[3])
scan = statistics.median(float(s) for s in sys.argv[4:]) / 1e3
rg = statistics.median(runs["rg"]["times"])
def secs(t):
    return f"{t * 1e3:.0f} ms" if t < 1 else f"{t:.2f} s"
def cell(name):
    if name not in runs:
        return "–"
    t = statistics.median(runs[name]["times"])
    cpu = runs[name]["user"] + runs[name]["system"]
    ratio = f" ({t / rg:.1f}×)" if name != "rg" else ""
    return f"{secs(t)}{ratio}, cpu {secs(cpu)}"
print(f"| {sys.argv[2]} | {counts['files_walked']} | {counts['source_files']} | " +
      " | ".join(cell(n) for n in ["rg", "index", "ask", "walk", "parse", "defs", "tags"]) +
      f" | {secs(scan)} ({scan / rg:.1f}×) |")
PY
done
echo >> "$OUT"
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at end" >> "$OUT"
cat "$OUT"
