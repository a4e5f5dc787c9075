#!/usr/bin/env bash
# Where a command holds its memory over time: runs COMMAND and samples its /proc/PID/status
# every STEP seconds, one line a sample: seconds since the start, then VmRSS, RssAnon
# (private memory), RssFile (mapped file pages, the index's among them) and VmHWM (the peak
# so far), all in KiB. Prints the wall time, the peak and the largest anonymous sample.
# The sampled process is COMMAND itself (run it as `env VAR=... BIN ARGS`, not through
# /usr/bin/time, whose own RSS would be sampled). Linux only.
#
# Usage: benches/rss_profile.sh OUT COMMAND [ARG...]
# Environment: STEP=seconds between samples (default 0.1).
# Example: benches/rss_profile.sh build.tsv env FINDBENCH_CACHE=$(mktemp -d) \
#            target/release/findbench index TREE -q
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT COMMAND [ARG...]" >&2; exit 2; }
[ -r /proc/self/status ] || { echo "/proc/PID/status is not readable (Linux only)" >&2; exit 2; }
OUT=$1
shift
STEP="${STEP:-0.1}"
start=$(date +%s%N)
"$@" >/dev/null &
pid=$!
: >"$OUT"
while kill -0 "$pid" 2>/dev/null; do
  now=$(date +%s%N)
  awk -v t="$(((now - start) / 1000000))" \
    '/^(VmRSS|RssAnon|RssFile|VmHWM):/ { a[$1] = $2 }
     END { if (a["VmRSS:"]) printf "%.1f\t%d\t%d\t%d\t%d\n", t / 1000, a["VmRSS:"], a["RssAnon:"], a["RssFile:"], a["VmHWM:"] }' \
    "/proc/$pid/status" 2>/dev/null >>"$OUT" || true
  sleep "$STEP"
done
status=0
wait "$pid" || status=$?
end=$(date +%s%N)
awk -v wall="$(((end - start) / 1000000))" -v status="$status" \
  '{ if ($5 > peak) peak = $5; if ($3 > anon) anon = $3 }
   END { printf "%.1f s, peak %d KiB, anonymous at most %d KiB (%d samples), exit %d\n", wall / 1000, peak, anon, NR, status }' "$OUT"
exit "$status"
