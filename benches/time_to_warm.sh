#!/usr/bin/env bash
# Times how long after the first `ask` on a root never indexed the next call is warm: the
# cold answer, then the background `findbench index` it starts, until its marker
# (`trees/*.building`) is gone. Each round gets a fresh, empty FINDBENCH_CACHE; prints per
# round the cold answer's time and the time until the index is kept, and their medians.
#
# Usage: benches/time_to_warm.sh BIN [ROUNDS]   (default 3 rounds; ROOT=/some/tree, default
#        the cargo registry's sources; QUESTION=..., default "how is the gzip header parsed")
set -euo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
BIN="$1"; ROUNDS="${2:-3}"
ROOT="${ROOT:-$HOME/.cargo/registry/src}"
QUESTION="${QUESTION:-how is the gzip header parsed}"
echo "root: $ROOT; question: $QUESTION; load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$BIN" "$ROOT" "$QUESTION" "$ROUNDS" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time

fb, root, question, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
answers, warm = [], []
for _ in range(rounds):
    cache = tempfile.mkdtemp(prefix="findbench-warm.")
    try:
        env = dict(os.environ, FINDBENCH_CACHE=cache)
        start = time.perf_counter()
        subprocess.run([fb, "ask", question, "--root", root, "--format", "json"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        answered = time.perf_counter()
        trees = os.path.join(cache, "trees")
        while os.path.isdir(trees) and any(n.endswith(".building") for n in os.listdir(trees)):
            time.sleep(0.05)
        done = time.perf_counter()
        if not any(n.endswith(".idx") for n in os.listdir(trees)):
            sys.exit("no index was kept: is the binary named findbench?")
        answers.append(answered - start)
        warm.append(done - start)
        print(f"cold answer {answers[-1]*1e3:.0f} ms, index kept after {warm[-1]:.2f} s")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
print(f"median: cold answer {statistics.median(answers)*1e3:.0f} ms, "
      f"index kept after {statistics.median(warm):.2f} s")
PY
