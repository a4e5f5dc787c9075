#!/usr/bin/env bash
# Times two builds of findbench against each other on the first `ask` of a root never
# indexed (cold: a fresh, empty FINDBENCH_CACHE each call), alternating A and B (and B and
# A on every other round) so that both meet the same load, with rg on the question's
# content words beside them; prints per question the median wall time, CPU time (user and
# system, from wait4) and peak RSS of each build, and rg's median.
#
# Usage: benches/cold_ab.sh BIN_A BIN_B [ROUNDS]   (default 5 rounds; ROOT=/some/tree,
#        default the cargo registry's sources, ~/.cargo/registry/src; ONLY=WORD times only
#        the questions holding WORD, e.g. ONLY=cursor)
#
# Every call runs with FINDBENCH_NO_BACKGROUND_INDEX=1: no background index build after a
# cold answer slows the next measurement. (A build older than that switch starts one unless
# it is copied under a name other than `findbench`.)
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
A="$1"; B="$2"; ROUNDS="${3:-5}"
ROOT="${ROOT:-$HOME/.cargo/registry/src}"
command -v rg >/dev/null || { echo "rg not found (apt-get install ripgrep)" >&2; exit 2; }
echo "root: $ROOT; rounds: $ROUNDS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$ROUNDS" "$A" "$B" "$ROOT" "${ONLY:-}" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time

rounds, bins, root, only = int(sys.argv[1]), sys.argv[2:4], sys.argv[4], sys.argv[5]
questions = [
    q for q in [
        "where is replay implemented",
        "find cursor binary",
        "where is the deserializer for yaml anchors",
        "how is the gzip header parsed",
    ]
    if only in q
]
if not questions:
    sys.exit(f"no question holds ONLY={only!r}")
stop = {"where", "is", "the", "for", "how", "find"}
wall = {(b, q): [] for b in bins for q in questions}
rss = {(b, q): [] for b in bins for q in questions}
cpu = {(b, q): [] for b in bins for q in questions}
rg = {q: [] for q in questions}
for r in range(rounds):
    for q in questions:
        for b in bins if r % 2 == 0 else bins[::-1]:
            cache = tempfile.mkdtemp(prefix="findbench-ab.")
            t = time.perf_counter()
            p = subprocess.Popen(
                ["/usr/bin/time", "-f", "%M", b, "ask", q, "--root", root, "--format", "json"],
                env=dict(os.environ, FINDBENCH_CACHE=cache, FINDBENCH_NO_BACKGROUND_INDEX="1"),
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            err = p.stderr.read()
            # the time of /usr/bin/time and of the build it waited for
            _, _, usage = os.wait4(p.pid, 0)
            wall[(b, q)].append((time.perf_counter() - t) * 1000)
            cpu[(b, q)].append((usage.ru_utime + usage.ru_stime) * 1000)
            rss[(b, q)].append(int(err.strip().splitlines()[-1]) / 1024)
            shutil.rmtree(cache)
        words = [w for w in q.split() if w not in stop]
        t = time.perf_counter()
        subprocess.run(["rg", "-c", "-i"] + [a for w in words for a in ("-e", w)] + [root],
                       stdout=subprocess.DEVNULL)
        rg[q].append((time.perf_counter() - t) * 1000)
names = [os.path.basename(b) for b in bins]
print(f"{'question':44}" + "".join(f" {n:>12} {'CPU':>7} {'MiB':>5}" for n in names) + f" {'rg':>8}")
for q in questions:
    cells = "".join(f" {statistics.median(wall[(b, q)]):10.1f}ms {statistics.median(cpu[(b, q)]):5.0f}ms"
                    f" {statistics.median(rss[(b, q)]):5.0f}"
                    for b in bins)
    print(f"{q:44}{cells} {statistics.median(rg[q]):6.0f}ms")
PY
