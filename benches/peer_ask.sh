#!/usr/bin/env bash
# Times `findbench ask` against `rg -c -i` on the question's words (what an agent without
# findbench runs: count matching lines per file, then rank files by the count), on the same
# root, whole process against whole process, alternating A B A B after a warm-up, and prints
# the median, min and max of the per-pair ratios (findbench time / rg time; below 1 means
# findbench is faster), and each side's peak RSS (/usr/bin/time).
#
#   warm: the kept index is on disk and up to date (every call after the first);
#   cold: no index on disk (each cold call gets a fresh, empty FINDBENCH_CACHE: it walks,
#         answers, and leaves the index to a background `findbench index` of its own), the
#         OS page cache warm for both sides. The background build is waited for (its
#         marker `trees/*.building` gone) before the next timed run, so it never competes
#         with a timed process.
#
# Benchmark only: installs ripgrep with apt-get when it is missing. The index lives in a
# temporary FINDBENCH_CACHE, removed at the end.
#
# With MODE=code, times `findbench find code TERM` the same way against `rg -c -i TERM` (the
# term as the pattern, as an agent greps for an identifier), for four terms.
#
# Usage: benches/peer_ask.sh [PAIRS [COLD_PAIRS]]   (default 11 and 3; environment:
#        ROOT=/some/tree, default the cargo registry's sources, ~/.cargo/registry/src, as one root;
#        MODE=ask (default) or code)
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS="${1:-11}"
COLD_PAIRS="${2:-3}"
ROOT="${ROOT:-$HOME/.cargo/registry/src}"
MODE="${MODE:-ask}"
case "$MODE" in
  ask) QUESTIONS=(
    "where is replay implemented"
    "find cursor binary"
    "where is the deserializer for yaml anchors"
    "how is the gzip header parsed"
  ) ;;
  code) QUESTIONS=(
    "replay"
    "cursor[ _-]?binary"
    "Deserializer"
    "GzHeader"
  ) ;;
  *) echo "MODE must be ask or code, not $MODE" >&2; exit 2 ;;
esac

if ! command -v rg >/dev/null; then
  apt-get install -y ripgrep >/dev/null || { apt-get update >/dev/null && apt-get install -y ripgrep >/dev/null; }
fi
if [ ! -x /usr/bin/time ]; then
  apt-get install -y time >/dev/null || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
fi
cargo build --release -q -p findbench
FB="$PWD/target/release/findbench"
CACHE="$(mktemp -d -t findbench-cache.XXXXXX)"
trap 'rm -rf "$CACHE"' EXIT

echo "machine:   $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at start"
echo "findbench: $("$FB" --version)"
echo "rg:        $(rg --version | head -n1)"
echo "root:      $ROOT ($(find -L "$ROOT" -type f 2>/dev/null | wc -l) files, $(du -sLh "$ROOT" 2>/dev/null | cut -f1))"
echo "pairs:     $PAIRS warm and $COLD_PAIRS cold per question, after one warm-up pair"
echo

python3 - "$FB" "$ROOT" "$CACHE" "$PAIRS" "$COLD_PAIRS" "$MODE" "${QUESTIONS[@]}" <<'PY'
import json, os, re, shutil, statistics, subprocess, sys, tempfile, time

fb, root, cache = sys.argv[1], sys.argv[2], sys.argv[3]
counts = {"warm": int(sys.argv[4]), "cold": int(sys.argv[5])}
find_mode = sys.argv[6]
questions = sys.argv[7:]
env = dict(os.environ, FINDBENCH_CACHE=cache)
# the question words an agent would grep for: all but the question's own stop words
STOP = {"where", "what", "how", "which", "who", "why", "is", "are", "was", "do", "does", "the",
        "a", "an", "of", "in", "for", "to", "find", "show", "me", "and", "or"}

def words(q):
    return [w for w in re.findall(r"[A-Za-z0-9_]+", q.lower()) if w not in STOP]

def fb_cmd(q):
    command = ["ask"] if find_mode == "ask" else ["find", "code"]
    return [fb, *command, q, "--root", root, "--format", "json"]

def rg_cmd(q):
    cmd = ["rg", "-c", "-i"]
    for w in (words(q) if find_mode == "ask" else [q]):
        cmd += ["-e", w]
    return cmd + [root]

def timed(cmd, e=None):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=e, check=False)
    return time.perf_counter() - t

def peak_rss_mib(cmd, e=None):
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=e, check=False)
        return int(out.read().split()[-1]) / 1024

def drop_index():
    wait_for_background(cache)
    shutil.rmtree(os.path.join(cache, "trees"), ignore_errors=True)

def wait_for_background(where, limit=900):
    # a cold call leaves `findbench index` building in the background: wait until it is done
    trees = os.path.join(where, "trees")
    end = time.time() + limit
    while time.time() < end:
        if not os.path.isdir(trees) or not any(n.endswith(".building") for n in os.listdir(trees)):
            return
        time.sleep(0.2)

def cold_run(cmd):
    # a fresh cache directory: no index, no ranking statistics
    fresh = tempfile.mkdtemp(prefix="findbench-cold.")
    try:
        t = timed(cmd, dict(os.environ, FINDBENCH_CACHE=fresh))
        wait_for_background(fresh)
        return t
    finally:
        shutil.rmtree(fresh, ignore_errors=True)

def answer(cmd, e):
    out = subprocess.run(cmd, capture_output=True, env=e, check=False).stdout
    d = json.loads(out)
    matches = [m["path"] for m in d.get("matches", [])]
    if find_mode == "code":
        return d.get("success"), (matches or [None])[0], matches
    return d.get("outcome"), d.get("selected"), matches

# the same answer with the index (cold: built by this call; warm: kept) and with --no-cache
for q in questions:
    drop_index()
    cold = answer(fb_cmd(q), env)
    wait_for_background(cache)
    warm = answer(fb_cmd(q), env)
    plain = answer(fb_cmd(q) + ["--no-cache"], env)
    same = "same" if cold == warm == plain else "DIFFERENT"
    print(f"{q!r}: {warm[0]}, selected {warm[1]} ({same} answer cold, warm and without cache)")
print()

summary = {}
print(f"{'mode':<5} {'question':<44} {'findbench ms':>12} {'rg ms':>8} {'ratio med':>9} {'min':>6} {'max':>6}")
for mode in ("warm", "cold"):
    all_ratios = []
    for q in questions:
        def run_fb():
            if mode == "cold":
                return cold_run(fb_cmd(q))
            return timed(fb_cmd(q), env)
        drop_index(); timed(fb_cmd(q), env); wait_for_background(cache); timed(rg_cmd(q))  # warm-up pair
        fb_t, rg_t, ratios = [], [], []
        for _ in range(counts[mode]):
            a = run_fb()
            b = timed(rg_cmd(q))
            fb_t.append(a); rg_t.append(b); ratios.append(a / b)
        all_ratios += ratios
        print(f"{mode:<5} {q[:44]:<44} {statistics.median(fb_t)*1e3:>12.1f} {statistics.median(rg_t)*1e3:>8.1f} "
              f"{statistics.median(ratios):>9.3f} {min(ratios):>6.3f} {max(ratios):>6.3f}")
    summary[mode] = all_ratios

def cold_rss(qq):
    fresh = tempfile.mkdtemp(prefix="findbench-cold.")
    try:
        rss = peak_rss_mib(fb_cmd(qq), dict(os.environ, FINDBENCH_CACHE=fresh))
        wait_for_background(fresh)
        return rss
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
rss_cold_each = [cold_rss(qq) for qq in questions]
rss_cold = max(rss_cold_each)
drop_index()
timed(fb_cmd(questions[0]), env)
wait_for_background(cache)
def warm_rss(qq):
    # warm: the question asked once before, so that the ranking statistics it may need
    # are kept too (the first word-ranked question after a build builds them)
    timed(fb_cmd(qq), env)
    return peak_rss_mib(fb_cmd(qq), env)
rss_warm = max(warm_rss(qq) for qq in questions)
rss_rg = max(peak_rss_mib(rg_cmd(qq)) for qq in questions)
print()
for mode, r in summary.items():
    print(f"{mode}: median ratio findbench/rg = {statistics.median(r):.3f} "
          f"(min {min(r):.3f}, max {max(r):.3f}, {len(r)} pairs); below 1.0 means findbench is faster")
print(f"peak RSS: findbench warm {rss_warm:.1f} MiB (max over the questions), cold {rss_cold:.1f} MiB "
      f"(max; each: {', '.join(f'{r:.0f}' for r in rss_cold_each)}); rg {rss_rg:.1f} MiB")
index = [os.path.join(d, f) for d, _, fs in os.walk(cache) for f in fs]
print(f"index: {sum(os.path.getsize(p) for p in index) / 2**20:.1f} MiB on disk")
print(f"load at end: {open('/proc/loadavg').read().split()[:3]}")
PY
