#!/usr/bin/env bash
# Times `findbench find path` against `fzf --filter` on the same 100k+ path list, whole
# process against whole process, alternating A B A B after a warm-up, and prints the median,
# min and max of the per-pair ratios (findbench time / fzf time; below 1 means findbench is
# faster). Benchmark only: installs fzf with apt-get when it is missing.
#
# Usage: benches/peer_fzf.sh [PAIRS]   (environment: PATHS_FROM=/some/list to reuse a list)
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS="${1:-15}"
QUERIES=(usrlibpy bin/python share/doc/copyright lcale include/linux/sched.h zzqxj)

if ! command -v fzf >/dev/null; then
  apt-get install -y fzf >/dev/null || { apt-get update >/dev/null && apt-get install -y fzf >/dev/null; }
fi
cargo build --release -q -p findbench
FB="$PWD/target/release/findbench"

LIST="${PATHS_FROM:-}"
if [ -z "$LIST" ]; then
  LIST="$(mktemp -t findbench-paths.XXXXXX)"
  trap 'rm -f "$LIST"' EXIT
  find /usr -type f 2>/dev/null | head -n 150000 > "$LIST"
fi
N=$(wc -l < "$LIST")

echo "machine:   $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "findbench: $("$FB" --version)"
echo "fzf:       $(fzf --version)"
echo "paths:     $N lines from ${PATHS_FROM:-find /usr -type f | head -n 150000}"
echo "pairs:     $PAIRS per query, after one warm-up pair"
echo

python3 - "$FB" "$LIST" "$PAIRS" "${QUERIES[@]}" <<'PY'
import statistics, subprocess, sys, time

fb, path_list, pairs, queries = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def run_findbench(q):
    cmd = [fb, "find", "path", q, "--paths-from", path_list, "--format", "json", "--limit", "10"]
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t

def run_fzf(q):
    # the shell pipeline as a user would type it, as one process tree
    cmd = f"fzf --filter '{q}' < '{path_list}' | head -n 10"
    t = time.perf_counter()
    subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t

all_ratios = []
print(f"{'query':<24} {'findbench ms':>12} {'fzf ms':>8} {'ratio med':>9} {'min':>6} {'max':>6}")
for q in queries:
    run_findbench(q); run_fzf(q)          # warm-up: page cache, binaries
    fb_t, fz_t, ratios = [], [], []
    for _ in range(pairs):
        a = run_findbench(q)
        b = run_fzf(q)
        fb_t.append(a); fz_t.append(b); ratios.append(a / b)
    all_ratios += ratios
    print(f"{q:<24} {statistics.median(fb_t)*1e3:>12.1f} {statistics.median(fz_t)*1e3:>8.1f} "
          f"{statistics.median(ratios):>9.3f} {min(ratios):>6.3f} {max(ratios):>6.3f}")
print()
print(f"all pairs: median ratio findbench/fzf = {statistics.median(all_ratios):.3f} "
      f"(min {min(all_ratios):.3f}, max {max(all_ratios):.3f}, {len(all_ratios)} pairs); "
      f"below 1.0 means findbench is faster")
PY
